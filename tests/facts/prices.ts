/**
 * What things cost, as literal facts: the seeded catalogue's prices (./catalogue.ts) worked out by hand
 * in whole cents, rounded half up (spec §9: amounts rounded to 2 decimals; WHMCS promotion semantics),
 * never by src/domain or a machine. The walks and the machine replays look their expected totals up here
 * by the shopper's choices, so a machine and a view that agree on a wrong amount fail.
 */
import type { FactCurrency } from './catalogue';

/** What the shopper chose on the order form (or in an automatic-order link). */
export interface CheckoutChoices {
  pid: number;
  extraConnection: boolean;
  proxyProtection: boolean;
  /** The promotion applied, or null (none, or refused). */
  promo: string | null;
  currency: FactCurrency;
}

/** The amounts of an order: each rounded to the cent; total = price + options - discount. */
export interface CheckoutFact {
  price: number;
  extraConnection: number;
  proxyProtection: number;
  discount: number;
  total: number;
}

type Row = [pid: number, currency: FactCurrency, extraConnection: boolean, proxyProtection: boolean, promo: string | null, price: number, extra: number, proxy: number, discount: number, total: number];

/**
 * Plan × currency × add-ons × promotion. Options are priced for the plan's cycle (1 Month and Lifetime
 * monthly, 6 Months semi-annually). WELCOME10 is 10 % and HALFYEAR20 20 % of the subtotal, to the cent
 * half up (10.99 + 2.30 = 13.29 → 1.329 → 1.33); SAVE5 takes €5, or £4.25 (5 × 0.85). HALFYEAR20 applies to
 * 6 Months only; on the other plans it is refused (PROMO_REFUSALS) and the row without a promotion holds.
 */
