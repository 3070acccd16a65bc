import { describe, expect, it } from 'vitest';
import { compareWithMonthly, monthlyPlanOf, priceFor, prorate, prorationOn, quoteOrder, quoteProducts, quoteUpsell, type PricedOption, type PricedProduct } from './pricing';
import { convertPromotion } from './promotion';

const monthly: PricedProduct = { pid: 1, billingcycle: 'Monthly', pricing: { EUR: { monthly: 12.99 }, GBP: { monthly: 10.99 } } };
const semiannual: PricedProduct = { pid: 2, billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 59.99, monthly: -1 }, GBP: { semiannually: 49.99 } } };
const oneTime: PricedProduct = { pid: 3, billingcycle: 'One Time', pricing: { EUR: { monthly: 199 }, GBP: { monthly: 169 } } };
const extra: PricedOption = { id: 2, pricing: { EUR: { monthly: 4.5, semiannually: 24 }, GBP: { monthly: 3.9, semiannually: 20 } } };
const proxy: PricedOption = { id: 4, pricing: { EUR: { monthly: 2.333, semiannually: 11 }, GBP: { monthly: 2, semiannually: 9 } } };

describe('priceFor', () => {
  it('reads the price of the cycle in the currency', () => expect(priceFor(semiannual.pricing, 'Semi-Annually', 'EUR')).toBe(59.99));
  it('treats a negative price as not sold', () => expect(priceFor(semiannual.pricing, 'Monthly', 'EUR')).toBeNull());
  it('treats a missing currency as not sold', () => expect(priceFor({ EUR: { monthly: 1 } }, 'Monthly', 'GBP')).toBeNull());
  it('treats a missing cycle as not sold', () => expect(priceFor({ EUR: { monthly: 1 } }, 'Annually', 'EUR')).toBeNull());
  // WHMCS marks a cycle it does not sell with a negative price (-1.00); 0 is a cycle sold for free.
  it('sells a cycle priced 0, for 0', () => {
    expect(priceFor({ EUR: { monthly: 0 } }, 'Monthly', 'EUR')).toBe(0);
    expect(priceFor({ EUR: { monthly: -0.01 } }, 'Monthly', 'EUR')).toBeNull();
  });
  it.each([
    ['Quarterly', { quarterly: 34.99 }, 34.99], ['Biennially', { biennially: 219.99 }, 219.99], ['Triennially', { triennially: 299.5 }, 299.5],
  ] as const)('reads the %s price from its own column', (cycle, prices, expected) => {
    const pricing = { EUR: { monthly: 12.99, annually: 119.99, ...prices } };
    expect(priceFor(pricing, cycle, 'EUR')).toBe(expected);
  });
});

describe('quoteOrder', () => {
  it('adds the chosen options for the product cycle and currency', () => {
    expect(quoteOrder({ product: semiannual, currency: 'GBP', extraConnection: extra, proxyProtection: proxy, promotion: null })).toEqual({
      currency: 'GBP', price: 49.99, extraConnection: 20, proxyProtection: 9, discount: 0, total: 78.99,
    });
  });
  it('prices One Time as monthly', () => {
    expect(quoteOrder({ product: oneTime, currency: 'EUR', extraConnection: extra, proxyProtection: null, promotion: null })?.total).toBe(203.5);
  });
  it('rounds option prices to 2 decimals', () => {
    expect(quoteOrder({ product: monthly, currency: 'EUR', extraConnection: null, proxyProtection: proxy, promotion: null })?.total).toBe(15.32);
  });
  it('takes the promotion off the subtotal', () => {
    const quote = quoteOrder({
      product: monthly, currency: 'EUR', extraConnection: extra, proxyProtection: null,
      promotion: { code: 'TEN', type: 'Percentage', value: 10, appliesto: '1', startdate: '0000-00-00', expirationdate: '0000-00-00', amounts: null },
    });
    expect(quote).toMatchObject({ discount: 1.75, total: 15.74 });
  });
  it('takes a fixed amount off in the order\'s currency: the default currency\'s value converted, not the value as is', () => {
    // 5 EUR off at the demo rate of 0.85: 4.25 off a GBP order, not 5.
    const save5 = convertPromotion({ code: 'SAVE5', type: 'Fixed Amount', value: 5, appliesto: '1', startdate: '0000-00-00', expirationdate: '0000-00-00' }, { EUR: 1, GBP: 0.85 });
    const quote = (currency: 'EUR' | 'GBP', product = monthly) => quoteOrder({ product, currency, extraConnection: null, proxyProtection: null, promotion: save5 });
    expect(quote('EUR')).toMatchObject({ price: 12.99, discount: 5, total: 7.99 });
    expect(quote('GBP')).toMatchObject({ price: 10.99, discount: 4.25, total: 6.74 });
    expect(quote('GBP', { ...monthly, pricing: { GBP: { monthly: 3 } } })).toMatchObject({ discount: 3, total: 0 });
  });
  it('quotes a free product at 0 rather than as not sold', () => {
    expect(quoteOrder({ product: { ...monthly, pricing: { EUR: { monthly: 0 } } }, currency: 'EUR', extraConnection: extra, proxyProtection: null, promotion: null }))
      .toEqual({ currency: 'EUR', price: 0, extraConnection: 4.5, proxyProtection: 0, discount: 0, total: 4.5 });
  });
  it('prices the options of a triennial product from their triennial column', () => {
    const triennial: PricedProduct = { pid: 5, billingcycle: 'Triennially', pricing: { GBP: { monthly: 9.99, triennially: 250 } } };
    const option = (id: number, triennially: number): PricedOption => ({ id, pricing: { GBP: { monthly: 1, triennially } } });
    expect(quoteOrder({ product: triennial, currency: 'GBP', extraConnection: option(2, 60), proxyProtection: option(4, 30.5), promotion: null }))
      .toEqual({ currency: 'GBP', price: 250, extraConnection: 60, proxyProtection: 30.5, discount: 0, total: 340.5 });
  });
  it('is null when the product has no price in the currency', () => {
    expect(quoteOrder({ product: { ...monthly, pricing: { EUR: { monthly: 1 } } }, currency: 'GBP', extraConnection: null, proxyProtection: null, promotion: null })).toBeNull();
  });
});

