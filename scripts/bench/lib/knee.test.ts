import { describe, expect, it } from 'vitest';
import { describeKnee, kneeRatio, rampToKnee, rampToKnees, steadyRate, stepFailures, type StepFigures } from './knee';

/** A step that served all it was offered, fast and clean, unless told otherwise. */
const step = (rate: number, over: Partial<StepFigures> = {}): StepFigures => ({
  rate, answered: rate * 5, ok: rate * 5, non2xx: {}, errors: 0, achievedRate: rate, p99: 4, ...over,
});

/**
 * A synthetic server: each rate's figures from a table (a list gives one entry per attempt, the last one
 * repeating); records which rates were offered, and into a shared log when given one.
 */
const synthetic = (table: Record<number, Partial<StepFigures> | Partial<StepFigures>[]>, log: string[] = [], name = '') => {
  const offered: number[] = [];
  return {
    offered,
    run: async (rate: number) => {
      const attempts = offered.filter((earlier) => earlier === rate).length;
      offered.push(rate);
      log.push(`${name}${rate}`);
      const entry = table[rate] ?? {};
      const figures = Array.isArray(entry) ? entry[Math.min(attempts, entry.length - 1)] ?? {} : entry;
      return step(rate, figures);
    },
  };
};

describe('stepFailures', () => {
  it('holds for a clean step and for a p99 of exactly 100 ms', () => {
    expect(stepFailures(step(500))).toEqual([]);
    expect(stepFailures(step(500, { p99: 100 }))).toEqual([]);
  });

  it('fails on p99 over 100 ms, on any error, on any non-2xx, and on a rate not served', () => {
    expect(stepFailures(step(500, { p99: 100.5 }))).toEqual(['p99 100.5 ms > 100 ms']);
    expect(stepFailures(step(500, { errors: 1 }))).toEqual(['1 connection errors or timeouts']);
    expect(stepFailures(step(500, { non2xx: { 503: 3, 500: 1 } }))).toEqual(['4 non-2xx (1× 500, 3× 503)']);
    expect(stepFailures(step(1000, { achievedRate: 940 }))).toEqual(['served 940/s of 1000/s offered']);
    expect(stepFailures(step(1000, { achievedRate: 950 }))).toEqual([]);
  });

  it('fails a step with no 2xx at all, whose p99 is not a number', () => {
    expect(stepFailures(step(500, { ok: 0, p99: Number.NaN, non2xx: { 503: 2500 } }))).toEqual(['no 2xx answer', '2500 non-2xx (2500× 503)']);
  });
});

describe('rampToKnee', () => {
  it('stops at the first rate that fails twice: the knee, with the last rate that held', async () => {
    const server = synthetic({ 1000: { p99: 180 }, 1500: { p99: 900 } });
    const result = await rampToKnee([250, 500, 750, 1000, 1500, 2000], server.run);
    expect(server.offered).toEqual([250, 500, 750, 1000, 1000]);
    expect(result.knee).toBe(1000);
    expect(result.lastHeld).toBe(750);
    expect(result.steps.map((figures) => figures.failures.length)).toEqual([0, 0, 0, 1, 1]);
    expect(describeKnee(result)).toBe('1000 req/s (held 750)');
  });

  it('finds a knee made of errors alone, with latency still low', async () => {
    const server = synthetic({ 750: { errors: 12, p99: 8 } });
    const result = await rampToKnee([250, 500, 750, 1000], server.run);
    expect(result.knee).toBe(750);
    expect(result.steps.at(-1)?.failures).toEqual(['12 connection errors or timeouts']);
  });

  it('offers the rates in ascending order whatever order they were given in', async () => {
    const server = synthetic({});
    await rampToKnee([1000, 250, 500], server.run);
    expect(server.offered).toEqual([250, 500, 1000]);
  });

  it('lets a rate hold when its retry passes (one stall of a shared machine is not a knee)', async () => {
    const server = synthetic({ 500: [{ p99: 400 }, { p99: 6 }], 750: { non2xx: { 503: 1 } } });
    const result = await rampToKnee([250, 500, 750], server.run);
    expect(server.offered).toEqual([250, 500, 500, 750, 750]);
    expect(result).toMatchObject({ lastHeld: 500, knee: 750 });
    const noRetry = await rampToKnee([250, 500, 750], synthetic({ 500: [{ p99: 400 }, { p99: 6 }] }).run, { retries: 0 });
    expect(noRetry).toMatchObject({ lastHeld: 250, knee: 500 });
  });

  it('says when the whole ramp held, and when the first step already failed', async () => {
    const held = await rampToKnee([250, 500], synthetic({}).run);
    expect(held).toMatchObject({ knee: null, lastHeld: 500 });
    expect(describeKnee(held)).toBe('> 500 req/s (the whole ramp held)');
    const failedAtOnce = await rampToKnee([250, 500], synthetic({ 250: { achievedRate: 100 } }).run);
    expect(failedAtOnce).toMatchObject({ knee: 250, lastHeld: null });
    expect(describeKnee(failedAtOnce)).toBe('≤ 250 req/s (the first step failed)');
  });
});

