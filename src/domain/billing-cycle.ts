/** Billing cycles as the billing system names them. */
export const BILLING_CYCLES = ['Monthly', 'Quarterly', 'Semi-Annually', 'Annually', 'Biennially', 'Triennially', 'One Time'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Pricing keys per cycle, as in the catalogue's pricing tables. */
export type PricingKey = 'monthly' | 'quarterly' | 'semiannually' | 'annually' | 'biennially' | 'triennially';

/**
 * The pricing key of a cycle: hyphens and spaces removed, lower case;
 * One Time is priced as monthly.
 */
export function pricingKey(cycle: string): PricingKey {
  const key = cycle.replace(/[-\s]/g, '').toLowerCase();
  if (key === 'onetime') return 'monthly';
  if (['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially'].includes(key)) {
    return key as PricingKey;
  }
  throw new RangeError(`Unknown billing cycle: ${cycle}`);
}

/** True for a cycle name the billing system knows. */
export function isBillingCycle(value: string): value is BillingCycle {
  return (BILLING_CYCLES as readonly string[]).includes(value);
}
