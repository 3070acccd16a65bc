import { describe, expect, it } from 'vitest';
import { priceFor, quoteOrder, quoteProducts, quoteUpsell, type PricedOption, type PricedProduct } from './pricing';
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
