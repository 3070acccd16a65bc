/**
 * What shoppers did, as the studio reads it: GET stats/flowStats on the studio's own server, which asks the shop's
 * operator listener (scripts/studio/stats-proxy.ts). A static copy of the studio has no such server.
 */
import { useEffect, useState } from 'react';
import { countInWords, GOOD_INP_MS, type FlowStateStats, type FlowStats, type ShownCount } from '../../src/domain/flow-traffic';

export const TRAFFIC_RANGES = [7, 30] as const;
export type TrafficDays = (typeof TRAFFIC_RANGES)[number];
/** The ranges as a select offers them. */
export const RANGE_OPTIONS = TRAFFIC_RANGES.map((days) => ({ value: String(days), words: `last ${days} days` }));

export interface StatsQuery {
  days: TrafficDays;
  by?: 'day' | 'week';
  locale?: string | null;
  gateway?: string | null;
}

export type StatsResult =
  | { status: 'loading' }
  | { status: 'ready'; stats: FlowStats }
  | { status: 'error'; message: string }
  /** Served without the studio's server (a static copy, or a file). */
  | { status: 'no-server' };

export const NO_SERVER_MESSAGE = 'Traffic needs the studio\'s own server: run npm run studio (a static copy of the studio cannot ask a shop for its traffic).';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` UTC days, today included. */
export function dayRange(days: number, today = new Date()): { from: string; to: string } {
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);
  return { from: isoDay(from), to: isoDay(today) };
}

export function statsUrl({ days, by, locale, gateway }: StatsQuery): string {
  const query = new URLSearchParams(dayRange(days));
  if (by) query.set('by', by);
  if (locale !== null && locale !== undefined) query.set('locale', locale);
  if (gateway !== null && gateway !== undefined) query.set('gateway', gateway);
  return `stats/flowStats?${query}`;
}

async function fetchStats(url: string): Promise<StatsResult> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    return { status: 'no-server' };
  }
  const body = (await response.json().catch(() => null)) as (Partial<FlowStats> & { error?: { message?: string } }) | null;
  if (response.ok && body && Array.isArray(body.machines) && body.funnel) return { status: 'ready', stats: body as FlowStats };
  if (body?.error?.message) return { status: 'error', message: body.error.message };
  // Anything else (a 404 page, a file) is a server that is not the studio's.
  return { status: 'no-server' };
}

/** The traffic for a query, fetched again whenever the query changes; null asks nothing. */
export function useFlowStats(query: StatsQuery | null): StatsResult | null {
  const url = query ? statsUrl(query) : null;
  const [result, setResult] = useState<{ url: string; value: StatsResult } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    void fetchStats(url).then((value) => current && setResult({ url, value }));
    return () => {
      current = false;
    };
  }, [url]);
  if (!url) return null;
  return result?.url === url ? result.value : { status: 'loading' };
}

/** One machine's traffic as the diagram paints it. */
export interface TrafficOverlay {
  transitions: ReadonlyMap<string, ShownCount>;
  states: ReadonlyMap<string, FlowStateStats>;
}

/** The machine's traffic in the stats; null when the machine has none (no traffic yet). */
export function overlayFor(stats: FlowStats, machine: string): TrafficOverlay | null {
  const found = stats.machines.find((candidate) => candidate.machine === machine);
  if (!found || (!found.transitions.length && !found.states.length)) return null;
  const transitions = new Map(found.transitions.map(({ transition, count }) => [transition, count]));
  return { transitions, states: new Map(found.states.map((state) => [state.state, state])) };
}

const THIN_LINE = 1.5;
const THICK_LINE = 9;

/** A count summed over several transitions: a number, "fewer than N" when every part was masked, or "at least X" when some were. */
export type SummedCount = ShownCount | { atLeast: number };

/** The sum of shown counts; a masked part is never added as a number; undefined when there are no parts. */
export function sumOfCounts(parts: readonly ShownCount[]): SummedCount | undefined {
  if (!parts.length) return undefined;
  const numbers = parts.filter((part): part is number => typeof part === 'number');
  const total = numbers.reduce((sum, part) => sum + part, 0);
  const masked = parts.filter((part): part is { fewerThan: number } => typeof part !== 'number');
  if (!masked.length) return total;
  // Each masked part is at most fewerThan − 1, so several masked parts (and zeros) stay under the sum of those bounds.
  if (total === 0) return { fewerThan: masked.reduce((bound, part) => bound + part.fewerThan - 1, 0) + 1 };
  return { atLeast: total };
}

/** "12", "fewer than 5" or "at least 12". */
export function summedInWords(count: SummedCount): string {
  return typeof count === 'object' && 'atLeast' in count ? `at least ${count.atLeast}` : countInWords(count);
}

/** The number a count is at least: itself, its known part, or 0 when masked. */
export const knownPart = (count: SummedCount | undefined): number => (typeof count === 'number' ? count : count && 'atLeast' in count ? count.atLeast : 0);

/** The line weight of a drawn edge: thin when masked or untaken, up to THICK_LINE for the most taken. */
export function lineWeight(count: SummedCount | undefined, most: number): number {
  const known = knownPart(count);
  if (known === 0) return THIN_LINE;
  return THIN_LINE + (THICK_LINE - THIN_LINE) * Math.sqrt(Math.min(1, known / most));
}

export const percent = (share: number) => `${Math.round(share * 100)} %`;

/** "12 entries · 25 % ended here", masked counts in words. */
export function entriesInWords(state: FlowStateStats): string {
  const entries = `${countInWords(state.entries)} ${state.entries === 1 ? 'entry' : 'entries'}`;
  if (state.endedShare !== null) return `${entries} · ${percent(state.endedShare)} ended here`;
  if (typeof state.ended !== 'number') return `${entries} · ended here: ${countInWords(state.ended)}`;
  return entries;
}

export type InpRating = 'good' | 'slow' | 'unknown';

export function inpRating(state: FlowStateStats): InpRating {
  if (state.inpP75 === null) return 'unknown';
  return state.inpP75 <= GOOD_INP_MS ? 'good' : 'slow';
}

/** The mark beside each rating, so the legend does not rest on colour alone. */
export const INP_MARKS: Record<InpRating, string> = { good: '✓', slow: '▲', unknown: '–' };

/** "INP 180 ms ✓ good", or why there is no figure; null when no interaction was measured at all. */
export function inpInWords(state: FlowStateStats): string | null {
  const rating = inpRating(state);
  if (rating !== 'unknown') return `INP ${Math.round(state.inpP75!)} ms ${INP_MARKS[rating]} ${rating}`;
  return state.inpSamples === 0 ? null : `INP ${INP_MARKS.unknown} too few measures`;
}
