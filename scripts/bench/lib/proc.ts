/** Processes of the benchmark: the server started as one node process, commands timed, memory read from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../lib/free-port';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Servers started by this process and still running, so an interrupted benchmark leaves none behind. */
const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every server this process started that is still running. */
export function killServers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

export { freePort };

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request on a fresh connection (no agent, so nothing lingers between polls). */
export function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false, timeout: options.timeoutMs ?? 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout on ${url}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** VmRSS (resident now) and VmHWM (the most it was resident) of a process, in KiB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssKiB: number; hwmKiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
}

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc/<pid>/stat (clock ticks of
 * 10 ms, Linux's USER_HZ): unlike wall time, barely moved by other work on a shared machine.
 */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Samples VmRSS of a process every `everyMs` until stopped; keeps the highest value seen. */
export function sampleMemory(pid: number, everyMs = 100): { stop(): { maxRssKiB: number; samples: number } } {
  let maxRssKiB = 0;
  let samples = 0;
  const read = () => {
    try {
      maxRssKiB = Math.max(maxRssKiB, memoryOf(pid).rssKiB);
      samples += 1;
    } catch {
      // The process has gone; the last reading stands.
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      return { maxRssKiB, samples };
    },
  };
}

export interface ServerHandle {
  /** The node process serving (no npx or tsx wrapper in between). */
  pid: number;
  base: string;
  child: ChildProcess;
  /** From spawn to the first 200 of the polled path (GET /checkout/api/health unless `firstPath` names another), in ms. */
  spawnToHealthMs: number;
  /** CPU time the process had used at that first answer (cpuMsOf). */
  cpuMs: number;
  /** What the server logged as "ready in N ms" (from its own start of main.ts to listening). */
  readyLogMs: number | null;
  logFile: string;
  /** Sends SIGTERM (the server closes its store), waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<number | null>;
  /** Sends SIGKILL (kill -9: the store is not closed, the lock stays behind) and waits for the exit. */
  kill(): Promise<number | null>;
}

/** How node starts the server: through tsx from the sources (the default), or a built bundle. */
export const TSX_ENTRY = ['--import', 'tsx', 'src/server/main.ts'];

export interface ServerOptions {
  /** node's arguments naming the server (TSX_ENTRY by default), e.g. ['build/bench/main.mjs']. */
  entry?: string[];
  dataDir: string;
  logFile: string;
  distDir?: string;
  env?: Record<string, string>;
  /** Extra flags for node, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** The path polled until it answers 200 (GET /checkout/api/health by default; /checkout/ for a server-rendered page). */
  firstPath?: string;
  timeoutMs?: number;
}

/** The tail of a log file, for error messages. */
export function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Starts the server as a plain node process (`node build/…/main.mjs`, or `node --import tsx src/server/main.ts`),
 * so the process spawned is the one that serves, and times spawn → first 200 of the health check, or of
 * `firstPath` (polled every 5 ms on fresh connections).
 */
export async function startServer(options: ServerOptions): Promise<ServerHandle> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logOffset = existsSync(options.logFile) ? statSync(options.logFile).size : 0;
  const out = openSync(options.logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    RATE_LIMIT: 'off',
    FRAUD_MAX_ORDERS_PER_IP_PER_HOUR: '1000000000',
    ...(options.distDir ? { DIST_DIR: options.distDir } : {}),
    ...options.env,
  };
  delete env.NODE_OPTIONS;
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...(options.entry ?? TSX_ENTRY)], { cwd: ROOT, env, stdio: ['ignore', out, out] });
  closeSync(out);
  running.add(child);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => {
    running.delete(child);
    exitCode = code ?? (signal ? 128 : null);
    resolve(exitCode);
  }));

  const deadline = startedAt + (options.timeoutMs ?? 120_000);
  let spawnToHealthMs = Number.NaN;
  let cpuMs = Number.NaN;
  while (performance.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`the server exited with ${exitCode} before answering:\n${tail(options.logFile)}`);
    try {
      const answer = await request(`${base}${options.firstPath ?? '/checkout/api/health'}`, { timeoutMs: 5_000 });
      if (answer.status === 200) {
        spawnToHealthMs = performance.now() - startedAt;
        cpuMs = cpuMsOf(child.pid as number);
        break;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  const stop = async () => {
    if (exitCode !== undefined) return exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const kill = async () => {
    if (exitCode !== undefined) return exitCode;
    child.kill('SIGKILL');
    return exited;
  };
  if (Number.isNaN(spawnToHealthMs)) {
    await stop();
    throw new Error(`the server did not answer its health check in time:\n${tail(options.logFile)}`);
  }
  let readyLogMs: number | null = null;
  for (let attempt = 0; attempt < 20 && readyLogMs === null; attempt += 1) {
    const match = /ready in (\d+) ms/.exec(readFileSync(options.logFile).subarray(logOffset).toString('utf8'));
    if (match) readyLogMs = Number(match[1]);
    else await sleep(25);
  }
  return { pid: child.pid as number, base, child, spawnToHealthMs, cpuMs, readyLogMs, logFile: options.logFile, stop, kill };
}

export interface CommandResult {
  ms: number;
  code: number | null;
  logFile: string;
}

/** Runs a command with its output in a log file and times it from spawn to exit. */
export function runCommand(command: string, args: string[], options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<CommandResult> {
  const out = openSync(options.logFile, 'a');
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', out, out] });
  closeSync(out);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ ms: performance.now() - startedAt, code: code ?? (signal ? 128 : null), logFile: options.logFile }));
  });
}