const CHECKOUT_ROWS: Row[] = [
  [1, 'EUR', false, false, null, 12.99, 0.00, 0.00, 0.00, 12.99],
  [1, 'EUR', false, false, 'WELCOME10', 12.99, 0.00, 0.00, 1.30, 11.69],
  [1, 'EUR', false, false, 'SAVE5', 12.99, 0.00, 0.00, 5.00, 7.99],
  [1, 'EUR', false, true, null, 12.99, 0.00, 2.50, 0.00, 15.49],
  [1, 'EUR', false, true, 'WELCOME10', 12.99, 0.00, 2.50, 1.55, 13.94],
  [1, 'EUR', false, true, 'SAVE5', 12.99, 0.00, 2.50, 5.00, 10.49],
  [1, 'EUR', true, false, null, 12.99, 4.00, 0.00, 0.00, 16.99],
  [1, 'EUR', true, false, 'WELCOME10', 12.99, 4.00, 0.00, 1.70, 15.29],
  [1, 'EUR', true, false, 'SAVE5', 12.99, 4.00, 0.00, 5.00, 11.99],
  [1, 'EUR', true, true, null, 12.99, 4.00, 2.50, 0.00, 19.49],
  [1, 'EUR', true, true, 'WELCOME10', 12.99, 4.00, 2.50, 1.95, 17.54],
  [1, 'EUR', true, true, 'SAVE5', 12.99, 4.00, 2.50, 5.00, 14.49],
  [1, 'GBP', false, false, null, 10.99, 0.00, 0.00, 0.00, 10.99],
  [1, 'GBP', false, false, 'WELCOME10', 10.99, 0.00, 0.00, 1.10, 9.89],
  [1, 'GBP', false, false, 'SAVE5', 10.99, 0.00, 0.00, 4.25, 6.74],
  [1, 'GBP', false, true, null, 10.99, 0.00, 2.30, 0.00, 13.29],
  [1, 'GBP', false, true, 'WELCOME10', 10.99, 0.00, 2.30, 1.33, 11.96],
  [1, 'GBP', false, true, 'SAVE5', 10.99, 0.00, 2.30, 4.25, 9.04],
  [1, 'GBP', true, false, null, 10.99, 3.50, 0.00, 0.00, 14.49],
  [1, 'GBP', true, false, 'WELCOME10', 10.99, 3.50, 0.00, 1.45, 13.04],
  [1, 'GBP', true, false, 'SAVE5', 10.99, 3.50, 0.00, 4.25, 10.24],
  [1, 'GBP', true, true, null, 10.99, 3.50, 2.30, 0.00, 16.79],
  [1, 'GBP', true, true, 'WELCOME10', 10.99, 3.50, 2.30, 1.68, 15.11],
  [1, 'GBP', true, true, 'SAVE5', 10.99, 3.50, 2.30, 4.25, 12.54],
  [2, 'EUR', false, false, null, 59.99, 0.00, 0.00, 0.00, 59.99],
  [2, 'EUR', false, false, 'WELCOME10', 59.99, 0.00, 0.00, 6.00, 53.99],
  [2, 'EUR', false, false, 'SAVE5', 59.99, 0.00, 0.00, 5.00, 54.99],
  [2, 'EUR', false, false, 'HALFYEAR20', 59.99, 0.00, 0.00, 12.00, 47.99],
  [2, 'EUR', false, true, null, 59.99, 0.00, 13.00, 0.00, 72.99],
  [2, 'EUR', false, true, 'WELCOME10', 59.99, 0.00, 13.00, 7.30, 65.69],
  [2, 'EUR', false, true, 'SAVE5', 59.99, 0.00, 13.00, 5.00, 67.99],
  [2, 'EUR', false, true, 'HALFYEAR20', 59.99, 0.00, 13.00, 14.60, 58.39],
  [2, 'EUR', true, false, null, 59.99, 20.00, 0.00, 0.00, 79.99],
  [2, 'EUR', true, false, 'WELCOME10', 59.99, 20.00, 0.00, 8.00, 71.99],
  [2, 'EUR', true, false, 'SAVE5', 59.99, 20.00, 0.00, 5.00, 74.99],
  [2, 'EUR', true, false, 'HALFYEAR20', 59.99, 20.00, 0.00, 16.00, 63.99],
  [2, 'EUR', true, true, null, 59.99, 20.00, 13.00, 0.00, 92.99],
  [2, 'EUR', true, true, 'WELCOME10', 59.99, 20.00, 13.00, 9.30, 83.69],
  [2, 'EUR', true, true, 'SAVE5', 59.99, 20.00, 13.00, 5.00, 87.99],
  [2, 'EUR', true, true, 'HALFYEAR20', 59.99, 20.00, 13.00, 18.60, 74.39],
  [2, 'GBP', false, false, null, 49.99, 0.00, 0.00, 0.00, 49.99],
  [2, 'GBP', false, false, 'WELCOME10', 49.99, 0.00, 0.00, 5.00, 44.99],
  [2, 'GBP', false, false, 'SAVE5', 49.99, 0.00, 0.00, 4.25, 45.74],
  [2, 'GBP', false, false, 'HALFYEAR20', 49.99, 0.00, 0.00, 10.00, 39.99],
  [2, 'GBP', false, true, null, 49.99, 0.00, 11.00, 0.00, 60.99],
  [2, 'GBP', false, true, 'WELCOME10', 49.99, 0.00, 11.00, 6.10, 54.89],
  [2, 'GBP', false, true, 'SAVE5', 49.99, 0.00, 11.00, 4.25, 56.74],
  [2, 'GBP', false, true, 'HALFYEAR20', 49.99, 0.00, 11.00, 12.20, 48.79],
  [2, 'GBP', true, false, null, 49.99, 17.00, 0.00, 0.00, 66.99],
  [2, 'GBP', true, false, 'WELCOME10', 49.99, 17.00, 0.00, 6.70, 60.29],
  [2, 'GBP', true, false, 'SAVE5', 49.99, 17.00, 0.00, 4.25, 62.74],
  [2, 'GBP', true, false, 'HALFYEAR20', 49.99, 17.00, 0.00, 13.40, 53.59],
  [2, 'GBP', true, true, null, 49.99, 17.00, 11.00, 0.00, 77.99],
  [2, 'GBP', true, true, 'WELCOME10', 49.99, 17.00, 11.00, 7.80, 70.19],
  [2, 'GBP', true, true, 'SAVE5', 49.99, 17.00, 11.00, 4.25, 73.74],
  [2, 'GBP', true, true, 'HALFYEAR20', 49.99, 17.00, 11.00, 15.60, 62.39],
  [3, 'EUR', false, false, null, 199.00, 0.00, 0.00, 0.00, 199.00],
  [3, 'EUR', false, false, 'WELCOME10', 199.00, 0.00, 0.00, 19.90, 179.10],
  [3, 'EUR', false, false, 'SAVE5', 199.00, 0.00, 0.00, 5.00, 194.00],
  [3, 'EUR', false, true, null, 199.00, 0.00, 2.50, 0.00, 201.50],
  [3, 'EUR', false, true, 'WELCOME10', 199.00, 0.00, 2.50, 20.15, 181.35],
  [3, 'EUR', false, true, 'SAVE5', 199.00, 0.00, 2.50, 5.00, 196.50],
  [3, 'EUR', true, false, null, 199.00, 4.00, 0.00, 0.00, 203.00],
  [3, 'EUR', true, false, 'WELCOME10', 199.00, 4.00, 0.00, 20.30, 182.70],
  [3, 'EUR', true, false, 'SAVE5', 199.00, 4.00, 0.00, 5.00, 198.00],
  [3, 'EUR', true, true, null, 199.00, 4.00, 2.50, 0.00, 205.50],
  [3, 'EUR', true, true, 'WELCOME10', 199.00, 4.00, 2.50, 20.55, 184.95],
  [3, 'EUR', true, true, 'SAVE5', 199.00, 4.00, 2.50, 5.00, 200.50],
  [3, 'GBP', false, false, null, 169.00, 0.00, 0.00, 0.00, 169.00],
  [3, 'GBP', false, false, 'WELCOME10', 169.00, 0.00, 0.00, 16.90, 152.10],
  [3, 'GBP', false, false, 'SAVE5', 169.00, 0.00, 0.00, 4.25, 164.75],
  [3, 'GBP', false, true, null, 169.00, 0.00, 2.30, 0.00, 171.30],
  [3, 'GBP', false, true, 'WELCOME10', 169.00, 0.00, 2.30, 17.13, 154.17],
  [3, 'GBP', false, true, 'SAVE5', 169.00, 0.00, 2.30, 4.25, 167.05],
  [3, 'GBP', true, false, null, 169.00, 3.50, 0.00, 0.00, 172.50],
  [3, 'GBP', true, false, 'WELCOME10', 169.00, 3.50, 0.00, 17.25, 155.25],
  [3, 'GBP', true, false, 'SAVE5', 169.00, 3.50, 0.00, 4.25, 168.25],
  [3, 'GBP', true, true, null, 169.00, 3.50, 2.30, 0.00, 174.80],
  [3, 'GBP', true, true, 'WELCOME10', 169.00, 3.50, 2.30, 17.48, 157.32],
  [3, 'GBP', true, true, 'SAVE5', 169.00, 3.50, 2.30, 4.25, 170.55],
];

