import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC_ORDER, Browser, createTestApp, freshEmail, guest, placeOrder, rows, type TestApp } from './helper';

const orderRow = async (t: TestApp, orderid: number) =>
  (await rows<{ ip: string; country: string; status: string; fraud: boolean }>(t.db, sql`select ip, country, status, fraud from orders where id = ${orderid}`))[0];

/** A guest browser from a given connection address. */
async function guestAt(t: TestApp, ip: string, headers: Record<string, string> = {}): Promise<Browser> {
  const browser = new Browser(t.app, ip);
  const answer = await browser.request({ method: 'POST', url: '/checkout/api/authMiddleware', json: { email: freshEmail() }, headers });
  expect(answer.status).toBe(200);
  return browser;
}

describe('fraud rules on the default configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('the demo does not count this machine\'s own orders: six orders from 127.0.0.1 within the hour are none of them flagged', async () => {
    const local = await guestAt(t, '127.0.0.1');
    const flags = [];
    for (let index = 0; index < 6; index++) flags.push((await placeOrder(local)).fraud);
    expect(flags).toEqual([false, false, false, false, false, false]);
  });

  it('the 6th order from one address within the hour is flagged: status Fraud, fraud true, no payment link', async () => {
    const shopper = await guest(t.app);
    for (let index = 0; index < 5; index++) {
      const order = await placeOrder(shopper);
      expect(order).toMatchObject({ status: 'Pending', fraud: false, link: expect.stringContaining('/checkout/sandbox/pay/') });
    }
    expect((await shopper.call('checkFraud')).body).toEqual({ valid: false });
    const flagged = await placeOrder(shopper);
    expect(flagged).toMatchObject({ status: 'Fraud', fraud: true, link: null, deadline: null, amount: 12.99 });
    expect((await shopper.call('getOrderStatus', { query: { orderid: String(flagged.orderid) } })).body).toMatchObject({ status: 'Fraud', fraud: true });
    expect(await orderRow(t, flagged.orderid)).toMatchObject({ status: 'Fraud', fraud: true });
    // The count stops at the limit, which is still reached: the 7th is flagged too.
    expect(await placeOrder(shopper)).toMatchObject({ status: 'Fraud', fraud: true, link: null });
    // Another address is not affected.
    expect((await new Browser(t.app).call('checkFraud')).body).toEqual({ valid: true });
    expect((await placeOrder(await guest(t.app))).fraud).toBe(false);
  });

  it('a flagged order cannot be paid by asking for a new payment link', async () => {
    const shopper = await guest(t.app);
    for (let index = 0; index < 5; index++) await placeOrder(shopper);
    const flagged = await placeOrder(shopper);
    expect(flagged.fraud).toBe(true);
    for (const [operationId, paymentmethod] of [['offshore', 'sandbox'], ['coinbase', 'sandboxcrypto']] as const) {
      const answer = await shopper.call(operationId, { body: { invoiceid: flagged.invoiceid, paymentmethod, amount: 12.99, currency: 'EUR' } });
      expect(answer.status, answer.text).toBe(409);
      expect(answer.body).toEqual({ error: { code: 'invoice_cancelled', message: expect.any(String) } });
    }
    expect((await shopper.call('getOrderStatus', { query: { orderid: String(flagged.orderid) } })).body).toMatchObject({ status: 'Fraud', invoiceStatus: 'Cancelled' });
  });

  it('the address is the connection\'s: X-Forwarded-For is ignored without a trusted proxy, and the body cannot carry one', async () => {
    const shopper = await guestAt(t, '192.0.2.10');
    const answer = await shopper.request({ method: 'POST', url: '/checkout/api/order', json: BASIC_ORDER, headers: { 'x-forwarded-for': '203.0.113.50', 'cf-ipcountry': 'GB', 'idempotency-key': randomUUID() } });
    expect(answer.status).toBe(200);
    expect(await orderRow(t, (answer.body as { orderid: number }).orderid)).toMatchObject({ ip: '192.0.2.10', country: 'MA' });
    const inBody = await shopper.request({ method: 'POST', url: '/checkout/api/order', json: { ...BASIC_ORDER, ip: '203.0.113.50', country: 'GB' }, headers: { 'idempotency-key': randomUUID() } });
    expect(inBody.status).toBe(400);
    expect((await shopper.request({ method: 'GET', url: '/checkout/api/currency', headers: { 'cf-ipcountry': 'GB' } })).body).toEqual({ country: 'MA', currency: 'EUR' });
  });
});

