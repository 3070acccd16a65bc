import { addCycle, addDays, cycleMonths, daysBetween, pricingKey, type PricingKey } from './billing-cycle';
import type { Currency } from './currency';
import { roundMoney, sumMoney } from './money';
import { promotionDiscount, type Promotion } from './promotion';

/** Prices per currency per cycle; a negative or missing price means the cycle is not sold. */
export type PricingTable = Partial<Record<Currency, Partial<Record<PricingKey, number>>>>;

export interface PricedProduct {
  pid: number;
  billingcycle: string;
  pricing: PricingTable;
}

export interface PricedOption {
  id: number;
  pricing: PricingTable;
}

/** The price of a cycle in a currency, or null when that cycle is not sold in it. */
export function priceFor(pricing: PricingTable, cycle: string, currency: Currency): number | null {
  const price = pricing[currency]?.[pricingKey(cycle)];
  return typeof price === 'number' && price >= 0 ? roundMoney(price) : null;
}

export interface OrderQuoteInput {
  product: PricedProduct;
  currency: Currency;
  extraConnection: PricedOption | null;
  proxyProtection: PricedOption | null;
  promotion: Promotion | null;
}

export interface OrderQuote {
  currency: Currency;
  price: number;
  extraConnection: number;
  proxyProtection: number;
  discount: number;
  total: number;
}

/**
 * The amount of an order: product price for its cycle (One Time as monthly) plus the chosen options
 * for the same cycle, minus the promotion; every figure rounded to 2 decimals.
 * Null when the product has no price in that currency.
 */
export function quoteOrder(input: OrderQuoteInput): OrderQuote | null {
  const { product, currency } = input;
  const price = priceFor(product.pricing, product.billingcycle, currency);
  if (price === null) return null;
  const optionPrice = (option: PricedOption | null) =>
    option ? (priceFor(option.pricing, product.billingcycle, currency) ?? 0) : 0;
  const extraConnection = optionPrice(input.extraConnection);
  const proxyProtection = optionPrice(input.proxyProtection);
  const subtotal = sumMoney(price, extraConnection, proxyProtection);
  const discount = input.promotion ? promotionDiscount(input.promotion, subtotal, currency) : 0;
  return { currency, price, extraConnection, proxyProtection, discount, total: sumMoney(subtotal, -discount) };
}

/** The amount of an upsell: the extra-connection price for the service's cycle times the quantity. */
export function quoteUpsell(option: PricedOption, cycle: string, currency: Currency, quantity: number): number | null {
  const unit = priceFor(option.pricing, cycle, currency);
  return unit === null ? null : roundMoney(unit * quantity);
}

/** The sum of several products' prices for their own cycles, for a reseller order of more than one product. */
export function quoteProducts(products: PricedProduct[], currency: Currency): number | null {
  const prices = products.map((product) => priceFor(product.pricing, product.billingcycle, currency));
  return prices.every((price): price is number => price !== null) ? sumMoney(...prices) : null;
}

export interface RenewalQuoteInput {
  product: PricedProduct;
  currency: Currency;
  /** Extra connections the service has (each billed at the option's price for the cycle). */
  extraConnections: number;
  extraConnection: PricedOption | null;
  proxyProtection: PricedOption | null;
  /** The order's promotion, only when the catalogue marks it recurring. */
  promotion: Promotion | null;
}

/**
 * The amount of one more period of a service: the catalogue's current price for its cycle, plus each extra
 * connection and proxy protection for the same cycle, minus a recurring promotion. Null when the cycle is not sold.
 */
export function quoteRenewal(input: RenewalQuoteInput): number | null {
  const { product, currency } = input;
  const price = priceFor(product.pricing, product.billingcycle, currency);
  if (price === null) return null;
  const extras = input.extraConnection && input.extraConnections > 0 ? (quoteUpsell(input.extraConnection, product.billingcycle, currency, input.extraConnections) ?? 0) : 0;
  const proxy = input.proxyProtection ? (priceFor(input.proxyProtection.pricing, product.billingcycle, currency) ?? 0) : 0;
  const subtotal = sumMoney(price, extras, proxy);
  const discount = input.promotion ? promotionDiscount(input.promotion, subtotal, currency) : 0;
  return sumMoney(subtotal, -discount);
}

