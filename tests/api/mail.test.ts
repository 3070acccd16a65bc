import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import type { ServerConfig } from '../../src/server/config';
import { LOCALES, type Locale } from '../../src/domain/locale';
import { demoOutboxPages } from '../../src/server/mail/demo-outbox';
import type { ReceiptPayload, ServiceActivePayload } from '../../src/server/mail/outbox';
import { checkoutLinks, renderMail } from '../../src/server/mail/templates';
import { Browser, createTestApp, followSignInLink, freshEmail, guest, payOnSandbox, placeOrder, rows, verifiedAccount, type TestApp } from './helper';
import { createMailingApp, MAIL_FROM, mailEnv, startReceiver, until, type Receiver } from './smtp-receiver';


type OutboxRow = { message_key: string; status: string; attempts: number; recipient: string | null; payload: unknown; last_error: string | null; sent_at: unknown };
const outboxRows = (t: TestApp, like: string) => rows<OutboxRow>(t.db, sql`select message_key, status, attempts, recipient, payload, last_error, sent_at from mail_outbox where message_key like ${like} order by id`);


/** A guest whose browser reads the checkout in `locale` (the app's browserLang cookie). */
async function guestIn(app: TestApp['app'], locale: Locale) {
  const browser = await guest(app, freshEmail('mail'));
  browser.cookies.set('browserLang', locale);
  return browser;
}

/**
 * Waits until the worker has handled everything queued so far: a marker order's receipt arrives after
 * them (one worker sends in queue order), so a second copy of an earlier mail would be here by now.
 */
async function settled(t: TestApp, receiver: Receiver) {
  const marker = await guest(t.app, freshEmail('marker'));
  await placeOrder(marker);
  await receiver.waitFor(marker.email);
}

