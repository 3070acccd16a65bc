import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents } from './decimal';

describe('amounts as decimal strings at the provider boundary', () => {
  it.each([[1299, '12.99'], [1200, '12.00'], [5, '0.05'], [0, '0.00'], [123456789, '1234567.89']])('%i cents is written "%s"', (cents, text) => {
    expect(centsToDecimal(cents)).toBe(text);
  });

  it.each([['12.99', 1299], ['12.9', 1290], ['12', 1200], ['0.05', 5], ['0.1', 10], ['1234567.89', 123456789]])('"%s" is %i cents', (text, cents) => {
    expect(decimalToCents(text)).toBe(cents);
  });

  it.each([[12.99], ['12.999'], ['-1.00'], ['1e3'], [' 12.99'], ['12,99'], [''], ['.5'], [null]])('%j is not an amount', (value) => {
    expect(decimalToCents(value)).toBeNull();
  });

  it('refuses a fraction of a cent or a negative amount when writing', () => {
    expect(() => centsToDecimal(12.5)).toThrow(RangeError);
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
  });
});
