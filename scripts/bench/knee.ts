/**
 * Measure 3b: the throughput knee of getProducts (issue 11) on the embedded store, on PostgreSQL, and on a
 * bare Fastify answering the same JSON (the ceiling of this machine and load generator).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cannon } from './load';
import { rampToKnee, steadyRate, type KneeResult, type StepFigures } from './lib/knee';
import { benchPostgres } from './lib/postgres';
import { request, ROOT, sleep, startServer, type ServerHandle } from './lib/proc';

export const KNEE_PATH = '/checkout/api/getProducts';

/**
 * One autocannon per 50 req/s offered, started 1/n s apart, each with 5 connections of 10 req/s: a connection
 * waits for its answer before the next request, so 5 per stream let answers take up to ~100 ms before the
 * client itself slows down.
 */
export const KNEE_STREAM_RATE = 50;
export const KNEE_CONNECTIONS_PER_STREAM = 5;

export interface KneeServer {
  label: string;
  /** How it was run, for the report. */
  how: string;
  result: KneeResult | null;
  /** Why it was not measured. */
  unavailable?: string;
}

export interface KneeOptions {
  entry: string[];
  workDir: string;
  rates: number[];
  stepSeconds: number;
  log: (line: string) => void;
}

async function ramp(server: ServerHandle, options: KneeOptions, label: string): Promise<KneeResult> {
  // Warm-up, not recorded: the route's code paths compiled and the catalogue read once.
  await cannon({ url: server.base, connections: 4, amount: 500, requests: [{ method: 'GET', path: KNEE_PATH }] }, 'warm-up');
  return rampToKnee(options.rates, async (rate): Promise<StepFigures> => {
    const streams = Math.max(1, Math.ceil(rate / KNEE_STREAM_RATE));
    const figures = await cannon(
      { url: server.base, connections: 1, overallRate: rate, duration: options.stepSeconds, requests: [{ method: 'GET', path: KNEE_PATH }] },
      `${label} @ ${rate}/s`, streams, KNEE_CONNECTIONS_PER_STREAM,
    );
    const servedRate = steadyRate(figures.answerTimesMs, options.stepSeconds);
    options.log(`  ${figures.label}: p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ${servedRate.toFixed(0)}/s served, errors ${figures.errors}, non-2xx ${JSON.stringify(figures.non2xx)}`);
    // A pause between steps, so one step's backlog does not land in the next.
    await sleep(1_000);
    return { rate, answered: figures.answered, ok: figures.ok, non2xx: figures.non2xx, errors: figures.errors, achievedRate: servedRate, p99: figures.p99 };
  });
}

const describeResult = (result: KneeResult) => (result.knee === null ? `held every step up to ${result.lastHeld}/s` : `knee at ${result.knee}/s (${result.steps.at(-1)?.failures.join('; ')})`);

/** The three ramps, one server at a time; a server that cannot be had is reported as such, never guessed. */
export async function measureKnees(options: KneeOptions): Promise<{ ours: KneeServer[]; ceiling: KneeServer }> {
  const ours: KneeServer[] = [];
  let body: string | null = null;

  const embedded = await startServer({ entry: options.entry, dataDir: join(options.workDir, 'knee-data'), logFile: join(options.workDir, 'knee-pglite-server.log') });
  try {
    const answer = await request(`${embedded.base}${KNEE_PATH}`);
    if (answer.status !== 200) throw new Error(`GET ${KNEE_PATH} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    body = answer.body;
    const result = await ramp(embedded, options, 'embedded store');
    options.log(`  embedded store: ${describeResult(result)}`);
    ours.push({ label: 'embedded store (PGlite)', how: 'a fresh DATA_DIR, demo seed', result });
  } finally {
    await embedded.stop();
  }

  const postgres = await benchPostgres();
  if ('unavailable' in postgres) {
    options.log(`  PostgreSQL not available: ${postgres.unavailable}`);
    ours.push({ label: 'PostgreSQL', how: '', result: null, unavailable: postgres.unavailable });
  } else {
    try {
      const server = await startServer({
        entry: options.entry, dataDir: join(options.workDir, 'knee-pg-keys'), logFile: join(options.workDir, 'knee-postgres-server.log'), env: { DATABASE_URL: postgres.url },
      });
      try {
        const result = await ramp(server, options, 'PostgreSQL');
        options.log(`  PostgreSQL: ${describeResult(result)}`);
        ours.push({ label: 'PostgreSQL', how: postgres.origin, result });
      } finally {
        await server.stop();
      }
    } finally {
      await postgres.close();
    }
  }

  const bodyFile = join(options.workDir, 'ceiling-body.json');
  writeFileSync(bodyFile, body ?? '{}');
  const bare = await startServer({
    entry: ['--import', 'tsx', join(ROOT, 'scripts/bench/ceiling-server.ts')], dataDir: join(options.workDir, 'knee-ceiling-none'),
    logFile: join(options.workDir, 'knee-ceiling-server.log'), env: { CEILING_BODY_FILE: bodyFile },
  });
  try {
    const result = await ramp(bare, options, 'bare Fastify');
    options.log(`  bare Fastify: ${describeResult(result)}`);
    return { ours, ceiling: { label: 'bare Fastify, static JSON (ceiling)', how: `scripts/bench/ceiling-server.ts: Fastify with no plugins and no logger sending getProducts' body (${Buffer.byteLength(body ?? '')} bytes, read from the embedded server) as a string`, result } };
  } finally {
    await bare.stop();
  }
}
