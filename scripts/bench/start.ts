/**
 * Measure 4 (start), as an operator sees it: exec of the server's node process → the first 200 of the health
 * check and, in separate starts, of a server-rendered page (GET /checkout/, whose first request loads the SSR
 * bundle unless the server preloaded it), on an existing data directory after a clean stop (SIGTERM) and after
 * kill -9; the health check on a new data directory; and a CPU profile of one start, summarised by package.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { memoryOf, ROOT, startServer, TSX_ENTRY } from './lib/proc';
import { median } from './lib/stats';

export interface StartSeries {
  /** spawn → first 200 of /checkout/api/health, per run, in ms. */
  spawnToHealthMs: number[];
  /** The server's own "ready in N ms" (main.ts's first line to listening), per run. */
  readyLogMs: number[];
  /** CPU time (user + system) of the process at its first answer, per run, in ms: the figure a busy machine moves least. */
  cpuMs: number[];
  /** VmHWM right after the first answer, per run, in KiB. */
  hwmKiB: number[];
  /** VmRSS right after the first answer, per run, in KiB. */
  rssKiB: number[];
  median: { spawnToHealthMs: number; readyLogMs: number; cpuMs: number; hwmKiB: number; rssKiB: number };
}

/** A series' figure as the report shows it: the median, then the fastest and slowest run. */
export function startFigure(values: readonly number[]): string {
  if (values.length === 0) return 'n/a';
  return `${Math.round(median(values))} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
}

/** The first answers of starts on an existing data directory, each start preceded by the same kind of stop. */
export interface StopSeries {
  /** exec → first 200 of GET /checkout/api/health. */
  health: StartSeries;
  /** exec → first 200 of GET /checkout/ (a server-rendered page), in starts of their own. */
  page: StartSeries;
}

export interface StartResult {
  fresh: StartSeries;
  /** Each start after a clean stop (SIGTERM: the store closed). */
  afterClean: StopSeries;
  /** Each start after kill -9 of the previous one (the store not closed, its lock left behind). */
  afterKill: StopSeries;
  /** The same existing directory started through tsx from the sources, when the measured entry is a bundle. */
  existingTsx: StartSeries | null;
  /** The main thread's profile, and the module loader's thread (tsx's hooks) when node wrote one. */
  profiles: ProfileSummary[];
  /** The machine's 1-minute load average as the measure began and ended (others' work moves wall-clock figures). */
  loadAverage: { before: number; after: number };
}

export interface ProfileSummary {
  thread: string;
  file: string;
  totalMs: number;
  /** Time by what the stack was doing (see `phaseOf`), the idle time included. */
  byPhase: { phase: string; ms: number }[];
  byOwner: { owner: string; selfMs: number }[];
  topFunctions: { name: string; where: string; selfMs: number }[];
}

const series = (runs: { spawnToHealthMs: number; cpuMs: number; readyLogMs: number | null; hwmKiB: number; rssKiB: number }[]): StartSeries => {
  const spawnToHealthMs = runs.map((run) => run.spawnToHealthMs);
  const cpuMs = runs.map((run) => run.cpuMs);
  const readyLogMs = runs.map((run) => run.readyLogMs ?? Number.NaN);
  const hwmKiB = runs.map((run) => run.hwmKiB);
  const rssKiB = runs.map((run) => run.rssKiB);
  return {
    spawnToHealthMs, readyLogMs, cpuMs, hwmKiB, rssKiB,
    median: { spawnToHealthMs: median(spawnToHealthMs), readyLogMs: median(readyLogMs), cpuMs: median(cpuMs), hwmKiB: median(hwmKiB), rssKiB: median(rssKiB) },
  };
};

/** Starts the server once on `dataDir`, times it to the first 200 of `firstPath` and ends it: SIGTERM (clean) or kill -9. */
async function startOnce(entry: string[], dataDir: string, logFile: string, distDir: string | undefined, nodeArgs: string[] = [], firstPath?: string, end: 'clean' | 'kill' = 'clean') {
  const server = await startServer({ entry, dataDir, logFile, distDir, nodeArgs, firstPath });
  try {
    const memory = memoryOf(server.pid);
    return { spawnToHealthMs: server.spawnToHealthMs, cpuMs: server.cpuMs, readyLogMs: server.readyLogMs, hwmKiB: memory.hwmKiB, rssKiB: memory.rssKiB };
  } finally {
    if (end === 'kill') await server.kill();
    else await server.stop();
  }
}

/** Where the code of a profile frame comes from: a package, a folder of ours, node itself or V8. */
export function frameOwner(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const path = url.replace(/^file:\/\//, '');
  const at = path.lastIndexOf('node_modules/');
  if (at >= 0) {
    const parts = path.slice(at + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : parts[0] ?? path;
  }
  if (path.startsWith('node:')) return 'node (built-in modules)';
  const own = /\/(src\/[^/]+\/?[^/]*|machines)\//.exec(path);
  return own ? (own[1] as string) : path.split('/').slice(-2).join('/');
}

/** The phases of a start, first match wins, searched over the whole stack of a sample. */
const PHASES: { phase: string; test: (url: string, name: string) => boolean }[] = [
  { phase: 'parsing YAML (the catalogue file; yaml)', test: (url) => url.includes('/node_modules/yaml/') },
  { phase: 'PGlite (its JS and WASM)', test: (url) => url.includes('/@electric-sql/pglite/') || url.startsWith('wasm://') },
  { phase: 'compiling schemas (ajv, fast-json-stringify)', test: (url) => /\/node_modules\/(ajv|ajv-formats|fast-json-stringify|fast-uri|@fastify\/ajv-compiler)\//.test(url) },
  { phase: 'drizzle-orm (migrations, queries)', test: (url) => url.includes('/drizzle-orm/') },
  { phase: 'loading modules (node, tsx hooks)', test: (url) => url.startsWith('node:internal/modules') || url.includes('/node_modules/tsx/') },
  { phase: 'fastify and plugins', test: (url) => /\/node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|pino|helmet)\//.test(url) },
  { phase: 'our server code', test: (url) => url.includes('/src/server/') || url.includes('/src/domain/') },
];

/** What a sample's stack was doing, by the first phase any of its frames belongs to. */
function phaseOf(stack: { url: string; functionName: string }[]): string {
  const leaf = stack[0];
  if (leaf && ['(idle)', '(garbage collector)', '(program)'].includes(leaf.functionName)) return leaf.functionName;
  for (const { phase, test } of PHASES) if (stack.some((frame) => test(frame.url, frame.functionName))) return phase;
  return 'other';
}

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/**
 * Points the frames of a bundle back at the files they were bundled from (its source map, written beside it
 * by esbuild's --sourcemap or Vite's), so time is owned by packages and folders as it is without a bundle.
 * `scriptUrl` is the bundle's address in the profile (a browser's is an http one).
 */
export function resolveBundleFrames(profile: CpuProfile, bundleFile: string, scriptUrl = pathToFileURL(bundleFile).href): CpuProfile {
  const mapFile = `${bundleFile}.map`;
  if (!existsSync(mapFile)) return profile;
  const sourceMap = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload);
  const mapDir = dirname(mapFile);
  const nodes = profile.nodes.map((node) => {
    if (node.callFrame.url !== scriptUrl) return node;
    const entry = sourceMap.findEntry(node.callFrame.lineNumber, node.callFrame.columnNumber ?? 0) as { originalSource?: string; originalLine?: number; name?: string };
    if (!entry.originalSource) return node;
    const url = pathToFileURL(resolve(mapDir, entry.originalSource.replace(/^file:\/\//, ''))).href;
    // A minified bundle's function names are its own: the source's name, where the map has one, says more.
    const functionName = entry.name && node.callFrame.functionName ? entry.name : node.callFrame.functionName;
    return { ...node, callFrame: { ...node.callFrame, url, functionName, lineNumber: entry.originalLine ?? node.callFrame.lineNumber } };
  });
  return { ...profile, nodes };
}

/** Self time per owner and the functions with the most self time, from a .cpuprofile. */
export function summariseProfile(profile: CpuProfile, file: string, thread: string): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byPhase = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const stack: { url: string; functionName: string }[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at)?.callFrame;
      if (frame) stack.push(frame);
    }
    const phase = phaseOf(stack);
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + us / 1000);
  }
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, { name: string; where: string; selfMs: number }>();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const owner = frameOwner(frame.url, frame.functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us / 1000);
    const where = frame.url ? `${frame.url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/.*?\/(src|machines)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName}@${where}`;
    const entry = byFunction.get(key) ?? { name: frame.functionName || '(anonymous)', where, selfMs: 0 };
    entry.selfMs += us / 1000;
    byFunction.set(key, entry);
  }
  return {
    thread,
    file,
    totalMs: (profile.endTime - profile.startTime) / 1000,
    byPhase: [...byPhase].map(([phase, ms]) => ({ phase, ms })).sort((a, b) => b.ms - a.ms),
    byOwner: [...byOwner].map(([owner, selfMs]) => ({ owner, selfMs })).sort((a, b) => b.selfMs - a.selfMs),
    topFunctions: [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, 15),
  };
}

export async function measureStart(options: {
  entry: string[]; workDir: string; profileDir: string; runs: number; distDir?: string; profile: boolean; log: (line: string) => void;
}): Promise<StartResult> {
  const logFile = join(options.workDir, 'start-server.log');
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const fresh = [];
  for (let run = 0; run < options.runs; run += 1) {
    fresh.push(await startOnce(options.entry, join(options.workDir, `start-new-${run}`), logFile, options.distDir));
    options.log(`  new data directory, run ${run + 1}: ${Math.round(fresh[run]?.spawnToHealthMs ?? 0)} ms`);
  }
  // The first run's directory now exists, migrated and seeded (and cleanly stopped): every later start reopens it.
  const existingDir = join(options.workDir, 'start-new-0');
  /** Runs × (health, page) starts, each ended as `end`, so each measured start follows a stop of that kind. */
  const afterStops = async (end: 'clean' | 'kill', label: string): Promise<StopSeries> => {
    const health = [];
    const page = [];
    for (let run = 0; run < options.runs; run += 1) {
      health.push(await startOnce(options.entry, existingDir, logFile, options.distDir, [], '/checkout/api/health', end));
      page.push(await startOnce(options.entry, existingDir, logFile, options.distDir, [], '/checkout/', end));
      options.log(`  existing data directory ${label}, run ${run + 1}: health ${Math.round(health[run]?.spawnToHealthMs ?? 0)} ms, page ${Math.round(page[run]?.spawnToHealthMs ?? 0)} ms`);
    }
    return { health: series(health), page: series(page) };
  };
  const afterClean = await afterStops('clean', 'after a clean stop');
  // The last start above stopped cleanly: one start ended by kill -9 first, so the first measured one follows a kill too.
  await startOnce(options.entry, existingDir, logFile, options.distDir, [], '/checkout/api/health', 'kill');
  const afterKill = await afterStops('kill', 'after kill -9');
  // And a clean stop again, so the tsx comparison and the profile below start after a clean stop.
  await startOnce(options.entry, existingDir, logFile, options.distDir);
  const viaTsx = [];
  if (options.entry.join(' ') !== TSX_ENTRY.join(' ')) {
    for (let run = 0; run < options.runs; run += 1) {
      viaTsx.push(await startOnce(TSX_ENTRY, existingDir, logFile, options.distDir));
      options.log(`  existing data directory through tsx, run ${run + 1}: ${Math.round(viaTsx[run]?.spawnToHealthMs ?? 0)} ms`);
    }
  }
  const profiles: ProfileSummary[] = [];
  if (options.profile) {
    const dir = options.profileDir;
    mkdirSync(dir, { recursive: true });
    // To the first page: the profile holds the start and the first server render.
    await startOnce(options.entry, existingDir, logFile, options.distDir, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'], '/checkout/');
    // Node names them CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main one.
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort()) {
      const thread = /\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1] === '0' ? 'main thread' : 'another thread (module loader hooks)';
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const bundle = options.entry.length === 1 && options.entry[0]?.endsWith('.mjs') ? resolve(ROOT, options.entry[0]) : null;
      profiles.push(summariseProfile(bundle ? resolveBundleFrames(profile, bundle) : profile, join(dir, file), thread));
    }
  }
  return { fresh: series(fresh), afterClean, afterKill, existingTsx: viaTsx.length ? series(viaTsx) : null, profiles, loadAverage: { before: loadBefore, after: loadavg()[0] ?? Number.NaN } };
}
