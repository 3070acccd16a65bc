/**
 * Renewals on the local billing, walked day by day on the server's clock: the due date set at payment, the renewal
 * invoice RENEWAL_INVOICE_DAYS (7) before it, the notices queued in the outbox, payment moving the due date one
 * cycle, suspension RENEWAL_GRACE_DAYS (3) after it and termination RENEWAL_TERMINATE_DAYS (30) after it, and two
 * instances doing each piece once. The notices are asserted by their outbox rows (their texts: the mail tests).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { LANGUAGE_COOKIE } from '../../src/domain/locale';
import { expectError } from './error-answer';
import {
  createTwoInstances, deliverWebhook, localBillingOnly, paymentEvent, paymentIdOf, placeOrder, rows, verifiedAccount, webhookSecret,
  type Browser, type OrderRequest, type TestApp,
} from './helper';

const { describe, it } = localBillingOnly('renewal invoices, notices, suspension and termination are the local billing\'s own work: WHMCS does them itself');

/** The server's clock: each walk sets the day it is on (mid-morning UTC). */
let now = new Date('2026-11-27T10:00:00Z');
const clock = { now: () => now };
const on = (day: string) => {
  now = new Date(`${day}T10:00:00Z`);
};

let t: TestApp & { second: FastifyInstance };
beforeAll(async () => {
  on('2026-11-27');
  t = await createTwoInstances({}, { clock });
});
afterAll(async () => t?.close());

/** Runs the scheduler's round on the day given, as its tick that day does. */
async function roundOn(day: string, app: FastifyInstance = t.app) {
  on(day);
  return app.renewalRound();
}

/** Pays an invoice's sandbox link through the provider's signed webhook, the payment seen at the server's time. */
async function payByWebhook(link: string | null, invoiceid: number, amount: number, currency: 'EUR' | 'GBP') {
  const event = paymentEvent({ paymentId: paymentIdOf(link), invoiceid, amount, currency, created: clock.now() });
  const answer = await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });
  expect(answer.body).toEqual({ received: true, duplicate: false });
}

/** A signed-in client who ordered and paid a plan on 27 Nov 2026 (the 1 Month in EUR unless told). */
async function paidService(order: Partial<OrderRequest> = {}, locale?: string) {
  on('2026-11-27');
  const account = await verifiedAccount(t);
  if (locale) account.cookies.set(LANGUAGE_COOKIE, locale);
  const placed = await placeOrder(account, order);
  await payByWebhook(placed.link, placed.invoiceid, placed.amount, placed.currency);
  return { account, serviceid: placed.serviceids[0] as number };
}

