/**
 * Renewals on the fake as WHMCS documents them (README "Renewals"): the next due date an order sets and a payment
 * moves, the cron's renewal invoices and suspensions, GetInvoices, and a renewal invoice's payment. Prices are the
 * demo catalogue's (demo.yaml): 1 Month 12.99 EUR, proxy protection 2.50 EUR a month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWhmcs, type Json } from './call';
import { phpSerializeBase64 } from './php-serialize';
import { createWhmcsFake, type WhmcsFake } from './server';

let whmcs: WhmcsFake;
/** The fake's today, moved by the tests. */
let today = '2026-11-27';
const callOn = (fake: WhmcsFake) => async (action: string, params: Record<string, string> = {}) => (await callWhmcs(fake, action, params)).body;
const call = (action: string, params: Record<string, string> = {}) => callOn(whmcs)(action, params);

beforeAll(async () => {
  whmcs = await createWhmcsFake({ today: () => today });
});
afterAll(() => whmcs.close());

let clients = 0;
/** A new EUR client with one order of pid `pid` in `cycle`, its first invoice paid (the order accepted), on `today`. */
async function paidService(pid = 1, cycle = 'monthly', config?: Record<number, number>, fake = whmcs): Promise<{ clientid: string; serviceid: string; invoiceid: string }> {
  const call = callOn(fake);
  clients += 1;
  const client = await call('AddClient', { email: `renewing${clients}@example.test`, firstname: 'R', lastname: String(clients), password2: 'pw-123456', skipvalidation: '1' });
  const order = await call('AddOrder', {
    clientid: String(client.clientid), paymentmethod: 'sandbox', 'pid[0]': String(pid), 'billingcycle[0]': cycle, ...(config ? { 'configoptions[0]': phpSerializeBase64(config) } : {}),
  });
  expect(order.result).toBe('success');
  const invoiceid = String(order.invoiceid);
  expect((await call('AddInvoicePayment', { invoiceid, transid: `first-${clients}`, gateway: 'sandbox', date: `${today} 10:00:00` })).result).toBe('success');
  expect((await call('AcceptOrder', { orderid: String(order.orderid), autosetup: '1' })).result).toBe('success');
  return { clientid: String(client.clientid), serviceid: String(order.serviceids), invoiceid };
}
const serviceOf = async (serviceid: string) => (await call('GetClientsProducts', { serviceid, limitnum: '1' })).products.product[0] as Json;
const unpaidOf = async (clientid: string) => call('GetInvoices', { userid: clientid, status: 'Unpaid' });

describe('the next due date', () => {
  it('is the order date until the first invoice is paid, then one cycle later (ordered 27 Nov 2026: due 27 Dec 2026)', async () => {
    today = '2026-11-27';
    const client = await call('AddClient', { email: 'first-due@example.test', firstname: 'F', lastname: 'D', password2: 'pw-123456', skipvalidation: '1' });
    const order = await call('AddOrder', { clientid: String(client.clientid), paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly' });
    expect((await serviceOf(String(order.serviceids))).nextduedate).toBe('2026-11-27');
    await call('AddInvoicePayment', { invoiceid: String(order.invoiceid), transid: 'first-due', gateway: 'sandbox', date: '2026-11-29 08:00:00' });
    expect((await serviceOf(String(order.serviceids))).nextduedate).toBe('2026-12-27');
    await call('AcceptOrder', { orderid: String(order.orderid), autosetup: '1' });
    expect(await serviceOf(String(order.serviceids))).toMatchObject({ status: 'Active', nextduedate: '2026-12-27' });
  });

  it('stays 0000-00-00 for a One Time service, paid or not', async () => {
    today = '2026-11-27';
    const { serviceid } = await paidService(3, 'onetime');
    expect((await serviceOf(serviceid)).nextduedate).toBe('0000-00-00');
  });
});

describe('the cron', () => {
  it('issues one renewal invoice 7 days before the due date: Unpaid, due on the due date, a Hosting item for the service at 12.99', async () => {
    today = '2026-11-27';
    const { clientid, serviceid } = await paidService();
    whmcs.runCron({ date: '2026-12-19', invoiceDays: 7 });
    expect((await unpaidOf(clientid)).totalresults).toBe(0);

    const { invoiced } = whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    const listed = (await unpaidOf(clientid)).invoices.invoice as Json[];
    expect(listed).toHaveLength(1);
    expect(invoiced).toContain(listed[0]?.id);
    const invoice = await call('GetInvoice', { invoiceid: String(listed[0]?.id) });
    expect(invoice).toMatchObject({ status: 'Unpaid', date: '2026-12-20', duedate: '2026-12-27', total: '12.99', balance: '12.99' });
    expect(invoice.items.item).toEqual([expect.objectContaining({ type: 'Hosting', relid: Number(serviceid), amount: '12.99' })]);

    whmcs.runCron({ date: '2026-12-21', invoiceDays: 7 });
    expect((await unpaidOf(clientid)).totalresults).toBe(1);
  });

  it('renews a service at its recurring amount, options included: 1 Month with proxy protection is 15.49', async () => {
    today = '2026-11-27';
    const { clientid } = await paidService(1, 'monthly', { 4: 1 });
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    expect((await unpaidOf(clientid)).invoices.invoice[0]).toMatchObject({ total: '15.49', duedate: '2026-12-27' });
  });

  it('never invoices a One Time service', async () => {
    today = '2026-11-27';
    const { clientid } = await paidService(3, 'onetime');
    whmcs.runCron({ date: '2030-01-01', invoiceDays: 7 });
    expect((await unpaidOf(clientid)).totalresults).toBe(0);
  });

  it('suspends a service 3 days past its unpaid due date (27 Dec: on 30 Dec), for "Overdue on Payment"', async () => {
    today = '2026-11-27';
    const { serviceid } = await paidService();
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7, suspendDays: 3 });
    expect(whmcs.runCron({ date: '2026-12-29', invoiceDays: 7, suspendDays: 3 }).suspended).not.toContain(Number(serviceid));
    expect((await serviceOf(serviceid)).status).toBe('Active');
    expect(whmcs.runCron({ date: '2026-12-30', invoiceDays: 7, suspendDays: 3 }).suspended).toContain(Number(serviceid));
    expect(await serviceOf(serviceid)).toMatchObject({ status: 'Suspended', suspensionreason: 'Overdue on Payment', nextduedate: '2026-12-27' });
  });
});

