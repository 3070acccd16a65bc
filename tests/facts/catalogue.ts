/**
 * The seeded demo catalogue (src/server/catalogue/demo.yaml, README "Demo data"), written out by hand.
 * The walks' fake API serves these products and promotions, so the literal totals of ./prices.ts apply
 * to what the walks show. src/server/catalogue/facts.test.ts checks that this file and the seed agree.
 * Nothing here is computed by src/domain or by a machine.
 */

/** The two currencies of the demo; GBP at the demo rate 0.85 (a Fixed Amount is converted with it). */
export type FactCurrency = 'EUR' | 'GBP';

/** Prices per currency per cycle key, as the catalogue lists them (a cycle left out is not sold). */
export type FactPricing = Record<FactCurrency, Partial<Record<'monthly' | 'quarterly' | 'semiannually' | 'annually' | 'biennially' | 'triennially', number>>>;

/** Configurable option 2: the extra connection. */
export const EXTRA_CONNECTION_PRICING: FactPricing = {
  EUR: { monthly: 4, quarterly: 11, semiannually: 20, annually: 36, biennially: 66, triennially: 90 },
  GBP: { monthly: 3.5, quarterly: 9.5, semiannually: 17, annually: 31, biennially: 57, triennially: 78 },
};

/** Configurable option 4: proxy protection. £2.30 a month is the price that exposes truncation (2.30 × 100 = 229.999…). */
export const PROXY_PROTECTION_PRICING: FactPricing = {
  EUR: { monthly: 2.5, quarterly: 7, semiannually: 13, annually: 24, biennially: 45, triennially: 63 },
  GBP: { monthly: 2.3, quarterly: 6, semiannually: 11, annually: 20, biennially: 38, triennially: 54 },
};

export interface FactOption {
  id: 2 | 4;
  name: string;
  pricing: FactPricing;
}

export const SEEDED_OPTIONS: FactOption[] = [
  { id: 2, name: 'Extra connection', pricing: EXTRA_CONNECTION_PRICING },
  { id: 4, name: 'Proxy protection', pricing: PROXY_PROTECTION_PRICING },
];

/** The billing cycles as the contract names them. */
export type FactCycle = 'Monthly' | 'Quarterly' | 'Semi-Annually' | 'Annually' | 'Biennially' | 'Triennially' | 'One Time';

export interface FactPlan {
  pid: number;
  name: string;
  description: string;
  billingcycle: FactCycle;
  /** What the plan card and the total say after the amount (en-en). */
  cycleText: string;
  pricing: FactPricing;
  configoptions: FactOption[];
}

/** The retail plans, in the catalogue's order; all three take both options. One Time is priced as monthly. */
export const SEEDED_PLANS: FactPlan[] = [
  {
    pid: 1, name: '1 Month', description: 'Every channel and film, one month, one connection.', billingcycle: 'Monthly', cycleText: 'per month',
    pricing: { EUR: { monthly: 12.99 }, GBP: { monthly: 10.99 } }, configoptions: SEEDED_OPTIONS,
  },
  {
    pid: 2, name: '6 Months', description: 'Every channel and film, billed every 6 months.', billingcycle: 'Semi-Annually', cycleText: 'every 6 months',
    pricing: { EUR: { semiannually: 59.99 }, GBP: { semiannually: 49.99 } }, configoptions: SEEDED_OPTIONS,
  },
  {
    pid: 3, name: 'Lifetime', description: 'Pay once, watch for as long as the service runs.', billingcycle: 'One Time', cycleText: 'billed once',
    pricing: { EUR: { monthly: 199 }, GBP: { monthly: 169 } }, configoptions: SEEDED_OPTIONS,
  },
];

/** The reseller products: three credit packs and the panel activation a new reseller's order adds (pid 13). */
export const SEEDED_RESELLER_PRODUCTS = [
  { pid: 10, name: 'Reseller 50 credits', billingcycle: 'One Time', pricing: { EUR: { monthly: 150 }, GBP: { monthly: 129 } } },
  { pid: 11, name: 'Reseller 120 credits', billingcycle: 'One Time', pricing: { EUR: { monthly: 300 }, GBP: { monthly: 259 } } },
  { pid: 12, name: 'Reseller 300 credits', billingcycle: 'One Time', pricing: { EUR: { monthly: 650 }, GBP: { monthly: 559 } } },
  { pid: 13, name: 'Reseller panel activation', billingcycle: 'One Time', pricing: { EUR: { monthly: 49 }, GBP: { monthly: 42 } } },
] as const satisfies readonly { pid: number; name: string; billingcycle: FactCycle; pricing: FactPricing }[];

/** Every cycle not sold (-1), as the contract lists a pricing table in full. */
const NOT_SOLD = { monthly: -1, quarterly: -1, semiannually: -1, annually: -1, biennially: -1, triennially: -1 };

/** A pricing table of the facts as the contract writes it: both currencies, every cycle. */
export const contractPricing = (pricing: FactPricing) => ({ EUR: { ...NOT_SOLD, ...pricing.EUR }, GBP: { ...NOT_SOLD, ...pricing.GBP } });

/** The pid of the panel activation a new reseller's order includes. */
export const PANEL_ACTIVATION_PID = 13;

/** A promotion as getPromotion answers it (WHMCS semantics; a Fixed Amount with its amount in each currency at 0.85). */
export interface FactPromotion {
  code: string;
  type: 'Percentage' | 'Fixed Amount';
  value: number;
  appliesto: string;
  startdate: string;
  expirationdate: string;
  maxuses: number;
  uses: number;
  amounts: Record<FactCurrency, number> | null;
}

/** The seeded promotions, as getPromotion answers each. */
export const SEEDED_PROMOTIONS: Record<string, FactPromotion> = {
  WELCOME10: { code: 'WELCOME10', type: 'Percentage', value: 10, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null },
  SAVE5: { code: 'SAVE5', type: 'Fixed Amount', value: 5, appliesto: '1,2,3', startdate: '2024-01-01', expirationdate: '2099-12-31', maxuses: 0, uses: 0, amounts: { EUR: 5, GBP: 4.25 } },
  HALFYEAR20: { code: 'HALFYEAR20', type: 'Percentage', value: 20, appliesto: '2', startdate: '2024-01-01', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null },
  EXPIRED15: { code: 'EXPIRED15', type: 'Percentage', value: 15, appliesto: '1,2,3', startdate: '2020-01-01', expirationdate: '2020-12-31', maxuses: 0, uses: 0, amounts: null },
  FUTURE25: { code: 'FUTURE25', type: 'Percentage', value: 25, appliesto: '1,2,3', startdate: '2099-01-01', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null },
  USEDUP50: { code: 'USEDUP50', type: 'Percentage', value: 50, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 1, uses: 1, amounts: null },
  LOYAL15: { code: 'LOYAL15', type: 'Percentage', value: 15, appliesto: '1,2', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null },
};

/** The seeded promotions that take their discount off each renewal too (the catalogue's `recurring: true`); the others apply to the first period only. */
export const RECURRING_PROMOTIONS = ['LOYAL15'];

/** The getPromotion lookup of one seeded code: one result. */
export const seededPromotionLookup = (code: keyof typeof SEEDED_PROMOTIONS) => ({ totalresults: 1, promotions: [SEEDED_PROMOTIONS[code]!] });
