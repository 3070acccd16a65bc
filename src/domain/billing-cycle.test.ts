import { describe, expect, it } from 'vitest';
import { addCycle } from './billing-cycle';

describe('addCycle', () => {
  it.each([
    ['2026-11-27', 'Monthly', '2026-12-27'],
    ['2026-11-30', 'Quarterly', '2027-02-28'],
    ['2026-08-31', 'Semi-Annually', '2027-02-28'],
    ['2027-02-28', 'Annually', '2028-02-28'],
    ['2026-02-15', 'Biennially', '2028-02-15'],
    ['2026-02-15', 'Triennially', '2029-02-15'],
  ])('%s + one %s period is %s', (date, cycle, expected) => expect(addCycle(date, cycle)).toBe(expected));

  it("keeps the day of the month, or takes the month's last day when it has none (31 Jan → 28 Feb, 29 Feb in a leap year)", () => {
    expect(addCycle('2026-01-31', 'Monthly')).toBe('2026-02-28');
    expect(addCycle('2028-01-31', 'Monthly')).toBe('2028-02-29');
    expect(addCycle('2026-12-31', 'Monthly')).toBe('2027-01-31');
  });

  it('counts several periods, and back when negative: the start of the period that ends on a due date', () => {
    expect(addCycle('2026-05-10', 'Monthly', 3)).toBe('2026-08-10');
    expect(addCycle('2026-12-21', 'Monthly', -1)).toBe('2026-11-21');
    expect(addCycle('2026-03-31', 'Monthly', -1)).toBe('2026-02-28');
    expect(addCycle('2027-01-15', 'Semi-Annually', -1)).toBe('2026-07-15');
    expect(addCycle('2027-01-05', 'Annually', -2)).toBe('2025-01-05');
    expect(addCycle('2026-12-21', 'Quarterly', 0)).toBe('2026-12-21');
  });

  it('is null for One Time (a lifetime service never falls due) and for a cycle the billing does not know', () => {
    expect(addCycle('2026-05-10', 'One Time')).toBeNull();
    expect(addCycle('2026-05-10', 'One Time', -1)).toBeNull();
    expect(addCycle('2026-05-10', 'Weekly')).toBeNull();
  });
});
