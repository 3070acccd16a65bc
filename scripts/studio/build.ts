/**
 * `npm run studio:build`: the flow studio as static files in build/studio/ — the site (Vite, root
 * studio/), its data (scripts/studio/build-data.ts) and the API reference (Redoc, bundled by the
 * Redocly CLI into api.html, no CDN). Works offline and can be published as it is.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { SCREENS_DIR } from '../statecharts/coverage-files';
import { buildStudioData } from './build-data';

const ROOT = resolve(import.meta.dirname, '../..');
export const STUDIO_DIR = join(ROOT, 'build', 'studio');

/** The app's stylesheet as one file, its parts inlined where styles.css imports them (as the app's build does). */
function appStylesheet(): string {
  const entry = join(ROOT, 'src', 'app', 'styles.css');
  return readFileSync(entry, 'utf8').replace(/^@import '([^']+)';$/gm, (_line, part: string) => readFileSync(join(dirname(entry), part), 'utf8'));
}

export async function buildStudio(outDir = STUDIO_DIR): Promise<void> {
  const started = performance.now();
  rmSync(join(outDir, 'assets'), { recursive: true, force: true });
  // The screens the view walks saved (npm test), styled by the app's own stylesheet.
  const snapshots = join(outDir, 'data', 'snapshots');
  rmSync(snapshots, { recursive: true, force: true });
  if (existsSync(SCREENS_DIR)) {
    cpSync(SCREENS_DIR, snapshots, { recursive: true });
    writeFileSync(join(snapshots, 'app.css'), appStylesheet());
  }
  await build({
    configFile: false,
    root: join(ROOT, 'studio'),
    // Relative URLs: the folder can be served from anywhere, or published as it is.
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: false, target: 'es2022' },
  });
  await buildStudioData(outDir);
  const apiFile = join(outDir, 'api.html');
  const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  // One scrolling page (pagination none), every script inlined (no CDN). REDOCLY_TELEMETRY=off is the only switch the CLI
  // honours for the page's disableTelemetry: without it Redoc 3 posts traces to otel.cloud.redocly.com on every click.
  const redoc = spawnSync(process.execPath, [cli, 'build-docs', 'openapi.yaml', '--inlineBundle', '--openapi.pagination=none', '--title', 'TV Checkout API reference', '-o', apiFile], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
  });
  if (redoc.status !== 0) throw new Error(`redocly build-docs failed (exit ${redoc.status}):\n${redoc.stdout}\n${redoc.stderr}`);
  if (!readFileSync(apiFile, 'utf8').includes('"disableTelemetry":true')) throw new Error(`${apiFile}: Redoc's telemetry is not switched off`);
  // Redoc's "API docs by" badge fetches its logo from Redocly's CDN; an image that fails hides itself, so the page asks nothing of the network.
  writeFileSync(apiFile, readFileSync(apiFile, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, 'data:,'));
  console.log(`flow studio built into ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildStudio();
