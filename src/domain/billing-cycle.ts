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

const CYCLE_MONTHS: Record<Exclude<BillingCycle, 'One Time'>, number> = {
  Monthly: 1, Quarterly: 3, 'Semi-Annually': 6, Annually: 12, Biennially: 24, Triennially: 36,
};

/** Months one period of a cycle lasts; null for One Time (a lifetime service never falls due). */
export function cycleMonths(cycle: string): number | null {
  return isBillingCycle(cycle) && cycle !== 'One Time' ? CYCLE_MONTHS[cycle] : null;
}

/** A calendar date (YYYY-MM-DD) of a moment, in UTC: due dates are days, the same for every instance. */
export function calendarDate(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** One calendar day in milliseconds (UTC days have no daylight saving). */
export const DAY_MS = 24 * 60 * 60 * 1000;
const dateAt = (date: string) => new Date(`${date}T00:00:00.000Z`);

/** The date `days` days after (or before, when negative) a date. */
export function addDays(date: string, days: number): string {
  return calendarDate(new Date(dateAt(date).getTime() + days * DAY_MS));
}

/** Whole days from one date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateAt(to).getTime() - dateAt(from).getTime()) / DAY_MS);
}

/**
 * The due date `periods` periods after `date` (before it when negative; one by default): the same day of the month,
 * or the month's last day when it has no such day (31 Jan + 1 month = 28 Feb). Null for One Time.
 */
export function addCycle(date: string, cycle: string, periods = 1): string | null {
  const months = cycleMonths(cycle);
  if (months === null) return null;
  const start = dateAt(date);
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months * periods, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return calendarDate(target);
}

/**
 * The due date of a service activated on `activated` as of `today`: the activation day plus whole cycles, each
 * from the last (as renewals move it), the first not before today. Null for One Time.
 */
export function dueDateSince(activated: string, cycle: string, today: string): string | null {
  let due = addCycle(activated, cycle);
  while (due !== null && due < today) due = addCycle(due, cycle);
  return due;
}
