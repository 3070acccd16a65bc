/**
 * Measures 3 and 4 (memory): the API under load with autocannon, on a server started fresh on a new
 * embedded store, with its memory read from /proc while it works; then the orders in the store counted
 * against the 2xx answers once the server has stopped.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchPostgres } from './lib/postgres';
import { memoryOf, request, ROOT, sampleMemory, sleep, startServer, type ServerHandle } from './lib/proc';
import { percentile } from './lib/stats';

export interface LoadFigures {
  label: string;
  connections: number;
  /** Requests answered. */
  answered: number;
  ok: number;
  non2xx: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  durationS: number;
  achievedRate: number;
  p50: number;
  p99: number;
  max: number;
  /** When each answer came, in ms from the run's start. */
  answerTimesMs: number[];
}

export interface ReadLoad extends LoadFigures {
  operation: string;
  path: string;
  targetRate: number;
}

export type OrderFigures = LoadFigures & { sessions: number; storedOrders: number };

export interface LoadResult {
  /** Whether the per-IP rate limits were on despite RATE_LIMIT=off, and the load was spread over forwarded IPs. */
  limitsBypassed: boolean;
  reads: ReadLoad[];
  /** getProducts' path on the bare Fastify (the ceiling), at the same rates and streams, each run right after ours. */
  ceilingReads: ReadLoad[];
  /** How the ceiling was run, for the report. */
  ceilingHow: string;
  orders: OrderFigures;
  /** The same order load on a server over PostgreSQL, or why it could not be had. */
  postgresOrders: (OrderFigures & { origin: string }) | { unavailable: string };
  startMs: number;
  idleRssKiB: number;
  /** The highest VmRSS sampled every 100 ms while the load ran. */
  peakRssUnderLoadKiB: number;
  /** VmHWM at the end: the most the process was ever resident, its start included. */
  hwmKiB: number;
  logFile: string;
}

export interface LoadOptions {
  /** node's arguments naming the server (see startServer). */
  entry: string[];
  workDir: string;
  distDir?: string;
  /** Seconds per fixed-rate read run. */
  durationS: number;
  rates: number[];
  orderCount: number;
  orderConnections: number;
  log: (line: string) => void;
}

const PRODUCTS_PATH = '/checkout/api/getProducts';
const READS = [
  { operation: 'getProducts', path: PRODUCTS_PATH },
  { operation: 'getPromotion', path: '/checkout/api/getPromotion?code=WELCOME10' },
];

/**
 * Streams for a fixed rate: one connection per 50 requests/s. autocannon sends a connection's share of
 * each second back to back at the start of that second; the streams start 1/n s apart, so the load is
 * spread over the second instead of arriving as one burst of n concurrent requests.
 */
export const streamsFor = (rate: number): number => Math.max(1, Math.ceil(rate / 50));

