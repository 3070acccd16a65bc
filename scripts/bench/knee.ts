/**
 * Measure 3b: the throughput knee of getProducts (issue 11) on the embedded store, on PostgreSQL, and on a
 * bare Fastify answering the same JSON (the ceiling of this machine and load generator).
 */
import os from 'node:os';
import { join } from 'node:path';
import { cannon, ceilingHow, startCeiling } from './load';
import { rampToKnees, steadyRate, type KneeResult, type StepFigures } from './lib/knee';
import { benchPostgres, type BenchPostgres } from './lib/postgres';
import { request, sleep, startServer, type ServerHandle } from './lib/proc';

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

/** One step: `rate` req/s at the server for the step's length, then a pause so its backlog does not land in the next. */
async function runStep(server: ServerHandle, options: KneeOptions, label: string, rate: number): Promise<StepFigures> {
  const streams = Math.max(1, Math.ceil(rate / KNEE_STREAM_RATE));
  const figures = await cannon(
    { url: server.base, connections: 1, overallRate: rate, duration: options.stepSeconds, requests: [{ method: 'GET', path: KNEE_PATH }] },
    `${label} @ ${rate}/s`, streams, KNEE_CONNECTIONS_PER_STREAM,
  );
  const servedRate = steadyRate(figures.answerTimesMs, options.stepSeconds);
  options.log(`  ${figures.label}: p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ${servedRate.toFixed(0)}/s served, errors ${figures.errors}, non-2xx ${JSON.stringify(figures.non2xx)} (load average ${(os.loadavg()[0] ?? 0).toFixed(1)})`);
  await sleep(1_000);
  return { rate, answered: figures.answered, ok: figures.ok, non2xx: figures.non2xx, errors: figures.errors, achievedRate: servedRate, p99: figures.p99 };
}

const describeResult = (result: KneeResult) => (result.knee === null ? `held every step up to ${result.lastHeld}/s` : `knee at ${result.knee}/s (${result.steps.at(-1)?.failures.join('; ')})`);

interface Candidate {
  label: string;
  how: string;
  server: ServerHandle;
}

/**
 * The three servers started side by side and ramped together, rate by rate (rampToKnees), so the noise of a
 * shared machine falls on each alike; a PostgreSQL that cannot be had is reported as such, never guessed.
 */
export async function measureKnees(options: KneeOptions): Promise<{ ours: KneeServer[]; ceiling: KneeServer }> {
  const servers: ServerHandle[] = [];
  let postgres: BenchPostgres | { unavailable: string } | null = null;
  try {
    const embedded = await startServer({ entry: options.entry, dataDir: join(options.workDir, 'knee-data'), logFile: join(options.workDir, 'knee-pglite-server.log') });
    servers.push(embedded);
    const answer = await request(`${embedded.base}${KNEE_PATH}`);
    if (answer.status !== 200) throw new Error(`GET ${KNEE_PATH} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const candidates: Candidate[] = [{ label: 'embedded store (PGlite)', how: 'a fresh DATA_DIR, demo seed', server: embedded }];

    postgres = await benchPostgres();
    if ('unavailable' in postgres) {
      options.log(`  PostgreSQL not available: ${postgres.unavailable}`);
    } else {
      const onPostgres = await startServer({
        entry: options.entry, dataDir: join(options.workDir, 'knee-pg-keys'), logFile: join(options.workDir, 'knee-postgres-server.log'), env: { DATABASE_URL: postgres.url },
      });
      servers.push(onPostgres);
      candidates.push({ label: 'PostgreSQL', how: postgres.origin, server: onPostgres });
    }

    const bare = await startCeiling(options.workDir, answer.body, 'knee-ceiling');
    servers.push(bare);
    const ceiling: Candidate = { label: 'bare Fastify, static JSON (ceiling)', server: bare, how: ceilingHow(answer.body) };

    const all = [...candidates, ceiling];
    // Warm-up, not recorded: each route's code paths compiled and the catalogue read once.
    for (const candidate of all) await cannon({ url: candidate.server.base, connections: 4, amount: 500, requests: [{ method: 'GET', path: KNEE_PATH }] }, 'warm-up');
    const results = await rampToKnees(options.rates, Object.fromEntries(all.map((candidate) => [candidate.label, (rate: number) => runStep(candidate.server, options, candidate.label, rate)])));
    const named = (candidate: Candidate): KneeServer => {
      const result = results[candidate.label] as KneeResult;
      options.log(`  ${candidate.label}: ${describeResult(result)}`);
      return { label: candidate.label, how: candidate.how, result };
    };
    const ours = candidates.map(named);
    if ('unavailable' in postgres) ours.push({ label: 'PostgreSQL', how: '', result: null, unavailable: postgres.unavailable });
    return { ours, ceiling: named(ceiling) };
  } finally {
    for (const server of servers) await server.stop();
    if (postgres && !('unavailable' in postgres)) await postgres.close();
  }
}
