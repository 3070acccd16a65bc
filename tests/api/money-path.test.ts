import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/server/db/schema';
import {
  BILLING_UNDER_TEST, Browser, createTestApp, guest, guestWithOrder, linkPath, newAccount, payOnSandbox, placeOrder, rows, storeSnapshot, type TestApp,
} from './helper';
import { expectError } from './error-answer';

describe('the money path: order, sandbox page, signed confirmation, credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const statusOf = (browser: Browser, orderid: number) => browser.call('getOrderStatus', { query: { orderid: String(orderid) } });
  const serviceOf = (browser: Browser, serviceid: number | undefined) => browser.call('getClientProducts', { query: { serviceid: String(serviceid) } });

  it('a guest order is paid on the sandbox page and read back as Active with credentials, the password encrypted at rest', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper, { pid: 1, configoptions: { '2': 1 }, amount: 16.99 });
    expect(order).toEqual({
      orderid: expect.any(Number), invoiceid: expect.any(Number), serviceids: [expect.any(Number)], fraud: false, status: 'Pending',
      amount: 16.99, currency: 'EUR', link: expect.stringMatching(/^http:\/\/localhost:3000\/checkout\/sandbox\/pay\/pay_[A-Za-z0-9_-]+$/), deadline: expect.any(String),
    });
    const deadline = Date.parse(order.deadline ?? '') - Date.now();
    expect(deadline).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(deadline).toBeLessThanOrEqual(24 * 3600_000);
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid' });
    expect((await serviceOf(shopper, order.serviceids[0])).body).toMatchObject({ status: 'Pending', username: null, password: null, playlistUrl: null });

    // The provider's page: outside the SPA, the amount, a card form that posts back to itself.
    const provider = new Browser(t.app);
    const page = await provider.request({ method: 'GET', url: linkPath(order.link) });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('€16.99');
    expect(page.text).toContain(`Invoice #${order.invoiceid}`);
    expect(page.text).toContain(`<form method="post" action="${linkPath(order.link)}" novalidate>`);
    expect(page.text).toMatch(/<button[^>]*type="submit" name="decision" value="card"[^>]*>Pay €16\.99<\/button>/);

    const card = new URLSearchParams({ card: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123', decision: 'card' }).toString();
    const paid = await provider.request({ method: 'POST', url: linkPath(order.link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: card });
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe('/checkout/waiting');

    expect((await statusOf(shopper, order.orderid)).body).toEqual({
      orderid: order.orderid, status: 'Active', invoiceid: order.invoiceid, invoiceStatus: 'Paid', serviceids: order.serviceids, fraud: false, amount: 16.99, currency: 'EUR',
      payment: { status: 'Paid', gateway: 'sandbox' }, latePayment: false,
      receipt: {
        lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: false }], promocode: null,
        discount: 0, date: expect.any(String), datepaid: expect.any(String), paymentmethod: { module: 'sandbox', displayname: expect.any(String) },
      },
    });
    expect((await shopper.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } })).body).toMatchObject({ status: 'Paid', kind: 'order' });
    const service = await serviceOf(shopper, order.serviceids[0]);
    // The server host is SERVER_HOSTNAME's with the local store; with WHMCS, the server WHMCS put the service on.
    const host = t.whmcs ? t.whmcs.state.services.find((row) => row.id === order.serviceids[0])?.serverhostname : 'stream.tvcheckout.test';
    expect(host).toBeTruthy();
    expect(service.body).toMatchObject({ status: 'Active', pid: 1, billingcycle: 'Monthly', serverhostname: host, extraConnect: { id: 2, value: 1 }, reseller: null });
    const { username, password } = service.body;
    expect(username).toMatch(/^TV-\d{8}$/);
    expect(password).toMatch(/^\d{12}$/);
    expect(service.body.playlistUrl).toBe(`http://${host}/get.php?username=${username}&password=${password}&type=m3u_plus&output=ts`);

    const [stored] = await rows<{ username: string; password_encrypted: string }>(t.db, sql`select username, password_encrypted from services where id = ${order.serviceids[0] ?? 0}`);
    if (t.whmcs) {
      // WHMCS holds the credentials (the service's custom fields): the checkout's store keeps none of them.
      expect(stored).toMatchObject({ username: null, password_encrypted: null });
      expect(t.whmcs.state.services.find((row) => row.id === order.serviceids[0])).toMatchObject({ username, password });
    } else {
      expect(stored?.username).toBe(username);
      expect(stored?.password_encrypted).toBeTruthy();
      expect(stored?.password_encrypted).not.toContain(password);
      expect(Buffer.from(stored?.password_encrypted.replace(/\./g, '') ?? '', 'base64url').toString('latin1')).not.toContain(password);
    }

    // Paid is final: the page says so, and no new link is made for the invoice.
    const again = await provider.request({ method: 'GET', url: linkPath(order.link) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('This invoice is already paid');
    expectError(await shopper.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: 16.99, currency: 'EUR' } }), 409, 'invoice_paid');
    expectError(await shopper.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: 16.99, currency: 'EUR' } }), 409, 'invoice_paid');
    expectError(await shopper.call('cancelOrder', { body: { orderid: order.orderid } }), 409, 'order_not_pending');
  });

  it('every paid service gets credentials of its own', async () => {
    const credentials = new Set<string>();
    for (let index = 0; index < 3; index++) {
      const { browser, order } = await guestWithOrder(t.app);
      await payOnSandbox(t.app, order.link);
      const { username, password } = (await serviceOf(browser, order.serviceids[0])).body;
      credentials.add(`${username}`).add(`${password}`);
    }
    expect(credentials.size).toBe(6);
  });

  it('Decline leaves the invoice unpaid; coinbase with the crypto gateway then gives a new link for the same invoice, which pays', async () => {
    // A new guest with no country known is billed in EUR by WHMCS (which takes no other currency from it); the local store takes GBP.
    const paid = BILLING_UNDER_TEST === 'whmcs' ? { currency: 'EUR' as const, amount: 12.99, shown: '€12.99' } : { currency: 'GBP' as const, amount: 10.99, shown: '£10.99' };
    const { browser: shopper, order } = await guestWithOrder(t.app, { currency: paid.currency, amount: paid.amount });
    const declined = await payOnSandbox(t.app, order.link, 'decline');
    expect(declined.headers.location).toBe('/checkout/waiting');
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid' });
    expect((await serviceOf(shopper, order.serviceids[0])).body).toMatchObject({ status: 'Pending', username: null });
    const [declinedPayment] = await t.db.select().from(payments).where(eq(payments.invoiceId, order.invoiceid));
    expect(declinedPayment?.status).toBe('Declined');

    const change = await shopper.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: paid.amount, currency: paid.currency } });
    expect(change.status, change.text).toBe(200);
    expect(change.body).toEqual({ invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', link: expect.stringContaining('/checkout/sandbox/pay/pay_'), deadline: expect.any(String) });
    expect(change.body.link).not.toBe(order.link);
    const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(change.body.link) });
    expect(page.text).toContain('<h1>Bitcoin</h1>');
    expect(page.text).toContain(paid.shown);

    await payOnSandbox(t.app, change.body.link);
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid' });
    expect((await serviceOf(shopper, order.serviceids[0])).body).toMatchObject({ status: 'Active', username: expect.stringMatching(/^TV-\d{8}$/) });
  });

  it('a new link takes the gateway of its kind only, for the invoice\'s own amount and currency, and writes nothing otherwise', async () => {
    const { browser: shopper, order } = await guestWithOrder(t.app);
    const link = { invoiceid: order.invoiceid, amount: 12.99, currency: 'EUR' as const };
    const before = await storeSnapshot(t.db);
    expectError(await shopper.call('offshore', { body: { ...link, paymentmethod: 'sandboxcrypto' } }), 400, 'wrong_gateway_kind');
    expectError(await shopper.call('coinbase', { body: { ...link, paymentmethod: 'sandbox' } }), 400, 'wrong_gateway_kind');
    expectError(await shopper.call('offshore', { body: { ...link, paymentmethod: 'paypal' } }), 400, 'unknown_gateway');
    const cheaper = await shopper.call('offshore', { body: { ...link, paymentmethod: 'sandbox', amount: 1 } });
    expectError(cheaper, 409, 'price_changed');
    expect(cheaper.body.error).toMatchObject({ amount: 12.99, currency: 'EUR' });
    expectError(await shopper.call('offshore', { body: { ...link, paymentmethod: 'sandbox', currency: 'GBP' } }), 409, 'price_changed');
    expect(await storeSnapshot(t.db)).toEqual(before);

    const card = await shopper.call('offshore', { body: { ...link, paymentmethod: 'sandbox' } });
    expect(card.status).toBe(200);
    expect(card.body.link).not.toBe(order.link);
  });

  it('a cancelled order cannot be paid, neither on its open link nor through a new one', async () => {
    const { browser: shopper, order } = await guestWithOrder(t.app);
    expect((await shopper.call('cancelOrder', { body: { orderid: order.orderid } })).body).toEqual({ orderid: order.orderid, status: 'Cancelled' });
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Cancelled', invoiceStatus: 'Cancelled' });
    expectError(await shopper.call('offshore', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } }), 409, 'invoice_cancelled');
    const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
    expect(page.status).toBe(409);
    expect(page.text).toContain('This order was cancelled');
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Cancelled', invoiceStatus: 'Cancelled' });
    expect((await serviceOf(shopper, order.serviceids[0])).body).toMatchObject({ username: null, password: null });
  });

  it('the sandbox page refuses unknown and expired links and a form without a decision, changing nothing', async () => {
    const provider = new Browser(t.app);
    const unknown = await provider.request({ method: 'GET', url: '/checkout/sandbox/pay/pay_doesNotExist0000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Payment not found');
    expect((await provider.request({ method: 'GET', url: '/checkout/sandbox/pay/not-a-payment' })).status).toBe(404);

    const { browser: shopper, order } = await guestWithOrder(t.app);
    const before = await storeSnapshot(t.db);
    const undecided = await provider.request({ method: 'POST', url: linkPath(order.link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=maybe' });
    expect(undecided.status).toBe(400);
    expect(await storeSnapshot(t.db)).toEqual(before);

    await t.db.update(payments).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(payments.invoiceId, order.invoiceid));
    expect((await provider.request({ method: 'GET', url: linkPath(order.link) })).status).toBe(410);
    const late = await provider.request({ method: 'POST', url: linkPath(order.link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=pay' });
    expect(late.status).toBe(410);
    expect((await statusOf(shopper, order.orderid)).body).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid' });
  });

  it('a paid reseller order makes its client a reseller and returns to the reseller waiting page', async () => {
    const account = await newAccount(t.app);
    expect((await account.call('isReseller')).body).toEqual({ reseller: false });
    const products = (await account.call('getResellersProducts')).body;
    const order = await placeOrder(account, { pid: [products.newResellerPid ?? 0, 10], amount: 199 });
    // The server builds the order: the credit pack, then the activation it adds for a new reseller.
    const paid = await payOnSandbox(t.app, order.link);
    expect(paid.headers.location).toBe('/checkout/resellers/waiting');
    expect((await account.call('isReseller')).body).toEqual({ reseller: true });
    const service = await account.call('getResellerProducts', { query: { serviceid: String(order.serviceids[0]) } });
    expect(service.body).toMatchObject({ pid: 10, status: 'Active', reseller: { name: 'Reseller 50 credits', status: 'Active' } });
  });
});
