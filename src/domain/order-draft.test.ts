import { describe, expect, it } from 'vitest';
import { addOnsOf, configOptionsOf, orderDraftOf, type OptionedProduct } from './order-draft';
import type { PricedOption } from './pricing';
import type { Promotion } from './promotion';

// The contract's ConfigOptionChoices: option 2 is the extra connection, option 4 proxy protection.
const extra: PricedOption = { id: 2, pricing: { EUR: { semiannually: 24 }, GBP: { semiannually: 20 } } };
const proxy: PricedOption = { id: 4, pricing: { EUR: { semiannually: 11 }, GBP: { semiannually: 9 } } };
const bothOptions: OptionedProduct = { pid: 2, billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 59.99 }, GBP: { semiannually: 49.99 } }, configoptions: [extra, proxy] };
const extraOnly: OptionedProduct = { ...bothOptions, pid: 3, configoptions: [extra] };

describe('the add-ons as configoptions', () => {
  it('writes every offered option by its id, 1 when chosen and 0 when not', () => {
    expect(configOptionsOf(bothOptions, { extraConnection: true, proxyProtection: false })).toEqual({ '2': 1, '4': 0 });
    expect(configOptionsOf(bothOptions, { extraConnection: false, proxyProtection: true })).toEqual({ '2': 0, '4': 1 });
  });

  it('leaves out an option the product does not offer, even when chosen', () => {
    expect(configOptionsOf(extraOnly, { extraConnection: false, proxyProtection: true })).toEqual({ '2': 0 });
  });

  it('reads the chosen add-ons back; absent or 0 is not chosen', () => {
    expect(addOnsOf({ '2': 1, '4': 0 })).toEqual({ extraConnection: true, proxyProtection: false });
    expect(addOnsOf({ '4': 1 })).toEqual({ extraConnection: false, proxyProtection: true });
    expect(addOnsOf(undefined)).toEqual({ extraConnection: false, proxyProtection: false });
  });

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('reads back what it wrote for a product offering both (extra %s, proxy %s)', (extraConnection, proxyProtection) => {
    expect(addOnsOf(configOptionsOf(bothOptions, { extraConnection, proxyProtection }))).toEqual({ extraConnection, proxyProtection });
  });
});

describe('the order draft', () => {
  it('is the body of POST /api/order: the plan, gateway, promotion, affiliate, the total shown, currency, add-ons and reminder', () => {
    const promotion: Promotion = { code: 'HALFYEAR20', type: 'Percentage', value: 20, appliesto: '2', startdate: '0000-00-00', expirationdate: '0000-00-00', amounts: null };
    const draft = orderDraftOf({ product: bothOptions, extraConnection: true, proxyProtection: false, promotion, remind: false }, { currency: 'GBP', gateway: 'sandbox', affId: 'partner-1' });
    // 49.99 + 20.00 extra connection = 69.99; 20 % off = 14.00 (rounded); 55.99.
    expect(draft).toEqual({ pid: 2, paymentmethod: 'sandbox', promocode: 'HALFYEAR20', affid: 'partner-1', amount: 55.99, currency: 'GBP', configoptions: { '2': 1, '4': 0 }, remind: false });
  });

  it('leaves out the promotion and affiliate when there are none; no gateway is an empty method', () => {
    const draft = orderDraftOf({ product: extraOnly, extraConnection: false, proxyProtection: false, promotion: null, remind: true }, { currency: 'EUR', gateway: null, affId: null });
    expect(draft).toEqual({ pid: 3, paymentmethod: '', amount: 59.99, currency: 'EUR', configoptions: { '2': 0 }, remind: true });
  });
});