const ORDER_BODY = JSON.stringify({ pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' });
const BENCH_EMAIL = (index: number) => `bench-${index}@loadtest.example`;

/**
 * A distinct client address per request from 127.0.0.0/8, sent as X-Forwarded-For to a server that trusts
 * it: per-IP limits then never trip, while the traffic itself only ever goes to the loopback server.
 */
function forwardedFor(): () => string {
  let next = 1;
  return () => {
    const n = next;
    next = next >= 0xfffffe ? 1 : next + 1;
    return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };
}

/**
 * Runs autocannon, recording every answer's own latency (float ms) instead of its 1 ms histogram. With
 * `streams` > 1 (fixed rates only) it runs that many one-connection autocannons of rate/streams each,
 * started 1/streams s apart, each with `connectionsPerStream` connections sharing its rate.
 */
export async function cannon(options: autocannon.Options, label: string, streams = 1, connectionsPerStream = 1): Promise<LoadFigures> {
  const latencies: number[] = [];
  const answerTimesMs: number[] = [];
  const statuses = new Map<number, number>();
  const startedAt = performance.now();
  // With a rate, autocannon would "correct" for coordinated omission with a 1 ms interval and so add
  // made-up samples; the latencies recorded below are the answers' own in any case.
  const rated = options.overallRate !== undefined || options.connectionRate !== undefined;
  const perStream: autocannon.Options = streams > 1 && options.overallRate
    ? { ...options, connections: connectionsPerStream, overallRate: Math.max(1, Math.round(options.overallRate / streams)) }
    : options;
  const launch = async (delayMs: number) => {
    await sleep(delayMs);
    // Without a callback autocannon answers a promise that is also its event emitter.
    const instance = autocannon({ ...perStream, ...(rated ? { ignoreCoordinatedOmission: true } : {}), timeout: 10 }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      answerTimesMs.push(performance.now() - startedAt);
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    return instance;
  };
  const results = await Promise.all(Array.from({ length: streams }, (_, index) => launch((index * 1000) / streams)));
  const wallS = (performance.now() - startedAt) / 1000;
  // A fixed-rate run lasts its duration per stream; a run of a fixed amount, its wall time.
  const durationS = rated && options.duration !== undefined ? Number(options.duration) : wallS;
  const non2xx: Record<string, number> = {};
  for (const [status, count] of statuses) if (status < 200 || status >= 300) non2xx[String(status)] = count;
  const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  return {
    label,
    connections: results.reduce((sum, result) => sum + result.connections, 0),
    answered,
    ok: latencies.length,
    non2xx,
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    durationS,
    achievedRate: answered / durationS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length ? latencies.reduce((max, value) => Math.max(max, value), 0) : Number.NaN,
    answerTimesMs,
  };
}

/** A guest session per e-mail from authMiddleware: the session cookie to send with orders. */
async function guestSession(base: string, email: string, address: string | null): Promise<string> {
  const answer = await request(`${base}/checkout/api/authMiddleware`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(address ? { 'x-forwarded-for': address } : {}) }, body: JSON.stringify({ email }),
  });
  const cookies = answer.headers['set-cookie'] ?? [];
  if (answer.status !== 200 || cookies.length === 0) throw new Error(`authMiddleware answered ${answer.status}: ${answer.body}`);
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}

/**
 * The ceiling: scripts/bench/ceiling-server.ts, a bare Fastify (no plugins, no logger) sending `body` as a
 * string at getProducts' path, started through tsx as the knee does.
 */
export async function startCeiling(workDir: string, body: string, name: string): Promise<ServerHandle> {
  const bodyFile = join(workDir, `${name}-body.json`);
  writeFileSync(bodyFile, body);
  return startServer({
    entry: ['--import', 'tsx', join(ROOT, 'scripts/bench/ceiling-server.ts')], dataDir: join(workDir, `${name}-none`),
    logFile: join(workDir, `${name}-server.log`), env: { CEILING_BODY_FILE: bodyFile },
  });
}

export const ceilingHow = (body: string) =>
  `scripts/bench/ceiling-server.ts: Fastify with no plugins and no logger sending getProducts' body (${Buffer.byteLength(body)} bytes, read from the embedded server) as a string, started through tsx`;

/** Counts the orders of the benchmark's guests on a PostgreSQL database. */
async function countBenchOrdersOnPostgres(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ total: number }>(
      "select count(*)::int as total from orders join clients on clients.id = orders.client_id where clients.email like 'bench-%@loadtest.example'",
    );
    return result.rows[0]?.total ?? Number.NaN;
  } finally {
    await client.end();
  }
}

/**
 * The order load: `count` POST /checkout/api/order on `connections` connections as fast as answered, each with
 * its own Idempotency-Key, the session cookies of `connections` guests in turn.
 */
