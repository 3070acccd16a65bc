/**
 * Measure 3d: overload (DESIGN.md section 9). On each store (a fresh embedded store, and a PostgreSQL throwaway
 * cluster) the order knee is found (orders/s served by 10 connections as fast as answered), then orders are
 * offered open-loop at 1×, 2× and 4× that rate: every request is sent at its scheduled time whatever became of
 * the earlier ones, as shoppers would, and timed from that moment. Meanwhile getProducts and health are probed.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Pool } from 'undici';
import { benchPostgres } from './lib/postgres';
import { summariseLevel, type LevelFigures, type Outcome } from './lib/overload';
import { percentile } from './lib/stats';
import { request, sleep, startServer, type ServerHandle } from './lib/proc';

export const OVERLOAD_LEVELS = [1, 2, 4] as const;

export interface ProbeFigures {
  path: string;
  sent: number;
  ok: number;
  p99: number;
}

export interface StoreOverload {
  store: string;
  how: string;
  /** p50 and p99 of orders sent one at a time on the idle server. */
  unloaded: { count: number; p50: number; p99: number; shed: number };
  /** The rate the levels are multiples of: measuredKnee, or BENCH_OVERLOAD_KNEE's. */
  knee: number;
  /** Orders/s answered 2xx to 10 connections sending as fast as answered. */
  measuredKnee: number;
  /** clientLagP99: how late the client itself sent its requests (p99, ms): its own share of the latencies, on a busy machine. */
  levels: (LevelFigures & { probes: ProbeFigures[]; clientLagP99: number })[];
}

export type OverloadResult = StoreOverload | { store: string; unavailable: string };

export interface OverloadOptions {
  entry: string[];
  workDir: string;
  /** Seconds each level is offered. */
  levelSeconds: number;
  log: (line: string) => void;
}

