/**
 * The real server as a process (`node --import tsx src/server/main.ts`), and a throwaway PostgreSQL cluster
 * the test controls (initdb, pg_ctl start/stop) on a free loopback port, so stopping it disturbs nothing else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { TEST_SECRETS } from '../api/helper';
import { freePort } from '../../scripts/lib/free-port';
import { createPostgresCluster as createCluster, debianPostgresBin, type PostgresCluster } from '../../scripts/lib/postgres';

export { freePort, type PostgresCluster };

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

/** Starts the server with the test keys and `env` on top; DATABASE_URL is empty unless given; `nodeArgs` go to node first (e.g. an --import preload). */
export async function spawnServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
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
  // 'close', not 'exit': what the server wrote last may still be in the pipe when it exits.
  const exited = new Promise<number | string>((done) => child.once('close', (code, signal) => done(code ?? signal ?? 'unknown')));
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
  const bin = debianPostgresBin();
  if (!bin) {
    throw new Error('The PostgreSQL fault tests need the PostgreSQL server binaries (initdb, pg_ctl in /usr/lib/postgresql/<version>/bin). Install them with `apt-get install postgresql` (.ci/run does this).');
  }
  return bin;
}

/** A cluster the fault tests may stop and start at will; fsync off, as nothing of it outlives the test. */
export function createPostgresCluster(): Promise<PostgresCluster> {
  return createCluster(postgresBin(), ['fsync=off', 'max_connections=60']);
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

/** A guest identified by `email` places one 1 Month order (EUR) on the sandbox card gateway, as the checkout's page does; its answer. */
export async function placeSandboxOrder(baseUrl: string, email: string): Promise<{ status: number; link: string | null }> {
  const identify = await fetch(`${baseUrl}/checkout/api/authMiddleware`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  const cookie = identify.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  const order = await fetch(`${baseUrl}/checkout/api/order`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' }),
  });
  const body = await order.json() as { link?: string };
  return { status: order.status, link: body.link ?? null };
}
