import { CURRENCIES, type Currency, type CurrencyRates } from './currency';
import { roundMoney } from './money';

/**
 * A promotion as the billing system keeps it, with WHMCS semantics (reference section 3): a Fixed
 * Amount's value is in the default currency.
 */
export interface StoredPromotion {
  code: string;
  type: 'Percentage' | 'Fixed Amount';
  /** Percent off, or (Fixed Amount) the amount off in the default currency. */
  value: number;
  /** Comma-separated product ids. */
  appliesto: string;
  /** YYYY-MM-DD; 0000-00-00 means unbounded. */
  startdate: string;
  /** YYYY-MM-DD, inclusive; 0000-00-00 means unbounded. */
  expirationdate: string;
  /** 0 means unlimited. */
  maxuses?: number;
  uses?: number;
}

/** A promotion as the checkout prices it: a Fixed Amount carries the amount off in each currency. */
export interface Promotion extends StoredPromotion {
  /** Fixed Amount: `value` converted into each currency and rounded to 2 decimals; null for a Percentage. */
  amounts: Record<Currency, number> | null;
}

/**
 * The promotion with its Fixed Amount converted into every currency: value × rate, rounded to 2
 * decimals. The server converts once, with the store's rates, and sends the amounts to the client, so
 * both price an order with the same figures.
 */
export function convertPromotion(promotion: StoredPromotion, rates: CurrencyRates): Promotion {
  const amounts = promotion.type === 'Fixed Amount'
    ? Object.fromEntries(CURRENCIES.map((currency) => [currency, roundMoney(promotion.value * rates[currency])])) as Record<Currency, number>
    : null;
  return { ...promotion, amounts };
}

/** The billing system's "no date". */
export const NO_DATE = '0000-00-00';

/** Why a promotion cannot be used; each maps to a message. */
export type PromotionRefusal = 'notApplicable' | 'notStarted' | 'expired' | 'exhausted';

/** The local calendar date as YYYY-MM-DD. */
export function isoDate(date: Date = new Date()): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** True when the product id is in the promotion's appliesto list. */
export function promotionAppliesTo(promotion: Pick<Promotion, 'appliesto'>, pid: number): boolean {
  return promotion.appliesto.split(',').map((token) => token.trim()).includes(String(pid));
}

/** True when today is within start and expiry, both inclusive; 0000-00-00 is unbounded. */
export function isWithinDates(promotion: Pick<Promotion, 'startdate' | 'expirationdate'>, today: string): boolean {
  return dateRefusal(promotion, today) === null;
}

function dateRefusal(promotion: Pick<Promotion, 'startdate' | 'expirationdate'>, today: string): PromotionRefusal | null {
  const start = promotion.startdate.slice(0, 10);
  const expiry = promotion.expirationdate.slice(0, 10);
  if (start !== NO_DATE && today < start) return 'notStarted';
  if (expiry !== NO_DATE && today > expiry) return 'expired';
  return null;
}

/** True while uses are below maxuses; 0 means unlimited. */
export function hasUsesLeft(promotion: Pick<Promotion, 'maxuses' | 'uses'>): boolean {
  const max = promotion.maxuses ?? 0;
  return max === 0 || (promotion.uses ?? 0) < max;
}

/** Why the promotion cannot be used for this product today, or null when it can. */
export function promotionRefusal(promotion: StoredPromotion, pid: number, today: string): PromotionRefusal | null {
  if (!hasUsesLeft(promotion)) return 'exhausted';
  const byDate = dateRefusal(promotion, today);
  if (byDate) return byDate;
  return promotionAppliesTo(promotion, pid) ? null : 'notApplicable';
}

/**
 * The discount on an amount in a currency: Percentage is amount × value / 100; Fixed Amount is its
 * amount in that currency (see convertPromotion); either is never more than the amount (a billing
 * system may hold a Percentage above 100: the total stays at zero, never below).
 */
export function promotionDiscount(promotion: Pick<Promotion, 'type' | 'value' | 'amounts'>, amount: number, currency: Currency): number {
  if (promotion.type === 'Percentage') return Math.min(roundMoney((amount * promotion.value) / 100), amount);
  if (!promotion.amounts) throw new Error('A Fixed Amount promotion needs its amounts per currency (convertPromotion).');
  return roundMoney(Math.min(promotion.amounts[currency], amount));
}

/** The answer of a promotion lookup, as the server returns it. */
export interface PromotionLookup {
  totalresults: number;
  promotions: Promotion[];
}

/**
 * Picks the promotion to apply from a successful lookup: exactly one result, listing the pid,
 * within its dates. Anything else is refused with a reason.
 */
export function acceptPromotion(lookup: PromotionLookup, pid: number, today: string): { promotion: Promotion } | { refusal: PromotionRefusal } {
  const [promotion] = lookup.promotions;
  if (lookup.totalresults !== 1 || !promotion) return { refusal: 'notApplicable' };
  const refusal = promotionRefusal(promotion, pid, today);
  return refusal ? { refusal } : { promotion };
}
