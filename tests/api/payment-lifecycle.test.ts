/**
 * What the waiting page reads of a payment (issue 15, Build 4): the latest link's state (Open, Declined,
 * Confirming, Paid, Expired), a payment that came too late, and the receipt; a crypto payment seen but not
 * yet confirmed (payment.confirming, the sandbox's "Pay, confirm later"); a new link on the same gateway.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/server/db/schema';
import {
  Browser, createTestApp, deliverWebhook, guest, guestWithOrder, linkPath, paymentEvent, paymentIdOf, payOnSandbox, placeOrder, rows, storeSnapshot,
  verifiedAccount, webhookSecret, type OrderResponse, type TestApp,
} from './helper';

describe('the payment lifecycle the waiting page reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const statusOf = async (browser: Browser, order: OrderResponse) => {
    const answer = await browser.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const orderState = async (order: OrderResponse) =>
    (await rows<{ order: string; invoice: string }>(t.db, sql`select o.status as "order", i.status as invoice from orders o join invoices i on i.order_id = o.id where o.id = ${order.orderid}`))[0];
  /** Sends the sandbox page's form for `link`, as the shopper's click does. */
  const submit = (link: string | null | undefined, decision: string) =>
    new Browser(t.app).request({ method: 'POST', url: linkPath(link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `decision=${decision}` });
  const expire = (link: string | null | undefined) => t.db.update(payments).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, paymentIdOf(link)));
  const event = (order: OrderResponse, link: string | null | undefined, gateway: string, type: 'payment.succeeded' | 'payment.failed' | 'payment.confirming') =>
    deliverWebhook(t.app, gateway, paymentEvent({ type, paymentId: paymentIdOf(link), invoiceid: order.invoiceid, amount: order.amount, currency: order.currency }), { secret: webhookSecret(gateway) });

  it('a new order: its link is Open, no late payment, and the receipt names the plan, its cycle, both options and the promotion (1 Month + options, WELCOME10: 17.54 EUR)', async () => {
    const { browser, order } = await guestWithOrder(t.app, { pid: 1, promocode: 'WELCOME10', configoptions: { '2': 1, '4': 1 }, amount: 17.54 });
    expect(await statusOf(browser, order)).toEqual({
      orderid: order.orderid, status: 'Pending', invoiceid: order.invoiceid, invoiceStatus: 'Unpaid', serviceids: order.serviceids, fraud: false,
      amount: 17.54, currency: 'EUR',
      payment: { status: 'Open', gateway: 'sandbox' },
      latePayment: false,
      receipt: {
        lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: true }], promocode: 'WELCOME10',
        // 10 % of 12.99 + 4 + 2.50 (tests/facts/prices.ts).
        discount: 1.95, date: expect.any(String), datepaid: null, paymentmethod: { module: 'sandbox', displayname: expect.any(String) },
      },
    });
    const invoice = await browser.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } });
    expect(invoice.body).toMatchObject({ status: 'Unpaid', payment: { status: 'Open', gateway: 'sandbox' }, latePayment: false, receipt: { promocode: 'WELCOME10' } });
  });

  it('a declined payment is Declined (not just pending); a new link on the same gateway is Open and pays the order', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link, 'decline');
    expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid', payment: { status: 'Declined', gateway: 'sandbox' }, latePayment: false });

    const renewed = await browser.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(paymentIdOf(renewed.body.link)).not.toBe(paymentIdOf(order.link));
    expect(await statusOf(browser, order)).toMatchObject({ payment: { status: 'Open', gateway: 'sandbox' } });
    await payOnSandbox(t.app, renewed.body.link);
    expect(await statusOf(browser, order)).toMatchObject({ status: 'Active', invoiceStatus: 'Paid', payment: { status: 'Paid', gateway: 'sandbox' } });
  });

  it('a link past its deadline reads Expired; a new link on the same gateway is Open again', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    await expire(order.link);
    expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', payment: { status: 'Expired', gateway: 'sandbox' }, latePayment: false });
    const renewed = await browser.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(await statusOf(browser, order)).toMatchObject({ payment: { status: 'Open', gateway: 'sandbox' } });
  });

  describe('a crypto payment seen but not yet confirmed', () => {
    it('the Bitcoin sandbox page offers "Pay, confirm later"; pressing it makes the payment Confirming and activates nothing; "Confirm the payment" then pays the order', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
      expect(page.text).toContain('<button type="submit" name="decision" value="confirm_later">Pay, confirm later</button>');

      expect((await submit(order.link, 'confirm_later')).status).toBe(303);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid', payment: { status: 'Confirming', gateway: 'sandboxcrypto' } });

      const confirming = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
      expect(confirming.status).toBe(200);
      expect(confirming.text).toContain('The payment was received and is waiting for its confirmation.');
      expect(confirming.text).toContain('>Confirm the payment</button>');
      expect(confirming.text).not.toContain('Pay, confirm later');

      expect((await submit(order.link, 'pay')).status).toBe(303);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Active', invoiceStatus: 'Paid', payment: { status: 'Paid', gateway: 'sandboxcrypto' } });
    });

    it('while a payment is being confirmed there is no new link and no cancel (409 payment_confirming), and nothing changes', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      expect((await submit(order.link, 'confirm_later')).status).toBe(303);
      const before = await storeSnapshot(t.db);
      const renewed = await browser.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: 12.99, currency: 'EUR' } });
      expect(renewed.status, renewed.text).toBe(409);
      expect(renewed.body).toEqual({ error: { code: 'payment_confirming', message: 'A payment for this invoice is being confirmed: wait for its confirmation.' } });
      const cancelled = await browser.call('cancelOrder', { body: { orderid: order.orderid } });
      expect(cancelled.status, cancelled.text).toBe(409);
      expect(cancelled.body).toEqual({ error: { code: 'payment_confirming', message: 'A payment for this order is being confirmed: it can no longer be cancelled.' } });
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it('money seen on an older link outweighs a newer link: the status reads Confirming on the older link\'s gateway', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      const renewed = await browser.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } });
      expect(renewed.status, renewed.text).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ payment: { status: 'Open', gateway: 'sandbox' } });
      expect((await submit(order.link, 'confirm_later')).status).toBe(303);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', payment: { status: 'Confirming', gateway: 'sandboxcrypto' } });
    });

    it('a card gateway has no "Pay, confirm later": its page lacks the button and the decision is refused with 400, changing nothing', async () => {
      const { order } = await guestWithOrder(t.app);
      const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
      expect(page.text).not.toContain('confirm later');
      const before = await storeSnapshot(t.db);
      expect((await submit(order.link, 'confirm_later')).status).toBe(400);
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it('a confirming event arriving after the success changes nothing', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      await payOnSandbox(t.app, order.link);
      const late = await event(order, order.link, 'sandboxcrypto', 'payment.confirming');
      expect(late.status, late.text).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Active', payment: { status: 'Paid' }, latePayment: false });
      expect(await rows(t.db, sql`select 1 from payment_exceptions where invoice_id = ${order.invoiceid}`)).toEqual([]);
    });

    it('money seen before the deadline is on time: confirmed after the link expired, it pays the order (no exception)', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.confirming')).status).toBe(200);
      await expire(order.link);
      // Still Confirming, not Expired: the money is on its way.
      expect(await statusOf(browser, order)).toMatchObject({ payment: { status: 'Confirming' } });
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.succeeded')).status).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Active', invoiceStatus: 'Paid', payment: { status: 'Paid' }, latePayment: false });
    });

    it('seen, then failed: the payment is Declined (the shopper may pay again); a success after it still pays the order', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.confirming')).status).toBe(200);
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.failed')).status).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', payment: { status: 'Declined' } });
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.succeeded')).status).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Active', payment: { status: 'Paid' } });
    });

    it('a replayed confirming event is a duplicate and changes nothing', async () => {
      const { order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      const body = paymentEvent({ type: 'payment.confirming', paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: order.amount, currency: order.currency });
      expect((await deliverWebhook(t.app, 'sandboxcrypto', body, { secret: webhookSecret('sandboxcrypto') })).body).toEqual({ received: true, duplicate: false });
      const before = await storeSnapshot(t.db);
      expect((await deliverWebhook(t.app, 'sandboxcrypto', body, { secret: webhookSecret('sandboxcrypto') })).body).toEqual({ received: true, duplicate: true });
      expect(await storeSnapshot(t.db)).toEqual(before);
    });

    it('a confirming event on an expired link is ignored: no exception until money is confirmed', async () => {
      const { browser, order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
      await expire(order.link);
      expect((await event(order, order.link, 'sandboxcrypto', 'payment.confirming')).status).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', payment: { status: 'Expired' }, latePayment: false });
    });
  });

  describe('a payment after the order closed becomes a payment exception the waiting page is told of', () => {
    it('paid after the link expired: recorded as link_expired, the order stays unpaid, latePayment is true', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      await expire(order.link);
      expect((await event(order, order.link, 'sandbox', 'payment.succeeded')).status).toBe(200);
      expect(await orderState(order)).toEqual({ order: 'Pending', invoice: 'Unpaid' });
      expect(await rows(t.db, sql`select reason from payment_exceptions where invoice_id = ${order.invoiceid}`)).toEqual([{ reason: 'link_expired' }]);
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Pending', payment: { status: 'Expired' }, latePayment: true });
    });

    it('paid after the shopper cancelled: recorded as invoice_cancelled, latePayment is true', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      expect((await browser.call('cancelOrder', { body: { orderid: order.orderid } })).status).toBe(200);
      expect((await event(order, order.link, 'sandbox', 'payment.succeeded')).status).toBe(200);
      expect(await orderState(order)).toEqual({ order: 'Cancelled', invoice: 'Cancelled' });
      expect(await statusOf(browser, order)).toMatchObject({ status: 'Cancelled', latePayment: true });
    });

    /** The number of payment links the invoice has. */
    const linksOf = async (order: OrderResponse) => (await rows(t.db, sql`select id from payments where invoice_id = ${order.invoiceid}`)).length;
    const newLink = (browser: Browser, order: OrderResponse, call: 'offshore' | 'coinbase', paymentmethod: string) =>
      browser.call(call, { body: { invoiceid: order.invoiceid, paymentmethod, amount: order.amount, currency: order.currency } });

    it('paid after the link expired: resumeOrder answers the closed order (200, latePayment, no link) and makes no new link; renew and change of gateway answer 409 paid_after_close', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      await expire(order.link);
      expect((await event(order, order.link, 'sandbox', 'payment.succeeded')).status).toBe(200);
      const links = await linksOf(order);
      const resumed = await browser.call('resumeOrder', { query: { orderid: String(order.orderid) } });
      expect(resumed.status, resumed.text).toBe(200);
      expect(resumed.body).toMatchObject({ orderid: order.orderid, invoiceid: order.invoiceid, status: 'Pending', invoiceStatus: 'Unpaid', paymentmethod: 'sandbox', link: null, deadline: null, latePayment: true });
      for (const [call, gateway] of [['offshore', 'sandbox'], ['coinbase', 'sandboxcrypto']] as const) {
        const refused = await newLink(browser, order, call, gateway);
        expect(refused.status, refused.text).toBe(409);
        expect(refused.body).toEqual({ error: { code: 'paid_after_close', message: expect.any(String) } });
      }
      expect(await linksOf(order)).toBe(links);
    });

    it('paid after the shopper cancelled: a new link answers 409 paid_after_close (not just invoice_cancelled), resumeOrder says latePayment', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      expect((await browser.call('cancelOrder', { body: { orderid: order.orderid } })).status).toBe(200);
      expect((await event(order, order.link, 'sandbox', 'payment.succeeded')).status).toBe(200);
      const refused = await newLink(browser, order, 'offshore', 'sandbox');
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: { code: 'paid_after_close', message: expect.any(String) } });
      expect((await browser.call('resumeOrder', { query: { orderid: String(order.orderid) } })).body).toMatchObject({ status: 'Cancelled', link: null, latePayment: true });
    });

    it('an expired link without a late payment is still replaced by resumeOrder (latePayment false)', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      await expire(order.link);
      const resumed = await browser.call('resumeOrder', { query: { orderid: String(order.orderid) } });
      expect(resumed.body).toMatchObject({ latePayment: false, link: expect.stringContaining('/checkout/sandbox/pay/') });
      expect(paymentIdOf(resumed.body.link)).not.toBe(paymentIdOf(order.link));
    });

    it('a declined event after the link expired moves no money: no late payment', async () => {
      const { browser, order } = await guestWithOrder(t.app);
      await expire(order.link);
      expect((await event(order, order.link, 'sandbox', 'payment.failed')).status).toBe(200);
      expect(await statusOf(browser, order)).toMatchObject({ latePayment: false });
    });
  });

  it('a flagged order has no payment link: payment is null, and its receipt still names what was ordered', async () => {
    const shopper = await guest(t.app);
    let flagged: OrderResponse | null = null;
    // The default rules flag the 6th order from one address within the hour.
    for (let index = 0; index < 6; index++) flagged = await placeOrder(shopper);
    expect(flagged).toMatchObject({ fraud: true, link: null });
    expect(await statusOf(shopper, flagged!)).toMatchObject({
      status: 'Fraud', fraud: true, payment: null, latePayment: false,
      receipt: { lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }], promocode: null },
    });
  });

  it('an upsell invoice: the receipt line is the extra connections added to the service (3 × 4 EUR)', async () => {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account, { pid: 1, amount: 12.99 });
    await payOnSandbox(t.app, order.link);
    const upsell = await account.call('addInvoice', { body: { serviceId: order.serviceids[0]!, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR' } });
    expect(upsell.status, upsell.text).toBe(200);
    const answer = await account.call('getInvoiceStatus', { query: { invoiceid: String(upsell.body.invoiceid) } });
    expect(answer.body).toEqual({
      invoiceid: upsell.body.invoiceid, status: 'Unpaid', kind: 'upsell', orderid: null, serviceid: order.serviceids[0], amount: 12, currency: 'EUR',
      payment: { status: 'Open', gateway: 'sandbox' }, latePayment: false,
      receipt: {
        lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 3, proxyProtection: false }], promocode: null,
        discount: 0, date: expect.any(String), datepaid: null, paymentmethod: { module: 'sandbox', displayname: expect.any(String) },
      },
    });
  });
});
