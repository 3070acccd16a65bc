import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../src/domain/locale';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import type { RecoveryPayload } from '../../src/server/mail/outbox';
import { checkoutLinks, renderMail } from '../../src/server/mail/templates';
import { Browser, createTestApp, followSignInLink, freshEmail, guest, payOnSandbox, placeOrder, newAccount, rows, verifiedAccount, type TestApp } from './helper';
import { mailEnv, startReceiver, until, type ReceivedMail, type Receiver } from './smtp-receiver';

const RESUME = /http:\/\/localhost:3000(\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43})/;
const OPT_OUT = /http:\/\/localhost:3000(\/checkout\/recovery\/opt-out\?token=[^\s"<>]+)/;
const HOUR_MS = 60 * 60_000;

type ReminderRow = { status: string; due_after_order_ms: number; recipient: string | null };
const reminderRows = (t: TestApp, orderId: number) => rows<ReminderRow>(t.db, sql`
  select m.status, m.recipient, (extract(epoch from (m.next_attempt_at - o.created_at)) * 1000)::float8 as due_after_order_ms
  from mail_outbox m join orders o on o.id = ${orderId} where m.message_key = ${`recovery:order:${orderId}`}`);

/**
 * Lets an hour and a minute pass for an order: its creation moves back 61 minutes and its reminder, due
 * RECOVERY_AFTER_MIN (60) after that creation, moves with it, so the worker finds it due now.
 */
async function ageOrder(t: TestApp, orderId: number) {
  await t.db.execute(sql`update orders set created_at = created_at - interval '61 minutes' where id = ${orderId}`);
  await t.db.execute(sql`update mail_outbox set next_attempt_at = next_attempt_at - interval '61 minutes' where message_key = ${`recovery:order:${orderId}`}`);
}

const reminderTo = (receiver: Receiver, email: string) => receiver.to(email).filter((mail) => /not finished|noch nicht abgeschlossen/.test(mail.subject));

/** The resume and opt-out links of a received reminder (text and HTML carry the same ones). */
function linksIn(mail: ReceivedMail | undefined): { resume: string; optOut: string; optOutUrl: string } {
  const resume = RESUME.exec(mail?.text ?? '');
  const optOut = OPT_OUT.exec(mail?.text ?? '');
  if (!resume?.[1] || !optOut?.[1]) throw new Error(`No resume or opt-out link in: ${mail?.text ?? '(no mail)'}`);
  expect(mail?.html).toContain(`href="${resume[0]}"`);
  expect(mail?.html).toContain(`href="${optOut[0].replace(/&/g, '&amp;')}"`);
  return { resume: resume[1], optOut: optOut[1], optOutUrl: optOut[0] };
}

describe('recovery reminders for unpaid orders, over SMTP', () => {
  let receiver: Receiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(mailEnv(receiver));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('an unpaid order gets one reminder 60 minutes after it was placed, not before: what was ordered, the amount, the deadline, a resume link and a one-click opt-out', async () => {
    const shopper = await guest(t.app, freshEmail('recover'));
    const order = await placeOrder(shopper, { configoptions: { 2: 1 }, amount: 16.99 });
    await receiver.waitFor(shopper.email);
    const [queued] = await reminderRows(t, order.orderid);
    expect(queued).toEqual({ status: 'pending', due_after_order_ms: HOUR_MS, recipient: shopper.email });
    expect(reminderTo(receiver, shopper.email)).toEqual([]);

    await ageOrder(t, order.orderid);
    await receiver.waitFor(shopper.email, 2);
    const [mail] = reminderTo(receiver, shopper.email);
    expect(mail?.subject).toBe(`You have not finished your order ${order.orderid}`);
    expect(mail?.text).toContain(`Order: ${order.orderid}`);
    expect(mail?.text).toContain('1 Month, per month');
    expect(mail?.text).toContain('Extra connection');
    expect(mail?.text).toContain('Total: €16.99');
    expect(mail?.text).toMatch(/Pay before: \w+ \d{1,2}, \d{4}/);
    expect(mail?.html).toContain('<html lang="en"');
    const { optOutUrl } = linksIn(mail);
    // RFC 8058: the one-click headers point at the same opt-out link.
    expect(mail?.headers['list-unsubscribe']).toBe(`<${optOutUrl}>`);
    expect(mail?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await until(async () => (await reminderRows(t, order.orderid))[0]?.status === 'sent', 'the reminder marked sent');
    expect((await reminderRows(t, order.orderid))[0]?.recipient).toBeNull();
  });

  it('a paid, a cancelled and a fraud-flagged order send nothing when their reminder comes due (skipped)', async () => {
    const paid = await guest(t.app, freshEmail('paid'));
    const paidOrder = await placeOrder(paid);
    await payOnSandbox(t.app, paidOrder.link);
    const cancelled = await guest(t.app, freshEmail('cancelled'));
    const cancelledOrder = await placeOrder(cancelled);
    expect((await cancelled.call('cancelOrder', { body: { orderid: cancelledOrder.orderid } })).status).toBe(200);
    const flagged = await guest(t.app, freshEmail('flagged'));
    const flaggedOrder = await placeOrder(flagged);
    expect((await flagged.call('fraudOrder', { body: { orderid: flaggedOrder.orderid } })).status).toBe(200);

    for (const order of [paidOrder, cancelledOrder, flaggedOrder]) await ageOrder(t, order.orderid);
    for (const order of [paidOrder, cancelledOrder, flaggedOrder]) {
      await until(async () => (await reminderRows(t, order.orderid))[0]?.status === 'skipped', `order ${order.orderid}'s reminder skipped`);
      expect(await reminderRows(t, order.orderid)).toEqual([{ status: 'skipped', due_after_order_ms: expect.any(Number), recipient: null }]);
    }
    for (const shopper of [paid, cancelled, flagged]) expect(reminderTo(receiver, shopper.email)).toEqual([]);
  });

  it('an order whose payment link has expired by the time its reminder comes due gets nothing (past its deadline)', async () => {
    const shopper = await guest(t.app, freshEmail('late'));
    const order = await placeOrder(shopper);
    await t.db.execute(sql`update payments set expires_at = now() - interval '1 second' where invoice_id = ${order.invoiceid}`);
    await ageOrder(t, order.orderid);
    await until(async () => (await reminderRows(t, order.orderid))[0]?.status === 'skipped', 'the late reminder skipped');
    expect(reminderTo(receiver, shopper.email)).toEqual([]);
  });

  it('with "Remind me if I don\'t finish" unticked (remind: false) no reminder is queued at all; absent means ticked', async () => {
    const shopper = await guest(t.app, freshEmail('noremind'));
    const order = await placeOrder(shopper, { remind: false });
    expect(await reminderRows(t, order.orderid)).toEqual([]);
    const [stored] = await rows<{ recovery_reminders: boolean }>(t.db, sql`select recovery_reminders from orders where id = ${order.orderid}`);
    expect(stored?.recovery_reminders).toBe(false);
    const ticked = await placeOrder(shopper, { remind: true });
    expect(await reminderRows(t, ticked.orderid)).toHaveLength(1);
  });

  it('a remind that is not a boolean is refused in the one error shape and places nothing', async () => {
    const shopper = await guest(t.app, freshEmail('badremind'));
    const before = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from orders`);
    const answer = await shopper.request({ method: 'POST', url: '/checkout/api/order', headers: { 'idempotency-key': randomUUID() }, json: { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR', remind: 'yes' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    expect(await rows(t.db, sql`select count(*)::int as n from orders`)).toEqual(before);
  });

  it('after the one-click opt-out (a POST from the mail client, read from the pending reminder) the reminder is skipped', async () => {
    const shopper = await guest(t.app, freshEmail('optout'));
    const order = await placeOrder(shopper);
    // The demo outbox page renders the reminder still waiting, with the opt-out link it will carry.
    const [row] = await rows<{ id: number }>(t.db, sql`select id from mail_outbox where message_key = ${`recovery:order:${order.orderid}`}`);
    const page = await new Browser(t.app).request({ method: 'GET', url: `/checkout/demo/outbox/${row?.id}` });
    const link = OPT_OUT.exec(page.text.replace(/&amp;/g, '&'))?.[1];
    expect(link).toBeDefined();

    const clicked = await new Browser(t.app).request({ method: 'POST', url: link ?? '', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(clicked.status).toBe(200);
    expect(clicked.text).toContain(`You will not get any more reminders for order ${order.orderid}.`);
    await ageOrder(t, order.orderid);
    await until(async () => (await reminderRows(t, order.orderid))[0]?.status === 'skipped', 'the opted-out reminder skipped');
    expect(reminderTo(receiver, shopper.email)).toEqual([]);
  });

  it('the opt-out link in a received reminder (GET) answers in the mail\'s language; a forged or another order\'s token changes nothing', async () => {
    const shopper = await guest(t.app, freshEmail('optoutde'));
    shopper.cookies.set('browserLang', 'de-de');
    const order = await placeOrder(shopper);
    const other = await placeOrder(shopper);
    await ageOrder(t, order.orderid);
    await receiver.waitFor(shopper.email, 3);
    const [mail] = reminderTo(receiver, shopper.email);
    expect(mail?.subject).toBe(`Sie haben Ihre Bestellung ${order.orderid} noch nicht abgeschlossen`);
    const { optOut } = linksIn(mail);

    const signature = optOut.split('.')[1] ?? '';
    const forged = [`/checkout/recovery/opt-out?token=${other.orderid}.${signature}`, '/checkout/recovery/opt-out?token=abc', '/checkout/recovery/opt-out'];
    for (const url of forged) {
      const refused = await new Browser(t.app).request({ method: 'GET', url });
      expect(refused.status, url).toBe(400);
      expect(refused.text).toContain('This link cannot be used');
    }
    const reminders = await rows<{ id: number; on: boolean }>(t.db, sql`select id, recovery_reminders as on from orders where id in (${order.orderid}, ${other.orderid}) order by id`);
    expect(reminders.map((row) => row.on)).toEqual([true, true]);

    const page = await new Browser(t.app).request({ method: 'GET', url: optOut });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<html lang="de-DE">');
    expect(page.text).toContain(`Sie erhalten keine Erinnerungen mehr zu Bestellung ${order.orderid}.`);
    const after = await rows<{ on: boolean }>(t.db, sql`select recovery_reminders as on from orders where id in (${order.orderid}, ${other.orderid}) order by id`);
    expect(after.map((row) => row.on)).toEqual([false, true]);
  });

  it('the resume link signs a fresh browser in to exactly that order and lands on its waiting page; it works once', async () => {
    const shopper = await guest(t.app, freshEmail('resume'));
    const earlier = await placeOrder(shopper);
    const order = await placeOrder(shopper);
    await ageOrder(t, order.orderid);
    await receiver.waitFor(shopper.email, 3);
    const { resume } = linksIn(reminderTo(receiver, shopper.email)[0]);

    const phone = new Browser(t.app);
    expect((await phone.call('resumeOrder', { query: { orderid: String(order.orderid) } })).status).toBe(401);
    const followed = await followSignInLink(phone, resume);
    expect(followed.status).toBe(303);
    expect(followed.headers.location).toBe(`/checkout/waiting?orderid=${order.orderid}`);
    expect(followed.cookies.find((cookie) => cookie.name === 'tvc_session')?.httpOnly).toBe(true);

    const resumed = await phone.call('resumeOrder', { query: { orderid: String(order.orderid) } });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({
      orderid: order.orderid, invoiceid: order.invoiceid, serviceids: order.serviceids, flow: 'order', status: 'Pending', invoiceStatus: 'Unpaid', fraud: false,
      amount: 12.99, currency: 'EUR', paymentmethod: 'sandbox', link: order.link, deadline: order.deadline,
    });
    expect((await phone.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).status).toBe(200);
    // Only that order: not the client's other order, not an account's pages.
    expect((await phone.call('getOrderStatus', { query: { orderid: String(earlier.orderid) } })).status).toBe(403);
    expect((await phone.call('resumeOrder', { query: { orderid: String(earlier.orderid) } })).status).toBe(403);
    expect((await phone.call('getActiveProducts')).status).toBe(401);

    const again = await followSignInLink(new Browser(t.app), resume);
    expect(again.status).toBe(410);
  });

  it('a browser already signed in to the same client keeps its session (and its reach) when it follows the resume link', async () => {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account);
    await ageOrder(t, order.orderid);
    await until(async () => reminderTo(receiver, account.email).length === 1, 'the account\'s reminder');
    const { resume } = linksIn(reminderTo(receiver, account.email)[0]);
    const session = account.cookies.get('tvc_session');
    const followed = await followSignInLink(account, resume);
    expect(followed.status).toBe(303);
    expect(followed.cookies.find((cookie) => cookie.name === 'tvc_session')).toBeUndefined();
    expect(account.cookies.get('tvc_session')).toBe(session);
    expect((await account.call('getSession')).body).toMatchObject({ loggedIn: true, email: account.email });
    expect((await account.call('resumeOrder', { query: { orderid: String(order.orderid) } })).status).toBe(200);
  });

  it('a resumed order whose link has expired gets a fresh one on the same gateway, can change payment method, and pays', async () => {
    const shopper = await guest(t.app, freshEmail('expired'));
    const order = await placeOrder(shopper);
    await ageOrder(t, order.orderid);
    await receiver.waitFor(shopper.email, 2);
    const { resume } = linksIn(reminderTo(receiver, shopper.email)[0]);
    await t.db.execute(sql`update payments set expires_at = now() - interval '1 minute' where invoice_id = ${order.invoiceid}`);

    const laptop = new Browser(t.app);
    expect((await followSignInLink(laptop, resume)).status).toBe(303);
    const resumed = await laptop.call('resumeOrder', { query: { orderid: String(order.orderid) } });
    expect(resumed.status).toBe(200);
    expect(resumed.body.paymentmethod).toBe('sandbox');
    expect(resumed.body.link).toMatch(/^http:\/\/localhost:3000\/checkout\/sandbox\/pay\/pay_/);
    expect(resumed.body.link).not.toBe(order.link);
    expect(Date.parse(resumed.body.deadline ?? '')).toBeGreaterThan(Date.now() + 23 * HOUR_MS);

    // "Change payment method": the crypto sandbox, then pay there.
    const changed = await laptop.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: 12.99, currency: 'EUR' } });
    expect(changed.status, changed.text).toBe(200);
    await payOnSandbox(t.app, changed.body.link);
    const status = await laptop.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid' });
    const paid = await laptop.call('resumeOrder', { query: { orderid: String(order.orderid) } });
    expect(paid.body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid', link: null, deadline: null, paymentmethod: 'sandboxcrypto' });
  });

  it('a reseller order gets its reminder too, landing on the reseller waiting page', async () => {
    // A new reseller's pack 11 with the panel activation: €349 (README "Demo data").
    const reseller = await newAccount(t.app);
    const answer = await reseller.call('order', { body: { pid: [11], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
    expect(answer.status, answer.text).toBe(200);
    const order = answer.body;
    expect(order.orderid).toBeGreaterThan(0);
    await ageOrder(t, order.orderid);
    await until(async () => reminderTo(receiver, reseller.email).length === 1, 'the reseller reminder');
    const { resume } = linksIn(reminderTo(receiver, reseller.email)[0]);
    const followed = await followSignInLink(new Browser(t.app), resume);
    expect(followed.headers.location).toBe(`/checkout/resellers/waiting?orderid=${order.orderid}`);
  });
});

describe('two instances on one store', () => {
  let receiver: Receiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(mailEnv(receiver));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('send each due reminder once', async () => {
    const second = await buildApp({ config: t.config, store: t.store, ports: portsFromEnvironment(t.config) });
    try {
      const shoppers = await Promise.all(Array.from({ length: 6 }, (_, index) => guest(index % 2 ? second : t.app, freshEmail('pairremind'))));
      const orders = await Promise.all(shoppers.map((shopper) => placeOrder(shopper)));
      for (const shopper of shoppers) await receiver.waitFor(shopper.email);
      await Promise.all(orders.map((order) => ageOrder(t, order.orderid)));
      for (const shopper of shoppers) await receiver.waitFor(shopper.email, 2);
      for (const order of orders) await until(async () => (await reminderRows(t, order.orderid))[0]?.status === 'sent', 'reminders marked sent');
      // A marker order's receipt comes after anything either worker still had in hand.
      const marker = await guest(t.app, freshEmail('marker'));
      await placeOrder(marker);
      await receiver.waitFor(marker.email);
      for (const shopper of shoppers) expect(reminderTo(receiver, shopper.email)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('the reminder in the six locales', () => {
  const payload: RecoveryPayload = {
    kind: 'recovery', flow: 'order', orderId: 41, invoiceId: 77, amountCents: 1299, currency: 'EUR', deadline: '2031-05-06T07:08:00.000Z',
    lines: [{ type: 'product', name: '1 Month', billingcycle: 'Monthly' }],
  };
  const links = checkoutLinks('https://shop.example');
  const recovery = { resumeUrl: 'https://shop.example/checkout/api/signIn?token=R3sume', optOutUrl: 'https://shop.example/checkout/recovery/opt-out?token=41.S1gned', deadline: '2031-05-07T08:09:00.000Z' };
  const TOTAL: Record<Locale, string> = {
    'en-en': '€12.99', 'en-gb': '€12.99', 'de-de': '12,99\u00a0€', 'es-es': '12,99\u00a0€', 'nl-nl': '€\u00a012,99', 'pt-pt': '12,99\u00a0€',
  };
  const LANG: Record<Locale, string> = { 'en-en': 'en', 'en-gb': 'en-GB', 'de-de': 'de-DE', 'es-es': 'es-ES', 'nl-nl': 'nl-NL', 'pt-pt': 'pt-PT' };
  const SUBJECT: Record<Locale, string> = {
    'en-en': 'You have not finished your order 41',
    'en-gb': 'You have not finished your order 41',
    'de-de': 'Sie haben Ihre Bestellung 41 noch nicht abgeschlossen',
    'es-es': 'No has terminado tu pedido 41',
    'nl-nl': 'Je hebt je bestelling 41 nog niet afgerond',
    'pt-pt': 'Ainda não concluiu a sua encomenda 41',
  };

  it.each(LOCALES)('%s: text and HTML with the order, item, amount, the current deadline, the resume and opt-out links, lang, no images', (locale) => {
    const mail = renderMail(payload, locale, { links, recovery });
    expect(mail.subject).toBe(SUBJECT[locale]);
    expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${LANG[locale]}"`));
    expect(mail.html).toContain('<h1');
    expect(mail.html).not.toMatch(/<img|<link|<script|url\(|src=/i);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(TOTAL[locale]);
      expect(part).toContain('41');
      expect(part).toContain('1 Month');
      // The deadline of the order's latest link, not the one queued with the order.
      expect(part).toContain('2031');
      expect(part).toMatch(/\b7\b/);
      expect(part).toContain('https://shop.example/checkout/api/signIn?token=R3sume');
      expect(part).toContain('https://shop.example/checkout/recovery/opt-out?token=41.S1gned');
      expect(part).not.toMatch(/\{\w+\}/);
    }
    expect(mail.headers).toEqual({ 'List-Unsubscribe': '<https://shop.example/checkout/recovery/opt-out?token=41.S1gned>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});