export async function orderLoad(base: string, count: number, connections: number, nextAddress: (() => string) | null): Promise<LoadFigures & { sessions: number }> {
  const cookies: string[] = [];
  for (let index = 0; index < connections; index += 1) cookies.push(await guestSession(base, BENCH_EMAIL(index), nextAddress ? nextAddress() : null));
  let next = 0;
  const orders = await cannon({
    url: base,
    connections,
    amount: count,
    requests: [{
      method: 'POST',
      path: '/checkout/api/order',
      body: ORDER_BODY,
      setupRequest: (req) => {
        const cookie = cookies[next % cookies.length] as string;
        next += 1;
        const headers: Record<string, string> = { 'content-type': 'application/json', cookie, 'idempotency-key': randomUUID() };
        if (nextAddress) headers['x-forwarded-for'] = nextAddress();
        return { ...req, headers };
      },
    }],
  }, 'order');
  return { ...orders, achievedRate: orders.ok / orders.durationS, sessions: connections };
}

/**
 * The same order load on a server over PostgreSQL (BENCH_DATABASE_URL's server or a throwaway cluster), after
 * the same warm-up of the reads; the orders counted in the database once the server has stopped.
 */
async function ordersOnPostgres(options: LoadOptions, limited: boolean): Promise<LoadResult['postgresOrders']> {
  const postgres = await benchPostgres();
  if ('unavailable' in postgres) return postgres;
  let server: ServerHandle | null = null;
  try {
    server = await startServer({
      entry: options.entry, dataDir: join(options.workDir, 'load-pg-keys'), logFile: join(options.workDir, 'load-postgres-server.log'),
      distDir: options.distDir, env: { DATABASE_URL: postgres.url, TRUST_PROXY: '127.0.0.0/8' },
    });
    const nextAddress = limited ? forwardedFor() : null;
    for (const read of READS) {
      await cannon({ url: server.base, connections: 2, amount: 200, requests: [{ method: 'GET', path: read.path, ...(nextAddress ? { setupRequest: (req) => ({ ...req, headers: { 'x-forwarded-for': nextAddress() } }) } : {}) }] }, 'warm-up');
    }
    const orders = await orderLoad(server.base, options.orderCount, options.orderConnections, nextAddress);
    options.log(`  order on PostgreSQL: ${orders.ok} created in ${orders.durationS.toFixed(1)} s, p99 ${orders.p99.toFixed(1)} ms, non-2xx ${JSON.stringify(orders.non2xx)}, errors ${orders.errors}`);
    await server.stop();
    return { ...orders, storedOrders: await countBenchOrdersOnPostgres(postgres.url), origin: postgres.origin };
  } finally {
    await server?.stop();
    await postgres.close();
  }
}

/** Counts the orders of the benchmark's guests in a stopped server's data directory. */
export async function countBenchOrders(dataDir: string): Promise<number> {
  const db = await PGlite.create({ dataDir });
  try {
    const result = await db.query<{ total: number }>(
      "select count(*)::int as total from orders join clients on clients.id = orders.client_id where clients.email like 'bench-%@loadtest.example'",
    );
    return result.rows[0]?.total ?? Number.NaN;
  } finally {
    await db.close();
  }
}