describe('quoteUpsell and quoteProducts', () => {
  it('multiplies the extra connection price by the quantity', () => {
    expect(quoteUpsell(extra, 'Semi-Annually', 'EUR', 3)).toBe(72);
    expect(quoteUpsell(extra, 'One Time', 'GBP', 2)).toBe(7.8);
  });
  it('sums products for their own cycles', () => {
    expect(quoteProducts([monthly, semiannual], 'EUR')).toBe(72.98);
    expect(quoteProducts([monthly, { ...semiannual, pricing: {} }], 'EUR')).toBeNull();
  });
});

describe('prorationOn and prorate: an extra connection bought on a running service', () => {
  const monthlyDue = (nextDueDate: string | null, renewal: { periodStart: string; periodEnd: string } | null = null) =>
    ({ billingcycle: 'Monthly', nextDueDate, renewal });

  it('EUR 4.00 a month with 20 of 30 days left (1 Dec, due 21 Dec; the period ran from 21 Nov) is 4.00 × 20 ÷ 30 = 2.67', () => {
    const proration = prorationOn('2026-12-01', monthlyDue('2026-12-21'));
    expect(proration).toEqual({ remainingDays: 20, periodDays: 30, until: '2026-12-21' });
    expect(prorate(4, proration)).toBe(2.67);
  });

  it('counts the period that ends at the due date: 31 days from 21 Dec to 21 Jan, 28 from 28 Feb to 28 Mar', () => {
    expect(prorationOn('2027-01-11', monthlyDue('2027-01-21'))).toEqual({ remainingDays: 10, periodDays: 31, until: '2027-01-21' });
    expect(prorationOn('2027-03-14', monthlyDue('2027-03-28'))).toEqual({ remainingDays: 14, periodDays: 28, until: '2027-03-28' });
  });

  it('a due date on a month\'s last day (28 Feb 2027, reached a month on from 28, 29, 30 or 31 Jan) ends a period of 28 days from 31 Jan', () => {
    expect(prorationOn('2027-02-14', monthlyDue('2027-02-28'))).toEqual({ remainingDays: 14, periodDays: 28, until: '2027-02-28' });
    expect(prorationOn('2027-04-15', monthlyDue('2027-04-30'))).toEqual({ remainingDays: 15, periodDays: 30, until: '2027-04-30' });
  });

  it('bought on the day a service starts, even one a short month cuts off (30 Jan, due 28 Feb), an add-on costs the full price and no more', () => {
    expect(prorate(4, prorationOn('2027-01-30', monthlyDue('2027-02-28')))).toBe(4);
    expect(prorate(4, prorationOn('2026-11-28', monthlyDue('2026-12-28')))).toBe(4);
  });

  it('a half-year service half way (15 Oct, due 15 Jan; 92 of 184 days left) pays half of EUR 20.00', () => {
    const proration = prorationOn('2026-10-15', { billingcycle: 'Semi-Annually', nextDueDate: '2027-01-15', renewal: null });
    expect(proration).toEqual({ remainingDays: 92, periodDays: 184, until: '2027-01-15' });
    expect(prorate(20, proration)).toBe(10);
  });

  it('once the renewal invoice of the next period is issued, runs to its end: 37 days of 30 (15 Dec to 21 Jan) is 4.00 × 37 ÷ 30 = 4.93', () => {
    const proration = prorationOn('2026-12-15', monthlyDue('2026-12-21', { periodStart: '2026-12-21', periodEnd: '2027-01-21' }));
    expect(proration).toEqual({ remainingDays: 37, periodDays: 30, until: '2027-01-21' });
    expect(prorate(4, proration)).toBe(4.93);
  });

  it('a renewal invoice of another period does not extend what is billed', () => {
    expect(prorationOn('2026-12-15', monthlyDue('2026-12-21', { periodStart: '2026-11-21', periodEnd: '2026-12-21' })))
      .toEqual({ remainingDays: 6, periodDays: 30, until: '2026-12-21' });
  });

  it('0 days left (on the due date, or past it with no invoice issued) costs nothing', () => {
    expect(prorationOn('2026-12-21', monthlyDue('2026-12-21'))).toEqual({ remainingDays: 0, periodDays: 30, until: '2026-12-21' });
    expect(prorationOn('2026-12-23', monthlyDue('2026-12-21'))).toEqual({ remainingDays: 0, periodDays: 30, until: '2026-12-21' });
    expect(prorate(4, { remainingDays: 0, periodDays: 30 })).toBe(0);
  });

  it('a whole period left is the full price', () => expect(prorate(12, { remainingDays: 30, periodDays: 30 })).toBe(12));

  it('a lifetime service (no due date, or One Time) has no proration and pays the full price', () => {
    expect(prorationOn('2026-12-01', monthlyDue(null))).toBeNull();
    expect(prorationOn('2026-12-01', { billingcycle: 'One Time', nextDueDate: '2026-12-21', renewal: null })).toBeNull();
    expect(prorate(4, null)).toBe(4);
  });
});

