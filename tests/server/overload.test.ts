/**
 * Load shedding in the real server. The store gate: a flood of orders saturates the store (PGlite runs one query
 * at a time; PostgreSQL's pool has a few connections), and the requests beyond what it can serve in time are
 * answered 503 overloaded with Retry-After at once, having changed nothing (a refused order's Idempotency-Key is
 * still free, no order row was written), while cached catalogue reads and health keep answering 200, and orders
 * are served again once the flood is over. Then the older event-loop check (@fastify/under-pressure), with the
 * gate off. Behaviour is asserted, not timings (the bench measures those: npm run bench -- --only=overload).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { afterAll, expect, it } from 'vitest';
import { createPostgresCluster, eventually, spawnServer, type PostgresCluster, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-overload-'));
const servers: ServerProcess[] = [];
let cluster: PostgresCluster | null = null;
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await cluster?.destroy();
  rmSync(workDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnServer(env);
  servers.push(server);
  await server.ready;
  return server;
}

const EMAIL = 'overload@example.com';
const ORDER_BODY = JSON.stringify({ pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' });

const identify = (baseUrl: string) => fetch(`${baseUrl}/checkout/api/authMiddleware`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL }),
});

async function sessionCookie(baseUrl: string): Promise<string> {
  const answer = await eventually(async () => {
    const response = await identify(baseUrl);
    expect(response.status).toBe(200);
    return response;
  }, 10_000, 100);
  return answer.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
}

interface Answer { key: string; status: number; code: string | null; retryAfter: string | null; body: unknown }

async function order(baseUrl: string, cookie: string, key: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}/checkout/api/order`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie, 'idempotency-key': key }, body: ORDER_BODY, signal: AbortSignal.timeout(30_000),
  });
  const body = await response.json() as { error?: { code?: string } };
  return { key, status: response.status, code: body.error?.code ?? null, retryAfter: response.headers.get('retry-after'), body };
}

/**
 * Waves of `perWave` orders sent at once (each with its own key) while getProducts and health are probed; every
 * answer, and the probes' statuses.
 */
async function flood(baseUrl: string, cookie: string, waves: number, perWave: number): Promise<{ answers: Answer[]; probes: number[] }> {
  let flooding = true;
  const probes: number[] = [];
  const probing = (async () => {
    while (flooding) {
      const answers = await Promise.all([fetch(`${baseUrl}/checkout/api/getProducts`), fetch(`${baseUrl}/checkout/api/health`), fetch(`${baseUrl}/checkout/api/health?ready=1`)]);
      for (const answer of answers) {
        probes.push(answer.status);
        await answer.arrayBuffer();
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  })();
  const answers: Answer[] = [];
  for (let wave = 0; wave < waves; wave += 1) {
    answers.push(...await Promise.all(Array.from({ length: perWave }, () => order(baseUrl, cookie, randomUUID()))));
  }
  flooding = false;
  await probing;
  return { answers, probes };
}

/**
 * The flood's contract on one store; `storedOrders` counts the orders of EMAIL in the store (after the server stopped,
 * for PGlite). Returns nothing; asserts.
 */
async function floodAndCheck(server: ServerProcess, storedOrders: () => Promise<number>): Promise<void> {
  const { baseUrl } = server;
  const cookie = await sessionCookie(baseUrl);
  // The first order warms the route up (a fresh process may still be catching up, and shed it).
  await eventually(async () => expect((await order(baseUrl, cookie, randomUUID())).status).toBe(200), 10_000, 100);

  const { answers, probes } = await flood(baseUrl, cookie, 3, 300);
  const accepted = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  console.log(`[overload] ${answers.length} orders at once in 3 waves: ${accepted.length} accepted, ${refused.length} refused; ${probes.length} probes of getProducts and health, all 200: ${probes.every((status) => status === 200)}`);

  // Some are served, the rest refused at once in the one error shape with Retry-After; nothing else happens.
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ error: { code: 'overloaded', message: expect.any(String) } });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
  // The store gate refused them (not the event-loop check, which is off here).
  expect(server.output()).toMatch(/the store gate refuses requests/);
  // Cached catalogue reads and health kept answering.
  expect(probes.length).toBeGreaterThan(0);
  expect(probes.every((status) => status === 200)).toBe(true);

  // After the flood orders are served again, and a refused order's key was never claimed: sent again, it is
  // created now (not a conflict, not "in progress", not a replay of something half-done).
  const retried = refused.slice(0, 5);
  for (const answer of retried) {
    const again = await eventually(async () => {
      const result = await order(baseUrl, cookie, answer.key);
      expect(result.status).toBe(200);
      return result;
    }, 15_000, 200);
    expect(again.body).toMatchObject({ orderid: expect.any(Number), status: 'Pending' });
  }
  // Exactly the accepted orders (the first, the flood's, the retried) are in the store: a refusal wrote nothing.
  await server.stop();
  // The warm-up order once (any refused tries of it wrote nothing either), the flood's accepted ones, the retried ones.
  expect(await storedOrders()).toBe(1 + accepted.length + retried.length);
}

