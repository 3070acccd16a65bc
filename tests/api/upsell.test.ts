import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, guestWithOrder, loggedIn, payOnSandbox, placeOrder, storeSnapshot, verifiedAccount, type Browser, type TestApp } from './helper';

describe('upsell: extra connections priced on the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const extraConnections = async (browser: Browser, serviceid: number) =>
    (await browser.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body.extraConnect?.value;

  /** A logged-in client with a paid, active service of a product. */
  async function clientWithService(pid: 1 | 2 | 3, amount: number) {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account, { pid, amount });
    await payOnSandbox(t.app, order.link);
    return { account, serviceid: order.serviceids[0] as number };
  }

  it('getActiveProducts lists the client\'s active services with the extra-connection pricing', async () => {
    const demo = await loggedIn(t.app);
    const answer = await demo.call('getActiveProducts');
    expect(answer.body).toEqual({
      totalresults: 1,
      products: [{
        serviceid: expect.any(Number), pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0,
        pricing: {
          EUR: { monthly: 4, quarterly: 11, semiannually: 20, annually: 36, biennially: 66, triennially: 90 },
          GBP: { monthly: 3.5, quarterly: 9.5, semiannually: 17, annually: 31, biennially: 57, triennially: 78 },
        },
      }],
    });
  });

  it('a monthly service: quantity × the monthly price (3 × 4 EUR, 2 × 3.50 GBP); a tampered price is 409 with the server\'s and nothing is written', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    const before = await storeSnapshot(t.db);
    const tampered = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 3, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    expect(tampered.status).toBe(409);
    expect(tampered.body).toEqual({ error: { code: 'price_changed', message: expect.stringContaining('12.00'), amount: 12, currency: 'EUR' } });
    const wrongCurrency = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'GBP' } });
    expect(wrongCurrency.body.error).toMatchObject({ code: 'price_changed', amount: 7, currency: 'GBP' });
    expect(await storeSnapshot(t.db)).toEqual(before);

    const eur = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR' } });
    expect(eur.status).toBe(200);
    expect(eur.body).toMatchObject({ amount: 12, currency: 'EUR' });
    const gbp = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 2, paymentmethod: 'sandboxcrypto', price: 7, currency: 'GBP' } });
    expect(gbp.body).toMatchObject({ amount: 7, currency: 'GBP' });
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(gbp.body.invoiceid) } })).body).toMatchObject({ kind: 'upsell', serviceid, amount: 7, currency: 'GBP', status: 'Unpaid' });
  });

  it.each([
    ['6 Months (semi-annual price 20 EUR)', 2 as const, 59.99, 2, 40],
    ['Lifetime (One Time, priced as monthly: 4 EUR)', 3 as const, 199, 3, 12],
  ])('a %s service is priced for its own cycle', async (_name, pid, amount, extraQuantity, price) => {
    const { account, serviceid } = await clientWithService(pid, amount);
    const wrong = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity, paymentmethod: 'sandbox', price: 4 * extraQuantity + 1, currency: 'EUR' } });
    expect(wrong.body.error).toMatchObject({ code: 'price_changed', amount: price, currency: 'EUR' });
    const right = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity, paymentmethod: 'sandbox', price, currency: 'EUR' } });
    expect(right.status, right.text).toBe(200);
    expect(right.body.amount).toBe(price);
  });

  it('paying the invoice raises extraConnect.value by the quantity; a declined one does not', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    expect(await extraConnections(account, serviceid)).toBe(0);
    const declined = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    await payOnSandbox(t.app, declined.body.link, 'decline');
    expect(await extraConnections(account, serviceid)).toBe(0);

    const invoice = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR' } });
    const page = await payOnSandbox(t.app, invoice.body.link);
    expect(page.headers.location).toBe('/checkout/waiting');
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(invoice.body.invoiceid) } })).body.status).toBe('Paid');
    expect(await extraConnections(account, serviceid)).toBe(3);
    const more = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'EUR' } });
    await payOnSandbox(t.app, more.body.link);
    expect(await extraConnections(account, serviceid)).toBe(5);
    expect((await account.call('getActiveProducts')).body.products).toEqual([expect.objectContaining({ serviceid, extraConnections: 5 })]);
  });

  it('a service that is not active cannot be upsold (409), and a guest cannot upsell at all (401)', async () => {
    const account = await verifiedAccount(t);
    const pending = await placeOrder(account);
    const answer = await account.call('addInvoice', { body: { serviceId: pending.serviceids[0] as number, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: { code: 'service_not_active', message: expect.any(String) } });

    const { browser: shopper, order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link);
    const guestAnswer = await shopper.call('addInvoice', { body: { serviceId: order.serviceids[0] as number, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    expect(guestAnswer.status).toBe(401);
  });
});
