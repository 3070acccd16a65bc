import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Locale } from '../../src/domain/locale';
import { invoices } from '../../src/server/db/schema';
import { enqueueMail, renewalNotice, type RenewalStage } from '../../src/server/mail/outbox';
import { Browser, followSignInLink, freshEmail, guest, localBillingOnly, payOnSandbox, placeOrder, rows, type TestApp } from './helper';
import { createMailingApp, until, type ReceivedMail, type Receiver } from './smtp-receiver';

const RENEW = /http:\/\/localhost:3000(\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43})/;
const OPT_OUT = /http:\/\/localhost:3000(\/checkout\/renewals\/opt-out\?token=[^\s"<>]+)/;
const RECOVERY_OPT_OUT = /http:\/\/localhost:3000(\/checkout\/recovery\/opt-out\?token=[^\s"<>]+)/;
const HOUR_MS = 60 * 60_000;

/** A client's active 1 Month service (€12.99, paid on the sandbox), ordered in `locale`. */
interface ActiveService {
  shopper: Awaited<ReturnType<typeof guest>>;
  serviceId: number;
  orderId: number;
}

type NoticeRow = { status: string; recipient: string | null };
const noticeRow = async (t: TestApp, key: string) => (await rows<NoticeRow>(t.db, sql`select status, recipient from mail_outbox where message_key = ${key}`))[0];
const remindersOn = async (t: TestApp, serviceId: number) => (await rows<{ on: boolean }>(t.db, sql`select renewal_reminders as on from services where id = ${serviceId}`))[0]?.on;

/** The renew (sign-in) and opt-out links of a received notice; text and HTML carry the same ones. */
function linksIn(mail: ReceivedMail | undefined): { renew: string | null; optOut: string; optOutUrl: string } {
  const renew = RENEW.exec(mail?.text ?? '');
  const optOut = OPT_OUT.exec(mail?.text ?? '');
  if (!optOut?.[1]) throw new Error(`No opt-out link in: ${mail?.text ?? '(no mail)'}`);
  if (renew) expect(mail?.html).toContain(`href="${renew[0]}"`);
  expect(mail?.html).toContain(`href="${optOut[0].replace(/&/g, '&amp;')}"`);
  return { renew: renew?.[1] ?? null, optOut: optOut[1], optOutUrl: optOut[0] };
}

const { describe, it } = localBillingOnly('renewal notices are the local billing\'s own (WHMCS sends its own reminders)');

describe('renewal notices over SMTP', () => {
  let receiver: Receiver;
  let t: TestApp;
  let close = async () => {};
  beforeAll(async () => {
    ({ t, receiver, close } = await createMailingApp());
  });
  afterAll(() => close());

  async function activeService(locale: Locale = 'en-en'): Promise<ActiveService> {
    const shopper = await guest(t.app, freshEmail('renew'));
    shopper.cookies.set('browserLang', locale);
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    const [serviceId] = order.serviceids;
    if (serviceId === undefined) throw new Error('The order has no service');
    return { shopper, serviceId, orderId: order.orderid };
  }

  /**
   * A renewal invoice for the period from 27 December 2026 and its notice, written in one transaction as the renewal
   * round writes them (kind 'renewal', key renewal:<stage>:invoice:<id>, the order's locale); `dueAt` holds it back.
   */
  async function queueNotice(service: ActiveService, stages: RenewalStage[], options: { status?: 'Unpaid' | 'Paid' | 'Cancelled'; locale?: Locale; dueAt?: Date } = {}) {
    return t.db.transaction(async (tx) => {
      const [invoice] = await tx.insert(invoices).values({
        clientId: service.shopper.userid, kind: 'renewal', serviceId: service.serviceId, status: options.status ?? 'Unpaid', currency: 'EUR', amountCents: 1299,
        periodStart: '2026-12-27', periodEnd: '2027-01-27',
      }).returning({ id: invoices.id });
      if (!invoice) throw new Error('No invoice written');
      const keys = [];
      for (const stage of stages) {
        const notice = renewalNotice(stage, {
          to: service.shopper.email, locale: options.locale ?? 'en-en', serviceId: service.serviceId, invoiceId: invoice.id, productName: '1 Month', billingcycle: 'Monthly',
          amountCents: 1299, currency: 'EUR', dueDate: '2026-12-27', periodEnd: '2027-01-27',
        });
        await enqueueMail(tx, { ...notice, ...(options.dueAt ? { dueAt: options.dueAt } : {}) });
        keys.push(notice.key);
      }
      return { invoiceId: invoice.id, keys };
    });
  }

  const noticesTo = (email: string) => receiver.to(email).filter((mail) => mail.headers['list-unsubscribe']?.includes('/renewals/opt-out'));

  it('the invoice notice: plan, invoice, amount, dates written out, one-click opt-out headers, and a link that signs a fresh browser in on the renewal page, once', async () => {
    const service = await activeService();
    const { invoiceId, keys } = await queueNotice(service, ['invoice']);
    await until(async () => noticesTo(service.shopper.email).length === 1, 'the invoice notice');
    const [mail] = noticesTo(service.shopper.email);
    expect(mail?.subject).toBe('Your 1 Month plan is due for renewal on December 27, 2026');
    expect(mail?.text).toContain(`Plan: 1 Month (service ${service.serviceId})\nInvoice: ${invoiceId}\nTotal: €12.99\nDue date: December 27, 2026\nRenewed until: January 27, 2027`);
    expect(mail?.html).toContain('<html lang="en"');
    const { renew, optOutUrl } = linksIn(mail);
    expect(mail?.headers['list-unsubscribe']).toBe(`<${optOutUrl}>`);
    expect(mail?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await until(async () => (await noticeRow(t, keys[0] ?? ''))?.status === 'sent', 'the notice marked sent');
    expect((await noticeRow(t, keys[0] ?? ''))?.recipient).toBeNull();

    const phone = new Browser(t.app);
    expect((await phone.call('getRenewal', { query: { serviceid: String(service.serviceId) } })).status).toBe(401);
    const followed = await followSignInLink(phone, renew ?? '');
    expect(followed.status).toBe(303);
    expect(followed.headers.location).toBe(`/checkout/renew?serviceid=${service.serviceId}`);
    // Signed in as the client: the renewal page's service, and the client's other pages.
    const renewal = await phone.call('getRenewal', { query: { serviceid: String(service.serviceId) } });
    expect(renewal.status, renewal.text).toBe(200);
    expect(renewal.body.serviceid).toBe(service.serviceId);
    expect((await phone.call('getActiveProducts')).status).toBe(200);
    expect((await followSignInLink(new Browser(t.app), renew ?? '')).status).toBe(410);
  });

  it('a notice in the order\'s language: German words and dates, the catalogue\'s German plan name, landing on /checkout/de-de/renew', async () => {
    const service = await activeService('de-de');
    await queueNotice(service, ['due-soon'], { locale: 'de-de' });
    await until(async () => noticesTo(service.shopper.email).length === 1, 'the German notice');
    const [mail] = noticesTo(service.shopper.email);
    expect(mail?.subject).toBe('Ihr Abo „1 Monat“ ist morgen zur Verlängerung fällig');
    expect(mail?.text).toContain('Fällig am: 27. Dezember 2026\nVerlängert bis: 27. Januar 2027');
    expect(mail?.html).toContain('<html lang="de-DE"');
    const followed = await followSignInLink(new Browser(t.app), linksIn(mail).renew ?? '');
    expect(followed.headers.location).toBe(`/checkout/de-de/renew?serviceid=${service.serviceId}`);
  });

  it('an invoice paid or cancelled before its notice is sent sends nothing (skipped); the termination notice of a cancelled invoice is sent, offering a new order', async () => {
    const paid = await activeService();
    const paidNotice = await queueNotice(paid, ['due'], { status: 'Paid' });
    const cancelled = await activeService();
    const cancelledNotice = await queueNotice(cancelled, ['suspended', 'terminated'], { status: 'Cancelled' });
    await until(async () => (await noticeRow(t, paidNotice.keys[0] ?? ''))?.status === 'skipped', 'the paid invoice\'s notice skipped');
    await until(async () => (await noticeRow(t, cancelledNotice.keys[0] ?? ''))?.status === 'skipped', 'the cancelled invoice\'s suspension notice skipped');
    await until(async () => noticesTo(cancelled.shopper.email).length === 1, 'the termination notice');
    expect(noticesTo(paid.shopper.email)).toEqual([]);
    const [ended] = noticesTo(cancelled.shopper.email);
    expect(ended?.subject).toBe('Your 1 Month plan has ended');
    expect(ended?.text).toContain('Order a new plan:\nhttp://localhost:3000/checkout/\n');
    expect(linksIn(ended).renew).toBeNull();
  });

  it('the opt-out link of a received notice (GET) turns the service\'s notices off, answers in the order\'s language, and the next notice is skipped', async () => {
    const service = await activeService('de-de');
    const first = await queueNotice(service, ['invoice'], { locale: 'de-de' });
    await until(async () => noticesTo(service.shopper.email).length === 1, 'the first notice');
    const { optOut } = linksIn(noticesTo(service.shopper.email)[0]);

    const page = await new Browser(t.app).request({ method: 'GET', url: optOut });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<html lang="de-DE">');
    expect(page.text).toContain(`Sie erhalten keine Verlängerungserinnerungen mehr zu 1 Monat (Dienst ${service.serviceId}).`);
    expect(await remindersOn(t, service.serviceId)).toBe(false);
    // Opening it again changes nothing and says the same.
    const again = await new Browser(t.app).request({ method: 'GET', url: optOut });
    expect(again.status).toBe(200);
    expect(await remindersOn(t, service.serviceId)).toBe(false);

    const dueKey = `renewal:due:invoice:${first.invoiceId}`;
    await t.db.transaction((tx) => enqueueMail(tx, {
      key: dueKey, to: service.shopper.email, locale: 'de-de',
      payload: { kind: 'renewal', stage: 'due', serviceId: service.serviceId, invoiceId: first.invoiceId, productName: '1 Month', billingcycle: 'Monthly', amountCents: 1299, currency: 'EUR', dueDate: '2026-12-27', periodEnd: '2027-01-27' },
    }));
    await until(async () => (await noticeRow(t, dueKey))?.status === 'skipped', 'the opted-out notice skipped');
    expect(noticesTo(service.shopper.email)).toHaveLength(1);
  });

  it('the one-click POST from a notice still waiting (read on the demo outbox page) turns the notices off, and that notice is skipped when it comes due', async () => {
    const service = await activeService();
    const { keys } = await queueNotice(service, ['invoice'], { dueAt: new Date(Date.now() + HOUR_MS) });
    const [row] = await rows<{ id: number }>(t.db, sql`select id from mail_outbox where message_key = ${keys[0]}`);
    const shown = await new Browser(t.app).request({ method: 'GET', url: `/checkout/demo/outbox/${row?.id}` });
    expect(shown.text).toContain('Your 1 Month plan is due for renewal on December 27, 2026');
    const link = OPT_OUT.exec(shown.text.replace(/&amp;/g, '&'))?.[1];
    expect(link).toBeDefined();

    const clicked = await new Browser(t.app).request({ method: 'POST', url: link ?? '', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(clicked.status).toBe(200);
    expect(clicked.text).toContain(`You will not get any more renewal reminders for 1 Month (service ${service.serviceId}).`);
    expect(await remindersOn(t, service.serviceId)).toBe(false);
    await t.db.execute(sql`update mail_outbox set next_attempt_at = now() where message_key = ${keys[0]}`);
    await until(async () => (await noticeRow(t, keys[0] ?? ''))?.status === 'skipped', 'the opted-out notice skipped');
    expect(noticesTo(service.shopper.email)).toEqual([]);
  });

  it('a foreign token changes nothing: another service\'s, a recovery reminder\'s, a cut one (400); a renewal token does not stop an order\'s reminders', async () => {
    const service = await activeService();
    const other = await activeService();
    await queueNotice(service, ['invoice']);
    await until(async () => noticesTo(service.shopper.email).length === 1, 'the notice');
    const { optOut } = linksIn(noticesTo(service.shopper.email)[0]);
    // An unpaid order's recovery reminder, still waiting: its opt-out token is ours, but for another purpose.
    const unpaid = await placeOrder(service.shopper);
    const [reminder] = await rows<{ id: number }>(t.db, sql`select id from mail_outbox where message_key = ${`recovery:order:${unpaid.orderid}`}`);
    const reminderPage = await new Browser(t.app).request({ method: 'GET', url: `/checkout/demo/outbox/${reminder?.id}` });
    const recoveryToken = RECOVERY_OPT_OUT.exec(reminderPage.text.replace(/&amp;/g, '&'))?.[1]?.split('token=')[1] ?? '';
    expect(recoveryToken).not.toBe('');
    const renewalToken = optOut.split('token=')[1] ?? '';
    const signature = renewalToken.split('.')[1] ?? '';

    const refused = [
      `/checkout/renewals/opt-out?token=${other.serviceId}.${signature}`,
      `/checkout/renewals/opt-out?token=${recoveryToken}`,
      `/checkout/renewals/opt-out?token=${renewalToken.slice(0, -1)}`,
      '/checkout/renewals/opt-out',
      `/checkout/recovery/opt-out?token=${renewalToken}`,
    ];
    for (const url of refused) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await new Browser(t.app).request({ method, url, ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' } : {}) });
        expect(answer.status, `${method} ${url}`).toBe(400);
        expect(answer.text).toContain('This link cannot be used');
      }
    }
    expect(await remindersOn(t, service.serviceId)).toBe(true);
    expect(await remindersOn(t, other.serviceId)).toBe(true);
    const [order] = await rows<{ on: boolean }>(t.db, sql`select recovery_reminders as on from orders where id = ${unpaid.orderid}`);
    expect(order?.on).toBe(true);
  });
});