export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  const dataDir = join(options.workDir, 'load-data');
  const logFile = join(options.workDir, 'load-server.log');
  // TRUST_PROXY lets the benchmark spread its load over forwarded addresses should per-IP limits be on.
  const server = await startServer({ entry: options.entry, dataDir, logFile, distDir: options.distDir, env: { TRUST_PROXY: '127.0.0.0/8' } });
  const { base, pid } = server;
  let sampler: ReturnType<typeof sampleMemory> | null = null;
  let ceiling: ServerHandle | null = null;
  try {
    options.log(`  server up in ${Math.round(server.spawnToHealthMs)} ms (pid ${pid}); settling 3 s for the idle reading`);
    await sleep(3_000);
    const idleRssKiB = memoryOf(pid).rssKiB;
    sampler = sampleMemory(pid, 100);

    // Are the per-IP limits off, as RATE_LIMIT=off asks? 40 promotion lookups from one address tell (the limit is 30/min).
    let limited = false;
    for (let attempt = 0; attempt < 40 && !limited; attempt += 1) {
      limited = (await request(`${base}/checkout/api/getPromotion?code=WELCOME10`, { headers: { 'x-forwarded-for': '127.255.255.254' } })).status === 429;
    }
    if (limited) options.log('  the server rate-limits despite RATE_LIMIT=off: every request now gets its own X-Forwarded-For from 127.0.0.0/8');
    const nextAddress = forwardedFor();
    const spread = (headers: Record<string, string> = {}): Pick<autocannon.Request, 'setupRequest'> => (limited
      ? { setupRequest: (req) => ({ ...req, headers: { ...headers, 'x-forwarded-for': nextAddress() } }) }
      : { setupRequest: (req) => ({ ...req, headers }) });

    // The ceiling answers the very body our getProducts gives.
    const products = await request(`${base}${PRODUCTS_PATH}`);
    if (products.status !== 200) throw new Error(`GET ${PRODUCTS_PATH} answered ${products.status}: ${products.body.slice(0, 200)}`);
    ceiling = await startCeiling(options.workDir, products.body, 'load-ceiling');

    // Warm-up, not recorded: the first requests of each route compile its code paths.
    for (const read of READS) await cannon({ url: base, connections: 2, amount: 200, requests: [{ method: 'GET', path: read.path, ...spread() }] }, 'warm-up');
    await cannon({ url: ceiling.base, connections: 2, amount: 200, requests: [{ method: 'GET', path: PRODUCTS_PATH }] }, 'warm-up');

    const fixedRate = (target: string, read: (typeof READS)[number], rate: number, label: string, headers: ReturnType<typeof spread> | Record<string, never>) =>
      cannon({ url: target, connections: 1, overallRate: rate, duration: options.durationS, requests: [{ method: 'GET', path: read.path, ...headers }] }, label, streamsFor(rate));
    const logged = (figures: LoadFigures) => options.log(`  ${figures.label}: p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ${figures.achievedRate.toFixed(0)}/s, errors ${figures.errors}, non-2xx ${JSON.stringify(figures.non2xx)}`);
    const reads: ReadLoad[] = [];
    const ceilingReads: ReadLoad[] = [];
    for (const rate of options.rates) {
      for (const read of READS) {
        const figures = await fixedRate(base, read, rate, `${read.operation} @ ${rate}/s`, spread());
        reads.push({ ...figures, operation: read.operation, path: read.path, targetRate: rate });
        logged(figures);
        // The ceiling right after ours at the same rate and streams, so both meet the same moment of the machine.
        if (read.path === PRODUCTS_PATH) {
          const bare = await fixedRate(ceiling.base, read, rate, `ceiling ${read.operation} @ ${rate}/s`, {});
          ceilingReads.push({ ...bare, operation: read.operation, path: read.path, targetRate: rate });
          logged(bare);
        }
      }
    }
    await ceiling.stop();

    const orders = await orderLoad(base, options.orderCount, options.orderConnections, limited ? nextAddress : null);
    options.log(`  order: ${orders.ok} created in ${orders.durationS.toFixed(1)} s, p99 ${orders.p99.toFixed(1)} ms, non-2xx ${JSON.stringify(orders.non2xx)}, errors ${orders.errors}`);

    const peak = sampler.stop();
    sampler = null;
    const hwmKiB = memoryOf(pid).hwmKiB;
    await server.stop();
    const storedOrders = await countBenchOrders(dataDir);
    const postgresOrders = await ordersOnPostgres(options, limited);
    return {
      limitsBypassed: limited,
      reads,
      ceilingReads,
      ceilingHow: ceilingHow(products.body),
      orders: { ...orders, storedOrders },
      postgresOrders,
      startMs: server.spawnToHealthMs,
      idleRssKiB,
      peakRssUnderLoadKiB: peak.maxRssKiB,
      hwmKiB,
      logFile,
    };
  } finally {
    sampler?.stop();
    await ceiling?.stop();
    await server.stop();
  }
}
