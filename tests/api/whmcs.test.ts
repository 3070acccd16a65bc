import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser, countRows, createTestApp, DEMO_ACCOUNTS, deliverWebhook, guest, loggedIn, payOnSandbox, paymentEvent, paymentIdOf, placeOrder, signInByLink, webhookSecret, type TestApp,
} from './helper';
import { DEMO_SUB_OPTION } from '../support/whmcs-fake';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ BILLING: 'whmcs' }); });
afterAll(async () => { await t?.close(); });

const fake = () => {
  if (!t.whmcs) throw new Error('This app has no fake WHMCS');
  return t.whmcs;
};
const callsOf = (action: string) => fake().callsOf(action);
const actionsSince = (start: number) => fake().calls.slice(start).map((call) => call.action);

describe('BILLING=whmcs: a purchase against the fake WHMCS', () => {
  it('orders, pays on the sandbox page, and reads the credentials WHMCS holds', async () => {
    const start = fake().calls.length;
    const shopper = await guest(t.app);
    const identified = actionsSince(start);
    const order = await placeOrder(shopper);
    expect(order.amount).toBe(12.99);
    const ordered = actionsSince(start).slice(identified.length);
    const addOrder = callsOf('AddOrder').at(-1);
    expect(addOrder?.params).toMatchObject({ 'pid[0]': '1', 'billingcycle[0]': 'monthly', paymentmethod: 'sandbox', clientid: String(shopper.userid) });
    // Our credentials travel in the Username/Password custom fields, base64 of a PHP-serialized array.
    const fields = Buffer.from(addOrder?.params['customfields[0]'] ?? '', 'base64').toString('utf8');
    expect(fields).toMatch(/^a:2:\{i:11;s:11:"TV-\d{8}";i:12;s:12:"\d{12}";\}$/);

    const paying = fake().calls.length;
    await payOnSandbox(t.app, order.link);
    const paid = actionsSince(paying);
    const status = await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.status, status.text).toBe(200);
    expect(status.body).toMatchObject({ orderid: order.orderid, status: 'Active', invoiceStatus: 'Paid' });

    const reading = fake().calls.length;
    const serviceid = order.serviceids[0] as number;
    const service = await shopper.call('getClientProducts', { query: { serviceid: String(serviceid) } });
    expect(service.status, service.text).toBe(200);
    const sentUsername = /"(TV-\d{8})"/.exec(fields)?.[1];
    const sentPassword = /"(\d{12})"/.exec(fields)?.[1];
    expect(service.body).toMatchObject({ status: 'Active', username: sentUsername, password: sentPassword });
    const read = actionsSince(reading);
    expect(callsOf('AddInvoicePayment').map((call) => call.params.transid)).toEqual([paymentIdOf(order.link)]);
    expect(callsOf('AcceptOrder').at(-1)?.params).toMatchObject({ orderid: String(order.orderid), autosetup: '1' });
    console.log(`WHMCS calls: identify ${identified.join(' ')} | order ${ordered.join(' ')} | pay ${paid.join(' ')} | credentials ${read.join(' ')}`);
  });

  it('a client logs in with the password WHMCS holds (ValidateLogin) and buys extra connections', async () => {
    const client = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    expect(callsOf('ValidateLogin').at(-1)?.params).toMatchObject({ email: DEMO_ACCOUNTS.client.email });
    const active = await client.call('getActiveProducts');
    expect(active.status, active.text).toBe(200);
    const service = active.body.products[0];
    if (!service) throw new Error('The demo client has no active service in WHMCS');
    const upsell = await client.call('addInvoice', { body: { serviceId: service.serviceid, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR' } });
    expect(upsell.status, upsell.text).toBe(200);
    expect(callsOf('CreateInvoice').at(-1)?.params).toMatchObject({ userid: String(client.userid), itemamount1: '12.00' });
    await payOnSandbox(t.app, upsell.body.link);
    const update = callsOf('UpdateClientProduct').at(-1);
    expect(update?.params.serviceid).toBe(String(service.serviceid));
    // A quantity option: {2: {optionid: <its sub-option>, qty: n}}, as UpdateClientProduct's docs give it.
    expect(Buffer.from(update?.params.configoptions ?? '', 'base64').toString('utf8'))
      .toBe(`a:1:{i:2;a:2:{s:8:"optionid";i:${DEMO_SUB_OPTION[2]};s:3:"qty";i:${service.extraConnections + 3};}}`);
    const after = await client.call('getClientProducts', { query: { serviceid: String(service.serviceid) } });
    expect(after.body.extraConnect).toEqual({ id: 2, value: service.extraConnections + 3 });
  });

  it('a reseller (client group) orders a credit pack', async () => {
    const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    expect((await reseller.call('isReseller')).body).toEqual({ reseller: true });
    const products = await reseller.call('getResellersProducts');
    const pack = products.body.products.find((candidate) => candidate.pid !== 13);
    if (!pack) throw new Error('No credit pack in the reseller group');
    const amount = Number(pack.pricing?.EUR?.monthly);
    const order = await reseller.call('order', { body: { pid: [pack.pid], paymentmethod: 'sandbox', amount, currency: 'EUR' } });
    expect(order.status, order.text).toBe(200);
    expect(callsOf('AddOrder').at(-1)?.params).toMatchObject({ 'pid[0]': String(pack.pid), 'billingcycle[0]': 'onetime' });
    expect(callsOf('AddOrder').at(-1)?.params['pid[1]']).toBeUndefined();
  });
});

describe('BILLING=whmcs: catalogue, gateways and promotions are WHMCS\'s', () => {
  it('sells the first three products of the retail group, and offers only GATEWAYS with WHMCS\'s display names', async () => {
    const browser = new Browser(t.app);
    const products = await browser.call('getProducts');
    expect(products.status, products.text).toBe(200);
    const retail = fake().state.products.filter((row) => row.gid === 1).slice(0, 3).map((row) => row.pid);
    expect(products.body.products.map((product: { pid: number }) => product.pid)).toEqual(retail);
    const gateways = await browser.call('getGateway');
    const modules = gateways.body.paymentmethods.paymentmethod.map((method) => method.module);
    expect(modules).toEqual(['sandbox', 'sandboxcrypto']);
    for (const method of gateways.body.paymentmethods.paymentmethod) {
      expect(method.displayname).toBe(fake().state.paymentMethods.find((row) => row.module === method.module)?.displayname);
    }
  });

  it('a valid code is sent with AddOrder and WHMCS invoices our discounted total; an expired one is refused before AddOrder', async () => {
    const shopper = await guest(t.app);
    const cancels = callsOf('CancelOrder').length;
    const order = await placeOrder(shopper, { pid: 1, promocode: 'WELCOME10', amount: 17.54, configoptions: { '2': 1, '4': 1 } });
    expect(callsOf('AddOrder').at(-1)?.params).toMatchObject({ promocode: 'WELCOME10' });
    expect(Buffer.from(callsOf('AddOrder').at(-1)?.params['configoptions[0]'] ?? '', 'base64').toString('utf8')).toBe('a:2:{i:2;i:1;i:4;i:1;}');
    expect(fake().state.invoices.find((row) => row.id === order.invoiceid)?.items.reduce((sum, item) => sum + Math.round(Number(item.amount) * 100), 0)).toBe(1754);
    expect(callsOf('CancelOrder').length).toBe(cancels);

    const addOrders = callsOf('AddOrder').length;
    const expired = await shopper.call('order', { body: { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR', promocode: 'EXPIRED15' } });
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({ error: { code: 'promotion_invalid' } });
    expect(callsOf('AddOrder').length).toBe(addOrders);
  });
});

describe('BILLING=whmcs: service and order actions go to WHMCS', () => {
  it('MAC address as a custom field, restart as ModuleCustom, terminate as ModuleTerminate', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    const serviceid = order.serviceids[0] as number;
    const mac = await shopper.call('updateMacAddress', { body: { serviceid, macAddress: 'aa-bb-cc-dd-ee-0f' } });
    expect(mac.status, mac.text).toBe(200);
    expect(mac.body.macAddress).toEqual({ id: 13, value: 'AA:BB:CC:DD:EE:0F' });
    const update = callsOf('UpdateClientProduct').at(-1);
    expect(Buffer.from(update?.params.customfields ?? '', 'base64').toString('utf8')).toBe('a:1:{i:13;s:17:"AA:BB:CC:DD:EE:0F";}');
    const read = await shopper.call('getClientProducts', { query: { serviceid: String(serviceid) } });
    expect(read.body.macAddress).toEqual({ id: 13, value: 'AA:BB:CC:DD:EE:0F' });

    // Restart and terminate need a signed-in client: the guest follows a mailed sign-in link.
    await signInByLink(t.app, shopper, shopper.userid);
    const restart = await shopper.call('restartService', { body: { serviceid } });
    expect(restart.status, restart.text).toBe(200);
    expect(callsOf('ModuleCustom').at(-1)?.params).toMatchObject({ serviceid: String(serviceid), func_name: 'restart' });

    const terminate = await shopper.call('moduleTerminate', { body: { serviceid } });
    expect(terminate.status, terminate.text).toBe(200);
    expect(terminate.body).toMatchObject({ serviceid, status: 'Terminated' });
    expect(callsOf('ModuleTerminate').at(-1)?.params.serviceid).toBe(String(serviceid));
  });

  it('cancel and fraud flag are CancelOrder and FraudOrder, and the order reads as WHMCS holds it', async () => {
    const shopper = await guest(t.app);
    const cancelled = await placeOrder(shopper);
    const cancel = await shopper.call('cancelOrder', { body: { orderid: cancelled.orderid } });
    expect(cancel.body).toEqual({ orderid: cancelled.orderid, status: 'Cancelled' });
    expect(callsOf('CancelOrder').at(-1)?.params.orderid).toBe(String(cancelled.orderid));
    expect(fake().state.orders.find((row) => row.id === cancelled.orderid)?.status).toBe('Cancelled');

    const flagged = await placeOrder(shopper);
    const fraud = await shopper.call('fraudOrder', { body: { orderid: flagged.orderid } });
    expect(fraud.body).toEqual({ orderid: flagged.orderid, status: 'Fraud' });
    expect(callsOf('FraudOrder').at(-1)?.params.orderid).toBe(String(flagged.orderid));
    expect(fake().state.orders.find((row) => row.id === flagged.orderid)?.status).toBe('Fraud');
  });
});

describe('BILLING=whmcs: exactly once', () => {
  it('20 parallel submissions with one Idempotency-Key make one AddOrder and one answer', async () => {
    const shopper = await guest(t.app);
    const before = callsOf('AddOrder').length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => shopper.call('order', {
      body: { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' }, headers: { 'idempotency-key': 'one-key-for-twenty' },
    })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.orderid)).size).toBe(1);
    expect(callsOf('AddOrder').length - before).toBe(1);
  });

  it('a webhook delivered twice (and again under a new event id) makes one AddInvoicePayment', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    const event = paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: 12.99, currency: 'EUR' });
    const first = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
    const second = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
    const renamed = paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: 12.99, currency: 'EUR' });
    const third = await deliverWebhook(t.app, 'sandbox', renamed, { secret: webhookSecret('sandbox') });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(second.body).toEqual({ received: true, duplicate: true });
    expect(callsOf('AddInvoicePayment').filter((call) => call.params.invoiceid === String(order.invoiceid))).toHaveLength(1);
    expect(fake().state.invoices.find((invoice) => invoice.id === order.invoiceid)?.status).toBe('Paid');
  });

  it('a payment recorded while WHMCS is down is applied once by the next delivery', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    const event = paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: 12.99, currency: 'EUR' });
    fake().fault('down', { actions: ['AddInvoicePayment'], times: 1 });
    const failed = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ error: { code: 'billing_unavailable' } });
    const again = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
    expect(again.status, again.text).toBe(200);
    const status = await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid' });
    // The dropped call may or may not have reached WHMCS; WHMCS holds the payment once either way.
    expect(fake().state.transactions.filter((row) => row.invoiceid === order.invoiceid)).toHaveLength(1);
  });
});