describe('GetInvoices', () => {
  it('pages a client\'s invoices: totalresults, startnumber, numreturned, invoices.invoice[] with money strings and the currency', async () => {
    today = '2026-11-27';
    const { clientid, invoiceid } = await paidService();
    const all = await call('GetInvoices', { userid: clientid });
    expect(all).toMatchObject({ result: 'success', totalresults: 1, startnumber: 0, numreturned: 1 });
    expect(all.invoices.invoice[0]).toMatchObject({ id: Number(invoiceid), userid: Number(clientid), status: 'Paid', total: '12.99', subtotal: '12.99', currencycode: 'EUR', duedate: '2026-11-27' });
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    const second = await call('GetInvoices', { userid: clientid, limitstart: '1', limitnum: '1', orderby: 'duedate', order: 'asc' });
    expect(second).toMatchObject({ totalresults: 2, startnumber: 1, numreturned: 1 });
    expect(second.invoices.invoice[0]).toMatchObject({ status: 'Unpaid', duedate: '2026-12-27' });
  });

  it('filters by status; Overdue is Unpaid past its due date; nothing matching has no invoices key', async () => {
    today = '2026-11-27';
    const { clientid } = await paidService();
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    expect((await call('GetInvoices', { userid: clientid, status: 'Paid' })).totalresults).toBe(1);
    today = '2026-12-27';
    expect(await call('GetInvoices', { userid: clientid, status: 'Overdue' })).toEqual({ result: 'success', totalresults: 0, startnumber: 0, numreturned: 0 });
    today = '2026-12-28';
    expect((await call('GetInvoices', { userid: clientid, status: 'Overdue' })).totalresults).toBe(1);
    expect((await call('GetInvoices', { userid: clientid, status: 'Cancelled' })).invoices).toBeUndefined();
  });
});

describe('a renewal invoice paid (AddInvoicePayment)', () => {
  it('is Paid and moves the due date one month from the old due date, not from the payment date', async () => {
    today = '2026-11-27';
    const { clientid, serviceid } = await paidService();
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    const invoiceid = String((await unpaidOf(clientid)).invoices.invoice[0].id);
    await call('AddInvoicePayment', { invoiceid, transid: 'renewal-1', gateway: 'sandbox', date: '2027-01-02 09:00:00' });
    expect((await call('GetInvoice', { invoiceid })).status).toBe('Paid');
    expect(await serviceOf(serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
    expect(whmcs.runCron({ date: '2027-01-19', invoiceDays: 7 }).invoiced).toHaveLength(0);
  });

  it('unsuspends a service the cron suspended; not one suspended by hand', async () => {
    today = '2026-11-27';
    const overdue = await paidService();
    const byHand = await paidService();
    whmcs.runCron({ date: '2026-12-20', invoiceDays: 7 });
    await call('UpdateClientProduct', { serviceid: byHand.serviceid, status: 'Suspended' });
    whmcs.runCron({ date: '2026-12-30', invoiceDays: 7, suspendDays: 3 });
    for (const { clientid, serviceid } of [overdue, byHand]) {
      const invoiceid = String((await unpaidOf(clientid)).invoices.invoice[0].id);
      await call('AddInvoicePayment', { invoiceid, transid: `late-${serviceid}`, gateway: 'sandbox', date: '2026-12-31 09:00:00' });
    }
    expect(await serviceOf(overdue.serviceid)).toMatchObject({ status: 'Active', suspensionreason: '', nextduedate: '2027-01-27' });
    expect((await serviceOf(byHand.serviceid)).status).toBe('Suspended');
  });

  it('leaves the service suspended with Enable Unsuspension off, the due date moved', async () => {
    const strict = await createWhmcsFake({ today: () => '2026-11-27', autoUnsuspend: false });
    const call = callOn(strict);
    try {
      const { clientid, serviceid } = await paidService(1, 'monthly', undefined, strict);
      strict.runCron({ date: '2026-12-30', invoiceDays: 7, suspendDays: 3 });
      const invoiceid = String((await call('GetInvoices', { userid: clientid, status: 'Unpaid' })).invoices.invoice[0].id);
      await call('AddInvoicePayment', { invoiceid, transid: 'strict-renewal', gateway: 'sandbox', date: '2026-12-31 10:00:00' });
      const service = (await call('GetClientsProducts', { serviceid, limitnum: '1' })).products.product[0] as Json;
      expect(service).toMatchObject({ status: 'Suspended', nextduedate: '2027-01-27' });
    } finally {
      await strict.close();
    }
  });
});