const COUNT_ORDERS = `select count(*)::int as total from orders join clients on clients.id = orders.client_id where clients.email = '${EMAIL}'`;

it('on the embedded store, refuses what the store cannot serve in time with 503 overloaded at once, having changed nothing, while cached reads and health answer', async () => {
  const dataDir = join(workDir, 'gate-data');
  // The event-loop check off: what sheds here is the store gate alone.
  const server = await start({ DATA_DIR: dataDir, LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0' });
  await floodAndCheck(server, async () => {
    const db = await PGlite.create({ dataDir });
    try {
      return (await db.query<{ total: number }>(COUNT_ORDERS)).rows[0]?.total ?? Number.NaN;
    } finally {
      await db.close();
    }
  });
});

it('on PostgreSQL, does the same', async () => {
  cluster = await createPostgresCluster();
  cluster.query('CREATE DATABASE overload');
  const postgres = cluster;
  const server = await start({ DATA_DIR: join(workDir, 'pg-keys'), DATABASE_URL: postgres.url('overload'), LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0' });
  await floodAndCheck(server, async () => Number(postgres.query(COUNT_ORDERS.replace('::int as total', ''), 'overload').trim()));
});

it('with the store gate off, still sheds past the event-loop delay threshold, while health answers', async () => {
  const server = await start({ DATA_DIR: join(workDir, 'data'), LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '50', LOAD_SHEDDING_STORE_CONCURRENCY: '0' });
  const { baseUrl } = server;
  expect((await identify(baseUrl)).status).toBe(200);

  let flooding = true;
  const run = autocannon({
    url: `${baseUrl}/checkout/api/authMiddleware`, method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'load@example.com' }), connections: 150, duration: 4,
  });
  const healthStatuses: number[] = [];
  const shed: { status: number; retryAfter: string | null; body: unknown }[] = [];
  // Health and the store-backed call probed apart, so a slow answer of one does not space out the other's samples.
  const healthProbes = (async () => {
    while (flooding) {
      const [live, ready] = await Promise.all([fetch(`${baseUrl}/checkout/api/health`), fetch(`${baseUrl}/checkout/api/health?ready=1`)]);
      healthStatuses.push(live.status, ready.status);
      await Promise.all([live.arrayBuffer(), ready.arrayBuffer()]);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  const callProbes = (async () => {
    while (flooding) {
      const calls = await Promise.all(Array.from({ length: 5 }, () => identify(baseUrl)));
      for (const call of calls) {
        if (call.status !== 200) shed.push({ status: call.status, retryAfter: call.headers.get('retry-after'), body: await call.json() });
        else await call.arrayBuffer();
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  })();
  const result = await run;
  flooding = false;
  await Promise.all([healthProbes, callProbes]);
  console.log(`[overload] gate off, 150 connections for 4 s: ${result['2xx']} answered 2xx, ${result.non2xx} shed (503), p99 ${result.latency.p99} ms; health probes ${healthStatuses.length}, all 200: ${healthStatuses.every((status) => status === 200)}`);

  expect(result.non2xx).toBeGreaterThan(0);
  expect(shed.length).toBeGreaterThan(0);
  for (const answer of shed) {
    expect(answer.status).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.body).toEqual({ error: { code: 'overloaded', message: expect.any(String) } });
  }
  expect(server.output()).not.toMatch(/the store gate refuses requests/);
  expect(healthStatuses.length).toBeGreaterThan(0);
  expect(healthStatuses.every((status) => status === 200)).toBe(true);
  await eventually(async () => expect((await identify(baseUrl)).status).toBe(200), 10_000, 200);
});
