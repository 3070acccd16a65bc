import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPercentagePromotion, BASIC_ORDER, BILLING_UNDER_TEST, DEMO_ACCOUNTS, expectCurrencyNotOffered, guest, loggedIn, newAccount, placeOrder, promotionUses, rows, storeSnapshot, createTestApp,
  type Answer, type OrderRequest, type TestApp,
} from './helper';

/** The amount stored for an order's invoice, in cents. */
const invoiceCents = async (t: TestApp, invoiceid: number) => (await rows<{ amount_cents: number }>(t.db, sql`select amount_cents from invoices where id = ${invoiceid}`))[0]?.amount_cents;

describe('orders are priced on the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  // Each order comes from a new guest at its own address, so the fraud velocity rule stays out of the way.
  const order = async (body: Partial<OrderRequest>) => (await guest(t.app)).call('order', { body: { ...BASIC_ORDER, ...body } });
  const expectPriceChanged = (answer: Answer, amount: number, currency: string) => {
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toEqual({ error: { code: 'price_changed', message: expect.stringContaining(amount.toFixed(2)), amount, currency } });
  };

  describe('a tampered amount', () => {
    it.each([
      ['lower', { amount: 0.01 }, 12.99, 'EUR'],
      ['higher', { amount: 13 }, 12.99, 'EUR'],
      ['zero', { amount: 0 }, 12.99, 'EUR'],
      ['off by a cent', { amount: 12.98 }, 12.99, 'EUR'],
      ['of the options left out', { amount: 12.99, configoptions: { '2': 1, '4': 1 } as const }, 19.49, 'EUR'],
      ['of the promotion counted twice', { amount: 10.52, promocode: 'WELCOME10' }, 11.69, 'EUR'],
      ['in EUR for a GBP order', { amount: 12.99, currency: 'GBP' as const }, 10.99, 'GBP'],
      ['of a Fixed Amount taken off a GBP order unconverted (5 instead of 4.25)', { amount: 5.99, promocode: 'SAVE5', currency: 'GBP' as const }, 6.74, 'GBP'],
      ['of another product', { pid: 3, amount: 12.99 }, 199, 'EUR'],
    ])('%s is refused with 409 price_changed carrying the server\'s amount and currency, and nothing is written', async (_name, body, amount, currency) => {
      const shopper = await guest(t.app);
      const before = await storeSnapshot(t.db);
      expectPriceChanged(await shopper.call('order', { body: { ...BASIC_ORDER, ...body } }), amount, currency);
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it('a reseller order with a tampered amount is refused the same way', async () => {
      const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
      const before = await storeSnapshot(t.db);
      expectPriceChanged(await reseller.call('order', { body: { pid: [11], paymentmethod: 'sandbox', amount: 250, currency: 'EUR' } }), 300, 'EUR');
      expect(await storeSnapshot(t.db)).toEqual(before);
    });
  });

  describe('the amount the server computes', () => {
    it.each([
      ['1 Month, EUR', { pid: 1 }, 12.99, 'EUR'],
      ['1 Month, GBP', { pid: 1, currency: 'GBP' as const }, 10.99, 'GBP'],
      ['1 Month with both options, EUR (4 + 2.50 monthly)', { pid: 1, configoptions: { '2': 1, '4': 1 } as const }, 19.49, 'EUR'],
      ['1 Month with proxy protection, GBP (10.99 + 2.30; 2.30 × 100 is 229.999… in floating point)', { pid: 1, currency: 'GBP' as const, configoptions: { '4': 1 } as const }, 13.29, 'GBP'],
      ['1 Month with both options, GBP (10.99 + 3.50 + 2.30 monthly)', { pid: 1, currency: 'GBP' as const, configoptions: { '2': 1, '4': 1 } as const }, 16.79, 'GBP'],
      ['options sent as 0 are not bought', { pid: 1, configoptions: { '2': 0, '4': 0 } as const }, 12.99, 'EUR'],
      ['6 Months with the options priced semi-annually (20 + 13)', { pid: 2, configoptions: { '2': 1, '4': 1 } as const }, 92.99, 'EUR'],
      ['6 Months with an extra connection, GBP (17 semi-annually)', { pid: 2, currency: 'GBP' as const, configoptions: { '2': 1 } as const }, 66.99, 'GBP'],
      ['Lifetime (One Time) priced as monthly', { pid: 3 }, 199, 'EUR'],
      ['Lifetime (One Time) with options priced monthly (4 + 2.50)', { pid: 3, configoptions: { '2': 1, '4': 1 } as const }, 205.5, 'EUR'],
      ['Lifetime (One Time), GBP, with an extra connection (3.50)', { pid: 3, currency: 'GBP' as const, configoptions: { '2': 1 } as const }, 172.5, 'GBP'],
      ['WELCOME10 (10 %) on 1 Month with both options: 19.49 - 1.95', { pid: 1, promocode: 'WELCOME10', configoptions: { '2': 1, '4': 1 } as const }, 17.54, 'EUR'],
      ['WELCOME10 typed in lower case', { pid: 1, promocode: 'welcome10' }, 11.69, 'EUR'],
      ['SAVE5 (5 off) on 1 Month', { pid: 1, promocode: 'SAVE5' }, 7.99, 'EUR'],
      ['SAVE5 (5 EUR off, 4.25 GBP at the demo rate of 0.85) on 1 Month, GBP', { pid: 1, promocode: 'SAVE5', currency: 'GBP' as const }, 6.74, 'GBP'],
      ['HALFYEAR20 (20 %, 6 Months only) on 6 Months', { pid: 2, promocode: 'HALFYEAR20' }, 47.99, 'EUR'],
    ])('%s: %j costs %d %s, stored on the order and its invoice', async (_name, body, amount, currency) => {
      const answer = await order({ ...body, amount });
      // Each order's guest is new, with no country known: WHMCS bills it in EUR only.
      if (BILLING_UNDER_TEST === 'whmcs' && currency === 'GBP') return expectCurrencyNotOffered(answer, 'EUR');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ amount, currency, status: 'Pending', fraud: false });
      expect(await invoiceCents(t, answer.body.invoiceid)).toBe(Math.round(amount * 100));
    });

    it('a new reseller\'s order is the credit pack plus the panel activation (300 + 49 EUR; 259 + 42 GBP)', async () => {
      const newReseller = await newAccount(t.app);
      const eur = await newReseller.call('order', { body: { pid: [11, 13], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
      expect(eur.status, eur.text).toBe(200);
      expect(eur.body).toMatchObject({ amount: 349, currency: 'EUR', serviceids: [expect.any(Number), expect.any(Number)] });
      const gbp = await newReseller.call('order', { body: { pid: [11, 13], paymentmethod: 'sandbox', amount: 301, currency: 'GBP' } });
      // WHMCS billed the new account in EUR when it was added.
      if (BILLING_UNDER_TEST === 'whmcs') return expectCurrencyNotOffered(gbp, 'EUR');
      expect(gbp.body).toMatchObject({ amount: 301, currency: 'GBP' });
    });

    it('a reseller order takes no promotion or options, and needs a login', async () => {
      const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
      const promo = await reseller.call('order', { body: { pid: [10], paymentmethod: 'sandbox', amount: 135, currency: 'EUR', promocode: 'WELCOME10' } });
      expect(promo.status).toBe(400);
      expect(promo.body).toEqual({ error: { code: 'bad_request', message: 'Reseller orders take no promotion or options.' } });
      const asGuest = await (await guest(t.app)).call('order', { body: { pid: [10], paymentmethod: 'sandbox', amount: 150, currency: 'EUR' } });
      expect(asGuest.status).toBe(401);
      expect(asGuest.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    });

    it('a retail product is not sold as a reseller product, nor the other way round', async () => {
      const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
      const retailAsReseller = await reseller.call('order', { body: { pid: [1], paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } });
      expect(retailAsReseller.status).toBe(404);
      const resellerAsRetail = await order({ pid: 10, amount: 150 });
      expect(resellerAsRetail.status).toBe(404);
      expect(resellerAsRetail.body).toEqual({ error: { code: 'not_found', message: 'Product 10 is not sold here.' } });
    });
  });

  describe('promotion rules on order', () => {
    it.each([
      ['expired', 'EXPIRED15', 1, 'This Coupon has expired.'],
      ['not started yet', 'FUTURE25', 1, 'This Coupon is not valid yet.'],
      ['for another product', 'HALFYEAR20', 1, 'This Coupon is not available for this product.'],
      ['used up', 'USEDUP50', 1, 'This Coupon has been used up.'],
      ['unknown', 'NOSUCHCODE', 1, 'Promotion code not found.'],
    ])('a code that is %s (%s) is refused with 422 promotion_invalid and nothing is written', async (_name, promocode, pid, message) => {
      const shopper = await guest(t.app);
      const before = await storeSnapshot(t.db);
      const answer = await shopper.call('order', { body: { ...BASIC_ORDER, pid, promocode } });
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body).toEqual({ error: { code: 'promotion_invalid', message } });
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it('an order with a code counts one use of it', async () => {
      const before = await promotionUses(t, 'SAVE5');
      await placeOrder(await guest(t.app), { promocode: 'SAVE5', amount: 7.99 });
      expect(await promotionUses(t, 'SAVE5')).toBe((before ?? 0) + 1);
    });

    it('a code with one use left is used up by the first order; the next is refused', async () => {
      await addPercentagePromotion(t, { code: 'ONCE30', value: 30, appliesto: '1', maxuses: 1 });
      const first = await order({ promocode: 'ONCE30', amount: 9.09 });
      expect(first.status, first.text).toBe(200);
      const second = await order({ promocode: 'ONCE30', amount: 9.09 });
      expect(second.status).toBe(422);
      expect(second.body).toEqual({ error: { code: 'promotion_invalid', message: 'This Coupon has been used up.' } });
      expect(await promotionUses(t, 'ONCE30')).toBe(1);
    });

    it('a code with one use left, raced by three shoppers at once, is used once', async () => {
      await addPercentagePromotion(t, { code: 'RACE30', value: 30, appliesto: '1', maxuses: 1 });
      const shoppers = await Promise.all([guest(t.app), guest(t.app), guest(t.app)]);
      const answers = await Promise.all(shoppers.map((shopper) => shopper.call('order', { body: { ...BASIC_ORDER, promocode: 'RACE30', amount: 9.09 } })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.status !== 200)) {
        if (BILLING_UNDER_TEST === 'whmcs' && refused.status === 409) {
          // Passed our check before the winner's AddOrder counted the use; WHMCS then dropped the code, so the total
          // differs from the quote: cancelled and answered price_changed with the undiscounted 12.99.
          expectPriceChanged(refused, 12.99, 'EUR');
        } else {
          expect(refused.status, refused.text).toBe(422);
          expect(refused.body).toEqual({ error: { code: 'promotion_invalid', message: 'This Coupon has been used up.' } });
        }
      }
      expect(await promotionUses(t, 'RACE30')).toBe(1);
    });

    it('a logged-in client is priced the same way', async () => {
      const account = await newAccount(t.app);
      expect((await account.call('order', { body: { ...BASIC_ORDER, promocode: 'WELCOME10', amount: 11.69 } })).status).toBe(200);
    });
  });
});
