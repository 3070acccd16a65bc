import { describe, expect, it } from 'vitest';
import { overloadVerdict, summariseLevel, type Outcome } from './overload';

const ok = (ms: number): Outcome => ({ status: 200, code: null, ms });
const shed = (ms: number): Outcome => ({ status: 503, code: 'overloaded', ms });

describe('overload figures', () => {
  it('counts accepted, shed, other and unanswered requests and takes percentiles of each kind apart', () => {
    const outcomes = [ok(10), ok(20), ok(30), shed(1), shed(3), { status: 503, code: 'store_unavailable', ms: 5 }, { status: 0, code: null, ms: 10_000 }];
    const figures = summariseLevel(4, 1000, outcomes);
    expect(figures).toMatchObject({ level: 4, rate: 1000, offered: 7, accepted: 3, shed: 2, other: 1, unanswered: 1, acceptedP50: 20, acceptedP99: 30, refusedP99: 3 });
  });

  it('passes a level whose refusals come fast and whose accepted answers stay within 10 × unloaded', () => {
    const figures = summariseLevel(4, 1000, [ok(40), ok(45), shed(2), shed(30)]);
    expect(overloadVerdict(figures, 5)).toEqual({ refused: true, accepted: true });
    expect(overloadVerdict(figures, 4)).toEqual({ refused: true, accepted: false });
  });

  it('fails a level whose refusals are slow, lack Retry-After, or whose requests went unanswered', () => {
    expect(overloadVerdict(summariseLevel(4, 1000, [ok(5), shed(51)]), 5).refused).toBe(false);
    expect(overloadVerdict(summariseLevel(4, 1000, [ok(5), shed(1)], 1), 5).refused).toBe(false);
    const queued = summariseLevel(4, 1000, [ok(5), { status: 0, code: null, ms: 10_000 }]);
    expect(overloadVerdict(queued, 5)).toEqual({ refused: false, accepted: false });
  });

  it('has no refusal percentile when nothing was refused', () => {
    expect(summariseLevel(1, 100, [ok(5)]).refusedP99).toBeNaN();
  });
});