describe('mail over SMTP from the outbox', () => {
  let receiver: Receiver;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, receiver, close } = await createMailingApp());
  });
  afterAll(async () => close?.());

  it('an order sends exactly one receipt, in the shopper\'s locale, with the amount, the invoice, the deadline and the waiting page', async () => {
    const shopper = await guestIn(t.app, 'de-de');
    const order = await placeOrder(shopper);
    const [mail] = await receiver.waitFor(shopper.email);
    expect(mail?.subject).toBe(`Ihre Bestellung ${order.orderid}: Rechnung ${order.invoiceid}`);
    expect(mail?.headers.from).toBe(MAIL_FROM);
    expect(mail?.messageId).toMatch(/^<[0-9a-f]{32}@tvcheckout\.test>$/);
    expect(mail?.headers['auto-submitted']).toBe('auto-generated');
    expect(mail?.text).toContain('Gesamtbetrag: 12,99\u00a0€');
    expect(mail?.text).toContain(`Rechnung: ${order.invoiceid}`);
    expect(mail?.text).toContain('1 Month, pro Monat');
    expect(mail?.text).toContain('Zahlbar bis: ');
    expect(mail?.text).toContain('http://localhost:3000/checkout/de-de/waiting');
    expect(mail?.html).toContain('<html lang="de-DE"');
    expect(mail?.html).toContain('12,99\u00a0€');
    expect(mail?.html).toContain('href="http://localhost:3000/checkout/de-de/waiting"');
    await settled(t, receiver);
    expect(receiver.to(shopper.email)).toHaveLength(1);
    // Sent: the store keeps no copy of the mail (no address, no body), only that it went.
    expect(await outboxRows(t, `receipt:invoice:${order.invoiceid}`)).toEqual([
      { message_key: `receipt:invoice:${order.invoiceid}`, status: 'sent', attempts: 1, recipient: null, payload: null, last_error: null, sent_at: expect.anything() },
    ]);
  });

  it('without a language cookie the browser\'s languages choose (Accept-Language es → Spanish); the default locale links without a prefix', async () => {
    const spanish = await guest(t.app, freshEmail('mail'));
    const order = await placeOrder(spanish, {}, { 'accept-language': 'es-ES,es;q=0.9' });
    const [mail] = await receiver.waitFor(spanish.email);
    expect(mail?.subject).toBe(`Tu pedido ${order.orderid}: factura ${order.invoiceid}`);
    expect(mail?.text).toContain('Total: 12,99\u00a0€');

    const english = await guest(t.app, freshEmail('mail'));
    await placeOrder(english);
    const [plain] = await receiver.waitFor(english.email);
    expect(plain?.text).toContain('Total: €12.99');
    expect(plain?.text).toContain('http://localhost:3000/checkout/waiting\n');
  });

  it('an order replayed with the same Idempotency-Key sends no second receipt', async () => {
    const shopper = await guestIn(t.app, 'nl-nl');
    const first = await placeOrder(shopper, {}, { 'idempotency-key': 'mail-replay-1' });
    const replay = await placeOrder(shopper, {}, { 'idempotency-key': 'mail-replay-1' });
    expect(replay.orderid).toBe(first.orderid);
    await receiver.waitFor(shopper.email);
    await settled(t, receiver);
    expect(receiver.to(shopper.email)).toHaveLength(1);
    expect(receiver.to(shopper.email)[0]?.subject).toBe(`Je bestelling ${first.orderid}: factuur ${first.invoiceid}`);
    expect(await outboxRows(t, `receipt:invoice:${first.invoiceid}`)).toHaveLength(1);
  });

  it('a flagged order gets no receipt (nothing is due on it)', async () => {
    const fraudApp = await createTestApp(mailEnv(receiver, { FRAUD_BLOCKED_IPS: '10.250.0.1' }));
    try {
      const shopper = new Browser(fraudApp.app, '10.250.0.1');
      const email = freshEmail('flagged');
      expect((await shopper.call('authMiddleware', { body: { email } })).status).toBe(200);
      const order = await placeOrder(shopper);
      expect(order.fraud).toBe(true);
      expect(await outboxRows(fraudApp, `receipt:invoice:${order.invoiceid}`)).toEqual([]);
    } finally {
      await fraudApp.close();
    }
  });

  it('paying sends one "service active" mail with a one-time sign-in link to the service page and without the login details', async () => {
    const shopper = await guestIn(t.app, 'pt-pt');
    const order = await placeOrder(shopper);
    await receiver.waitFor(shopper.email);
    await payOnSandbox(t.app, order.link);
    const mails = await receiver.waitFor(shopper.email, 2);
    const active = mails[1];
    const serviceid = order.serviceids[0] as number;
    expect(active?.subject).toBe('O seu serviço está ativo');
    const link = /http:\/\/localhost:3000\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43}/.exec(active?.text ?? '')?.[0];
    expect(link, active?.text).toBeDefined();
    // Followed on another device, the link signs in and lands on the service's page in the shopper's language.
    const phone = new Browser(t.app);
    const landed = await followSignInLink(phone, (link ?? '').replace('http://localhost:3000', ''));
    expect(landed.status, landed.text).toBe(303);
    expect(landed.headers.location).toBe(`/checkout/pt-pt/success?serviceid=${serviceid}`);
    expect((await phone.call('getClientProducts', { query: { serviceid: String(serviceid) } })).status).toBe(200);
    const service = (await shopper.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body;
    expect(service.username).toMatch(/^TV-\d{8}$/);
    expect(active?.raw).not.toContain(service.username);
    expect(active?.raw).not.toContain(service.password);
    expect(active?.text).not.toContain('Palavra-passe');
    await settled(t, receiver);
    expect(receiver.to(shopper.email)).toHaveLength(2);
  });

  it('an upsell invoice sends its receipt: the extra connections, the service and the amount', async () => {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account);
    await payOnSandbox(t.app, order.link);
    // The sign-up's link to prove the address, the order's receipt, "service active".
    await receiver.waitFor(account.email, 3);
    const serviceId = order.serviceids[0] as number;
    const invoice = await account.call('addInvoice', { body: { serviceId, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR' } });
    expect(invoice.status, invoice.text).toBe(200);
    const mails = await receiver.waitFor(account.email, 4);
    const receipt = mails[3];
    expect(receipt?.subject).toBe(`Your invoice ${invoice.body.invoiceid} for extra connections`);
    expect(receipt?.text).toContain(`Extra connections: 3, 1 Month (service ${serviceId})`);
    expect(receipt?.text).toContain('Total: €12.00');
    expect(receipt?.text).toContain('http://localhost:3000/checkout/waiting');
  });

  it('an SMTP outage (451, then the receiver down) keeps the message; it is delivered once the receiver is back', async () => {
    receiver.refuse = 451;
    const shopper = await guestIn(t.app, 'en-gb');
    const order = await placeOrder(shopper);
    const key = `receipt:invoice:${order.invoiceid}`;
    await until(async () => ((await outboxRows(t, key))[0]?.attempts ?? 0) >= 2, 'two refused attempts');
    const refused = (await outboxRows(t, key))[0];
    expect(refused?.status).toBe('pending');
    expect(refused?.last_error).toBe('EENVELOPE 451');
    expect(refused?.recipient).toBe(shopper.email);
    expect(receiver.to(shopper.email)).toHaveLength(0);

    receiver.refuse = null;
    await receiver.stop();
    const attempts = (await outboxRows(t, key))[0]?.attempts ?? 0;
    await until(async () => ((await outboxRows(t, key))[0]?.attempts ?? 0) > attempts + 1, 'attempts while the receiver is down');
    const down = (await outboxRows(t, key))[0];
    expect(down?.status).toBe('pending');
    expect(down?.last_error).toMatch(/^(ECONNECTION|ESOCKET) ECONNREFUSED$/);

    await receiver.start();
    const [mail] = await receiver.waitFor(shopper.email, 1, 15_000);
    expect(mail?.subject).toBe(`Your order ${order.orderid}: invoice ${order.invoiceid}`);
    await settled(t, receiver);
    expect(receiver.to(shopper.email)).toHaveLength(1);
    expect((await outboxRows(t, key))[0]).toMatchObject({ status: 'sent', recipient: null, payload: null, last_error: null });
  });

  it('two instances on one store send each message once', async () => {
    const second = await buildApp({ config: t.config, store: t.store, ports: portsFromEnvironment(t.config) });
    try {
      const shoppers = await Promise.all(Array.from({ length: 8 }, (_, index) => guest(index % 2 ? second : t.app, freshEmail('pair'))));
      await Promise.all(shoppers.map((shopper) => placeOrder(shopper)));
      for (const shopper of shoppers) await receiver.waitFor(shopper.email);
      await settled(t, receiver);
      for (const shopper of shoppers) expect(receiver.to(shopper.email)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('a crash between write and send loses nothing and sends once', () => {
  let receiver: Receiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startReceiver();
    // No SMTP_URL: the instance writes its outbox and sends nothing, as one that crashed before sending.
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('mail written by an instance that never sent it goes out once from the next instance on the store', async () => {
    const shopper = await guestIn(t.app, 'es-es');
    const order = await placeOrder(shopper);
    // A row an instance claimed and then died with: its lease still runs, so no one takes it yet.
    const orphan = await guestIn(t.app, 'en-en');
    const orphanOrder = await placeOrder(orphan);
    await t.db.execute(sql`update mail_outbox set attempts = 1, lease_token = 'dead-instance', next_attempt_at = now() + interval '5 minutes' where message_key = ${`receipt:invoice:${orphanOrder.invoiceid}`}`);
    await t.app.close();

    const config: ServerConfig = { ...t.config, mail: { ...t.config.mail, smtpUrl: receiver.url, from: MAIL_FROM, pollMs: 50, retryMs: 50 } };
    const next = await buildApp({ config, store: t.store, ports: portsFromEnvironment(config) });
    try {
      const [mail] = await receiver.waitFor(shopper.email);
      expect(mail?.subject).toBe(`Tu pedido ${order.orderid}: factura ${order.invoiceid}`);
      await new Promise((done) => setTimeout(done, 300));
      expect(receiver.to(shopper.email)).toHaveLength(1);
      expect(receiver.to(orphan.email)).toHaveLength(0);
      // The dead instance's lease runs out: the row is taken again and sent once.
      await t.db.execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 second' where message_key = ${`receipt:invoice:${orphanOrder.invoiceid}`}`);
      await receiver.waitFor(orphan.email);
      await new Promise((done) => setTimeout(done, 300));
      expect(receiver.to(orphan.email)).toHaveLength(1);
      expect((await outboxRows(t, `receipt:invoice:${orphanOrder.invoiceid}`))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await next.close();
    }
  });
});

describe('MAIL_CREDENTIALS=on and certificate checks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.stop());

  it('with MAIL_CREDENTIALS=on "service active" carries the username, password and server host', async () => {
    const t = await createTestApp(mailEnv(receiver, { MAIL_CREDENTIALS: 'on' }));
    try {
      const shopper = await guestIn(t.app, 'en-en');
      const order = await placeOrder(shopper);
      await payOnSandbox(t.app, order.link);
      const [, active] = await receiver.waitFor(shopper.email, 2);
      const service = (await shopper.call('getClientProducts', { query: { serviceid: String(order.serviceids[0]) } })).body;
      expect(active?.subject).toBe('Your service is active');
      expect(active?.text).toContain(`Username: ${service.username}`);
      expect(active?.text).toContain(`Password: ${service.password}`);
      expect(active?.text).toContain(`Server host: ${service.serverhostname}`);
      expect(active?.html).toContain(`<h2 style="font-size:18px;line-height:1.3;margin:24px 0 8px;color:#1f2328">Your login details</h2>`);
      // Rendered when sent: the outbox never held the password.
      expect(JSON.stringify(await rows(t.db, sql`select * from mail_outbox`))).not.toContain(service.password);
    } finally {
      await t.close();
    }
  });

  it('a server offering STARTTLS with a self-signed certificate gets nothing (certificates are checked): the message waits', async () => {
    const untrusted = await startReceiver({ starttls: true });
    const t = await createTestApp(mailEnv(untrusted));
    try {
      const shopper = await guestIn(t.app, 'en-en');
      const order = await placeOrder(shopper);
      await until(async () => ((await outboxRows(t, `receipt:invoice:${order.invoiceid}`))[0]?.attempts ?? 0) >= 1 && (await outboxRows(t, `receipt:invoice:${order.invoiceid}`))[0]?.last_error !== null, 'a failed attempt');
      const row = (await outboxRows(t, `receipt:invoice:${order.invoiceid}`))[0];
      expect(row).toMatchObject({ status: 'pending', recipient: shopper.email, last_error: 'ESOCKET DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(untrusted.mails).toHaveLength(0);
    } finally {
      await t.close();
      await untrusted.stop();
    }
  });
});

describe('templates: every message in the six locales', () => {
  const receipt: ReceiptPayload = {
    kind: 'receipt', flow: 'order', orderId: 41, invoiceId: 77, promocode: 'SPRING15', amountCents: 1299, currency: 'EUR', deadline: '2031-05-06T07:08:00.000Z',
    lines: [{ type: 'product', name: '1 Month', billingcycle: 'Monthly' }, { type: 'option', option: 'extraConnection' }, { type: 'option', option: 'proxyProtection' }],
  };
  const upsell: ReceiptPayload = {
    ...receipt, flow: 'upsell', orderId: null, promocode: null, lines: [{ type: 'extraConnections', count: 2, serviceId: 9, productName: '1 Month' }],
  };
  const active: ServiceActivePayload = { kind: 'service-active', flow: 'order', orderId: 41, services: [{ id: 9, name: '1 Month' }] };
  const credentials = [{ serviceId: 9, username: 'TV-12345678', password: '123456789012', serverHostname: 'stream.example' }];
  const links = checkoutLinks('https://shop.example');
  /** Intl's formats of 12.99 EUR, as each locale writes money. */
  const TOTAL: Record<Locale, string> = {
    'en-en': '€12.99', 'en-gb': '€12.99', 'de-de': '12,99\u00a0€', 'es-es': '12,99\u00a0€', 'nl-nl': '€\u00a012,99', 'pt-pt': '12,99\u00a0€',
  };
  const LANG: Record<Locale, string> = { 'en-en': 'en', 'en-gb': 'en-GB', 'de-de': 'de-DE', 'es-es': 'es-ES', 'nl-nl': 'nl-NL', 'pt-pt': 'pt-PT' };

  it.each(LOCALES)('%s: receipt, upsell receipt, "service active" and the sign-in link, each in text and HTML, with lang, headings, no images and no remote resources', (locale) => {
    const mails = [
      renderMail(receipt, locale, { links }),
      renderMail(upsell, locale, { links }),
      renderMail(active, locale, { links, credentials }),
      renderMail({ kind: 'sign-in-link', clientId: 41, redirectPath: '/checkout/' }, locale, { links, signInUrl: 'https://shop.example/checkout/api/signIn?token=T0ken' }),
    ];
    for (const mail of mails) {
      expect(mail.subject.length).toBeGreaterThan(5);
      expect(mail.text.length).toBeGreaterThan(100);
      expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${LANG[locale]}"`));
      expect(mail.html).toContain('<h1');
      expect(mail.html).not.toMatch(/<img|<link|<script|url\(|src=/i);
      expect(mail.html).not.toContain('http://');
      expect(mail.text).not.toMatch(/\{\w+\}/);
      expect(mail.html).not.toMatch(/\{\w+\}/);
    }
    const [order, extra, service, signIn] = mails;
    expect(signIn?.text).toContain('https://shop.example/checkout/api/signIn?token=T0ken');
    expect(signIn?.html).toContain('href="https://shop.example/checkout/api/signIn?token=T0ken"');
    expect(signIn?.text).toContain('15');
    expect(order?.text).toContain(TOTAL[locale]);
    expect(order?.html).toContain(TOTAL[locale]);
    expect(order?.text).toContain('SPRING15');
    expect(order?.text).toContain('2031');
    expect(order?.text).toContain(`https://shop.example/checkout${locale === 'en-en' ? '' : `/${locale}`}/waiting`);
    expect(extra?.text).toContain(TOTAL[locale]);
    expect(service?.text).toContain('TV-12345678');
    expect(service?.text).toContain('123456789012');
    expect(service?.html).toContain('<h2');
    expect(service?.text).toContain(`https://shop.example/checkout${locale === 'en-en' ? '' : `/${locale}`}/success?serviceid=9`);
  });

  it('each locale words its mails itself (only en-gb shares English subjects with en-en)', () => {
    const subjects = LOCALES.map((locale) => renderMail(active, locale, { links }).subject);
    expect(new Set(subjects).size).toBe(5);
    expect(renderMail(active, 'en-gb', { links }).subject).toBe(renderMail(active, 'en-en', { links }).subject);
  });
});

describe('the demo outbox page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('in the demo lists the queued receipt and shows its HTML and text parts, with the demo banner', async () => {
    const shopper = await guestIn(t.app, 'en-en');
    const order = await placeOrder(shopper);
    const browser = new Browser(t.app);
    const list = await browser.request({ method: 'GET', url: '/checkout/demo/outbox' });
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.text).toContain('<html lang="en">');
    expect(list.text).toContain('data-demo-banner');
    expect(list.text).toContain(shopper.email);
    expect(list.text).toContain(`Your order ${order.orderid}: invoice ${order.invoiceid}`);
    const [row] = await rows<{ id: number }>(t.db, sql`select id from mail_outbox where message_key = ${`receipt:invoice:${order.invoiceid}`}`);
    const one = await browser.request({ method: 'GET', url: `/checkout/demo/outbox/${row?.id}` });
    expect(one.status).toBe(200);
    expect(one.text).toContain('<h1>Your order');
    expect(one.text).toContain('Total: €12.99');
    expect(one.text).toContain(`<iframe title="The HTML part of the message" sandbox src="/checkout/demo/outbox/${row?.id}/html">`);
    const part = await browser.request({ method: 'GET', url: `/checkout/demo/outbox/${row?.id}/html` });
    expect(part.status).toBe(200);
    expect(part.text).toContain('<html lang="en"');
    expect(String(part.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect((await browser.request({ method: 'GET', url: '/checkout/demo/outbox/999999' })).status).toBe(404);
  });

  it('a reminder that will never be sent (its order was paid) shows as skipped, not waiting, in the list and on its page', async () => {
    const shopper = await guestIn(t.app, 'en-en');
    const order = await placeOrder(shopper);
    const [row] = await rows<{ id: number; status: string }>(t.db, sql`select id, status from mail_outbox where message_key = ${`recovery:order:${order.orderid}`}`);
    if (!row) throw new Error('The order queued no recovery reminder');
    const browser = new Browser(t.app);
    const cellOf = (text: string) => new RegExp(`<tr><td>${row.id}</td>.*?</tr>`).exec(text)?.[0] ?? '';
    // Unpaid: the reminder waits for its time.
    expect(cellOf((await browser.request({ method: 'GET', url: '/checkout/demo/outbox' })).text)).toMatch(/<td>(due |waiting)[^<]*<\/td><\/tr>$/);
    await payOnSandbox(t.app, order.link);
    // Paid: no worker runs in the demo without SMTP_URL, so the row is still pending in the store, but it will never be sent.
    expect((await rows<{ status: string }>(t.db, sql`select status from mail_outbox where id = ${row.id}`))[0]?.status).toBe('pending');
    const listed = cellOf((await browser.request({ method: 'GET', url: '/checkout/demo/outbox' })).text);
    expect(listed).toContain('<td>skipped: no longer to be sent');
    expect(listed).not.toMatch(/waiting|<td>due /);
    const one = await browser.request({ method: 'GET', url: `/checkout/demo/outbox/${row.id}` });
    expect(one.text).toContain('<dt>Status</dt><dd>skipped: no longer to be sent');
    // And a row the worker marked skipped reads the same.
    await t.db.execute(sql`update mail_outbox set status = 'skipped', payload = null, recipient = null where id = ${row.id}`);
    const marked = cellOf((await browser.request({ method: 'GET', url: '/checkout/demo/outbox' })).text);
    expect(marked).toContain('<td>skipped: no longer to be sent');
    expect(marked).toContain('(not to be sent any more)');
  });

  it('does not exist in production: every path of it answers 404', async () => {
    const app = Fastify();
    await app.register(async (scope) => demoOutboxPages(scope, { db: t.db, render: async () => ({ subject: 's', text: 't', html: 'h' }), demo: false, from: MAIL_FROM, sending: true }));
    try {
      const [row] = await rows<{ id: number }>(t.db, sql`select id from mail_outbox order by id limit 1`);
      for (const url of ['/checkout/demo/outbox', `/checkout/demo/outbox/${row?.id}`, `/checkout/demo/outbox/${row?.id}/html`]) {
        const answer = await app.inject({ method: 'GET', url });
        expect(answer.statusCode, url).toBe(404);
        expect(answer.json(), url).toEqual({ error: { code: 'not_found', message: `No route GET ${url}.` } });
      }
    } finally {
      await app.close();
    }
  });
});
