/**
 * Renewals over WHMCS, on the fake (its README "Renewals"): WHMCS's cron issues the renewal invoice and suspends; the
 * checkout shows the invoice on the renewal page and takes its payment through its own gateway, applied in WHMCS with
 * AddInvoicePayment once. The fake's day is 27 Nov 2026, so a 1 Month service ordered and paid then is due on
 * 27 Dec 2026 and renews for 12.99 EUR (the catalogue's 1 Month price) until 27 Jan 2027.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_UNDER_TEST, createTestApp, deliverWebhook, guest, payOnSandbox, paymentEvent, paymentIdOf, placeOrder, signInByLink, webhookSecret, type Browser, type TestApp,
} from './helper';
import { callWhmcs } from '../support/whmcs-fake/call';

const ORDER_DAY = '2026-11-27';
/** The Automation Settings the cron runs with: invoices 7 days ahead, suspension 3 days past the due date. */
const AUTOMATION = { invoiceDays: 7, suspendDays: 3 };

describe.skipIf(BILLING_UNDER_TEST !== 'whmcs')('BILLING=whmcs: a renewal WHMCS issues, paid through the checkout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BILLING: 'whmcs' }, { whmcsFake: { today: () => ORDER_DAY } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const fake = () => {
    if (!t.whmcs) throw new Error('This app has no fake WHMCS');
    return t.whmcs;
  };
  const paymentsOf = (invoiceid: number) => fake().callsOf('AddInvoicePayment').filter((call) => !call.fault && call.params.invoiceid === String(invoiceid));

  /** A client signed in (as the renewal reminder's link signs in) with a 1 Month service ordered and paid on the fake's day. */
  const clientWithService = async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    await signInByLink(t.app, shopper, shopper.userid);
    return { shopper, serviceid: order.serviceids[0] as number };
  };
  const renewalOf = (browser: Browser, serviceid: number) => browser.call('getRenewal', { query: { serviceid: String(serviceid) } });
  const productOf = (browser: Browser, serviceid: number) => browser.call('getClientProducts', { query: { serviceid: String(serviceid) } });

  /** A payment link for the invoice through offshore, and the sandbox provider's signed success event for it. */
  const payLink = async (browser: Browser, invoiceid: number) => {
    const link = await browser.call('offshore', { body: { invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } });
    expect(link.status, link.text).toBe(200);
    const paymentId = paymentIdOf(link.body.link);
    return { paymentId, event: paymentEvent({ paymentId, invoiceid, amount: 12.99, currency: 'EUR' }) };
  };
  const deliver = (event: string) => deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') });

  it('a service with no unpaid invoice answers invoice null, with WHMCS\'s due date', async () => {
    const { shopper, serviceid } = await clientWithService();
    const renewal = await renewalOf(shopper, serviceid);
    expect(renewal.status, renewal.text).toBe(200);
    expect(renewal.body).toMatchObject({ serviceid, status: 'Active', nextduedate: '2026-12-27', renewable: true, invoice: null, invoiceDate: null });
  });

  it('the cron\'s renewal invoice is on the renewal page; paid through the sandbox it is applied once, and the due date moves a month', async () => {
    const { shopper, serviceid } = await clientWithService();
    fake().runCron({ date: '2026-12-20', invoiceDays: AUTOMATION.invoiceDays });
    const renewal = await renewalOf(shopper, serviceid);
    expect(renewal.status, renewal.text).toBe(200);
    expect(renewal.body).toMatchObject({
      serviceid, status: 'Active', nextduedate: '2026-12-27', renewable: true, invoiceDate: null,
      invoice: { status: 'Unpaid', amount: 12.99, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' },
    });
    const invoiceid = renewal.body.invoice?.invoiceid as number;
    // The invoice WHMCS issued for this service, not one of the checkout's.
    expect(fake().state.invoices.find((invoice) => invoice.id === invoiceid)?.items).toEqual([expect.objectContaining({ type: 'Hosting', relid: serviceid })]);

    const { paymentId, event } = await payLink(shopper, invoiceid);
    expect((await deliver(event)).status).toBe(200);
    const replay = await deliver(event);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(paymentsOf(invoiceid).map((call) => call.params.transid)).toEqual([paymentId]);

    const status = await shopper.call('getInvoiceStatus', { query: { invoiceid: String(invoiceid) } });
    expect(status.body).toMatchObject({ invoiceid, status: 'Paid', kind: 'renewal', serviceid, orderid: null });
    expect((await productOf(shopper, serviceid)).body).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
    expect((await renewalOf(shopper, serviceid)).body).toMatchObject({ nextduedate: '2027-01-27', invoice: null });
  });

  it('a suspended service is Active again once its renewal is paid', async () => {
    const { shopper, serviceid } = await clientWithService();
    fake().runCron({ date: '2026-12-20', ...AUTOMATION });
    fake().runCron({ date: '2026-12-30', ...AUTOMATION });
    expect((await productOf(shopper, serviceid)).body).toMatchObject({ status: 'Suspended', nextduedate: '2026-12-27' });
    const renewal = await renewalOf(shopper, serviceid);
    expect(renewal.body).toMatchObject({ status: 'Suspended', renewable: true, invoice: { status: 'Unpaid', amount: 12.99, periodStart: '2026-12-27' } });

    expect((await deliver((await payLink(shopper, renewal.body.invoice?.invoiceid as number)).event)).status).toBe(200);
    expect((await productOf(shopper, serviceid)).body).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
  });

  it('a payment recorded while WHMCS is down is applied once by the next delivery', async () => {
    const { shopper, serviceid } = await clientWithService();
    fake().runCron({ date: '2026-12-20', invoiceDays: AUTOMATION.invoiceDays });
    const invoiceid = (await renewalOf(shopper, serviceid)).body.invoice?.invoiceid as number;
    const { event } = await payLink(shopper, invoiceid);
    fake().fault('down', { actions: ['AddInvoicePayment'], times: 1 });
    const failed = await deliver(event);
    expect(failed.status).toBe(503);
    // Recorded as paid in the checkout and not yet applied in WHMCS: the page does not offer it again.
    expect((await renewalOf(shopper, serviceid)).body.invoice).toMatchObject({ invoiceid, status: 'Paid' });
    expect((await deliver(event)).status).toBe(200);
    expect(paymentsOf(invoiceid)).toHaveLength(1);
    expect(fake().state.transactions.filter((row) => row.invoiceid === invoiceid)).toHaveLength(1);
    expect((await productOf(shopper, serviceid)).body).toMatchObject({ nextduedate: '2027-01-27' });
  });

  it('an unpaid order\'s own invoice is no renewal: its Pending service answers invoice null and is not renewable', async () => {
    const { shopper } = await clientWithService();
    // Ordered in WHMCS itself, so the checkout holds no record of its invoice: only the service's status tells.
    const added = await callWhmcs(fake(), 'AddOrder', { clientid: String(shopper.userid), paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly' });
    const serviceid = Number(added.body.serviceids);
    expect(fake().state.invoices.find((invoice) => invoice.id === added.body.invoiceid)?.status).toBe('Unpaid');
    const renewal = await renewalOf(shopper, serviceid);
    expect(renewal.status, renewal.text).toBe(200);
    expect(renewal.body).toMatchObject({ status: 'Pending', renewable: false, invoice: null });
  });
});