describe('compareWithMonthly', () => {
  // 59.99 ÷ 6 = 9.99833… → €10.00 a month; 1 − 9.99833 ÷ 12.99 = 0.2303 → save 23 %.
  it('gives the 6-month plan its price a month and its saving against the monthly plan', () => {
    expect(compareWithMonthly(semiannual, monthly, 'EUR')).toEqual({ perMonth: 10, savingPercent: 23 });
  });
  // 49.99 ÷ 6 = 8.33166… → £8.33; 1 − 8.33166 ÷ 10.99 = 0.2419 → save 24 %.
  it('compares in the currency asked for', () => expect(compareWithMonthly(semiannual, monthly, 'GBP')).toEqual({ perMonth: 8.33, savingPercent: 24 }));
  // The example: 129.99 ÷ 12 = 10.8325 → €10.83; 1 − 10.8325 ÷ 12.99 = 0.1661 → save 17 % (to the nearest percent).
  it('rounds the saving to the nearest whole percent from the exact price a month', () => {
    const annual: PricedProduct = { pid: 4, billingcycle: 'Annually', pricing: { EUR: { annually: 129.99 } } };
    expect(compareWithMonthly(annual, monthly, 'EUR')).toEqual({ perMonth: 10.83, savingPercent: 17 });
  });
  it('says nothing of a monthly or a One Time plan', () => {
    expect(compareWithMonthly(monthly, monthly, 'EUR')).toBeNull();
    expect(compareWithMonthly(oneTime, monthly, 'EUR')).toBeNull();
  });
  it('gives the price a month without a saving when there is no monthly plan to compare with', () => {
    expect(compareWithMonthly(semiannual, null, 'EUR')).toEqual({ perMonth: 10, savingPercent: null });
  });
  // 6 × 13 = 78 a month dearer than 12.99: no saving to show.
  it('claims no saving when the longer plan costs more a month', () => {
    const dearer: PricedProduct = { pid: 5, billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 78 } } };
    expect(compareWithMonthly(dearer, monthly, 'EUR')).toEqual({ perMonth: 13, savingPercent: null });
  });
  it('says nothing of a plan not sold in the currency', () => expect(compareWithMonthly(semiannual, monthly, 'USD' as never)).toBeNull());
  it('compares with the first monthly plan of the list', () => {
    expect(monthlyPlanOf([oneTime, semiannual, monthly])).toBe(monthly);
    expect(monthlyPlanOf([oneTime, semiannual])).toBeNull();
  });
});