describe('BILLING=whmcs: WHMCS says no, or is away', () => {
  it('a total WHMCS invoices differently from our quote cancels the order and answers 409 with the amount, writing nothing', async () => {
    const shopper = await guest(t.app);
    await shopper.call('getProducts');
    const product = fake().state.products.find((row) => row.pid === 1);
    if (!product?.pricing.EUR) throw new Error('No EUR price for pid 1 in the fake');
    const quoted = Number(product.pricing.EUR.monthly);
    const charged = (quoted + 1).toFixed(2);
    // The price changed in WHMCS after the checkout's catalogue was cached.
    (product.pricing.EUR as { monthly: string }).monthly = charged;
    const ordersBefore = await countRows(t.db, 'orders');
    const answer = await shopper.call('order', { body: { pid: 1, paymentmethod: 'sandbox', amount: quoted, currency: 'EUR' } });
    (product.pricing.EUR as { monthly: string }).monthly = quoted.toFixed(2);
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toEqual({ error: { code: 'price_changed', message: expect.stringContaining(charged), amount: Number(charged), currency: 'EUR' } });
    const added = callsOf('AddOrder').at(-1);
    const orderid = fake().state.orders.at(-1)?.id;
    expect(callsOf('CancelOrder').at(-1)?.params.orderid).toBe(String(orderid));
    expect(fake().state.orders.at(-1)?.status).toBe('Cancelled');
    expect(added?.params['pid[0]']).toBe('1');
    expect(await countRows(t.db, 'orders')).toBe(ordersBefore);
    expect(await countRows(t.db, 'payments', sql`invoice_id not in (select id from invoices)`)).toBe(0);
  });

  it('a refusal (Invalid IP, 403) is 502 billing_error without WHMCS\'s words', async () => {
    fake().fault('invalid-ip', { actions: ['GetClients'], times: 1 });
    const answer = await new Browser(t.app).call('authMiddleware', { body: { email: 'refused@mail.test' } });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ error: { code: 'billing_error', message: expect.any(String) } });
    expect(answer.text).not.toMatch(/Invalid IP/);
  });

  it('a warning with HTTP 200 is 502 billing_error', async () => {
    fake().fault('warning', { actions: ['GetClients'], times: 1 });
    const answer = await new Browser(t.app).call('authMiddleware', { body: { email: 'warned@mail.test' } });
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: { code: 'billing_error' } });
  });

  it('WHMCS down is 503 billing_unavailable with Retry-After, and the checkout recovers without a restart', async () => {
    fake().fault('down');
    const down = await new Browser(t.app).call('authMiddleware', { body: { email: 'while-down@mail.test' } });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: { code: 'billing_unavailable' } });
    expect(down.headers['retry-after']).toBeDefined();
    // Enough failures in a row open the breaker: the next call fails at once, without reaching WHMCS.
    for (let i = 0; i < 3; i += 1) await new Browser(t.app).call('authMiddleware', { body: { email: `while-down-${i}@mail.test` } });
    const reached = fake().calls.length;
    const fast = await new Browser(t.app).call('authMiddleware', { body: { email: 'fast@mail.test' } });
    expect(fast.status).toBe(503);
    expect(fake().calls.length).toBe(reached);
    fake().fault('none');
    const started = Date.now();
    let status = 0;
    while (Date.now() - started < 15_000) {
      status = (await new Browser(t.app).call('authMiddleware', { body: { email: 'after@mail.test' } })).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });

  it('HTML with 500 is 503 billing_unavailable', async () => {
    fake().fault('html', { actions: ['GetClients'], times: 3 });
    const answer = await new Browser(t.app).call('authMiddleware', { body: { email: 'html@mail.test' } });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: { code: 'billing_unavailable' } });
  });
});
