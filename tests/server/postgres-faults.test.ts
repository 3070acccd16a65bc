import { randomUUID } from 'node:crypto';
/**
 * The server on PostgreSQL under faults, on a throwaway cluster this file starts and stops itself:
 * a start while the database is down, several instances migrating one empty database at once, and the
 * database stopped and started under order traffic.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/db/connect';
import { createPostgresCluster, eventually, freePort, ROOT, spawnServer, type PostgresCluster, type ServerProcess } from './support';

let cluster: PostgresCluster;
const servers: ServerProcess[] = [];
/** The operator listener of the instance that serves the traffic under faults. */
let servingOpsPort = 0;

/** One series' value as the operator listener shows it at this moment (the sum over its labels). */
async function scraped(opsPort: number, series: string, labels = ''): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  const lines = text.split('\n').filter((line) => line.startsWith(`${series}${labels ? `{${labels}` : ''}`) && !line.startsWith('#'));
  return lines.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

beforeAll(async () => {
  cluster = await createPostgresCluster();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await cluster?.destroy();
});

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const spawned = await spawnServer(env);
  servers.push(spawned);
  return spawned;
}

/** The migrations the repository ships (drizzle's journal), each one row in drizzle.__drizzle_migrations once applied. */
const MIGRATIONS = (JSON.parse(readFileSync(join(ROOT, 'src/server/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

const ERROR_SHAPE = { error: { code: expect.any(String), message: expect.any(String) } };

interface Outcome { status: number; body: unknown; retryAfter: string | null }

async function call(baseUrl: string, path: string, init: RequestInit = {}): Promise<Outcome & { cookie: string | null }> {
  const answer = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  const cookie = answer.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') || null;
  return { status: answer.status, body, retryAfter: answer.headers.get('retry-after'), cookie };
}

const post = (baseUrl: string, path: string, body: unknown, cookie?: string) => call(baseUrl, path, {
  // A key on every post, as the app sends one with each order (the contract requires it there; other calls ignore it).
  method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...(cookie ? { cookie } : {}) },
});

let guestCount = 0;
/** One shopper: identified as a guest, then one order (1 Month, EUR, sandbox card). Returns every answer. */
async function shopper(baseUrl: string): Promise<{ answers: Outcome[]; orderId: number | null }> {
  guestCount += 1;
  const identified = await post(baseUrl, '/checkout/api/authMiddleware', { email: `fault-${process.pid}-${guestCount}@example.com` });
  if (identified.status !== 200 || !identified.cookie) return { answers: [identified], orderId: null };
  const ordered = await post(baseUrl, '/checkout/api/order', { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' }, identified.cookie);
  const orderId = ordered.status === 200 ? (ordered.body as { orderid: number }).orderid : null;
  return { answers: [identified, ordered], orderId };
}

describe('the server on PostgreSQL', () => {
  it('waits for a database that is not up yet, and gives up with one clear line after DATABASE_WAIT_MS', async () => {
    const port = await freePort();
    const startedAt = performance.now();
    const waiting = await server({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nowhere`, DATABASE_WAIT_MS: '2000' });
    const code = await waiting.exited;
    const tookMs = performance.now() - startedAt;
    console.log(`[postgres] a start with the database down gave up after ${Math.round(tookMs)} ms (exit ${code})`);
    expect(code).toBe(1);
    expect(tookMs).toBeGreaterThanOrEqual(2_000);
    const refusal = waiting.output().split('\n').filter((line) => line.startsWith('TV Checkout refuses to start:'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toContain(`127.0.0.1:${port}`);
    expect(refusal[0]).toContain('DATABASE_WAIT_MS');
  });

  it('starts once the database comes up within DATABASE_WAIT_MS', async () => {
    cluster.query('CREATE DATABASE late');
    await cluster.stop();
    const late = await server({ DATABASE_URL: cluster.url('late'), DATABASE_WAIT_MS: '30000' });
    await new Promise((done) => setTimeout(done, 1_500));
    expect(late.child.exitCode).toBeNull();
    await cluster.start();
    await late.ready;
    expect((await call(late.baseUrl, '/checkout/api/health?ready=1')).status).toBe(200);
    await late.stop();
  });

  let serving: ServerProcess;

  it('starts three instances migrating one empty database at the same time', async () => {
    cluster.query('CREATE DATABASE shop');
    const opsPorts = await Promise.all([1, 2, 3].map(() => freePort()));
    const instances = await Promise.all(opsPorts.map((opsPort) => server({ DATABASE_URL: cluster.url('shop'), OPS_PORT: String(opsPort) })));
    await Promise.all(instances.map((instance) => instance.ready));
    for (const instance of instances) expect((await call(instance.baseUrl, '/checkout/api/health?ready=1')).status).toBe(200);
    expect(Number(cluster.query('SELECT count(*) FROM drizzle.__drizzle_migrations', 'shop').trim())).toBe(MIGRATIONS);
    // Processes start a few hundred ms apart; stores opened in one process meet the database in the same instant.
    cluster.query('CREATE DATABASE together');
    const stores = await Promise.all([1, 2, 3, 4].map(() => openStore({ engine: 'postgres', databaseUrl: cluster.url('together'), waitMs: 0 })));
    await Promise.all(stores.map((store) => store.close()));
    expect(Number(cluster.query('SELECT count(*) FROM drizzle.__drizzle_migrations', 'together').trim())).toBe(MIGRATIONS);
    [serving] = instances as [ServerProcess];
    [servingOpsPort] = opsPorts as [number];
    await Promise.all(instances.slice(1).map((instance) => instance.stop()));
  });

  it('answers 503 store_unavailable while PostgreSQL is stopped under traffic, stays up, recovers by itself and loses no acknowledged order', async () => {
    const { baseUrl } = serving;
    const acknowledged: number[] = [];
    const failures: Outcome[] = [];
    let thrown = 0;
    let running = true;
    const worker = async () => {
      while (running) {
        try {
          const { answers, orderId } = await shopper(baseUrl);
          if (orderId !== null) acknowledged.push(orderId);
          failures.push(...answers.filter((answer) => answer.status !== 200));
        } catch {
          thrown += 1;
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    await eventually(async () => expect(acknowledged.length).toBeGreaterThanOrEqual(10), 20_000);
    // A guest identified before the outage, whose order comes during it (the workers' own may all fail a step earlier).
    const guest = await post(baseUrl, '/checkout/api/authMiddleware', { email: `fault-${process.pid}-outage@example.com` });
    expect(guest.status).toBe(200);
    await cluster.stop();
    const stoppedAt = performance.now();
    // Readiness says no while liveness still answers.
    const notReady = await eventually(async () => {
      const answer = await call(baseUrl, '/checkout/api/health?ready=1');
      expect(answer.status).toBe(503);
      return answer;
    }, 5_000);
    expect(notReady.body).toEqual({ error: { code: 'store_unavailable', message: expect.any(String) } });
    expect((await call(baseUrl, '/checkout/api/health')).status).toBe(200);
    // The operator sees it: the scrape's store read fails while the listener itself answers.
    await eventually(async () => expect(await scraped(servingOpsPort, 'checkout_store_up')).toBe(0), 5_000);
    await eventually(async () => expect(failures.length).toBeGreaterThanOrEqual(10), 10_000);
    // (Asked again while the store gate sheds the workers' flood with 503 overloaded instead.)
    await eventually(async () => {
      const refused = await post(baseUrl, '/checkout/api/order', { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' }, guest.cookie ?? undefined);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ error: { code: 'store_unavailable' } });
    }, 5_000, 100);
    // An outage of at least 1.5 s, so pooled connections are found dead and new ones refused.
    await new Promise((done) => setTimeout(done, Math.max(0, 1_500 - (performance.now() - stoppedAt))));
    const ackedWhileDown = acknowledged.length;

    await cluster.start();
    const restartedAt = performance.now();
    await eventually(async () => expect((await call(baseUrl, '/checkout/api/health?ready=1')).status).toBe(200), 15_000, 50);
    const readyAfterMs = performance.now() - restartedAt;
    await eventually(async () => expect(acknowledged.length).toBeGreaterThan(ackedWhileDown + 5), 15_000, 50);
    const ordersAfterMs = performance.now() - restartedAt;
    running = false;
    await Promise.all(workers);
    expect(await scraped(servingOpsPort, 'checkout_store_up')).toBe(1);
    expect(await scraped(servingOpsPort, 'checkout_orders_refused_total', 'reason="store_unavailable"')).toBeGreaterThan(0);

    console.log(`[postgres] down ${Math.round(restartedAt - stoppedAt)} ms: ${failures.length} answers 503, ${thrown} requests that threw; ready again ${Math.round(readyAfterMs)} ms and orders again ${Math.round(ordersAfterMs)} ms after PostgreSQL was back; ${acknowledged.length} orders acknowledged`);
    expect(serving.child.exitCode).toBeNull();
    expect(thrown).toBe(0);
    for (const failure of failures) {
      expect(failure.status).toBe(503);
      expect(failure.body).toMatchObject(ERROR_SHAPE);
    }
    // Refusals come back fast while the store is down, so 4 shoppers can make a flood the store gate sheds (503 overloaded) on a busy machine.
    const codes = failures.map((failure) => (failure.body as { error: { code: string } }).error.code);
    expect(codes).toContain('store_unavailable');
    expect(codes.filter((code) => code !== 'store_unavailable' && code !== 'overloaded')).toEqual([]);
    const stored = new Set(cluster.query(`SELECT id FROM orders WHERE id IN (${acknowledged.join(',')})`, 'shop').trim().split('\n').map(Number));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(acknowledged.length);
  });
});