describe('kneeRatio', () => {
  it('is ours over the ceiling\'s when both were found', () => {
    expect(kneeRatio({ knee: 1000, lastHeld: 750 }, { knee: 4000, lastHeld: 3000 })).toEqual({ value: 0.25, bound: 'exact' });
  });

  it('is an upper bound when the ceiling held its whole ramp or ours failed its first step', () => {
    expect(kneeRatio({ knee: 1000, lastHeld: 750 }, { knee: null, lastHeld: 8000 })).toEqual({ value: 0.125, bound: 'at most' });
    expect(kneeRatio({ knee: 250, lastHeld: null }, { knee: 4000, lastHeld: 3000 })).toEqual({ value: 0.0625, bound: 'at most' });
  });

  it('is unknown when ours held its whole ramp', () => {
    expect(kneeRatio({ knee: null, lastHeld: 3000 }, { knee: 4000, lastHeld: 3000 }).bound).toBe('unknown');
  });
});

describe('steadyRate', () => {
  it('counts the answers from 1 s into the step to its end, per second', () => {
    // A 3 s step: 10 answers in the first second (streams still starting), 500 in each of the next two, 40 late.
    const times = [
      ...Array.from({ length: 10 }, (_, index) => index * 90),
      ...Array.from({ length: 1000 }, (_, index) => 1000 + index * 2),
      ...Array.from({ length: 40 }, (_, index) => 3000 + index),
    ];
    expect(steadyRate(times, 3)).toBe(500);
  });

  it('has no window for a step of 1 s or less', () => {
    expect(steadyRate([10, 20], 1)).toBeNaN();
  });
});

describe('rampToKnees', () => {
  it('offers each rate to every server still ramping before the next rate, and drops a server at its knee', async () => {
    const log: string[] = [];
    const results = await rampToKnees([250, 500, 1000], {
      ours: synthetic({ 500: { p99: 150 } }, log, 'ours@').run,
      ceiling: synthetic({}, log, 'ceiling@').run,
    });
    expect(log).toEqual(['ours@250', 'ceiling@250', 'ours@500', 'ours@500', 'ceiling@500', 'ceiling@1000']);
    expect(results.ours).toMatchObject({ lastHeld: 250, knee: 500 });
    expect(results.ceiling).toMatchObject({ lastHeld: 1000, knee: null });
  });

  it('stops offering rates once every server has its knee', async () => {
    const log: string[] = [];
    await rampToKnees([250, 500, 1000], { a: synthetic({ 250: { errors: 1 } }, log, 'a@').run }, { retries: 0 });
    expect(log).toEqual(['a@250']);
  });
});
