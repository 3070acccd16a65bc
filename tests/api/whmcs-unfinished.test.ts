/**
 * BILLING=whmcs: a request WHMCS took is finished, never repeated. Each operation of the adapter that makes more
 * than one WHMCS call with effects is broken after its first effect (a fault of the fake WHMCS, or of the store),
 * and what WHMCS holds afterwards is counted in the fake: one order, one invoice, one payment.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whmcsUndos } from '../../src/server/db/schema';
import { pendingWhmcsUndos, unappliedWhmcsPayments } from '../../scripts/ops/whmcs-unfinished';
import { operation } from './contract';
import { createTestApp, DEMO_ACCOUNTS, deliverWebhook, guest, loggedIn, paymentEvent, paymentIdOf, placeOrder, webhookSecret, type Browser, type TestApp } from './helper';

/** The server's clock, moved forward by the tests to pass the grace time of an unfinished request. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const MINUTE = 60_000;
/** The job polls every 50 ms here: a few hundred milliseconds are several of its rounds. */
const POLL_MS = 50;

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ BILLING: 'whmcs', WHMCS_RETRY_POLL_MS: String(POLL_MS) }, { ports: { clock } }); });
afterAll(async () => { await t?.close(); });

const fake = () => {
  if (!t.whmcs) throw new Error('This app has no fake WHMCS');
  return t.whmcs;
};
const ordersOf = (clientId: number) => fake().state.orders.filter((row) => row.userid === clientId);
const invoicesOf = (clientId: number) => fake().state.invoices.filter((row) => row.userid === clientId);
const callsFor = (action: string, param: string, value: number) => fake().callsOf(action).filter((call) => call.params[param] === String(value));
const undoOf = async (action: 'CancelOrder' | 'CancelInvoice', whmcsId: number) =>
  (await t.db.select().from(whmcsUndos).where(and(eq(whmcsUndos.action, action), eq(whmcsUndos.whmcsId, whmcsId))))[0];

/** Waits (for the job's rounds) until `check` holds, or fails after a few seconds. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 5_000) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Still not: ${what}`);
}
/** Lets the job run several rounds. */
const severalRounds = () => new Promise((resolve) => setTimeout(resolve, POLL_MS * 8));

/** Makes the store refuse the next insert into a table (a store failure after WHMCS took the request); a sequence, so the rollback does not re-arm it. */
async function failNextInsert(table: 'payments'): Promise<void> {
  for (const statement of [
    `create sequence if not exists test_fail_${table}_seq`,
    `select setval('test_fail_${table}_seq', 1, false)`,
    `create or replace function test_fail_${table}_once() returns trigger language plpgsql as $$
      begin if nextval('test_fail_${table}_seq') = 1 then raise exception 'injected store failure'; end if; return new; end $$`,
    `drop trigger if exists test_fail_${table} on ${table}`,
    `create trigger test_fail_${table} before insert on ${table} for each row execute function test_fail_${table}_once()`,
  ]) await t.db.execute(sql.raw(statement));
}

/** A call that meets an injected store failure: its 500 is an unexpected error, which the contract does not list. */
const callFailingStore = (browser: Browser, operationId: 'order' | 'addInvoice', json: object, headers: Record<string, string>) =>
  browser.request({ method: 'POST', url: operation(operationId).path, headers, json, validate: false });

const ORDER = { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } as const;

