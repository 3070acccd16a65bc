import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, services } from '../../src/server/db/schema';
import { signWebhook } from '../../src/server/payments/signature';
import {
  countRows, createTestApp, deliverWebhook, guestWithOrder, loggedIn, paymentEvent, paymentIdOf, rows, storeSnapshot, webhookSecret,
  type Answer, type OrderResponse, type TestApp,
} from './helper';

const expectRefused = (answer: Answer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
};

describe('payment webhooks', () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp();
    secret = webhookSecret('sandbox');
  });
  afterAll(async () => t?.close());

  const now = () => Math.floor(Date.now() / 1000);
  const eventFor = (order: OrderResponse, overrides: Partial<Parameters<typeof paymentEvent>[0]> = {}) =>
    paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: order.amount, currency: order.currency, ...overrides });
  const stateOf = async (order: OrderResponse) => {
    const [row] = await t.db.select().from(services).where(eq(services.orderId, order.orderid));
    const [payment] = await t.db.select().from(payments).where(eq(payments.invoiceId, order.invoiceid));
    const [orderRow] = await rows<{ order: string; invoice: string }>(t.db, sql`select o.status as "order", i.status as invoice from orders o join invoices i on i.order_id = o.id where o.id = ${order.orderid}`);
    // The credentials are where the billing keeps them: the store's service row, or WHMCS's service.
    const username = t.whmcs ? t.whmcs.state.services.find((service) => service.id === row?.id)?.username || null : row?.username ?? null;
    return { order: orderRow?.order, invoice: orderRow?.invoice, payment: payment?.status, service: row?.status, username };
  };
  // The it.each tables are built before beforeAll runs; they read the secret when each case runs.
  const SECRET = () => secret;
  const UNPAID = { order: 'Pending', invoice: 'Unpaid', payment: 'Open', service: 'Pending', username: null };

  describe('a refused delivery changes nothing', () => {
    let order: OrderResponse;
    beforeAll(async () => {
      ({ order } = await guestWithOrder(t.app));
    });

    it.each([
      ['signed with another secret', (body: string) => ({ signature: signWebhook('not-the-secret', body) }), 'invalid_signature'],
      ['whose body was changed after signing', (body: string) => ({ signature: signWebhook(SECRET(), body.replace('"amount":12.99', '"amount":0.01')) }), 'invalid_signature'],
      ['without a v1 signature', () => ({ signature: `t=${Math.floor(Date.now() / 1000)}` }), 'invalid_signature'],
      ['with a malformed header', () => ({ signature: 'sha256=deadbeef' }), 'invalid_signature'],
      ['with a signature of the wrong length', () => ({ signature: `t=${Math.floor(Date.now() / 1000)},v1=abcd` }), 'invalid_signature'],
      ['signed 301 s ago (stale)', (body: string) => ({ signature: signWebhook(SECRET(), body, Math.floor(Date.now() / 1000) - 301) }), 'stale_timestamp'],
      ['signed 301 s in the future', (body: string) => ({ signature: signWebhook(SECRET(), body, Math.floor(Date.now() / 1000) + 301) }), 'stale_timestamp'],
      ['signed an hour ago', (body: string) => ({ signature: signWebhook(SECRET(), body, Math.floor(Date.now() / 1000) - 3600) }), 'stale_timestamp'],
    ])('a webhook %s is refused with 400 and the invoice stays unpaid', async (_name, sign, code) => {
      const body = eventFor(order);
      const before = await storeSnapshot(t.db);
      expectRefused(await deliverWebhook(t.app, 'sandbox', body, sign(body)), 400, code);
      expect(await storeSnapshot(t.db)).toEqual(before);
      expect(await stateOf(order)).toEqual(UNPAID);
    });

    it('a webhook for a gateway that is not configured is refused with 404', async () => {
      const before = await storeSnapshot(t.db);
      expectRefused(await deliverWebhook(t.app, 'stripe', eventFor(order), { secret }), 404, 'not_found');
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it.each([
      ['another amount', { amount: 0.01 }],
      ['another currency', { currency: 'GBP' as const }],
      ['another invoice', { invoiceid: 1 }],
      ['an unknown payment', { paymentId: 'pay_unknownPayment00000000' }],
    ])('a correctly signed event with %s is received but pays nothing', async (_name, overrides) => {
      const answer = await deliverWebhook(t.app, 'sandbox', eventFor(order, overrides), { secret });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ received: true, duplicate: false });
      expect(await stateOf(order)).toEqual(UNPAID);
    });

    it('an event for this payment signed by another gateway (its own secret) pays nothing', async () => {
      const answer = await deliverWebhook(t.app, 'sandboxcrypto', eventFor(order), { secret: webhookSecret('sandboxcrypto') });
      expect(answer.status).toBe(200);
      expect(await stateOf(order)).toEqual(UNPAID);
    });
  });

  it('a valid webhook pays once: its replay is acknowledged as a duplicate and changes nothing', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const body = eventFor(order);
    const first = await deliverWebhook(t.app, 'sandbox', body, { secret });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    const paid = await stateOf(order);
    expect(paid).toEqual({ order: 'Active', invoice: 'Paid', payment: 'Paid', service: 'Active', username: expect.stringMatching(/^TV-\d{8}$/) });
    const credentials = (await browser.call('getClientProducts', { query: { serviceid: String(order.serviceids[0]) } })).body;

    const before = await storeSnapshot(t.db);
    const replay = await deliverWebhook(t.app, 'sandbox', body, { secret });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await storeSnapshot(t.db)).toEqual(before);
    expect(await countRows(t.db, 'webhook_events', sql`id = ${JSON.parse(body).id}`)).toBe(1);

    // Another event id for the same payment (a provider retrying with a new id) pays nothing twice.
    const retried = await deliverWebhook(t.app, 'sandbox', eventFor(order), { secret });
    expect(retried.status).toBe(200);
    expect(await stateOf(order)).toEqual(paid);
    const after = (await browser.call('getClientProducts', { query: { serviceid: String(order.serviceids[0]) } })).body;
    expect({ username: after.username, password: after.password }).toEqual({ username: credentials.username, password: credentials.password });
  });

  it('the signature is checked on the raw bytes: a body formatted with spaces, signed as sent, is accepted', async () => {
    const { order } = await guestWithOrder(t.app);
    const formatted = JSON.stringify(JSON.parse(eventFor(order)), null, 2);
    const answer = await deliverWebhook(t.app, 'sandbox', formatted, { secret });
    expect(answer.status, answer.text).toBe(200);
    expect((await stateOf(order)).invoice).toBe('Paid');
  });

  it('a webhook signed within the 300 s window is accepted', async () => {
    const { order } = await guestWithOrder(t.app);
    const body = eventFor(order);
    const answer = await deliverWebhook(t.app, 'sandbox', body, { signature: signWebhook(secret, body, now() - 290) });
    expect(answer.status, answer.text).toBe(200);
    expect((await stateOf(order)).invoice).toBe('Paid');
  });

  it('a header carrying an old and a new signature (secret rotation) is accepted when one matches', async () => {
    const { order } = await guestWithOrder(t.app);
    const body = eventFor(order);
    const valid = signWebhook(secret, body);
    const answer = await deliverWebhook(t.app, 'sandbox', body, { signature: `${valid},v1=${'0'.repeat(64)}` });
    expect(answer.status, answer.text).toBe(200);
    expect((await stateOf(order)).invoice).toBe('Paid');
  });

  it('a payment.failed event declines the payment and leaves the invoice unpaid', async () => {
    const { order } = await guestWithOrder(t.app);
    const answer = await deliverWebhook(t.app, 'sandbox', eventFor(order, { type: 'payment.failed' }), { secret });
    expect(answer.status).toBe(200);
    expect(await stateOf(order)).toEqual({ ...UNPAID, payment: 'Declined' });
  });

  it('a replayed upsell payment adds the extra connections once', async () => {
    const demo = await loggedIn(t.app);
    const [service] = (await demo.call('getActiveProducts')).body.products;
    if (!service) throw new Error('The demo client has no active service');
    const invoice = await demo.call('addInvoice', { body: { serviceId: service.serviceid, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'EUR' } });
    expect(invoice.status).toBe(200);
    const body = paymentEvent({ paymentId: paymentIdOf(invoice.body.link), invoiceid: invoice.body.invoiceid, amount: 8, currency: 'EUR' });
    for (let delivery = 0; delivery < 3; delivery++) expect((await deliverWebhook(t.app, 'sandbox', body, { secret })).status).toBe(200);
    expect((await deliverWebhook(t.app, 'sandbox', paymentEvent({ paymentId: paymentIdOf(invoice.body.link), invoiceid: invoice.body.invoiceid, amount: 8, currency: 'EUR' }), { secret })).status).toBe(200);
    const after = await demo.call('getClientProducts', { query: { serviceid: String(service.serviceid) } });
    expect(after.body.extraConnect).toEqual({ id: 2, value: service.extraConnections + 2 });
  });
});
