import { describe, expect, it } from 'vitest';
import { vitalBucket } from '../flow-record';
import { p75, parseFlowStatsQuery } from './flow-stats';

describe('the vitals histogram', () => {
  it('counts a measure in the first bucket whose upper bound holds it, and above 10 s in the last (-1)', () => {
    expect([0, 16, 17, 200, 201, 10_000, 10_001].map(vitalBucket)).toEqual([16, 16, 50, 200, 250, 10_000, -1]);
  });

  it('reads p75 as the upper bound of the bucket where the cumulative count reaches 75 %', () => {
    // 4 measures: 1 ≤ 16 ms, 2 ≤ 50 ms, 1 ≤ 100 ms; the third of four (75 %) is in the 50 ms bucket.
    expect(p75([{ bucketMs: 100, count: 1 }, { bucketMs: 16, count: 1 }, { bucketMs: 50, count: 2 }], 1)).toBe(50);
    expect(p75([{ bucketMs: 16, count: 1 }, { bucketMs: 50, count: 1 }], 1)).toBe(50);
  });

  it('has no p75 under the minimum count, nor when 75 % is reached only above the last bound', () => {
    expect(p75([{ bucketMs: 50, count: 4 }], 5)).toBeNull();
    expect(p75([{ bucketMs: -1, count: 3 }, { bucketMs: 200, count: 1 }], 1)).toBeNull();
  });
});

describe('the /flowStats query', () => {
  it('reads today and the 29 days before by default, by day, unfiltered', () => {
    expect(parseFlowStatsQuery(new URLSearchParams(''), '2026-03-14')).toEqual({ from: '2026-02-13', to: '2026-03-14', by: 'day', locale: null, gateway: null });
    expect(parseFlowStatsQuery(new URLSearchParams('to=2026-01-30&by=week&locale=&gateway=sandbox'), '2026-03-14'))
      .toEqual({ from: '2026-01-01', to: '2026-01-30', by: 'week', locale: null, gateway: 'sandbox' });
  });

  it('refuses a day that does not exist, a range backwards, an unknown parameter or value', () => {
    for (const query of ['from=2026-02-29', 'to=2026-13-01', 'from=2026-03-02&to=2026-03-01', 'by=hour', 'locale=xx-xx', 'gateway=Sand%20box', 'ip=1']) {
      expect(parseFlowStatsQuery(new URLSearchParams(query), '2026-03-14'), query).toEqual({ problem: expect.any(String) });
    }
  });
});
