/**
 * A SPA built with INSPECT=on sends its actors' steps to the flow studio (ws://localhost:STUDIO_PORT/live);
 * the build says so in inspect.json. In demo mode the page may then connect there (CSP connect-src);
 * production refuses to serve such a build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type ServerConfig } from './config';

/** The studio's WebSocket origin a SPA built with INSPECT=on connects to; null for any other build. */
export function inspectLiveOrigin(distDir: string): string | null {
  const file = join(distDir, 'inspect.json');
  if (!existsSync(file)) return null;
  const { live } = JSON.parse(readFileSync(file, 'utf8')) as { live?: string | null };
  return typeof live === 'string' && /^ws:\/\/localhost:\d+\//.test(live) ? new URL(live).origin : null;
}

/** Production serves no build with the statechart inspection hook (it would tell a local studio every step). */
export function refuseInspectBuild(config: Pick<ServerConfig, 'mode' | 'distDir'>): void {
  if (config.mode === 'production' && existsSync(join(config.distDir, 'inspect.json'))) {
    throw new ConfigError(`The SPA in ${config.distDir} was built with INSPECT: build it without (npm run build) for production.`);
  }
}