const service = async (account: Browser, serviceid: number) => (await account.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body;
const renewal = async (account: Browser, serviceid: number) => (await account.call('getRenewal', { query: { serviceid: String(serviceid) } })).body;

/** The renewal notices queued for an invoice, in the order they were queued. */
const notices = (invoiceid: number) => rows<{ message_key: string; kind: string; locale: string }>(t.db, sql`
  select message_key, kind, locale from mail_outbox where message_key like ${`renewal:%:invoice:${invoiceid}`} order by id`);
const notice = (stage: string, invoiceid: number, locale = 'en-en') => ({ message_key: `renewal:${stage}:invoice:${invoiceid}`, kind: 'renewal', locale });

/** The renewal invoice issued for a service on 20 Dec 2026, 7 days before its due date. */
async function invoicedService(order: Partial<OrderRequest> = {}) {
  const paid = await paidService(order);
  await roundOn('2026-12-20');
  const invoice = (await renewal(paid.account, paid.serviceid)).invoice;
  if (!invoice) throw new Error('No renewal invoice was issued on 2026-12-20');
  return { ...paid, invoice };
}

/** Pays a renewal invoice as its page does: a card link for its amount (offshore), then the provider's webhook. */
async function payRenewal(account: Browser, invoice: { invoiceid: number; amount: number; currency: 'EUR' | 'GBP' }) {
  const link = await account.call('offshore', { body: { invoiceid: invoice.invoiceid, paymentmethod: 'sandbox', amount: invoice.amount, currency: invoice.currency } });
  expect(link.status, link.text).toBe(200);
  await payByWebhook(link.body.link, invoice.invoiceid, invoice.amount, invoice.currency);
}

describe('a 1 Month service renews', () => {
  it('paid on 27 Nov 2026 it is due on 27 Dec 2026; the invoice comes on 20 Dec, once, for the catalogue\'s 12.99 EUR and 27 Dec → 27 Jan', async () => {
    const { account, serviceid } = await paidService({}, 'de-de');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2026-12-27' });
    await roundOn('2026-12-19');
    expect(await renewal(account, serviceid)).toMatchObject({ nextduedate: '2026-12-27', renewable: true, invoice: null, invoiceDate: '2026-12-20' });

    await roundOn('2026-12-20');
    await roundOn('2026-12-20');
    const { invoice } = await renewal(account, serviceid);
    expect(invoice).toEqual({ invoiceid: expect.any(Number), status: 'Unpaid', amount: 12.99, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' });
    const invoiceid = invoice?.invoiceid ?? 0;
    const issued = await rows(t.db, sql`select count(*)::int as count from invoices where service_id = ${serviceid} and kind = 'renewal'`);
    expect(issued).toEqual([{ count: 1 }]);
    // The order was placed in German: its notices are written in it.
    expect(await notices(invoiceid)).toEqual([notice('invoice', invoiceid, 'de-de')]);
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(invoiceid) } })).body).toMatchObject({
      kind: 'renewal', serviceid, status: 'Unpaid', amount: 12.99, currency: 'EUR',
      receipt: { lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }] },
    });
  });

  it('reminds the day before the due date and on it; paid, the due date moves to 27 Jan 2027 and nothing more is queued', async () => {
    const { account, serviceid, invoice } = await invoicedService();
    await roundOn('2026-12-25');
    expect(await notices(invoice.invoiceid)).toEqual([notice('invoice', invoice.invoiceid)]);
    await roundOn('2026-12-26');
    expect(await notices(invoice.invoiceid)).toEqual([notice('invoice', invoice.invoiceid), notice('due-soon', invoice.invoiceid)]);
    await roundOn('2026-12-27');
    await roundOn('2026-12-27');
    const reminded = [notice('invoice', invoice.invoiceid), notice('due-soon', invoice.invoiceid), notice('due', invoice.invoiceid)];
    expect(await notices(invoice.invoiceid)).toEqual(reminded);

    await payRenewal(account, invoice);
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
    expect(await renewal(account, serviceid)).toMatchObject({ nextduedate: '2027-01-27', renewable: true, invoice: null, invoiceDate: '2027-01-20' });
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(invoice.invoiceid) } })).body).toMatchObject({ kind: 'renewal', status: 'Paid' });
    await roundOn('2026-12-28');
    await roundOn('2026-12-30');
    expect(await notices(invoice.invoiceid)).toEqual(reminded);
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
  });

  it('unpaid 3 days after the due date it is suspended with its notice; paying then makes it active again at once', async () => {
    const { account, serviceid, invoice } = await invoicedService();
    await roundOn('2026-12-29');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active' });
    await roundOn('2026-12-30');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Suspended', nextduedate: '2026-12-27' });
    expect(await notices(invoice.invoiceid)).toContainEqual(notice('suspended', invoice.invoiceid));
    expect(await renewal(account, serviceid)).toMatchObject({ status: 'Suspended', renewable: true, invoice: { invoiceid: invoice.invoiceid, status: 'Unpaid' } });

    await payRenewal(account, invoice);
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
  });

  it('unpaid 30 days after the due date it is terminated, its invoice cancelled, with its notice, and no longer renewable', async () => {
    const { account, serviceid, invoice } = await invoicedService();
    await roundOn('2026-12-30');
    await roundOn('2027-01-25');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Suspended' });
    await roundOn('2027-01-26');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Terminated' });
    expect(await renewal(account, serviceid)).toMatchObject({ status: 'Terminated', renewable: false, invoice: null, invoiceDate: null });
    expect((await account.call('getInvoiceStatus', { query: { invoiceid: String(invoice.invoiceid) } })).body).toMatchObject({ status: 'Cancelled' });
    expect(await notices(invoice.invoiceid)).toContainEqual(notice('terminated', invoice.invoiceid));
    expectError(await account.call('offshore', { body: { invoiceid: invoice.invoiceid, paymentmethod: 'sandbox', amount: invoice.amount, currency: invoice.currency } }), 409, 'invoice_cancelled');
    await roundOn('2027-03-01');
    const issued = await rows(t.db, sql`select count(*)::int as count from invoices where service_id = ${serviceid} and kind = 'renewal'`);
    expect(issued).toEqual([{ count: 1 }]);
  });

  it('a Lifetime service has no due date and never gets a renewal invoice', async () => {
    const { account, serviceid } = await paidService({ pid: 3, amount: 199 });
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: null });
    for (const day of ['2026-12-20', '2027-11-27', '2029-11-27']) await roundOn(day);
    expect(await renewal(account, serviceid)).toMatchObject({ nextduedate: null, renewable: false, invoice: null, invoiceDate: null });
    const issued = await rows(t.db, sql`select count(*)::int as count from invoices where service_id = ${serviceid} and kind = 'renewal'`);
    expect(issued).toEqual([{ count: 0 }]);
  });
});

