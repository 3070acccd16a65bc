/**
 * The facts table (tests/facts) is written by hand from the seed: these check that it still says what
 * demo.yaml says, and that each of its rows adds up in whole cents, so neither can drift unseen.
 */
import { describe, expect, it } from 'vitest';
import { PANEL_ACTIVATION_PID, RECURRING_PROMOTIONS, SEEDED_OPTIONS, SEEDED_PLANS, SEEDED_PROMOTIONS, SEEDED_RESELLER_PRODUCTS, type FactPricing } from '../../../tests/facts/catalogue';
import { PANEL_ACTIVATION_PRICE, checkoutFacts } from '../../../tests/facts/prices';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from './load';

const demo = loadCatalogueFile(DEMO_CATALOGUE_FILE);

/** The prices a table sells (a negative price is the loader's "not sold"). */
const sold = (pricing: Partial<Record<string, Partial<Record<string, number>>>>) =>
  Object.fromEntries(Object.entries(pricing).map(([currency, cycles]) => [currency, Object.fromEntries(Object.entries(cycles ?? {}).filter(([, price]) => (price ?? -1) >= 0))]));

const cents = (amount: number) => Math.round(amount * 100);

describe('the facts table is the seeded catalogue', () => {
  it('the retail plans: pid, name, description, cycle, prices, options 2 and 4', () => {
    const retail = demo.products.filter((product) => product.group === 'retail');
    expect(retail.map((product) => ({ pid: product.pid, name: product.name, description: product.description, billingcycle: product.billingcycle, pricing: sold(product.pricing), options: product.configOptionIds })))
      .toEqual(SEEDED_PLANS.map((plan) => ({ pid: plan.pid, name: plan.name, description: plan.description, billingcycle: plan.billingcycle, pricing: plan.pricing, options: plan.configoptions.map((option) => option.id) })));
  });

  it('the options\' prices per cycle and currency', () => {
    expect(demo.options.map((option) => ({ id: option.id, name: option.name, pricing: sold(option.pricing) }))).toEqual(SEEDED_OPTIONS.map(({ id, name, pricing }) => ({ id, name, pricing })));
  });

  it('the reseller products, the panel activation among them', () => {
    const reseller = demo.products.filter((product) => product.group === 'reseller');
    expect(reseller.map((product) => ({ pid: product.pid, name: product.name, billingcycle: product.billingcycle, pricing: sold(product.pricing) }))).toEqual(SEEDED_RESELLER_PRODUCTS);
    const panel = SEEDED_RESELLER_PRODUCTS.find((product) => product.pid === PANEL_ACTIVATION_PID)!;
    expect({ EUR: panel.pricing.EUR.monthly, GBP: panel.pricing.GBP.monthly }).toEqual(PANEL_ACTIVATION_PRICE);
  });

  it('the promotions, a Fixed Amount with its amount in GBP at the seeded rate, and which recur at each renewal', () => {
    expect(demo.promotions.map(({ initialUses, recurring: _recurring, ...promotion }) => ({ ...promotion, uses: initialUses }))).toEqual(
      Object.values(SEEDED_PROMOTIONS).map(({ amounts: _amounts, ...promotion }) => promotion),
    );
    expect(demo.promotions.filter((promotion) => promotion.recurring).map((promotion) => promotion.code)).toEqual(RECURRING_PROMOTIONS);
    const gbp = demo.currencies.find((currency) => currency.code === 'GBP')!.rate;
    expect(cents(SEEDED_PROMOTIONS.SAVE5!.value * gbp)).toBe(cents(SEEDED_PROMOTIONS.SAVE5!.amounts!.GBP));
  });
});

describe('each row of the checkout table adds up', () => {
  const priceOf = (pricing: FactPricing, cycle: string, currency: 'EUR' | 'GBP') =>
    pricing[currency][cycle === 'Semi-Annually' ? 'semiannually' : 'monthly']!;

  const named = checkoutFacts().map(([choices, fact]) => {
    const addons = [choices.extraConnection && 'extra connection', choices.proxyProtection && 'proxy protection'].filter(Boolean).join(' + ') || 'no add-on';
    return [`plan ${choices.pid}, ${choices.currency}, ${addons}, ${choices.promo ?? 'no promo'}: ${fact.total}`, choices, fact] as const;
  });

  it.each(named)('%s', (_name, choices, fact) => {
    const plan = SEEDED_PLANS.find((candidate) => candidate.pid === choices.pid)!;
    expect(fact.price).toBe(priceOf(plan.pricing, plan.billingcycle, choices.currency));
    expect(fact.extraConnection).toBe(choices.extraConnection ? priceOf(SEEDED_OPTIONS[0]!.pricing, plan.billingcycle, choices.currency) : 0);
    expect(fact.proxyProtection).toBe(choices.proxyProtection ? priceOf(SEEDED_OPTIONS[1]!.pricing, plan.billingcycle, choices.currency) : 0);
    expect(cents(fact.total)).toBe(cents(fact.price) + cents(fact.extraConnection) + cents(fact.proxyProtection) - cents(fact.discount));
    if (choices.promo === null) expect(fact.discount).toBe(0);
    else expect(fact.discount).toBeGreaterThan(0);
  });
});