describe('configured rules behind a trusted proxy (FRAUD_BLOCKED_IPS, FRAUD_BLOCKED_COUNTRIES, TRUST_PROXY, COUNTRY_HEADER)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: '10.0.0.0/8', COUNTRY_HEADER: 'CF-IPCountry', FRAUD_BLOCKED_IPS: '192.0.2.66, 192.0.2.67, 203.0.113.66', FRAUD_BLOCKED_COUNTRIES: 'KP',
    });
  });
  afterAll(async () => t?.close());

  it('FRAUD_BLOCKED_IPS flags every order from a listed address, from the first one, and checkFraud says so', async () => {
    const blocked = await guestAt(t, '192.0.2.66');
    expect((await blocked.call('checkFraud')).body).toEqual({ valid: false });
    expect(await placeOrder(blocked)).toMatchObject({ status: 'Fraud', fraud: true, link: null });
    const other = await guestAt(t, '192.0.2.68');
    expect((await other.call('checkFraud')).body).toEqual({ valid: true });
    expect(await placeOrder(other)).toMatchObject({ status: 'Pending', fraud: false });
  });

  it('getCurrency takes the country from the proxy\'s header: GB → GBP, another country → EUR, none or malformed → MA, EUR', async () => {
    const ask = async (country?: string) => (await new Browser(t.app).request({ method: 'GET', url: '/checkout/api/currency', headers: country === undefined ? {} : { 'cf-ipcountry': country } })).body;
    expect(await ask('GB')).toEqual({ country: 'GB', currency: 'GBP' });
    expect(await ask('gb')).toEqual({ country: 'GB', currency: 'GBP' });
    expect(await ask('DE')).toEqual({ country: 'DE', currency: 'EUR' });
    expect(await ask()).toEqual({ country: 'MA', currency: 'EUR' });
    expect(await ask('GBR')).toEqual({ country: 'MA', currency: 'EUR' });
  });

  it('the order records the address and country the proxy gives, and the fraud rules apply to them', async () => {
    const proxied = { 'x-forwarded-for': '203.0.113.20', 'cf-ipcountry': 'GB' };
    const shopper = await guestAt(t, '10.0.0.1', proxied);
    const answer = await shopper.request({ method: 'POST', url: '/checkout/api/order', json: { ...BASIC_ORDER, currency: 'GBP', amount: 10.99 }, headers: { ...proxied, 'idempotency-key': randomUUID() } });
    expect(answer.status, answer.text).toBe(200);
    expect(await orderRow(t, (answer.body as { orderid: number }).orderid)).toMatchObject({ ip: '203.0.113.20', country: 'GB', fraud: false });

    const blockedIp = await new Browser(t.app, '10.0.0.1').request({ method: 'GET', url: '/checkout/api/checkFraud', headers: { 'x-forwarded-for': '203.0.113.66' } });
    expect(blockedIp.body).toEqual({ valid: false });
    const blockedCountry = await new Browser(t.app, '10.0.0.1').request({ method: 'GET', url: '/checkout/api/checkFraud', headers: { 'x-forwarded-for': '203.0.113.21', 'cf-ipcountry': 'KP' } });
    expect(blockedCountry.body).toEqual({ valid: false });
    const fine = await new Browser(t.app, '10.0.0.1').request({ method: 'GET', url: '/checkout/api/checkFraud', headers: { 'x-forwarded-for': '203.0.113.22', 'cf-ipcountry': 'GB' } });
    expect(fine.body).toEqual({ valid: true });
  });
});

describe('the fraud queue belongs to the operator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FRAUD_BLOCKED_IPS: '192.0.2.77' });
  });
  afterAll(async () => t?.close());

  /** The order's status as the billing holds it: the local store's row, or WHMCS's. */
  const heldStatus = async (orderid: number) => (t.whmcs ? t.whmcs.state.orders.find((row) => row.id === orderid)?.status : (await orderRow(t, orderid))?.status);

  const expectUnderReview = (answer: { status: number; body: unknown }) => {
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: { code: 'order_under_review', message: 'This order is under review and cannot be cancelled. We will contact you by e-mail.' } });
  };

  it('an order the shopper flagged (fraudOrder) cannot then be cancelled by the shopper: 409, and it stays Fraud', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    expect((await shopper.call('fraudOrder', { body: { orderid: order.orderid } })).body).toEqual({ orderid: order.orderid, status: 'Fraud' });
    expectUnderReview(await shopper.call('cancelOrder', { body: { orderid: order.orderid } }));
    expect((await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).body).toMatchObject({ status: 'Fraud', fraud: true });
    expect(await heldStatus(order.orderid)).toBe('Fraud');
  });

  it('an order flagged by the rules (a blocked address) cannot be cancelled by the shopper either', async () => {
    const blocked = await guestAt(t, '192.0.2.77');
    const order = await placeOrder(blocked);
    expect(order).toMatchObject({ status: 'Fraud', fraud: true });
    expectUnderReview(await blocked.call('cancelOrder', { body: { orderid: order.orderid } }));
    expect(await heldStatus(order.orderid)).toBe('Fraud');
  });

  it('an unflagged pending order is still cancellable', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    expect((await shopper.call('cancelOrder', { body: { orderid: order.orderid } })).body).toEqual({ orderid: order.orderid, status: 'Cancelled' });
  });
});
