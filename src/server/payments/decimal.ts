/**
 * Amounts cross every provider boundary as decimal strings ("12.99"), never as floats: these convert them
 * to and from the checkout's integer cents without arithmetic on fractions.
 */

/** "12.99" for 1299 cents: the exact number format links, signatures and provider calls carry. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** Integer cents of a decimal string with at most two decimals ("12.9" → 1290, "12" → 1200); null for anything else. */
export function decimalToCents(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