const key = (choices: CheckoutChoices) =>
  `${choices.pid}|${choices.currency}|${choices.extraConnection}|${choices.proxyProtection}|${choices.promo ?? ''}`;

const CHECKOUT_FACTS = new Map<string, CheckoutFact>(
  CHECKOUT_ROWS.map(([pid, currency, extraConnection, proxyProtection, promo, price, extra, proxy, discount, total]) => [
    key({ pid, currency, extraConnection, proxyProtection, promo }),
    { price, extraConnection: extra, proxyProtection: proxy, discount, total },
  ]),
);

/** The table's amounts for these choices; a choice the table does not hold is a test error, never a guess. */
export function checkoutFact(choices: CheckoutChoices): CheckoutFact {
  const fact = CHECKOUT_FACTS.get(key(choices));
  if (!fact) throw new Error(`The facts table has no row for ${JSON.stringify(choices)}: add it to tests/facts/prices.ts by hand`);
  return fact;
}

/** Every row of the table, for a test that walks them all. */
export const checkoutFacts = (): Array<[CheckoutChoices, CheckoutFact]> =>
  CHECKOUT_ROWS.map(([pid, currency, extraConnection, proxyProtection, promo, price, extra, proxy, discount, total]) => [
    { pid, currency, extraConnection, proxyProtection, promo },
    { price, extraConnection: extra, proxyProtection: proxy, discount, total },
  ]);

