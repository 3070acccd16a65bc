import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/server/db/schema';
import {
  Browser, createTestApp, deliverWebhook, guestWithOrder, linkPath, loggedIn, payOnSandbox, paymentEvent, paymentIdOf, rows, setInvoiceStatus, storeSnapshot, webhookSecret,
  type OrderResponse, type TestApp,
} from './helper';

type ExceptionRow = {
  gateway: string;
  event_id: string;
  event_type: string;
  payment_id: string | null;
  invoice_id: number | null;
  amount_cents: number;
  currency: string;
  reason: string;
};

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('payment links and webhooks of closed invoices', () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => t?.close());

  const secret = () => webhookSecret('sandbox');
  const form = (link: string | null | undefined, decision: 'pay' | 'decline') => new Browser(t.app).request({
    method: 'POST', url: linkPath(link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `decision=${decision}`,
  });
  const page = (link: string | null | undefined) => new Browser(t.app).request({ method: 'GET', url: linkPath(link) });

  /** The order, its invoice, its services and their credentials as stored. */
  const stateOf = async (order: OrderResponse) => ({
    order: await rows(t.db, sql`select status, fraud from orders where id = ${order.orderid}`),
    invoice: await rows(t.db, sql`select status, paid_at from invoices where id = ${order.invoiceid}`),
    payments: await rows(t.db, sql`select id, status from payments where invoice_id = ${order.invoiceid} order by id`),
    services: await rows(t.db, sql`select id, status, username, password_encrypted, extra_connections from services where order_id = ${order.orderid} order by id`),
  });
  const exceptionsOf = (eventId: string) => rows<ExceptionRow>(t.db, sql`select gateway, event_id, event_type, payment_id, invoice_id, amount_cents, currency, reason from payment_exceptions where event_id = ${eventId}`);
  const eventFor = (order: OrderResponse, link: string | null | undefined, overrides: Partial<Parameters<typeof paymentEvent>[0]> = {}) =>
    paymentEvent({ paymentId: paymentIdOf(link), invoiceid: order.invoiceid, amount: order.amount, currency: order.currency, ...overrides });

  /** The page and its form's POST both refuse with `status` and `title`, link back to the checkout, and change nothing. */
  const expectRefusedLink = async (link: string | null | undefined, status: number, title: string, returnPath = '/checkout/waiting') => {
    const before = await storeSnapshot(t.db);
    const shown = await page(link);
    for (const decision of ['pay', 'decline'] as const) {
      const posted = await form(link, decision);
      for (const answer of [shown, posted]) {
        expect(answer.status, answer.text).toBe(status);
        expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(answer.text).toContain(`<h1>${title}</h1>`);
        expect(answer.text).toContain(`<a href="${returnPath}">Back to the checkout</a>`);
        expect(answer.text).not.toMatch(/<button[^>]*>Pay/);
      }
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
  };

  /**
   * A verified succeeded event for `link` is answered 200 (not a duplicate), recorded once as an exception
   * with `reason`, activates nothing, and its replay stays a duplicate.
   */
  const expectException = async (order: OrderResponse, link: string | null | undefined, reason: string, overrides: Partial<Parameters<typeof paymentEvent>[0]> = {}) => {
    const before = await stateOf(order);
    const body = eventFor(order, link, overrides);
    const { id: eventId, data } = JSON.parse(body) as { id: string; data: { amount: number; currency: string } };
    const answer = await deliverWebhook(t.app, 'sandbox', body, { secret: secret() });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ received: true, duplicate: false });
    expect(await exceptionsOf(eventId)).toEqual([{
      gateway: 'sandbox', event_id: eventId, event_type: 'payment.succeeded', payment_id: paymentIdOf(link), invoice_id: order.invoiceid,
      amount_cents: Math.round(data.amount * 100), currency: data.currency, reason,
    }]);
    expect(await stateOf(order)).toEqual(before);

    const replay = await deliverWebhook(t.app, 'sandbox', body, { secret: secret() });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await exceptionsOf(eventId)).toHaveLength(1);
    expect(await stateOf(order)).toEqual(before);
    return eventId;
  };

  describe('an invoice paid through another link of it', () => {
    let order: OrderResponse;
    let shopper: Browser;
    let second: string;
    beforeAll(async () => {
      const placed = await guestWithOrder(t.app);
      order = placed.order;
      shopper = placed.browser;
      const answer = await placed.browser.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: order.amount, currency: order.currency } });
      expect(answer.status, answer.text).toBe(200);
      second = answer.body.link;
      expect(paymentIdOf(second)).not.toBe(paymentIdOf(order.link));
      await payOnSandbox(t.app, second);
      expect((await stateOf(order)).invoice).toEqual([{ status: 'Paid', paid_at: expect.anything() }]);
    });

    it('the first link shows "This invoice is already paid" with 409 and its form pays nothing', async () => {
      await expectRefusedLink(order.link, 409, 'This invoice is already paid');
    });

    it('a webhook paying the first link is recorded as an invoice_paid exception, activating nothing twice', async () => {
      await expectException(order, order.link, 'invoice_paid');
    });

    it('a new event id for the link that paid is a second charge: an invoice_paid exception, never hidden (its replay stays a duplicate)', async () => {
      // The sandbox page makes one event id per payment made on it: a new id is money taken again, to be refunded.
      await expectException(order, second, 'invoice_paid');
    });

    it('no new link is made for it: 409 invoice_paid', async () => {
      const answer = await shopper.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: order.amount, currency: order.currency } });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ error: { code: 'invoice_paid', message: 'This invoice is already paid.' } });
    });
  });

  describe('a cancelled order', () => {
    let order: OrderResponse;
    beforeAll(async () => {
      const placed = await guestWithOrder(t.app);
      order = placed.order;
      expect((await placed.browser.call('cancelOrder', { body: { orderid: order.orderid } })).body).toEqual({ orderid: order.orderid, status: 'Cancelled' });
    });

    it('its link shows "This order was cancelled" with 409 and its form pays nothing', async () => {
      await expectRefusedLink(order.link, 409, 'This order was cancelled');
    });

    it('a webhook paying it is recorded as an invoice_cancelled exception; the order stays cancelled, no credentials', async () => {
      await expectException(order, order.link, 'invoice_cancelled');
      const state = await stateOf(order);
      expect(state.order).toEqual([{ status: 'Cancelled', fraud: false }]);
      expect(state.services).toEqual([expect.objectContaining({ status: 'Cancelled', username: null, password_encrypted: null })]);
    });

    it('a declined event for it moved no money: answered 200, no exception, nothing changed but the event id', async () => {
      const body = eventFor(order, order.link, { type: 'payment.failed' });
      const before = await storeSnapshot(t.db);
      const answer = await deliverWebhook(t.app, 'sandbox', body, { secret: secret() });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ received: true, duplicate: false });
      const after = await storeSnapshot(t.db);
      expect(after.webhook_events?.rows).toBe((before.webhook_events?.rows ?? 0) + 1);
      expect({ ...after, webhook_events: null }).toEqual({ ...before, webhook_events: null });
    });
  });

  describe('an expired link', () => {
    let order: OrderResponse;
    beforeAll(async () => {
      ({ order } = await guestWithOrder(t.app));
      await t.db.update(payments).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, paymentIdOf(order.link)));
    });

    it('shows "This link has expired" with 410 and its form pays nothing', async () => {
      await expectRefusedLink(order.link, 410, 'This link has expired');
    });

    it('a webhook for a payment made after it expired is recorded as a link_expired exception; the order stays pending', async () => {
      await expectException(order, order.link, 'link_expired');
      const state = await stateOf(order);
      expect(state.order).toEqual([{ status: 'Pending', fraud: false }]);
      expect(state.invoice).toEqual([{ status: 'Unpaid', paid_at: null }]);
      expect(state.services).toEqual([expect.objectContaining({ status: 'Pending', username: null })]);
    });

    it('a payment the provider made before the link expired, notified late, is applied', async () => {
      const { order: late } = await guestWithOrder(t.app);
      await t.db.update(payments).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, paymentIdOf(late.link)));
      const event = JSON.parse(eventFor(late, late.link)) as { id: string; created: number };
      event.created = Math.floor(Date.now() / 1000) - 120;
      const answer = await deliverWebhook(t.app, 'sandbox', JSON.stringify(event), { secret: secret() });
      expect(answer.status).toBe(200);
      expect(await exceptionsOf(event.id)).toEqual([]);
      expect((await stateOf(late)).order).toEqual([{ status: 'Active', fraud: false }]);
    });
  });

  describe('a refunded invoice', () => {
    let order: OrderResponse;
    let shopper: Browser;
    beforeAll(async () => {
      ({ order, browser: shopper } = await guestWithOrder(t.app));
      await setInvoiceStatus(t, order.invoiceid, 'Refunded');
      // The shopper's next read tells the checkout (WHMCS's word reaches its mirror there, before any snapshot below).
      expect((await shopper.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } })).body).toMatchObject({ status: 'Refunded' });
    });

    it('its link shows "This invoice was refunded" with 409 and its form pays nothing', async () => {
      await expectRefusedLink(order.link, 409, 'This invoice was refunded');
    });

    it('no new link is made for it: 409 invoice_refunded', async () => {
      const answer = await shopper.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: order.amount, currency: order.currency } });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ error: { code: 'invoice_refunded', message: 'This invoice was refunded and can no longer be paid.' } });
    });

    it('a webhook paying it is recorded as an invoice_refunded exception; a new link is then refused as paid_after_close (the shopper has paid)', async () => {
      await expectException(order, order.link, 'invoice_refunded');
      const answer = await shopper.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: order.amount, currency: order.currency } });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ error: { code: 'paid_after_close', message: expect.any(String) } });
    });
  });

  it('a cancelled upsell invoice says the invoice (not an order) was cancelled, and its payment adds no connection', async () => {
    const demo = await loggedIn(t.app);
    const [service] = (await demo.call('getActiveProducts')).body.products;
    if (!service) throw new Error('The demo client has no active service');
    const upsell = await demo.call('addInvoice', { body: { serviceId: service.serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    expect(upsell.status, upsell.text).toBe(200);
    await setInvoiceStatus(t, upsell.body.invoiceid, 'Cancelled');
    expect((await demo.call('getInvoiceStatus', { query: { invoiceid: String(upsell.body.invoiceid) } })).body).toMatchObject({ status: 'Cancelled' });
    await expectRefusedLink(upsell.body.link, 409, 'This invoice was cancelled');
    expect((await demo.call('offshore', { body: { invoiceid: upsell.body.invoiceid, paymentmethod: 'sandbox', amount: 4, currency: 'EUR' } })).body)
      .toEqual({ error: { code: 'invoice_cancelled', message: 'This invoice was cancelled and can no longer be paid.' } });

    const body = paymentEvent({ paymentId: paymentIdOf(upsell.body.link), invoiceid: upsell.body.invoiceid, amount: 4, currency: 'EUR' });
    expect((await deliverWebhook(t.app, 'sandbox', body, { secret: secret() })).status).toBe(200);
    expect((await exceptionsOf(JSON.parse(body).id)).map((row) => row.reason)).toEqual(['invoice_cancelled']);
    const after = await demo.call('getClientProducts', { query: { serviceid: String(service.serviceid) } });
    expect(after.body.extraConnect).toEqual({ id: 2, value: service.extraConnections });
  });

  describe('money that differs from the invoice', () => {
    let order: OrderResponse;
    beforeAll(async () => {
      ({ order } = await guestWithOrder(t.app));
    });

    it.each([
      ['another amount', { amount: 0.01 }, 'amount_mismatch'],
      ['another currency', { currency: 'GBP' as const }, 'currency_mismatch'],
      ['another amount in another currency', { amount: 11.5, currency: 'GBP' as const }, 'currency_mismatch'],
    ])('a payment of %s is recorded as %s and pays nothing', async (_name, overrides, reason) => {
      await expectException(order, order.link, reason, overrides);
      expect((await stateOf(order)).invoice).toEqual([{ status: 'Unpaid', paid_at: null }]);
    });

    it('a payment nobody knows is recorded as unknown_payment with the invoice it names', async () => {
      const paymentId = `pay_${randomBytes(18).toString('base64url')}`;
      const body = paymentEvent({ paymentId, invoiceid: order.invoiceid, amount: order.amount, currency: order.currency });
      expect((await deliverWebhook(t.app, 'sandbox', body, { secret: secret() })).body).toEqual({ received: true, duplicate: false });
      expect(await exceptionsOf(JSON.parse(body).id)).toEqual([expect.objectContaining({ payment_id: paymentId, invoice_id: order.invoiceid, reason: 'unknown_payment', amount_cents: 1299 })]);
    });

    it('the link still pays the right amount afterwards', async () => {
      await payOnSandbox(t.app, order.link);
      expect((await stateOf(order)).order).toEqual([{ status: 'Active', fraud: false }]);
    });
  });

  it('an exception is logged at warn with invoice, gateway, event, amount, currency and reason, and no line names the payment link', async () => {
    const { order } = await guestWithOrder(t.app);
    await t.db.update(payments).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, paymentIdOf(order.link)));
    const from = logLines.length;
    const eventId = await expectException(order, order.link, 'link_expired');
    const lines = logLines.slice(from);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(paymentIdOf(order.link));
    const warnings = lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.level === 40);
    expect(warnings).toEqual([expect.objectContaining({
      invoice: order.invoiceid, gateway: 'sandbox', event: eventId, amount: 12.99, currency: 'EUR', reason: 'link_expired', msg: expect.stringContaining('payment exception'),
    })]);
  });
});
