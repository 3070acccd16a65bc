import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/server/clock';
import { createTestApp, guestWithOrder, loggedIn, payOnSandbox, placeOrder, setNextDueDate, storeSnapshot, verifiedAccount, type Browser, type TestApp } from './helper';

/** The server's day: the real time while orders are paid, then noon (UTC) of the day a test names. */
let today: string | null = null;
const clock: Clock = { now: () => (today === null ? new Date() : new Date(`${today}T12:00:00.000Z`)) };

describe('upsell: extra connections priced on the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { ports: { clock } });
  });
  afterAll(async () => t?.close());
  afterEach(() => { today = null; });

  const extraConnections = async (browser: Browser, serviceid: number) =>
    (await browser.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body.extraConnect?.value;

  /** A logged-in client with a paid, active service of a product. */
  async function clientWithService(pid: 1 | 2 | 3, amount: number) {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account, { pid, amount });
    await payOnSandbox(t.app, order.link);
    return { account, serviceid: order.serviceids[0] as number };
  }

  /** From `day` on, the service is billed until `nextDueDate` (the activation's own due date set aside). */
  async function billedUntil(serviceid: number, nextDueDate: string, day: string) {
    await setNextDueDate(t, serviceid, nextDueDate);
    today = day;
  }

  const upsell = (browser: Browser, body: { serviceId: number; extraQuantity: number; price: number; currency?: 'EUR' | 'GBP' }) =>
    browser.call('addInvoice', { body: { paymentmethod: 'sandbox', currency: 'EUR', ...body } });

  it('getActiveProducts lists the client\'s active services with the extra-connection pricing and the proration of the day (1 Dec, due 21 Dec: 20 of 30 days)', async () => {
    const demo = await loggedIn(t.app);
    const listed = (await demo.call('getActiveProducts')).body.products[0]!;
    await billedUntil(listed.serviceid, '2026-12-21', '2026-12-01');
    const answer = await demo.call('getActiveProducts');
    expect(answer.body).toEqual({
      totalresults: 1,
      products: [{
        serviceid: listed.serviceid, pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0,
        nextduedate: '2026-12-21', proration: { remainingDays: 20, periodDays: 30, until: '2026-12-21' },
        pricing: {
          EUR: { monthly: 4, quarterly: 11, semiannually: 20, annually: 36, biennially: 66, triennially: 90 },
          GBP: { monthly: 3.5, quarterly: 9.5, semiannually: 17, annually: 31, biennially: 57, triennially: 78 },
        },
      }],
    });
  });

  it('a monthly service with a whole period left (1 Dec, due 1 Jan): quantity × the monthly price (3 × 4 EUR, 2 × 3.50 GBP); a tampered price is 409 with the server\'s and nothing is written', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    await billedUntil(serviceid, '2027-01-01', '2026-12-01');
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
    ['6 Months (semi-annual price 20 EUR, a whole period left: 1 Dec, due 1 Jun)', 2 as const, 59.99, '2027-06-01', 2, 40],
    ['Lifetime (One Time, priced as monthly: 4 EUR, no due date)', 3 as const, 199, null, 3, 12],
  ])('a %s service is priced for its own cycle', async (_name, pid, amount, nextDueDate, extraQuantity, price) => {
    const { account, serviceid } = await clientWithService(pid, amount);
    if (nextDueDate) await billedUntil(serviceid, nextDueDate, '2026-12-01');
    const wrong = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity, paymentmethod: 'sandbox', price: 4 * extraQuantity + 1, currency: 'EUR' } });
    expect(wrong.body.error).toMatchObject({ code: 'price_changed', amount: price, currency: 'EUR' });
    const right = await account.call('addInvoice', { body: { serviceId: serviceid, extraQuantity, paymentmethod: 'sandbox', price, currency: 'EUR' } });
    expect(right.status, right.text).toBe(200);
    expect(right.body.amount).toBe(price);
  });

  it('paying the invoice raises extraConnect.value by the quantity; a declined one does not (a lifetime service: the full price)', async () => {
    const { account, serviceid } = await clientWithService(3, 199);
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

  it('a monthly service due in 20 of its 30 days (1 Dec, due 21 Dec) pays 4.00 × 20 ÷ 30 = 2.67 a connection; the full 4.00 is refused with 409 carrying 2.67', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    await billedUntil(serviceid, '2026-12-21', '2026-12-01');
    const full = await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 4 });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: { code: 'price_changed', message: expect.stringContaining('2.67'), amount: 2.67, currency: 'EUR' } });
    // 3 × 4.00 × 20 ÷ 30 = 8.00; 3.50 × 20 ÷ 30 = 2.33 in GBP.
    expect((await upsell(account, { serviceId: serviceid, extraQuantity: 3, price: 12 })).body.error).toMatchObject({ code: 'price_changed', amount: 8 });
    expect((await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 3.5, currency: 'GBP' })).body.error).toMatchObject({ code: 'price_changed', amount: 2.33, currency: 'GBP' });

    const prorated = await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 2.67 });
    expect(prorated.status, prorated.text).toBe(200);
    expect(prorated.body).toMatchObject({ amount: 2.67, currency: 'EUR' });
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(prorated.body.invoiceid) } })).body).toMatchObject({ kind: 'upsell', serviceid, amount: 2.67, status: 'Unpaid' });
  });

  it('a day after the list was read (2 Dec: 19 days left) the 2.67 it showed is refused with 409 and the day\'s 4.00 × 19 ÷ 30 = 2.53', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    await billedUntil(serviceid, '2026-12-21', '2026-12-01');
    const listed = (await account.call('getActiveProducts')).body.products[0]!;
    expect(listed.proration).toEqual({ remainingDays: 20, periodDays: 30, until: '2026-12-21' });
    today = '2026-12-02';
    const stale = await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 2.67 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'price_changed', amount: 2.53, currency: 'EUR' });
    expect((await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 2.53 })).status).toBe(200);
  });

  it('on its due date with no renewal invoice issued, nothing is left to prorate: 0 days of 30, 0.00', async () => {
    const { account, serviceid } = await clientWithService(1, 12.99);
    await billedUntil(serviceid, '2026-12-21', '2026-12-21');
    const listed = (await account.call('getActiveProducts')).body.products[0]!;
    expect(listed).toMatchObject({ nextduedate: '2026-12-21', proration: { remainingDays: 0, periodDays: 30, until: '2026-12-21' } });
    expect((await upsell(account, { serviceId: serviceid, extraQuantity: 2, price: 8 })).body.error).toMatchObject({ code: 'price_changed', amount: 0 });
  });

  it('a lifetime service has no due date and no proration: listed with null and priced in full whatever the day', async () => {
    const { account, serviceid } = await clientWithService(3, 199);
    today = '2026-12-01';
    expect((await account.call('getActiveProducts')).body.products).toEqual([expect.objectContaining({ serviceid, billingcycle: 'One Time', nextduedate: null, proration: null })]);
    expect((await upsell(account, { serviceId: serviceid, extraQuantity: 1, price: 4 })).body).toMatchObject({ amount: 4, currency: 'EUR' });
  });
});