describe('what a renewal costs', () => {
  it('the plan with an extra connection and proxy protection: 12.99 + 4 + 2.50 EUR a month', async () => {
    const { invoice } = await invoicedService({ configoptions: { 2: 1, 4: 1 }, amount: 19.49 });
    expect(invoice).toMatchObject({ amount: 19.49, currency: 'EUR' });
  });

  it('in the order\'s currency: 10.99 GBP a month', async () => {
    const { invoice } = await invoicedService({ currency: 'GBP', amount: 10.99 });
    expect(invoice).toMatchObject({ amount: 10.99, currency: 'GBP' });
  });

  it('a recurring promotion (LOYAL15, 15 %) comes off again: 12.99 − 1.95 = 11.04 EUR', async () => {
    const { invoice } = await invoicedService({ promocode: 'LOYAL15', amount: 11.04 });
    expect(invoice).toMatchObject({ amount: 11.04, currency: 'EUR' });
  });

  it('a promotion for the first period only (WELCOME10) does not: the renewal is the full 12.99 EUR', async () => {
    const { invoice } = await invoicedService({ promocode: 'WELCOME10', amount: 11.69 });
    expect(invoice).toMatchObject({ amount: 12.99, currency: 'EUR' });
  });
});

describe('a service activated before renewals existed', () => {
  it('gets its activation day plus whole cycles, the first not before today, at the next round', async () => {
    const { account, serviceid } = await paidService();
    await t.db.execute(sql`update services set next_due_date = null where id = ${serviceid}`);
    await roundOn('2027-02-10');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-02-27' });
  });
});

describe('two instances on one store', () => {
  it('running their rounds at once issue one invoice and queue each notice once', async () => {
    const { account, serviceid } = await paidService();
    const both = (day: string) => Promise.all([roundOn(day, t.app), roundOn(day, t.second)]);
    await both('2026-12-20');
    const issued = await rows<{ id: number }>(t.db, sql`select id from invoices where service_id = ${serviceid} and kind = 'renewal'`);
    expect(issued).toHaveLength(1);
    const invoiceid = issued[0]?.id ?? 0;
    for (const day of ['2026-12-26', '2026-12-27', '2026-12-30']) await both(day);
    expect(await service(account, serviceid)).toMatchObject({ status: 'Suspended' });
    await both('2027-01-26');
    expect(await service(account, serviceid)).toMatchObject({ status: 'Terminated' });
    expect(await notices(invoiceid)).toEqual(['invoice', 'due-soon', 'due', 'suspended', 'terminated'].map((stage) => notice(stage, invoiceid)));
  });
});
