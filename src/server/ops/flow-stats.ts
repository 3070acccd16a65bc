/**
 * GET /flowStats on the operator listener, and the totals the Prometheus series reads: the flow tables summed over
 * a range of UTC days, every count masked with shownCount after summing.
 */
import { and, gte, lte, sql, type AnyColumn } from 'drizzle-orm';
import { isLocale } from '../../domain/locale';
import { shownCount, type FlowMachineStats, type FlowStats, type FlowStateStats, type FunnelStep } from '../../domain/flow-traffic';
import { withTimeout, type Database } from '../db/connect';
import { flowFunnel, flowStates, flowTransitions, flowVitals } from '../db/schema';

/** The range read when the query names none: today and the 29 days before it. */
const DEFAULT_DAYS = 30;
/** The longest range one read may cover. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
/** A scrape never waits on a slow store for longer than this. */
const TOTALS_READ_TIMEOUT_MS = 1_000;

export interface FlowStatsQuery {
  from: string;
  to: string;
  by: 'day' | 'week';
  locale: string | null;
  gateway: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// A day that does not exist (2026-02-30) parses to another day, or to nothing.
const isDay = (value: string) => DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const dayBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
const QUERY_NAMES = new Set(['from', 'to', 'by', 'locale', 'gateway']);

/** The query read from the URL's parameters, or why it cannot be (answered 400). Empty `locale` or `gateway`: no filter. */
export function parseFlowStatsQuery(params: URLSearchParams, today: string): FlowStatsQuery | { problem: string } {
  const unknown = [...params.keys()].filter((name) => !QUERY_NAMES.has(name));
  if (unknown.length) return { problem: `Unknown parameter ${unknown.join(', ')} (known: from, to, by, locale, gateway).` };
  const to = params.get('to') || today;
  if (!isDay(to)) return { problem: 'from and to are UTC days, YYYY-MM-DD.' };
  const from = params.get('from') || dayBefore(to, DEFAULT_DAYS - 1);
  if (!isDay(from)) return { problem: 'from and to are UTC days, YYYY-MM-DD.' };
  if (from > to) return { problem: 'from comes after to.' };
  if (Date.parse(to) - Date.parse(from) >= MAX_DAYS * DAY_MS) return { problem: `A range covers at most ${MAX_DAYS} days.` };
  const by = params.get('by') || 'day';
  if (by !== 'day' && by !== 'week') return { problem: 'by is day or week.' };
  const locale = params.get('locale') || null;
  if (locale !== null && !isLocale(locale)) return { problem: `locale ${locale} is not one of the shop's locales.` };
  const gateway = params.get('gateway') || null;
  if (gateway !== null && !/^[a-z0-9_-]{1,40}$/.test(gateway)) return { problem: 'gateway is a gateway module name.' };
  return { from, to, by, locale, gateway };
}

/**
 * p75 of a histogram: the upper bound of the first bucket where the cumulative count reaches 75 % of the samples
 * (-1, the bucket above the last bound, has no upper bound: null). Null under minCount samples.
 */
export function p75(buckets: { bucketMs: number; count: number }[], minCount: number): number | null {
  const samples = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  if (samples < minCount || samples === 0) return null;
  const ordered = [...buckets].sort((a, b) => (a.bucketMs === -1 ? 1 : b.bucketMs === -1 ? -1 : a.bucketMs - b.bucketMs));
  let cumulative = 0;
  for (const bucket of ordered) {
    cumulative += bucket.count;
    if (cumulative >= 0.75 * samples) return bucket.bucketMs === -1 ? null : bucket.bucketMs;
  }
  return null;
}

const sum = (column: AnyColumn) => sql<number>`cast(sum(${column}) as integer)`;

/** The FlowStats of a range, read from the store; counts under minCount read only as { fewerThan: minCount }. */
export async function readFlowStats(db: Database, query: FlowStatsQuery, minCount: number): Promise<FlowStats> {
  const inRange = <T extends typeof flowStates | typeof flowTransitions | typeof flowVitals | typeof flowFunnel>(table: T) => and(gte(table.day, query.from), lte(table.day, query.to));
  const [states, transitions, vitals] = await Promise.all([
    db.select({ machine: flowStates.machine, state: flowStates.state, entries: sum(flowStates.entries), exits: sum(flowStates.exits), ended: sum(flowStates.ended) })
      .from(flowStates).where(inRange(flowStates)).groupBy(flowStates.machine, flowStates.state),
    db.select({ machine: flowTransitions.machine, transition: flowTransitions.transition, count: sum(flowTransitions.count) })
      .from(flowTransitions).where(inRange(flowTransitions)).groupBy(flowTransitions.machine, flowTransitions.transition),
    db.select({ machine: flowVitals.machine, state: flowVitals.state, metric: flowVitals.metric, bucketMs: flowVitals.bucketMs, count: sum(flowVitals.count) })
      .from(flowVitals).where(inRange(flowVitals)).groupBy(flowVitals.machine, flowVitals.state, flowVitals.metric, flowVitals.bucketMs),
  ]);
  const shown = (count: number) => shownCount(count, minCount);
  const machineIds = [...new Set([...states, ...transitions, ...vitals].map((row) => row.machine))].sort();
  const machines: FlowMachineStats[] = machineIds.map((machine) => {
    const visits = states.find((row) => row.machine === machine && row.state === machine)?.entries ?? 0;
    const stateIds = [...new Set([...states, ...vitals].filter((row) => row.machine === machine).map((row) => row.state))].sort();
    return {
      machine,
      visits: shown(visits),
      transitions: transitions.filter((row) => row.machine === machine).sort((a, b) => a.transition.localeCompare(b.transition))
        .map((row) => ({ transition: row.transition, count: shown(row.count) })),
      states: stateIds.map((state): FlowStateStats => {
        const counts = states.find((row) => row.machine === machine && row.state === state) ?? { entries: 0, exits: 0, ended: 0 };
        const histogram = (metric: 'INP' | 'LCP') => vitals.filter((row) => row.machine === machine && row.state === state && row.metric === metric);
        const samples = (metric: 'INP' | 'LCP') => histogram(metric).reduce((total, row) => total + row.count, 0);
        const ended = shown(counts.ended);
        const shownVisits = shown(visits);
        return {
          state,
          entries: shown(counts.entries),
          exits: shown(counts.exits),
          ended,
          endedShare: typeof ended === 'number' && typeof shownVisits === 'number' && shownVisits > 0 ? ended / shownVisits : null,
          inpP75: p75(histogram('INP'), minCount),
          lcpP75: p75(histogram('LCP'), minCount),
          inpSamples: shown(samples('INP')),
          lcpSamples: shown(samples('LCP')),
        };
      }),
    };
  });
  return { from: query.from, to: query.to, minCount, machines, funnel: await readFunnel(db, query, minCount) };
}

async function readFunnel(db: Database, query: FlowStatsQuery, minCount: number): Promise<FlowStats['funnel']> {
  const range = and(gte(flowFunnel.day, query.from), lte(flowFunnel.day, query.to));
  // A week is named by its Monday (date_trunc's week is ISO's).
  const period = query.by === 'week' ? sql<string>`to_char(date_trunc('week', ${flowFunnel.day}), 'YYYY-MM-DD')` : sql<string>`to_char(${flowFunnel.day}, 'YYYY-MM-DD')`;
  const filters = [range, ...(query.locale !== null ? [sql`${flowFunnel.locale} = ${query.locale}`] : []), ...(query.gateway !== null ? [sql`${flowFunnel.gateway} = ${query.gateway}`] : [])];
  const [rows, choices] = await Promise.all([
    db.select({ period, step: flowFunnel.step, count: sum(flowFunnel.count) }).from(flowFunnel).where(and(...filters)).groupBy(period, flowFunnel.step).orderBy(period),
    db.selectDistinct({ locale: flowFunnel.locale, gateway: flowFunnel.gateway }).from(flowFunnel).where(range),
  ]);
  return {
    by: query.by,
    locale: query.locale,
    gateway: query.gateway,
    locales: [...new Set(choices.map((row) => row.locale))].sort(),
    gateways: [...new Set(choices.map((row) => row.gateway))].sort(),
    rows: rows.map((row) => ({ period: row.period, step: row.step as FunnelStep, count: shownCount(row.count, minCount) })),
  };
}

/** Every transition's total over all days, only those at minCount or more (a series under it is absent). */
export function flowTransitionTotalsReader(db: Database, minCount: number, timeoutMs = TOTALS_READ_TIMEOUT_MS) {
  return async (): Promise<{ machine: string; transition: string; count: number }[]> => {
    const total = sum(flowTransitions.count);
    return withTimeout(db.select({ machine: flowTransitions.machine, transition: flowTransitions.transition, count: total })
      .from(flowTransitions).groupBy(flowTransitions.machine, flowTransitions.transition).having(sql`sum(${flowTransitions.count}) >= ${minCount}`), timeoutMs);
  };
}

/** The answer of GET /flowStats for a URL's parameters: 200 with FlowStats, or 400 in the one error shape. */
export function flowStatsAnswer(db: Database, minCount: number, today: () => string) {
  return async (params: URLSearchParams): Promise<{ status: number; body: unknown }> => {
    const query = parseFlowStatsQuery(params, today());
    if ('problem' in query) return { status: 400, body: { error: { code: 'bad_request', message: query.problem } } };
    return { status: 200, body: await readFlowStats(db, query, minCount) };
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** GET /flowStats's answer, served on the operator listener. */
    flowStats: ReturnType<typeof flowStatsAnswer>;
  }
}
