/**
 * The real server as a process (`node --import tsx src/server/main.ts`), and a throwaway PostgreSQL cluster
 * the test controls (initdb, pg_ctl start/stop) on a free loopback port, so stopping it disturbs nothing else.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_SECRETS } from '../api/helper';
import { freePort } from '../../scripts/lib/free-port';

export { freePort };

export const ROOT = resolve(import.meta.dirname, '../..');


export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process ends. */
  exited: Promise<number | string>;
  /** Resolves once the server logs "ready in N ms"; rejects if it exits first. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server with the test keys and `env` on top; DATABASE_URL is empty unless given. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATABASE_URL: '',
      RATE_LIMIT: 'off',
      FRAUD_MAX_ORDERS_PER_IP_PER_HOUR: '1000000',
      LOG_LEVEL: 'info',
      ...TEST_SECRETS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')));
  const ready = new Promise<void>((done, fail) => {
    const check = () => {
      if (/ready in \d+ ms/.test(output)) {
        child.stdout?.off('data', check);
        done();
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => fail(new Error(`the server exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
  });
  ready.catch(() => {});
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, baseUrl, output: () => output, exited, ready, stop };
}

/** The newest Debian PostgreSQL server binaries, or a failure saying how to install them (never a skip). */
export function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((version) => existsSync(join(base, version, 'bin', 'pg_ctl'))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) {
    throw new Error('The PostgreSQL fault tests need the PostgreSQL server binaries (initdb, pg_ctl in /usr/lib/postgresql/<version>/bin). Install them with `apt-get install postgresql` (.ci/run does this).');
  }
  return join(base, newest, 'bin');
}

export interface PostgresCluster {
  port: number;
  /** A connection string for a database of this cluster (default postgres). */
  url(database?: string): string;
  start(): Promise<void>;
  /** A fast shutdown, as an operator's restart does: sessions are ended, committed data is kept. */
  stop(): Promise<void>;
  query(sql: string, database?: string): string;
  destroy(): Promise<void>;
}

/** initdb refuses to run as root: as root the cluster belongs to the postgres user. */
function asPostgres(command: string, args: string[], cwd: string) {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const run = spawnSync(file, argv, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** A new cluster in a temp directory, trusting 127.0.0.1 only, on a free port; started. */
export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'tvc-pg-'));
  if (process.getuid?.() === 0) {
    const [uid, gid] = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim().split(/\s+/).concat(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions'], dir);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=60`;
  const pgCtl = (args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args], dir);
  const cluster: PostgresCluster = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => { pgCtl(['start', '-w', '-t', '30', '-l', join(dir, 'log'), '-o', options]); },
    stop: async () => { pgCtl(['stop', '-w', '-m', 'fast']); },
    query: (sql, database = 'postgres') => asPostgres(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], dir),
    destroy: async () => {
      try {
        pgCtl(['stop', '-w', '-m', 'immediate']);
      } catch { /* already stopped */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

/** Polls until `check` passes or `timeoutMs` runs out (then its last failure is thrown). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((done) => setTimeout(done, intervalMs));
    }
  }
}