/** A promotion refused for a plan, and what the form says (the app's wording for each of the spec's refusals). */
export const PROMO_REFUSALS: Array<{ code: string; pids: number[]; message: string }> = [
  // Spec §5: the pid is not in appliesto.
  { code: 'HALFYEAR20', pids: [1, 3], message: 'This Coupon is not available for this product.' },
  { code: 'EXPIRED15', pids: [1, 2, 3], message: 'This Coupon has expired.' },
  { code: 'FUTURE25', pids: [1, 2, 3], message: 'This Coupon is not valid yet.' },
  { code: 'USEDUP50', pids: [1, 2, 3], message: 'This Coupon has been used up.' },
];

type UpsellRow = [billingcycle: string, currency: FactCurrency, quantity: number, total: number];

/**
 * Extra connections bought for an active service: the extra-connection price of the service's cycle
 * (One Time as monthly) times the quantity (€4 / £3.50 a month, €11 / £9.50 a quarter, €20 / £17 a
 * half-year, €36 / £31 a year).
 */
const UPSELL_ROWS: UpsellRow[] = [
  ['Monthly', 'EUR', 1, 4.00],
  ['Monthly', 'EUR', 2, 8.00],
  ['Monthly', 'EUR', 3, 12.00],
  ['Monthly', 'EUR', 10, 40.00],
  ['Monthly', 'GBP', 1, 3.50],
  ['Monthly', 'GBP', 2, 7.00],
  ['Monthly', 'GBP', 3, 10.50],
  ['Monthly', 'GBP', 10, 35.00],
  ['Quarterly', 'EUR', 1, 11.00],
  ['Quarterly', 'EUR', 2, 22.00],
  ['Quarterly', 'EUR', 3, 33.00],
  ['Quarterly', 'EUR', 10, 110.00],
  ['Quarterly', 'GBP', 1, 9.50],
  ['Quarterly', 'GBP', 2, 19.00],
  ['Quarterly', 'GBP', 3, 28.50],
  ['Quarterly', 'GBP', 10, 95.00],
  ['Semi-Annually', 'EUR', 1, 20.00],
  ['Semi-Annually', 'EUR', 2, 40.00],
  ['Semi-Annually', 'EUR', 3, 60.00],
  ['Semi-Annually', 'EUR', 10, 200.00],
  ['Semi-Annually', 'GBP', 1, 17.00],
  ['Semi-Annually', 'GBP', 2, 34.00],
  ['Semi-Annually', 'GBP', 3, 51.00],
  ['Semi-Annually', 'GBP', 10, 170.00],
  ['Annually', 'EUR', 1, 36.00],
  ['Annually', 'EUR', 2, 72.00],
  ['Annually', 'EUR', 3, 108.00],
  ['Annually', 'EUR', 10, 360.00],
  ['Annually', 'GBP', 1, 31.00],
  ['Annually', 'GBP', 2, 62.00],
  ['Annually', 'GBP', 3, 93.00],
  ['Annually', 'GBP', 10, 310.00],
  ['One Time', 'EUR', 1, 4.00],
  ['One Time', 'EUR', 2, 8.00],
  ['One Time', 'EUR', 3, 12.00],
  ['One Time', 'EUR', 10, 40.00],
  ['One Time', 'GBP', 1, 3.50],
  ['One Time', 'GBP', 2, 7.00],
  ['One Time', 'GBP', 3, 10.50],
  ['One Time', 'GBP', 10, 35.00],
];