/**
 * What an add-on bought today is billed for: the whole days from today to the end of what is already billed (the
 * next due date, or the end of the next period once its renewal invoice is issued), of the days one period spans.
 */
export interface Proration {
  remainingDays: number;
  periodDays: number;
  /** The day what is already billed ends (YYYY-MM-DD): the next due date, or the issued renewal's period end. */
  until: string;
}

/** A service as far as it is billed: its cycle, its next due date, and its renewal invoice if one is issued. */
export interface BilledService {
  billingcycle: string;
  /** Null for a lifetime service. */
  nextDueDate: string | null;
  /** The open renewal invoice's period; it extends what is billed only when it starts at the next due date. */
  renewal: { periodStart: string; periodEnd: string } | null;
}

/**
 * The first day of the period that ends at a due date: the latest day one cycle on from which is that due date. A due
 * date on a month's last day is reached from several days (28 Feb from 28 to 31 Jan): the period is the shortest.
 */
function periodStartOf(nextDueDate: string, billingcycle: string): string | null {
  let start = addCycle(nextDueDate, billingcycle, -1);
  while (start !== null && addCycle(addDays(start, 1), billingcycle) === nextDueDate) start = addDays(start, 1);
  return start;
}

/**
 * How an add-on bought on `today` (YYYY-MM-DD, UTC) is prorated: to the end of what is billed, of the days of the
 * period that ends at the next due date. The days to the due date count at most one period, so a service bought on a
 * day a short month cuts off (30 Jan, due 28 Feb) pays no more than the full price. Null for a lifetime service.
 */
export function prorationOn(today: string, service: BilledService): Proration | null {
  const { billingcycle, nextDueDate, renewal } = service;
  if (nextDueDate === null) return null;
  const periodStart = periodStartOf(nextDueDate, billingcycle);
  if (periodStart === null) return null;
  const periodDays = daysBetween(periodStart, nextDueDate);
  const toDue = Math.min(Math.max(daysBetween(today, nextDueDate), 0), periodDays);
  const extended = renewal?.periodStart === nextDueDate;
  const until = extended ? renewal.periodEnd : nextDueDate;
  return { remainingDays: toDue + (extended ? daysBetween(nextDueDate, renewal.periodEnd) : 0), periodDays, until };
}

/**
 * A full period's amount for the days billed: amount × remaining days ÷ period days, rounded to the cent; the whole
 * amount without a proration (a lifetime service has no period).
 */
export function prorate(amount: number, proration: Pick<Proration, 'remainingDays' | 'periodDays'> | null): number {
  if (!proration || proration.periodDays <= 0) return amount;
  return roundMoney((amount * Math.max(proration.remainingDays, 0)) / proration.periodDays);
}

/** A longer plan beside the monthly one: what it comes to a month and how much less that is than the monthly price. */
export interface MonthlyComparison {
  /** The plan's price ÷ the months its cycle lasts, rounded to the cent. */
  perMonth: number;
  /** Percent saved against the monthly plan, to the nearest whole percent; null when there is no monthly plan or no saving. */
  savingPercent: number | null;
}

/**
 * The one rule for "€10.00 / month · save 23 %": both figures come from the exact per-month price; only the shown
 * ones are rounded (the price to the cent, the saving to the nearest whole percent). Null for a monthly or One Time
 * plan, or a plan not sold in the currency.
 */
export function compareWithMonthly(plan: PricedProduct, monthlyPlan: PricedProduct | null, currency: Currency): MonthlyComparison | null {
  const months = cycleMonths(plan.billingcycle);
  const price = priceFor(plan.pricing, plan.billingcycle, currency);
  if (months === null || months <= 1 || price === null) return null;
  const exactPerMonth = price / months;
  const monthlyPrice = monthlyPlan ? priceFor(monthlyPlan.pricing, monthlyPlan.billingcycle, currency) : null;
  const saving = monthlyPrice ? Math.round((1 - exactPerMonth / monthlyPrice) * 100) : 0;
  return { perMonth: roundMoney(exactPerMonth), savingPercent: saving > 0 ? saving : null };
}

/** The plan a shopper pays month by month, which longer plans are compared with: the first monthly one. */
export function monthlyPlanOf<Plan extends PricedProduct>(plans: readonly Plan[]): Plan | null {
  return plans.find((plan) => cycleMonths(plan.billingcycle) === 1) ?? null;
}
