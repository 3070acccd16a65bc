import { defineConfig } from 'vite';

/** The SPA is served under /checkout/ by the Fastify server. */
export default defineConfig({
  base: '/checkout/',
  build: { outDir: 'dist', emptyOutDir: true },
});