type ProratedUpsellRow = [billingcycle: string, currency: FactCurrency, quantity: number, remainingDays: number, periodDays: number, total: number];

/**
 * Extra connections bought on a service with a due date (README, the upsell's price for the rest of the period): the
 * full period's price × the days left ÷ the period's days, rounded to the cent.
 */
const PRORATED_UPSELL_ROWS: ProratedUpsellRow[] = [
  ['Monthly', 'EUR', 1, 20, 30, 2.67], // 4.00 × 20 ÷ 30 = 2.666…
  ['Monthly', 'EUR', 2, 20, 30, 5.33], // 8.00 × 20 ÷ 30 = 5.333…
  ['Monthly', 'EUR', 3, 20, 30, 8.00],
  ['Monthly', 'EUR', 10, 20, 30, 26.67], // 40.00 × 20 ÷ 30 = 26.666…
  ['Monthly', 'GBP', 1, 20, 30, 2.33], // 3.50 × 20 ÷ 30 = 2.333…
  ['Monthly', 'GBP', 2, 20, 30, 4.67], // 7.00 × 20 ÷ 30 = 4.666…
  ['Monthly', 'GBP', 10, 20, 30, 23.33], // 35.00 × 20 ÷ 30 = 23.333…
];

/**
 * The upsell's price for a service's cycle, a currency and a quantity; with the service's proration (getActiveProducts),
 * for the days left of its period.
 */
export function upsellFact(choices: { billingcycle: string; currency: FactCurrency; quantity: number; proration?: { remainingDays: number; periodDays: number } | null }): number {
  const { proration } = choices;
  const row = proration
    ? PRORATED_UPSELL_ROWS.find(([cycle, currency, quantity, remainingDays, periodDays]) =>
      cycle === choices.billingcycle && currency === choices.currency && quantity === choices.quantity && remainingDays === proration.remainingDays && periodDays === proration.periodDays)
    : UPSELL_ROWS.find(([cycle, currency, quantity]) => cycle === choices.billingcycle && currency === choices.currency && quantity === choices.quantity);
  if (!row) throw new Error(`The facts table has no upsell row for ${JSON.stringify(choices)}: add it to tests/facts/prices.ts by hand`);
  return row[row.length - 1] as number;
}

type ResellerRow = [pid: number, newReseller: boolean, currency: FactCurrency, total: number];

/** A reseller order: the pack, plus the panel activation (€49 / £42) for a new reseller. */
const RESELLER_ROWS: ResellerRow[] = [
  [10, false, 'EUR', 150.00],
  [10, true, 'EUR', 199.00],
  [10, false, 'GBP', 129.00],
  [10, true, 'GBP', 171.00],
  [11, false, 'EUR', 300.00],
  [11, true, 'EUR', 349.00],
  [11, false, 'GBP', 259.00],
  [11, true, 'GBP', 301.00],
  [12, false, 'EUR', 650.00],
  [12, true, 'EUR', 699.00],
  [12, false, 'GBP', 559.00],
  [12, true, 'GBP', 601.00],
];

/** The panel activation a new reseller pays with the pack (the note under "Are you already a reseller?"). */
export const PANEL_ACTIVATION_PRICE: Record<FactCurrency, number> = { EUR: 49.00, GBP: 42.00 };

/** The total of a reseller order for a pack, new or existing reseller, in a currency. */
export function resellerFact(choices: { pid: number; newReseller: boolean; currency: FactCurrency }): number {
  const row = RESELLER_ROWS.find(([pid, newReseller, currency]) => pid === choices.pid && newReseller === choices.newReseller && currency === choices.currency);
  if (!row) throw new Error(`The facts table has no reseller row for ${JSON.stringify(choices)}: add it to tests/facts/prices.ts by hand`);
  return row[3];
}
