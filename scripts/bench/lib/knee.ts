/** The throughput knee: the offered rate at which a server stops keeping up. Pure, so it has tests of its own. */

/** What one step of the ramp measured at one offered rate. */
export interface StepFigures {
  /** Offered requests per second. */
  rate: number;
  /** Requests answered (any status). */
  answered: number;
  ok: number;
  /** Answers by status other than 2xx. */
  non2xx: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answered per second over the step. */
  achievedRate: number;
  /** p99 of the 2xx answers' latencies, ms. */
  p99: number;
}

export interface KneeRule {
  /** A step whose p99 passes this fails. */
  p99LimitMs: number;
  /** A step that answers less than this share of the offered rate fails (the server, not the client, set the pace). */
  minServedShare: number;
}

/** Issue 11's rule: p99 over 100 ms, or any error or non-2xx; and the offered rate must actually be served. */
export const KNEE_RULE: KneeRule = { p99LimitMs: 100, minServedShare: 0.95 };

/**
 * Answers per second while every stream runs: from 1 s (the last stream has started) to the step's end (the
 * first stops). Each stream sends its share at the start of each of its seconds, so this whole-second window
 * holds exactly one share per stream and second when the server keeps up.
 */
export function steadyRate(answerTimesMs: readonly number[], stepSeconds: number): number {
  const from = 1000;
  const to = stepSeconds * 1000;
  if (to <= from) return Number.NaN;
  return answerTimesMs.filter((at) => at >= from && at < to).length / ((to - from) / 1000);
}

/** Why a step fails the rule, in words; empty when it holds. */
export function stepFailures(step: StepFigures, rule: KneeRule = KNEE_RULE): string[] {
  const reasons: string[] = [];
  const non2xx = Object.values(step.non2xx).reduce((sum, count) => sum + count, 0);
  if (step.ok === 0) reasons.push('no 2xx answer');
  else if (!(step.p99 <= rule.p99LimitMs)) reasons.push(`p99 ${step.p99.toFixed(1)} ms > ${rule.p99LimitMs} ms`);
  if (step.errors > 0) reasons.push(`${step.errors} connection errors or timeouts`);
  if (non2xx > 0) reasons.push(`${non2xx} non-2xx (${Object.entries(step.non2xx).map(([status, count]) => `${count}× ${status}`).join(', ')})`);
  if (step.achievedRate < rule.minServedShare * step.rate) reasons.push(`served ${step.achievedRate.toFixed(0)}/s of ${step.rate}/s offered`);
  return reasons;
}

export interface KneeResult {
  /** Every step run, in order (a step that failed and was run again appears twice). */
  steps: (StepFigures & { failures: string[] })[];
  /** The highest offered rate that held (null when the first rate already failed). */
  lastHeld: number | null;
  /** The knee: the first offered rate that failed (null when every rate of the ramp held). */
  knee: number | null;
}

/**
 * Offers each rate of the ramp (ascending) to every server in turn, so a noisy moment of a shared machine
 * falls on all of them alike; a server leaves the ramp at its first failing rate, its knee. A failing step
 * is run `retries` more times and the rate holds if one of them passes, so one stall does not make a knee.
 */
export async function rampToKnees<Name extends string>(
  rates: readonly number[],
  runners: Record<Name, (rate: number) => Promise<StepFigures>>,
  { rule = KNEE_RULE, retries = 1 }: { rule?: KneeRule; retries?: number } = {},
): Promise<Record<Name, KneeResult>> {
  const names = Object.keys(runners) as Name[];
  const results = Object.fromEntries(names.map((name) => [name, { steps: [], lastHeld: null, knee: null }])) as unknown as Record<Name, KneeResult>;
  const ramping = new Set(names);
  for (const rate of [...rates].sort((a, b) => a - b)) {
    for (const name of names.filter((candidate) => ramping.has(candidate))) {
      const result = results[name];
      let held = false;
      for (let attempt = 0; attempt <= retries && !held; attempt += 1) {
        const figures = await runners[name](rate);
        const failures = stepFailures(figures, rule);
        result.steps.push({ ...figures, failures });
        held = failures.length === 0;
      }
      if (held) {
        result.lastHeld = rate;
      } else {
        result.knee = rate;
        ramping.delete(name);
      }
    }
    if (ramping.size === 0) break;
  }
  return results;
}

/** One server's ramp (see rampToKnees). */
export async function rampToKnee(rates: readonly number[], runStep: (rate: number) => Promise<StepFigures>, options: { rule?: KneeRule; retries?: number } = {}): Promise<KneeResult> {
  return (await rampToKnees(rates, { server: runStep }, options)).server;
}

/** A knee in words: "1500 req/s (held 1000)", "> 8000 req/s (the whole ramp held)", "≤ 250 req/s". */
export function describeKnee(result: Pick<KneeResult, 'knee' | 'lastHeld'>): string {
  if (result.knee === null) return `> ${result.lastHeld ?? 0} req/s (the whole ramp held)`;
  if (result.lastHeld === null) return `≤ ${result.knee} req/s (the first step failed)`;
  return `${result.knee} req/s (held ${result.lastHeld})`;
}

/**
 * Our knee over the ceiling's. When the ceiling held its whole ramp, its knee is above its last step and the
 * ratio an upper bound; so it is when ours failed its very first step. Ours above its ramp gives no ratio.
 */
export function kneeRatio(ours: Pick<KneeResult, 'knee' | 'lastHeld'>, ceiling: Pick<KneeResult, 'knee' | 'lastHeld'>): { value: number; bound: 'exact' | 'at most' | 'unknown' } {
  if (ours.knee === null) return { value: Number.NaN, bound: 'unknown' };
  const ceilingAt = ceiling.knee ?? ceiling.lastHeld;
  if (!ceilingAt) return { value: Number.NaN, bound: 'unknown' };
  const exact = ceiling.knee !== null && ours.lastHeld !== null;
  return { value: ours.knee / ceilingAt, bound: exact ? 'exact' : 'at most' };
}