describe('BILLING=whmcs: an order WHMCS took (AddOrder) is finished, never placed twice', () => {
  it('GetInvoice refused after AddOrder: the retry with the same key finishes that order (one AddOrder, one pending order, one invoice) and nothing is undone later', async () => {
    const shopper = await guest(t.app);
    const headers = { 'idempotency-key': 'finish-after-getinvoice' };
    fake().fault('error', { actions: ['GetInvoice'], times: 1 });
    const failed = await shopper.call('order', { body: ORDER, headers });
    expect(failed.status, failed.text).toBe(502);
    const [taken] = ordersOf(shopper.userid);
    if (!taken) throw new Error('AddOrder placed no order in the fake');
    expect(await pendingWhmcsUndos(t.db)).toContainEqual(expect.objectContaining({ action: 'CancelOrder', whmcsId: taken.id, reason: 'unfinished' }));

    const retried = await shopper.call('order', { body: ORDER, headers });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ orderid: taken.id, invoiceid: taken.invoiceid, status: 'Pending' });
    expect(retried.body.link).toEqual(expect.stringContaining('/checkout/'));
    expect(fake().callsOf('AddOrder').filter((call) => call.params.clientid === String(shopper.userid))).toHaveLength(1);
    expect(ordersOf(shopper.userid).map((row) => row.status)).toEqual(['Pending']);
    expect(invoicesOf(shopper.userid).map((row) => row.status)).toEqual(['Unpaid']);
    expect((await undoOf('CancelOrder', taken.id))?.status).toBe('superseded');

    // Past the grace time the job leaves the finished order alone.
    offsetMs += 31 * MINUTE;
    await severalRounds();
    expect(callsFor('CancelOrder', 'orderid', taken.id)).toHaveLength(0);
    expect(ordersOf(shopper.userid).map((row) => row.status)).toEqual(['Pending']);
    const replayed = await shopper.call('order', { body: ORDER, headers });
    expect(replayed.body.orderid).toBe(taken.id);
  });

  it('nobody retries: after the grace time the job cancels the order; a CancelOrder WHMCS refuses is listed and retried until accepted; a late retry orders nothing', async () => {
    const shopper = await guest(t.app);
    const headers = { 'idempotency-key': 'abandoned-after-getinvoice' };
    fake().fault('error', { actions: ['GetInvoice'], times: 1 });
    expect((await shopper.call('order', { body: ORDER, headers })).status).toBe(502);
    const [taken] = ordersOf(shopper.userid);
    if (!taken) throw new Error('AddOrder placed no order in the fake');
    await severalRounds();
    expect(callsFor('CancelOrder', 'orderid', taken.id)).toHaveLength(0);

    fake().fault('error', { actions: ['CancelOrder'], times: 1, message: 'Database connection lost' });
    offsetMs += 31 * MINUTE;
    await eventually(() => callsFor('CancelOrder', 'orderid', taken.id).length === 1, 'the job tried CancelOrder');
    await eventually(async () => (await undoOf('CancelOrder', taken.id))?.leaseToken === null, 'the refused attempt is recorded');
    expect(await pendingWhmcsUndos(t.db)).toContainEqual(expect.objectContaining({
      action: 'CancelOrder', whmcsId: taken.id, attempts: 1, lastError: 'CancelOrder: Database connection lost',
    }));
    expect(ordersOf(shopper.userid).map((row) => row.status)).toEqual(['Pending']);

    offsetMs += 2 * MINUTE;
    await eventually(() => ordersOf(shopper.userid)[0]?.status === 'Cancelled', 'WHMCS accepted the CancelOrder');
    expect(invoicesOf(shopper.userid).map((row) => row.status)).toEqual(['Cancelled']);
    await eventually(async () => (await undoOf('CancelOrder', taken.id))?.status === 'done', 'the undo is marked done');
    expect((await pendingWhmcsUndos(t.db)).filter((row) => row.whmcsId === taken.id && row.action === 'CancelOrder')).toEqual([]);

    const late = await shopper.call('order', { body: ORDER, headers });
    expect(late.status, late.text).toBe(409);
    expect(late.body).toMatchObject({ error: { code: 'order_cancelled' } });
    expect(ordersOf(shopper.userid)).toHaveLength(1);
  });

  it('a total WHMCS invoices differently is answered 409 at once; the CancelOrder WHMCS refuses then is retried by the job until the order is cancelled', async () => {
    const shopper = await guest(t.app);
    await shopper.call('getProducts');
    const product = fake().state.products.find((row) => row.pid === 1);
    if (!product?.pricing.EUR) throw new Error('No EUR price for pid 1 in the fake');
    const quoted = product.pricing.EUR.monthly;
    (product.pricing.EUR as { monthly: string }).monthly = (Number(quoted) + 1).toFixed(2);
    fake().fault('error', { actions: ['CancelOrder'], times: 1 });
    const answer = await shopper.call('order', { body: ORDER, headers: { 'idempotency-key': 'price-changed-cancel-refused' } });
    (product.pricing.EUR as { monthly: string }).monthly = quoted;
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ error: { code: 'price_changed' } });
    const [taken] = ordersOf(shopper.userid);
    if (!taken) throw new Error('AddOrder placed no order in the fake');
    expect(taken.status).toBe('Pending');
    expect(await pendingWhmcsUndos(t.db)).toContainEqual(expect.objectContaining({ action: 'CancelOrder', whmcsId: taken.id, reason: 'price_changed', attempts: 1 }));

    offsetMs += 2 * MINUTE;
    await eventually(() => ordersOf(shopper.userid)[0]?.status === 'Cancelled', 'the job cancelled the order');
    expect(callsFor('CancelOrder', 'orderid', taken.id)).toHaveLength(2);
    expect(fake().callsOf('AddOrder').filter((call) => call.params.clientid === String(shopper.userid))).toHaveLength(1);
  });

  it('a reseller credit-pack order WHMCS took is finished by the retry: one more order for the reseller, not two', async () => {
    const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    const products = await reseller.call('getResellersProducts');
    const pack = products.body.products.find((candidate) => candidate.pid !== 13);
    if (!pack) throw new Error('No credit pack in the reseller group');
    const body = { pid: [pack.pid], paymentmethod: 'sandbox', amount: Number(pack.pricing?.EUR?.monthly), currency: 'EUR' as const };
    const headers = { 'idempotency-key': 'reseller-finish' };
    const before = ordersOf(reseller.userid).length;
    fake().fault('error', { actions: ['GetInvoice'], times: 1 });
    expect((await reseller.call('order', { body, headers })).status).toBe(502);
    const retried = await reseller.call('order', { body, headers });
    expect(retried.status, retried.text).toBe(200);
    expect(ordersOf(reseller.userid)).toHaveLength(before + 1);
    expect(ordersOf(reseller.userid).at(-1)).toMatchObject({ id: retried.body.orderid, status: 'Pending' });
  });

  it('the store fails writing the order after AddOrder: the retry with the key finishes that order, one AddOrder', async () => {
    const shopper = await guest(t.app);
    const headers = { 'idempotency-key': 'finish-after-store-failure' };
    await failNextInsert('payments');
    const failed = await callFailingStore(shopper, 'order', ORDER, headers);
    expect(failed.status).toBe(500);
    expect(ordersOf(shopper.userid).map((row) => row.status)).toEqual(['Pending']);
    const retried = await shopper.call('order', { body: ORDER, headers });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.orderid).toBe(ordersOf(shopper.userid)[0]?.id);
    expect(fake().callsOf('AddOrder').filter((call) => call.params.clientid === String(shopper.userid))).toHaveLength(1);
    expect(invoicesOf(shopper.userid).map((row) => row.status)).toEqual(['Unpaid']);
  });
});

