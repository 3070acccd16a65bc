/**
 * Measures 3 and 4 (memory): the API under load with autocannon, on a server started fresh on a new
 * embedded store, with its memory read from /proc while it works; then the orders in the store counted
 * against the 2xx answers once the server has stopped.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { memoryOf, request, sampleMemory, sleep, startServer } from './lib/proc';
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

export interface LoadResult {
  /** Whether the per-IP rate limits were on despite RATE_LIMIT=off, and the load was spread over forwarded IPs. */
  limitsBypassed: boolean;
  reads: ReadLoad[];
  orders: LoadFigures & { sessions: number; storedOrders: number };
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

const READS = [
  { operation: 'getProducts', path: '/checkout/api/getProducts' },
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

    // Warm-up, not recorded: the first requests of each route compile its code paths.
    for (const read of READS) await cannon({ url: base, connections: 2, amount: 200, requests: [{ method: 'GET', path: read.path, ...spread() }] }, 'warm-up');

    const reads: ReadLoad[] = [];
    for (const rate of options.rates) {
      for (const read of READS) {
        const figures = await cannon({
          url: base, connections: 1, overallRate: rate, duration: options.durationS, requests: [{ method: 'GET', path: read.path, ...spread() }],
        }, `${read.operation} @ ${rate}/s`, streamsFor(rate));
        reads.push({ ...figures, operation: read.operation, path: read.path, targetRate: rate });
        options.log(`  ${figures.label}: p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ${figures.achievedRate.toFixed(0)}/s, errors ${figures.errors}, non-2xx ${JSON.stringify(figures.non2xx)}`);
      }
    }

    const sessions = options.orderConnections;
    const cookies: string[] = [];
    for (let index = 0; index < sessions; index += 1) cookies.push(await guestSession(base, BENCH_EMAIL(index), limited ? nextAddress() : null));
    let next = 0;
    const orders = await cannon({
      url: base,
      connections: options.orderConnections,
      amount: options.orderCount,
      requests: [{
        method: 'POST',
        path: '/checkout/api/order',
        body: ORDER_BODY,
        setupRequest: (req) => {
          const cookie = cookies[next % cookies.length] as string;
          next += 1;
          const headers: Record<string, string> = { 'content-type': 'application/json', cookie, 'idempotency-key': randomUUID() };
          if (limited) headers['x-forwarded-for'] = nextAddress();
          return { ...req, headers };
        },
      }],
    }, 'order');
    options.log(`  order: ${orders.ok} created in ${orders.durationS} s, p99 ${orders.p99.toFixed(1)} ms, non-2xx ${JSON.stringify(orders.non2xx)}, errors ${orders.errors}`);

    const peak = sampler.stop();
    sampler = null;
    const hwmKiB = memoryOf(pid).hwmKiB;
    await server.stop();
    const storedOrders = await countBenchOrders(dataDir);
    return {
      limitsBypassed: limited,
      reads,
      orders: { ...orders, achievedRate: orders.ok / orders.durationS, sessions, storedOrders },
      startMs: server.spawnToHealthMs,
      idleRssKiB,
      peakRssUnderLoadKiB: peak.maxRssKiB,
      hwmKiB,
      logFile,
    };
  } finally {
    sampler?.stop();
    await server.stop();
  }
}
