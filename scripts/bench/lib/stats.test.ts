import { describe, expect, it } from 'vitest';
import { kB, median, ms, percentile } from './stats';

describe('bench statistics', () => {
  it('takes the median of odd and even counts without sorting the input in place', () => {
    const values = [5, 1, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
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
