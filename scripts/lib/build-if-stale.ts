/**
 * Builds what is older than its sources, and only that: the SPA (dist/, `vite build`) and the server
 * bundle (build/server/main.mjs, `npm run build:server`). `npm start` and the browser journeys' global
 * setup both call it, so a start with nothing changed costs no build, and a fresh clone builds both.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { storeTemplateKey } from '../../src/server/db/store-template';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A build: the file it writes last, what it is made from, and the npm script that makes it. */
export interface BuildTarget {
  name: 'SPA' | 'server' | 'API reference' | 'store template';
  output: string;
  sources: readonly string[];
  script: string;
}

export const BUILD_TARGETS: readonly BuildTarget[] = [
  {
    name: 'SPA',
    output: 'dist/index.html',
    // What the SPA bundle is made from (the server's code is not in it).
    sources: ['src/app', 'src/i18n', 'src/domain', 'src/api', 'machines', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'],
    script: 'build:spa',
  },
  {
    name: 'server',
    output: 'build/server/main.mjs',
    // What esbuild bundles from src/server/main.ts (its metafile's inputs outside node_modules), and the command's flags.
    sources: ['src/server', 'src/domain', 'src/i18n', 'tsconfig.json', 'package.json', 'package-lock.json'],
    script: 'build:server',
  },
];

/** The Redoc page /checkout/api/docs serves in demo mode (src/server/api-docs.ts), rendered from openapi.yaml. */
export const API_DOCS_TARGET: BuildTarget = { name: 'API reference', output: 'build/api-docs.html', sources: ['openapi.yaml'], script: 'build:api-docs' };

/**
 * The embedded store's template for the current migrations (src/server/db/store-template.ts): build:server
 * makes it, and this makes it when it is missing.
 */
export const STORE_TEMPLATE_TARGET: BuildTarget = {
  // No sources to compare times with: the folder's name is the hash of the migrations, so a change makes it missing.
  name: 'store template', output: `build/store-template/${storeTemplateKey()}/PG_VERSION`, sources: [], script: 'build:store-template',
};

/** The INSPECT mode a SPA was built with ('' without), from the inspect.json vite.config.ts writes beside it. */
function inspectModeOf(distDir: string): string {
  const file = join(distDir, 'inspect.json');
  return existsSync(file) ? String((JSON.parse(readFileSync(file, 'utf8')) as { mode?: string }).mode ?? '') : '';
}

/** The newest modification time under a path (0 when it does not exist). */
export function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) newest = Math.max(newest, newestMtime(join(path, entry.name)));
  return newest;
}

/**
 * Why a target needs building ('missing', 'stale'; for the SPA also 'inspect': built with another INSPECT
 * than this environment's, e.g. `INSPECT=on npm start`), or null when its output is newer than every source.
 */
export function staleness(target: BuildTarget, root = ROOT): 'missing' | 'stale' | 'inspect' | null {
  const output = join(root, target.output);
  if (!existsSync(output)) return 'missing';
  if (target.name === 'SPA' && inspectModeOf(dirname(output)) !== (process.env.INSPECT === 'off' ? '' : (process.env.INSPECT ?? ''))) return 'inspect';
  const builtAt = statSync(output).mtimeMs;
  const changedAt = Math.max(...target.sources.map((source) => newestMtime(join(root, source))));
  return builtAt > changedAt ? null : 'stale';
}

/** Runs the build of every stale target (of `only`, when given); throws when one fails. Returns the names of what was built. */
export function buildIfStale({ root = ROOT, log = console.log, prefix = '', only, targets = BUILD_TARGETS, quiet = false }: { root?: string; log?: (line: string) => void; prefix?: string; only?: BuildTarget['name'][]; targets?: readonly BuildTarget[]; quiet?: boolean } = {}): string[] {
  const built: string[] = [];
  for (const target of targets.filter(({ name }) => !only || only.includes(name))) {
    const why = staleness(target, root);
    if (!why) continue;
    const reason = why === 'missing' ? `no ${target.output}` : why === 'inspect' ? `${target.output} was built with another INSPECT` : `${target.output} is older than its sources`;
    const started = performance.now();
    if (!quiet) log(`${prefix}${reason}: building the ${target.name}`);
    // Quiet: the build's own output (Redocly's boxes, Vite's plugin timings) is kept back and shown only if the build fails.
    // A production build whoever asks (a test runner sets NODE_ENV=test, which would give React's development build).
    const build = spawnSync('npm', ['run', '-s', target.script], { cwd: root, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8', maxBuffer: 64 * 2 ** 20, env: { ...process.env, NODE_ENV: 'production' } });
    if (build.status !== 0) {
      if (quiet) process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
      throw new Error(`${prefix}npm run ${target.script} failed (exit ${build.status})`);
    }
    if (quiet) log(`${prefix}Built the ${target.name} in ${((performance.now() - started) / 1000).toFixed(1)} s (${reason})`);
    built.push(target.name);
  }
  return built;
}