const ORDER_PATH = '/checkout/api/order';
const ORDER_BODY = JSON.stringify({ pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' });
const PROBES = ['/checkout/api/getProducts', '/checkout/api/health'];
/** A request not answered within this counts as unanswered. */
export const OVERLOAD_CLIENT_TIMEOUT_MS = 10_000;
/** Guests whose sessions the orders use in turn. */
const GUESTS = 20;
/** Connections the load may open: enough that the client never queues while the server answers within ~0.3 s at 4×. */
const CLIENT_CONNECTIONS = 512;

async function guestCookies(base: string, count: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let index = 0, attempts = 0; index < count; index += 1) {
    const answer = await request(`${base}/checkout/api/authMiddleware`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `overload-${index}@loadtest.example` }),
    });
    // A server still warming up may shed: try again shortly, as Retry-After asks (sooner).
    if (answer.status === 503 && attempts < 50) {
      attempts += 1;
      index -= 1;
      await sleep(100);
      continue;
    }
    const set = answer.headers['set-cookie'] ?? [];
    if (answer.status !== 200 || set.length === 0) throw new Error(`authMiddleware answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    cookies.push(set.map((cookie) => cookie.split(';')[0]).join('; '));
  }
  return cookies;
}

/** One order on `pool`, timed from `scheduledAt` (performance.now()), never thrown: a failure is status 0. */
async function sendOrder(pool: Pool, cookie: string, scheduledAt: number): Promise<Outcome & { retryAfter: boolean; error?: string; lagMs: number }> {
  const lagMs = performance.now() - scheduledAt;
  try {
    const answer = await pool.request({
      path: ORDER_PATH, method: 'POST', body: ORDER_BODY,
      headers: { 'content-type': 'application/json', cookie, 'idempotency-key': randomUUID() },
      signal: AbortSignal.timeout(Math.max(1, Math.round(OVERLOAD_CLIENT_TIMEOUT_MS - (performance.now() - scheduledAt)))),
    });
    const text = await answer.body.text();
    const ms = performance.now() - scheduledAt;
    let code: string | null = null;
    if (answer.statusCode >= 300) {
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
      } catch {
        code = null;
      }
    }
    return { status: answer.statusCode, code, ms, retryAfter: answer.headers['retry-after'] !== undefined, lagMs };
  } catch (error) {
    return { status: 0, code: null, ms: performance.now() - scheduledAt, retryAfter: false, error: (error as Error).message, lagMs };
  }
}

/** `rate` orders/s for `seconds`, each sent at its own time (open loop); resolves once every one is answered or timed out. */
async function openLoop(pool: Pool, cookies: string[], rate: number, seconds: number): Promise<{ outcomes: Outcome[]; retryAfterMissing: number; clientLagP99: number }> {
  const total = Math.round(rate * seconds);
  const startedAt = performance.now();
  const pending: ReturnType<typeof sendOrder>[] = [];
  while (pending.length < total) {
    const due = Math.min(total, Math.floor(((performance.now() - startedAt) * rate) / 1000) + 1);
    while (pending.length < due) {
      const index = pending.length;
      pending.push(sendOrder(pool, cookies[index % cookies.length] as string, startedAt + (index * 1000) / rate));
    }
    await sleep(2);
  }
  const results = await Promise.all(pending);
  return {
    outcomes: results, retryAfterMissing: results.filter((result) => result.status === 503 && !result.retryAfter).length,
    clientLagP99: percentile(results.map((result) => result.lagMs), 99),
  };
}

/** GET `path` every 100 ms until `done()`; each probe's status and latency. */
async function probe(pool: Pool, path: string, done: () => boolean): Promise<ProbeFigures> {
  const latencies: number[] = [];
  let sent = 0;
  let ok = 0;
  while (!done()) {
    const startedAt = performance.now();
    sent += 1;
    try {
      const answer = await pool.request({ path, method: 'GET', signal: AbortSignal.timeout(OVERLOAD_CLIENT_TIMEOUT_MS) });
      await answer.body.arrayBuffer();
      if (answer.statusCode === 200) ok += 1;
    } catch {
      // Counted as not ok.
    }
    latencies.push(performance.now() - startedAt);
    await sleep(100);
  }
  return { path, sent, ok, p99: percentile(latencies, 99) };
}

/** Waits until an order is answered 2xx within `limitMs` again (the backlog of a level drained), up to 30 s. */
async function settle(pool: Pool, cookie: string, limitMs: number): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const outcome = await sendOrder(pool, cookie, performance.now());
    if (outcome.status >= 200 && outcome.status < 300 && outcome.ms <= limitMs) return;
    await sleep(250);
  }
}

/**
 * BENCH_OVERLOAD_KNEE=<embedded>,<postgres> (orders/s) offers the levels at these knees instead of measuring them,
 * so two runs (before and after a change, say) offer the same rates.
 */
function givenKnee(index: number): number | null {
  const value = Number((process.env.BENCH_OVERLOAD_KNEE ?? '').split(',')[index]);
  return Number.isInteger(value) && value > 0 ? value : null;
}

async function measureStore(server: ServerHandle, store: string, how: string, options: OverloadOptions, kneeIndex: number): Promise<StoreOverload> {
  const pool = new Pool(server.base, { connections: CLIENT_CONNECTIONS, pipelining: 1 });
  const probes = new Pool(server.base, { connections: PROBES.length, pipelining: 1 });
  try {
    const cookies = await guestCookies(server.base, GUESTS);
    // Warm-up, not recorded: the order route's code paths compiled, the catalogue read.
    for (const path of PROBES) for (let index = 0; index < 50; index += 1) await request(`${server.base}${path}`);
    for (let index = 0; index < 100; index += 1) await sendOrder(pool, cookies[index % GUESTS] as string, performance.now());

    const unloadedMs: number[] = [];
    let unloadedShed = 0;
    for (let index = 0; unloadedMs.length < 300; index += 1) {
      const outcome = await sendOrder(pool, cookies[index % GUESTS] as string, performance.now());
      // One at a time, a refusal can only be the machine's own stall (another process): counted, tried again.
      if (outcome.status === 503 && outcome.code === 'overloaded' && unloadedShed < 300) {
        unloadedShed += 1;
        await sleep(20);
        continue;
      }
      if (outcome.status < 200 || outcome.status >= 300) throw new Error(`an unloaded order answered ${outcome.status} ${outcome.code ?? outcome.error ?? ''}`);
      unloadedMs.push(outcome.ms);
    }
    const unloaded = { count: unloadedMs.length, p50: percentile(unloadedMs, 50), p99: percentile(unloadedMs, 99), shed: unloadedShed };
    options.log(`  ${store}: unloaded order p50 ${unloaded.p50.toFixed(1)} ms, p99 ${unloaded.p99.toFixed(1)} ms${unloadedShed ? ` (${unloadedShed} shed one at a time and sent again)` : ''}`);

    // The knee: 10 connections as fast as answered for 3 s; orders/s answered 2xx.
    const kneeEnds = performance.now() + 3_000;
    let served = 0;
    await Promise.all(Array.from({ length: 10 }, async (_, connection) => {
      for (let index = connection; performance.now() < kneeEnds; index += 10) {
        const outcome = await sendOrder(pool, cookies[index % GUESTS] as string, performance.now());
        if (outcome.status >= 200 && outcome.status < 300) served += 1;
      }
    }));
    const measuredKnee = Math.max(1, Math.round(served / 3));
    const knee = givenKnee(kneeIndex) ?? measuredKnee;
    options.log(`  ${store}: order knee ${measuredKnee} orders/s (10 connections as fast as answered, 3 s)${knee === measuredKnee ? '' : `; offering multiples of ${knee}/s (BENCH_OVERLOAD_KNEE)`}`);
    await settle(pool, cookies[0] as string, 5 * unloaded.p99);

    const levels: StoreOverload['levels'] = [];
    for (const level of OVERLOAD_LEVELS) {
      const rate = level * knee;
      let running = true;
      const probing = Promise.all(PROBES.map((path) => probe(probes, path, () => !running)));
      const run = await openLoop(pool, cookies, rate, options.levelSeconds);
      running = false;
      const figures = { ...summariseLevel(level, rate, run.outcomes, run.retryAfterMissing), probes: await probing, clientLagP99: run.clientLagP99 };
      levels.push(figures);
      options.log(`  ${store} ${level}× (${rate}/s for ${options.levelSeconds} s): offered ${figures.offered}, accepted ${figures.accepted} (p50 ${figures.acceptedP50.toFixed(1)} ms, p99 ${figures.acceptedP99.toFixed(1)} ms), shed ${figures.shed} (p99 ${figures.refusedP99.toFixed(1)} ms), other ${figures.other}, unanswered ${figures.unanswered}; client send lag p99 ${figures.clientLagP99.toFixed(1)} ms; ${figures.probes.map((each) => `${each.path.split('/').at(-1)} ${each.ok}/${each.sent} ok p99 ${each.p99.toFixed(1)} ms`).join(', ')}`);
      await settle(pool, cookies[0] as string, 5 * unloaded.p99);
      await sleep(1_000);
    }
    return { store, how, unloaded, knee, measuredKnee, levels };
  } finally {
    await pool.destroy();
    await probes.destroy();
  }
}

export async function measureOverload(options: OverloadOptions): Promise<OverloadResult[]> {
  const results: OverloadResult[] = [];
  const embedded = await startServer({ entry: options.entry, dataDir: join(options.workDir, 'overload-data'), logFile: join(options.workDir, 'overload-pglite-server.log') });
  try {
    results.push(await measureStore(embedded, 'embedded store (PGlite)', 'a fresh DATA_DIR, demo seed', options, 0));
  } finally {
    await embedded.stop();
  }
  const postgres = await benchPostgres();
  if ('unavailable' in postgres) {
    results.push({ store: 'PostgreSQL', unavailable: postgres.unavailable });
    return results;
  }
  let server: ServerHandle | null = null;
  try {
    server = await startServer({
      entry: options.entry, dataDir: join(options.workDir, 'overload-pg-keys'), logFile: join(options.workDir, 'overload-postgres-server.log'), env: { DATABASE_URL: postgres.url },
    });
    results.push(await measureStore(server, 'PostgreSQL', postgres.origin, options, 1));
  } finally {
    await server?.stop();
    await postgres.close();
  }
  return results;
}
