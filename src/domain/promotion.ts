import { roundMoney } from './money';

/** A promotion with WHMCS semantics (reference section 3). */
export interface Promotion {
  code: string;
  type: 'Percentage' | 'Fixed Amount';
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
export function promotionRefusal(promotion: Promotion, pid: number, today: string): PromotionRefusal | null {
  if (!hasUsesLeft(promotion)) return 'exhausted';
  const byDate = dateRefusal(promotion, today);
  if (byDate) return byDate;
  return promotionAppliesTo(promotion, pid) ? null : 'notApplicable';
}

/** The discount on an amount: Percentage is amount × value / 100, Fixed Amount is min(value, amount). */
export function promotionDiscount(promotion: Pick<Promotion, 'type' | 'value'>, amount: number): number {
  if (promotion.type === 'Percentage') return roundMoney((amount * promotion.value) / 100);
  return roundMoney(Math.min(promotion.value, amount));
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
