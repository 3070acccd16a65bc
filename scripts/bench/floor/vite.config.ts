import { defineConfig, mergeConfig, type ConfigEnv, type UserConfig, type UserConfigExport } from 'vite';
import checkout from '../../../vite.config';

/**
 * The floor app of `npm run bench` is built with the checkout's own Vite config (its plugins, base,
 * chunking and precompression), only its root moved here: the two builds then differ by their code
 * alone. The output directory comes from the command line (a temporary directory).
 */
export default defineConfig(async (env: ConfigEnv) => {
  const exported: UserConfigExport = checkout;
  const own: UserConfig = typeof exported === 'function' ? await (exported as (configEnv: ConfigEnv) => UserConfig | Promise<UserConfig>)(env) : await exported;
  return mergeConfig(own, { root: import.meta.dirname, logLevel: 'warn', build: { manifest: true, emptyOutDir: true } } satisfies UserConfig);
});
