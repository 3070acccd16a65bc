/**
 * A 1 Month service renewed as a shopper lives it, through e-mail and the public API only: the server's own scheduler
 * (RENEWAL_TICK_MS) reads the server's clock, which the walk moves day by day; the notices arrive over SMTP and their
 * link signs a fresh browser in on the renewal, which is paid through the sandbox gateway like any invoice.
 */
import { expect } from 'vitest';
import { Browser, deliverWebhook, followSignInLink, freshEmail, guest, localBillingOnly, paymentEvent, paymentIdOf, placeOrder, webhookSecret, type TestApp } from './helper';
import { createMailingApp, until, type Receiver } from './smtp-receiver';

const { describe, it } = localBillingOnly('the local billing sends its own renewal notices; WHMCS sends its own');

const SIGN_IN_LINK = /http:\/\/localhost:3000(\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43})/;

/** A server whose scheduler ticks every 100 ms on a clock the walk sets to a day (mid-morning UTC). */
async function shopOn(day: string) {
  let now = new Date(`${day}T10:00:00Z`);
  const { t, receiver, close } = await createMailingApp({ RENEWAL_TICK_MS: '100' }, { ports: { clock: { now: () => now } } });
  return {
    t, receiver, close,
    now: () => now,
    on(next: string) {
      now = new Date(`${next}T10:00:00Z`);
    },
  };
}

type Shop = Awaited<ReturnType<typeof shopOn>>;

/** Pays an invoice's sandbox link through the provider's signed webhook, seen at the server's time. */
async function payByWebhook(shop: Shop, link: string | null, invoice: { invoiceid: number; amount: number; currency: 'EUR' | 'GBP' }) {
  const event = paymentEvent({ paymentId: paymentIdOf(link), invoiceid: invoice.invoiceid, amount: invoice.amount, currency: invoice.currency, created: shop.now() });
  expect((await deliverWebhook(shop.t.app, 'sandbox', event, { secret: webhookSecret('sandbox') })).body).toEqual({ received: true, duplicate: false });
}

/** A guest's 1 Month plan (€12.99 in the demo catalogue), ordered and paid on the shop's day. */
async function paidMonth(shop: Shop) {
  const shopper = await guest(shop.t.app, freshEmail('renews'));
  const order = await placeOrder(shopper);
  await payByWebhook(shop, order.link, order);
  const serviceid = order.serviceids[0] as number;
  return { shopper, serviceid };
}

/** The renewal notices an address has received (they carry the renewals' opt-out). */
const noticesTo = (receiver: Receiver, email: string) => receiver.to(email).filter((mail) => mail.headers['list-unsubscribe']?.includes('/renewals/opt-out'));

/** The next renewal notice mailed to an address, waited for while the scheduler ticks. */
async function nextNotice(receiver: Receiver, email: string, count: number, subject: string) {
  await until(async () => noticesTo(receiver, email).length >= count, `notice ${count}: ${subject}`);
  const mail = noticesTo(receiver, email)[count - 1];
  expect(mail?.subject).toBe(subject);
  return { mail };
}

/** A fresh browser signed in by a notice's link, as a phone that opens the mail is. */
async function signedInFrom(t: TestApp, text: string | undefined) {
  const phone = new Browser(t.app);
  const path = SIGN_IN_LINK.exec(text ?? '')?.[1];
  expect(path, 'the notice carries a one-time sign-in link').toBeDefined();
  expect((await followSignInLink(phone, path ?? '')).status).toBe(303);
  return phone;
}

const serviceOf = async (browser: Browser, serviceid: number) => (await browser.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body;

describe('a 1 Month service renews through its e-mail', () => {
  it('invoice notice 7 days before the due date, its link on a fresh browser, the day-before reminder, paid: due a month later, no more notices', async () => {
    const shop = await shopOn('2026-11-27');
    try {
      const { shopper, serviceid } = await paidMonth(shop);
      const before = await serviceOf(shopper, serviceid);
      expect(before).toMatchObject({ status: 'Active', nextduedate: '2026-12-27' });

      shop.on('2026-12-20');
      const invoiced = await nextNotice(shop.receiver, shopper.email, 1, 'Your 1 Month plan is due for renewal on December 27, 2026');
      expect(invoiced.mail?.text).toContain('Total: €12.99\nDue date: December 27, 2026\nRenewed until: January 27, 2027');
      const phone = await signedInFrom(shop.t, invoiced.mail?.text);
      const renewal = (await phone.call('getRenewal', { query: { serviceid: String(serviceid) } })).body;
      expect(renewal).toMatchObject({ serviceid, status: 'Active', nextduedate: '2026-12-27', renewable: true, invoiceDate: null });
      expect(renewal.invoice).toMatchObject({ status: 'Unpaid', amount: 12.99, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' });

      shop.on('2026-12-26');
      await nextNotice(shop.receiver, shopper.email, 2, 'Your 1 Month plan is due for renewal tomorrow');

      const invoice = { invoiceid: renewal.invoice?.invoiceid ?? 0, amount: 12.99, currency: 'EUR' as const };
      const link = await phone.call('offshore', { body: { ...invoice, paymentmethod: 'sandbox' } });
      expect(link.status, link.text).toBe(200);
      await payByWebhook(shop, link.body.link, invoice);
      expect(await serviceOf(phone, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27', username: before.username, password: before.password });

      // The due date passes paid: a few ticks later nothing more was mailed.
      shop.on('2026-12-27');
      await new Promise((resolve) => setTimeout(resolve, 600));
      shop.on('2026-12-31');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(noticesTo(shop.receiver, shopper.email)).toHaveLength(2);
      expect(await serviceOf(phone, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
    } finally {
      await shop.close();
    }
  });

  it('unpaid 3 days after the due date: suspended with its notice; paying from that notice\'s link makes it active at once, due a month after the old date', async () => {
    const shop = await shopOn('2026-11-27');
    try {
      const { shopper, serviceid } = await paidMonth(shop);
      shop.on('2026-12-20');
      await nextNotice(shop.receiver, shopper.email, 1, 'Your 1 Month plan is due for renewal on December 27, 2026');
      shop.on('2026-12-27');
      await nextNotice(shop.receiver, shopper.email, 2, 'Your 1 Month plan is due for renewal today');
      shop.on('2026-12-30');
      const suspended = await nextNotice(shop.receiver, shopper.email, 3, 'Your 1 Month plan is suspended');

      const phone = await signedInFrom(shop.t, suspended.mail?.text);
      expect(await serviceOf(phone, serviceid)).toMatchObject({ status: 'Suspended', username: null, nextduedate: '2026-12-27' });
      const renewal = (await phone.call('getRenewal', { query: { serviceid: String(serviceid) } })).body;
      expect(renewal).toMatchObject({ status: 'Suspended', renewable: true });
      const invoice = { invoiceid: renewal.invoice?.invoiceid ?? 0, amount: 12.99, currency: 'EUR' as const };
      const link = await phone.call('offshore', { body: { ...invoice, paymentmethod: 'sandbox' } });
      await payByWebhook(shop, link.body.link, invoice);
      expect(await serviceOf(phone, serviceid)).toMatchObject({ status: 'Active', nextduedate: '2027-01-27' });
    } finally {
      await shop.close();
    }
  });
});
