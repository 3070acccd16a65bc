import { describe, expect, it } from 'vitest';
import { kB, median, medianOfDifferences, ms, percentile } from './stats';

describe('bench statistics', () => {
  it('takes the median of odd and even counts without sorting the input in place', () => {
    const values = [5, 1, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('takes the median of per-run differences, not the difference of the medians', () => {
    // LCP and FCP of three runs: the medians are 900 and 700 (difference 200), the runs' own differences 50, 60, 600.
    expect(medianOfDifferences([900, 1300, 760], [850, 700, 700])).toBe(60);
    expect(medianOfDifferences([800, 1000], [700, 700])).toBe(200);
    expect(medianOfDifferences([], [])).toBeNaN();
    expect(() => medianOfDifferences([1, 2], [1])).toThrow('2 values against 1');
  });

  it('gives nearest-rank percentiles that were observed', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('formats sizes and durations', () => {
    expect(kB(140_000)).toBe('140.0 kB');
    expect(ms(3.456)).toBe('3.46 ms');
    expect(ms(45.67)).toBe('45.7 ms');
    expect(ms(1234.5)).toBe('1235 ms');
    expect(ms(Number.NaN)).toBe('n/a');
  });
});
