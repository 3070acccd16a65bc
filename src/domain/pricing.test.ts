import { describe, expect, it } from 'vitest';
import { priceFor, quoteOrder, quoteProducts, quoteUpsell, type PricedOption, type PricedProduct } from './pricing';

const monthly: PricedProduct = { pid: 1, billingcycle: 'Monthly', pricing: { EUR: { monthly: 12.99 }, GBP: { monthly: 10.99 } } };
const semiannual: PricedProduct = { pid: 2, billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 59.99, monthly: -1 }, GBP: { semiannually: 49.99 } } };
const oneTime: PricedProduct = { pid: 3, billingcycle: 'One Time', pricing: { EUR: { monthly: 199 }, GBP: { monthly: 169 } } };
const extra: PricedOption = { id: 2, pricing: { EUR: { monthly: 4.5, semiannually: 24 }, GBP: { monthly: 3.9, semiannually: 20 } } };
const proxy: PricedOption = { id: 4, pricing: { EUR: { monthly: 2.333, semiannually: 11 }, GBP: { monthly: 2, semiannually: 9 } } };

describe('priceFor', () => {
  it('reads the price of the cycle in the currency', () => expect(priceFor(semiannual.pricing, 'Semi-Annually', 'EUR')).toBe(59.99));
  it('treats a negative price as not sold', () => expect(priceFor(semiannual.pricing, 'Monthly', 'EUR')).toBeNull());
  it('treats a missing currency as not sold', () => expect(priceFor({ EUR: { monthly: 1 } }, 'Monthly', 'GBP')).toBeNull());
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
      promotion: { code: 'TEN', type: 'Percentage', value: 10, appliesto: '1', startdate: '0000-00-00', expirationdate: '0000-00-00' },
    });
    expect(quote).toMatchObject({ discount: 1.75, total: 15.74 });
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