describe('BILLING=whmcs: an upsell invoice WHMCS made (CreateInvoice) gets its link on retry, never a second invoice', () => {
  it('the store fails writing the link: the retry with the key links that invoice; one CreateInvoice, one unpaid invoice', async () => {
    const client = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const service = (await client.call('getActiveProducts')).body.products[0];
    if (!service) throw new Error('The demo client has no active service in WHMCS');
    const body = { serviceId: service.serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } as const;
    const headers = { 'idempotency-key': 'upsell-finish' };
    const creates = fake().callsOf('CreateInvoice').length;
    const invoices = invoicesOf(client.userid).length;
    await failNextInsert('payments');
    expect((await callFailingStore(client, 'addInvoice', body, headers)).status).toBe(500);
    const made = invoicesOf(client.userid).at(-1);
    if (!made || invoicesOf(client.userid).length !== invoices + 1) throw new Error('CreateInvoice made no invoice in the fake');

    const retried = await client.call('addInvoice', { body, headers });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.invoiceid).toBe(made.id);
    expect(fake().callsOf('CreateInvoice').length - creates).toBe(1);
    expect(invoicesOf(client.userid)).toHaveLength(invoices + 1);
    expect(made.status).toBe('Unpaid');
    expect((await undoOf('CancelInvoice', made.id))?.status).toBe('superseded');
  });

  it('nobody retries: after the grace time the job cancels the invoice in WHMCS (UpdateInvoice)', async () => {
    const client = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const service = (await client.call('getActiveProducts')).body.products[0];
    if (!service) throw new Error('The demo client has no active service in WHMCS');
    await failNextInsert('payments');
    const answer = await callFailingStore(client, 'addInvoice', { serviceId: service.serviceid, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'EUR' }, { 'idempotency-key': 'upsell-abandoned' });
    expect(answer.status).toBe(500);
    const made = invoicesOf(client.userid).at(-1);
    if (!made) throw new Error('CreateInvoice made no invoice in the fake');
    await severalRounds();
    expect(made.status).toBe('Unpaid');
    offsetMs += 31 * MINUTE;
    await eventually(() => made.status === 'Cancelled', 'the job cancelled the invoice');
    expect(callsFor('UpdateInvoice', 'invoiceid', made.id).map((call) => call.params.status)).toEqual(['Cancelled']);
  });
});

describe('BILLING=whmcs: a payment is applied once, and its activation finished by the job', () => {
  it('AcceptOrder refused (the module create fails): one AddInvoicePayment; listed while unfinished; the job activates the order without another delivery', async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    fake().failModuleCreate('Panel API unreachable', 1_000);
    const event = paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: 12.99, currency: 'EUR' });
    const delivered = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
    expect(delivered.status).toBe(502);
    expect(fake().state.invoices.find((row) => row.id === order.invoiceid)?.status).toBe('Paid');
    await eventually(() => callsFor('AcceptOrder', 'orderid', order.orderid).length >= 2, 'the job tried AcceptOrder again');
    expect(await unappliedWhmcsPayments(t.db)).toContainEqual(expect.objectContaining({ invoiceId: order.invoiceid, orderId: order.orderid }));
    expect(fake().state.orders.find((row) => row.id === order.orderid)?.status).toBe('Pending');

    fake().failModuleCreate('Panel API unreachable', 0);
    await eventually(() => fake().state.orders.find((row) => row.id === order.orderid)?.status === 'Active', 'the job accepted the order');
    await eventually(async () => !(await unappliedWhmcsPayments(t.db)).some((row) => row.invoiceId === order.invoiceid), 'the payment is no longer listed');
    const status = await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid' });
    expect(callsFor('AddInvoicePayment', 'invoiceid', order.invoiceid)).toHaveLength(1);
    expect(fake().state.transactions.filter((row) => row.invoiceid === order.invoiceid)).toHaveLength(1);
  });
});
