/**
 * The real gateways against fakes of their providers over real HTTP: Coinbase Business (Checkouts API,
 * CDP JWT, X-Hook0-Signature webhooks) and the hostedlink card processor (signed link, signed callback).
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { CoinbaseFake } from '../support/providers/coinbase-fake';
import { HostedlinkFake } from '../support/providers/hostedlink-fake';
import { cdpTestKey } from '../support/providers/keys';
import { BILLING_UNDER_TEST, Browser, countRows, createTestApp, guest, placeOrder, rows, storeSnapshot, type TestApp } from './helper';

const COINBASE_WEBHOOK_SECRET = 'test-coinbase-webhook-secret';
const HOSTEDLINK_SECRET = 'test-hostedlink-secret';
const key = cdpTestKey('ed25519');
const now = () => Math.floor(Date.now() / 1000);

let coinbase: CoinbaseFake;
let hostedlink: HostedlinkFake;
let t: TestApp;

beforeAll(async () => {
  coinbase = await new CoinbaseFake({ keyId: key.keyId, publicKey: key.publicKey, webhookSecrets: [COINBASE_WEBHOOK_SECRET] }).start();
  hostedlink = await new HostedlinkFake({ secret: HOSTEDLINK_SECRET }).start();
  t = await createTestApp({
    GATEWAYS: 'coinbase-hostedlink', RATE_LIMIT: 'off',
    COINBASE_API_URL: coinbase.apiUrl, COINBASE_API_KEY_ID: key.keyId, COINBASE_API_KEY_SECRET: key.secret, COINBASE_WEBHOOK_SECRET,
    HOSTEDLINK_URL: hostedlink.payUrl, HOSTEDLINK_SECRET, HOSTEDLINK_NAME: 'Card (hosted)', HOSTEDLINK_CURRENCIES: 'EUR',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  coinbase.setWebhookUrl(`${origin}/checkout/api/webhooks/coinbase`);
  hostedlink.setCallbackUrl(`${origin}/checkout/api/webhooks/hostedlink`);
});

afterAll(async () => {
  await t?.close();
  await coinbase?.stop();
  await hostedlink?.stop();
});

const invoiceStatus = async (invoiceId: number) => (await rows<{ status: string }>(t.db, sql`select status from invoices where id = ${invoiceId}`))[0]?.status;
const paymentStatus = async (invoiceId: number) => (await rows<{ status: string }>(t.db, sql`select status from payments where invoice_id = ${invoiceId} order by created_at desc limit 1`))[0]?.status;

async function coinbaseOrder(headers: Record<string, string> = {}) {
  const browser = await guest(t.app);
  const order = await placeOrder(browser, { paymentmethod: 'coinbase' }, headers);
  if (!order.link) throw new Error('no link');
  return { browser, order, checkout: coinbase.checkoutOfUrl(order.link) };
}

describe('Coinbase Business checkouts', () => {
  it('an order creates a Checkout with the invoice\'s amount as a decimal string, its currency, the deadline, redirects and metadata', async () => {
    const { order, checkout } = await coinbaseOrder();
    expect(order.link).toBe(`${coinbase.apiUrl.replace('/sandbox', '')}/pay/${checkout.id}`);
    expect(checkout.id).toMatch(/^[0-9a-f]{24}$/);
    // Priced in EUR: Coinbase reads it back in USDC, the price asked for in the fiat fields.
    expect(checkout).toMatchObject({
      fiatAmount: '12.99', fiatCurrency: 'EUR', currency: 'USDC', status: 'ACTIVE', expiresAt: order.deadline,
      successRedirectUrl: 'http://localhost:3000/checkout/waiting', failRedirectUrl: 'http://localhost:3000/checkout/waiting',
      metadata: { invoiceId: String(order.invoiceid), orderId: String(order.orderid), paymentId: expect.stringMatching(/^pay_/) },
    });
    expect(checkout.description).toContain(`#${order.orderid}`);
    const create = coinbase.calls.filter((call) => call.method === 'POST').at(-1);
    expect(create?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a retried order (same Idempotency-Key) gets the same checkout: the same X-Idempotency-Key reaches Coinbase', async () => {
    const browser = await guest(t.app);
    const before = coinbase.checkouts.size;
    const first = await placeOrder(browser, { paymentmethod: 'coinbase' }, { 'idempotency-key': 'retry-coinbase-1' });
    const again = await placeOrder(browser, { paymentmethod: 'coinbase' }, { 'idempotency-key': 'retry-coinbase-1' });
    expect(again.link).toBe(first.link);
    expect(coinbase.checkouts.size).toBe(before + 1);
    const keys = coinbase.calls.filter((call) => call.method === 'POST').slice(-2).map((call) => call.idempotencyKey);
    expect(keys[0]).toBe(keys[1]);
  });

  it('a payment settles only after the checkout is re-read as COMPLETED; its replay changes nothing', async () => {
    const { order, checkout } = await coinbaseOrder();
    const reads = coinbase.calls.filter((call) => call.method === 'GET').length;
    const webhook = await coinbase.pay(checkout.id);
    expect(coinbase.deliveries.at(-1)).toMatchObject({ status: 200 });
    expect(JSON.parse(coinbase.deliveries.at(-1)?.text ?? '{}')).toEqual({ received: true, duplicate: false });
    expect(coinbase.calls.filter((call) => call.method === 'GET').slice(reads)).toEqual([{ method: 'GET', path: `/sandbox/api/v1/checkouts/${checkout.id}`, idempotencyKey: null }]);
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    expect(await countRows(t.db, 'services', sql`order_id = ${order.orderid} and status = 'Active'`)).toBe(1);

    const before = await storeSnapshot(t.db);
    const replay = await coinbase.send(webhook);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.text)).toEqual({ received: true, duplicate: true });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  describe('X-Hook0-Signature', () => {
    it.each([
      ['signed with another secret', () => ({ secrets: ['not-the-secret'] }), 'invalid_signature'],
      ['signed 301 s ago', () => ({ t: now() - 301 }), 'stale_timestamp'],
      ['signed 303 s in the future (2 s for the delivery to arrive)', () => ({ t: now() + 303 }), 'stale_timestamp'],
    ])('a webhook %s is refused with 400 and changes nothing', async (_name, signingNow, code) => {
      const { order, checkout } = await coinbaseOrder();
      const webhook = await coinbase.pay(checkout.id, { notify: false });
      const before = await storeSnapshot(t.db);
      const delivery = await coinbase.send(webhook, signingNow());
      expect(delivery.status).toBe(400);
      expect(JSON.parse(delivery.text)).toEqual({ error: { code, message: expect.any(String) } });
      expect(await storeSnapshot(t.db)).toEqual(before);
      expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
    });

    it('a webhook whose body was changed after signing is refused', async () => {
      const { checkout } = await coinbaseOrder();
      const webhook = await coinbase.pay(checkout.id, { notify: false });
      const signedFor = { ...webhook };
      const { signHook0 } = await import('../../src/server/payments/coinbase/signature');
      const headers = { 'content-type': 'application/json', 'x-event-id': webhook.eventId, 'x-event-type': webhook.eventType };
      const signature = signHook0(COINBASE_WEBHOOK_SECRET, signedFor.rawBody, headers);
      const answer = await new Browser(t.app).request({
        method: 'POST', url: '/checkout/api/webhooks/coinbase', headers: { ...headers, 'x-hook0-signature': signature }, payload: webhook.rawBody.replace('"12.99"', '"0.01"'),
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: { code: 'invalid_signature', message: expect.any(String) } });
    });

    it('a webhook signed 290 s ago with a rotated secret (two v1, the second ours) is accepted', async () => {
      const { order, checkout } = await coinbaseOrder();
      const webhook = await coinbase.pay(checkout.id, { notify: false });
      const delivery = await coinbase.send(webhook, { t: now() - 290, secrets: ['the-next-secret', COINBASE_WEBHOOK_SECRET] });
      expect(delivery.status).toBe(200);
      expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    });
  });

  it('out of order: a failed or expired event after the success changes nothing', async () => {
    const { order, checkout } = await coinbaseOrder();
    const failed = coinbase.webhook(checkout.id, 'checkout.payment.failed');
    const expired = coinbase.webhook(checkout.id, 'checkout.payment.expired');
    await coinbase.pay(checkout.id);
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    const before = await storeSnapshot(t.db);
    for (const late of [failed, expired]) {
      const delivery = await coinbase.send(late);
      expect(delivery.status).toBe(200);
    }
    const after = await storeSnapshot(t.db);
    // Only the webhook_events bookkeeping may grow; nothing about the invoice, order, payment or services moves.
    expect({ ...after, webhook_events: null }).toEqual({ ...before, webhook_events: null });
    expect(await paymentStatus(order.invoiceid)).toBe('Paid');
  });

  describe('priced in fiat: Coinbase reads the checkout back in USDC with the price in fiatAmount/fiatCurrency', () => {
    // WHMCS bills a client in one currency (this guest's is EUR, and a GBP order is refused as currency_not_offered): GBP is read back on the local billing.
    const FIAT_CASES = [
      ['EUR', 12.99, { fiatAmount: '12.99', fiatCurrency: 'EUR' }],
      ['GBP', 10.99, { fiatAmount: '10.99', fiatCurrency: 'GBP' }],
    ] as const;
    it.each(FIAT_CASES.filter(([currency]) => BILLING_UNDER_TEST === 'local' || currency === 'EUR'))('an order in %s is paid against the fiat price: no currency_mismatch exception', async (currency, amount, fiat) => {
      const browser = await guest(t.app);
      const order = await placeOrder(browser, { paymentmethod: 'coinbase', currency, amount });
      const checkout = coinbase.checkoutOfUrl(order.link ?? '');
      expect(checkout).toMatchObject({ ...fiat, currency: 'USDC' });
      expect(checkout.amount).not.toBe(fiat.fiatAmount);
      await coinbase.pay(checkout.id);
      expect(coinbase.deliveries.at(-1)?.status).toBe(200);
      expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
      expect(await rows(t.db, sql`select reason from payment_exceptions where invoice_id = ${order.invoiceid}`)).toEqual([]);
    });
  });

  it('checkout.payment.expired before our deadline expires the link: the waiting page is told Expired, and a new link may be made', async () => {
    const { browser, order, checkout } = await coinbaseOrder();
    await coinbase.expire(checkout.id);
    expect(coinbase.deliveries.at(-1)?.status).toBe(200);
    expect(await paymentStatus(order.invoiceid)).toBe('Open');
    const status = await browser.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.body.payment).toEqual({ status: 'Expired', gateway: 'coinbase' });
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
    const renewed = await browser.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'coinbase', amount: order.amount, currency: order.currency } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(coinbase.checkoutOfUrl(renewed.body.link).id).not.toBe(checkout.id);
  });

  it('a second success with a new event id for a paid checkout is a payment exception (invoice_paid); the same event id again stays a duplicate', async () => {
    const { order, checkout } = await coinbaseOrder();
    const first = await coinbase.pay(checkout.id);
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    const again = coinbase.webhook(checkout.id, 'checkout.payment.success');
    expect(again.eventId).not.toBe(first.eventId);
    const delivery = await coinbase.send(again);
    expect(JSON.parse(delivery.text)).toEqual({ received: true, duplicate: false });
    expect(await rows(t.db, sql`select event_id, reason, amount_cents, currency from payment_exceptions where invoice_id = ${order.invoiceid}`))
      .toEqual([{ event_id: `coinbase:${again.eventId}`, reason: 'invoice_paid', amount_cents: 1299, currency: 'EUR' }]);
    const before = await storeSnapshot(t.db);
    expect(JSON.parse((await coinbase.send(first)).text)).toEqual({ received: true, duplicate: true });
    expect(JSON.parse((await coinbase.send(again)).text)).toEqual({ received: true, duplicate: true });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('a failed payment declines the link and leaves the invoice unpaid', async () => {
    const { order, checkout } = await coinbaseOrder();
    await coinbase.fail(checkout.id);
    expect(await paymentStatus(order.invoiceid)).toBe('Declined');
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
  });

  it('money seen but not final (PROCESSING) is not settled: 503 so Coinbase retries, and the retry settles once COMPLETED', async () => {
    const { order, checkout } = await coinbaseOrder();
    coinbase.holdPayments = true;
    try {
      const webhook = await coinbase.pay(checkout.id);
      const delivery = coinbase.deliveries.at(-1);
      expect(delivery?.status).toBe(503);
      expect(JSON.parse(delivery?.text ?? '{}')).toEqual({ error: { code: 'payment_confirming', message: expect.any(String) } });
      expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
      // The waiting page reads it as "Payment received, confirming".
      expect(await paymentStatus(order.invoiceid)).toBe('Confirming');
      coinbase.complete(checkout.id);
      const retried = await coinbase.send(webhook);
      expect(retried.status).toBe(200);
      expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    } finally {
      coinbase.holdPayments = false;
    }
  });

  it('a success the API does not confirm (the checkout is still ACTIVE) settles nothing', async () => {
    const { order, checkout } = await coinbaseOrder();
    const forged = coinbase.webhook(checkout.id, 'checkout.payment.success');
    const body = JSON.parse(forged.rawBody);
    const delivery = await coinbase.send({ ...forged, rawBody: JSON.stringify({ ...body, status: 'COMPLETED' }) });
    expect(delivery.status).toBe(200);
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
  });

  it('a payment after the link expired is a payment exception, and activates nothing', async () => {
    const { order, checkout } = await coinbaseOrder();
    await t.db.execute(sql`update payments set expires_at = now() - interval '1 minute' where invoice_id = ${order.invoiceid}`);
    const webhook = await coinbase.pay(checkout.id);
    expect(coinbase.deliveries.at(-1)?.status).toBe(200);
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
    const exceptions = await rows(t.db, sql`select gateway, event_id, reason, amount_cents, currency from payment_exceptions where invoice_id = ${order.invoiceid}`);
    expect(exceptions).toEqual([{ gateway: 'coinbase', event_id: `coinbase:${webhook.eventId}`, reason: 'link_expired', amount_cents: 1299, currency: 'EUR' }]);
  });

  it('a refund or an event type Coinbase adds later is acknowledged and applies nothing', async () => {
    const { order, checkout } = await coinbaseOrder();
    const before = await storeSnapshot(t.db);
    for (const eventType of ['checkout.refund.success', 'checkout.payment.someday']) {
      const webhook = coinbase.webhook(checkout.id, 'checkout.payment.success');
      const delivery = await coinbase.send({ ...webhook, eventType: eventType as never, rawBody: JSON.stringify({ ...JSON.parse(webhook.rawBody), eventType }) });
      expect(delivery.status).toBe(200);
      expect(JSON.parse(delivery.text)).toEqual({ received: true, duplicate: false });
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
  });

  it('an amount that is not a decimal string is refused with 400', async () => {
    const { checkout } = await coinbaseOrder();
    const webhook = coinbase.webhook(checkout.id, 'checkout.payment.success');
    const delivery = await coinbase.send({ ...webhook, rawBody: JSON.stringify({ ...JSON.parse(webhook.rawBody), amount: 12.99 }) });
    expect(delivery.status).toBe(400);
    expect(JSON.parse(delivery.text)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });
});

describe('the Coinbase fake checks the CDP JWT as documented', () => {
  const apiPath = () => `${coinbase.apiUrl}/api/v1/checkouts`;
  const body = () => JSON.stringify({ amount: '1.00', currency: 'EUR', expiresAt: new Date(Date.now() + 60_000).toISOString() });
  const host = () => new URL(coinbase.apiUrl).host;
  const token = (claims: Record<string, unknown>, header: Record<string, unknown> = {}, signWith: Parameters<SignJWT['sign']>[0] = privateKeyOf()) =>
    new SignJWT({ iss: 'cdp', sub: key.keyId, nbf: now(), exp: now() + 120, uris: [`POST ${host()}/sandbox/api/v1/checkouts`], ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.keyId, nonce: 'a1b2c3d4e5f6a7b8c9d0', typ: 'JWT', ...header }).sign(signWith);
  const privateKeyOf = () => {
    const bytes = Buffer.from(key.secret, 'base64');
    return { type: 'private', d: bytes.subarray(0, 32).toString('base64url'), x: bytes.subarray(32).toString('base64url'), kty: 'OKP', crv: 'Ed25519' } as never;
  };
  const post = async (jwt: string) => {
    const answer = await fetch(apiPath(), { method: 'POST', headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() }, body: body() });
    return { status: answer.status, body: await answer.json() as Record<string, unknown> };
  };

  it('accepts a JWT built as the docs say', async () => {
    const { createPrivateKey } = await import('node:crypto');
    const jwt = await token({}, {}, createPrivateKey({ format: 'jwk', key: privateKeyOf() }));
    expect((await post(jwt)).status).toBe(201);
  });

  it.each([
    ['iss is not "cdp"', { iss: 'coinbase-cloud' }, {}],
    ['sub is not the key id', { sub: 'another-key' }, {}],
    ['uris names another request', { uris: [`GET ${'business.coinbase.com'}/api/v1/checkouts`] }, {}],
    ['it lives longer than 120 s', { exp: now() + 600 }, {}],
    ['it expired', { nbf: now() - 300, exp: now() - 180 }, {}],
    ['kid is not the key id', {}, { kid: 'another-key' }],
    ['it has no nonce', {}, { nonce: undefined }],
  ])('refuses with 401 in the CDP error shape when %s', async (_name, claims, header) => {
    const { createPrivateKey } = await import('node:crypto');
    const jwt = await token(claims, header, createPrivateKey({ format: 'jwk', key: privateKeyOf() }));
    const answer = await post(jwt);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ errorType: 'unauthorized', errorMessage: expect.any(String) });
  });

  it('refuses a JWT signed with another key', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    expect((await post(await token({}, {}, privateKey))).status).toBe(401);
  });

  it('an order whose CDP key Coinbase refuses is answered 503 gateway_unavailable', async () => {
    const other = cdpTestKey('ec', 'organizations/test-org/apiKeys/unknown');
    const lines: string[] = [];
    const refused = await createTestApp({
      GATEWAYS: 'coinbase', RATE_LIMIT: 'off', COINBASE_API_URL: coinbase.apiUrl, COINBASE_API_KEY_ID: other.keyId, COINBASE_API_KEY_SECRET: other.secret, COINBASE_WEBHOOK_SECRET,
    }, { logStream: { write: (line) => lines.push(line) } });
    try {
      const browser = await guest(refused.app);
      const answer = await browser.call('order', { body: { pid: 1, paymentmethod: 'coinbase', amount: 12.99, currency: 'EUR' } });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: { code: 'gateway_unavailable', message: expect.any(String) } });
      expect(coinbase.refusals.at(-1)).toMatchObject({ status: 401, errorType: 'unauthorized' });
      // The operator reads why; the log names no payment link.
      const warning = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'payment provider unavailable: no link made');
      expect(warning).toMatchObject({ level: 40, gateway: 'coinbase', reason: expect.stringContaining('401') });
      expect(lines.join('\n')).not.toMatch(/pay_[A-Za-z0-9_-]{16}/);
    } finally {
      await refused.close();
    }
  });

  it('an EC (ES256) CDP key signs too', async () => {
    const ec = cdpTestKey('ec');
    const ecFake = await new CoinbaseFake({ keyId: ec.keyId, publicKey: ec.publicKey, webhookSecrets: [COINBASE_WEBHOOK_SECRET] }).start();
    const app = await createTestApp({ GATEWAYS: 'coinbase', RATE_LIMIT: 'off', COINBASE_API_URL: ecFake.apiUrl, COINBASE_API_KEY_ID: ec.keyId, COINBASE_API_KEY_SECRET: ec.secret, COINBASE_WEBHOOK_SECRET });
    try {
      const order = await placeOrder(await guest(app.app), { paymentmethod: 'coinbase' });
      expect(ecFake.checkoutOfUrl(order.link ?? '').fiatAmount).toBe('12.99');
      expect(ecFake.refusals).toEqual([]);
    } finally {
      await app.close();
      await ecFake.stop();
    }
  });
});

describe('hostedlink', () => {
  async function hostedOrder() {
    const browser = await guest(t.app);
    const order = await placeOrder(browser, { paymentmethod: 'hostedlink' });
    if (!order.link) throw new Error('no link');
    return { browser, order, link: new URL(order.link) };
  }
  const fieldsOf = (link: URL) => {
    const checked = hostedlink.check(link.searchParams);
    if (!checked.ok) throw new Error(checked.why);
    return checked.link;
  };
  const openPage = async (url: URL | string) => fetch(url, { redirect: 'manual' });
  const submit = async (link: URL, decision: 'pay' | 'decline') => {
    const form = new URLSearchParams(link.searchParams);
    form.set('decision', decision);
    return fetch(hostedlink.payUrl, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  };

  it('the link carries invoice, ref, amount as a decimal string, currency, return URL and expiry, signed; the processor accepts it', async () => {
    const { order, link } = await hostedOrder();
    expect(`${link.origin}${link.pathname}`).toBe(hostedlink.payUrl);
    expect([...link.searchParams.keys()]).toEqual(['invoice', 'ref', 'amount', 'currency', 'return', 'expires', 'sig']);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      invoice: String(order.invoiceid), amount: '12.99', currency: 'EUR', return: 'http://localhost:3000/checkout/waiting',
      expires: String(Math.floor(Date.parse(order.deadline ?? '') / 1000)), sig: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const page = await openPage(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('12.99 EUR');
  });

  it('a link whose amount was changed is refused by the processor', async () => {
    const { link } = await hostedOrder();
    link.searchParams.set('amount', '0.01');
    expect((await openPage(link)).status).toBe(403);
  });

  it('Pay on the hosted page calls back signed, the invoice is paid, and the shopper returns to the waiting page', async () => {
    const { order, link } = await hostedOrder();
    const paid = await submit(link, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://localhost:3000/checkout/waiting');
    expect(hostedlink.deliveries.at(-1)?.status).toBe(200);
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');

    const before = await storeSnapshot(t.db);
    const replay = await hostedlink.send(hostedlink.deliveries.at(-1)?.callback ?? ({} as never));
    expect(JSON.parse(replay.text)).toEqual({ received: true, duplicate: true });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('a second "paid" callback with a new id for a paid link is a second charge: a payment exception (invoice_paid) to refund; the same id again is a duplicate', async () => {
    const { order, link } = await hostedOrder();
    await submit(link, 'pay');
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
    const first = hostedlink.deliveries.at(-1)?.callback;
    const second = hostedlink.callbackFor(fieldsOf(link), 'paid');
    expect(second.id).not.toBe(first?.id);
    const services = await countRows(t.db, 'services', sql`order_id = ${order.orderid} and status = 'Active'`);
    const delivery = await hostedlink.send(second);
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.text)).toEqual({ received: true, duplicate: false });
    expect(await rows(t.db, sql`select gateway, event_id, event_type, reason, amount_cents, currency from payment_exceptions where invoice_id = ${order.invoiceid}`))
      .toEqual([{ gateway: 'hostedlink', event_id: second.id, event_type: 'payment.succeeded', reason: 'invoice_paid', amount_cents: 1299, currency: 'EUR' }]);
    expect(await countRows(t.db, 'services', sql`order_id = ${order.orderid} and status = 'Active'`)).toBe(services);
    const before = await storeSnapshot(t.db);
    expect(JSON.parse((await hostedlink.send(second)).text)).toEqual({ received: true, duplicate: true });
    expect(JSON.parse((await hostedlink.send(first ?? second)).text)).toEqual({ received: true, duplicate: true });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('Decline declines the link and the invoice stays unpaid; a payment then still settles it', async () => {
    const { order, link } = await hostedOrder();
    await submit(link, 'decline');
    expect(await paymentStatus(order.invoiceid)).toBe('Declined');
    await submit(link, 'pay');
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
  });

  it.each([
    ['signed with another secret', () => ({ secrets: ['not-the-secret'] }), 'invalid_signature'],
    ['signed 301 s ago', () => ({ t: now() - 301 }), 'stale_timestamp'],
    ['signed 303 s in the future (2 s for the delivery to arrive)', () => ({ t: now() + 303 }), 'stale_timestamp'],
  ])('a callback %s is refused with 400 and changes nothing', async (_name, signingNow, code) => {
    const { order, link } = await hostedOrder();
    const before = await storeSnapshot(t.db);
    const delivery = await hostedlink.send(hostedlink.callbackFor(fieldsOf(link), 'paid'), signingNow());
    expect(delivery.status).toBe(400);
    expect(JSON.parse(delivery.text)).toEqual({ error: { code, message: expect.any(String) } });
    expect(await storeSnapshot(t.db)).toEqual(before);
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
  });

  it('a callback signed with a rotated secret (two v1, the second ours) is accepted', async () => {
    const { order, link } = await hostedOrder();
    const delivery = await hostedlink.send(hostedlink.callbackFor(fieldsOf(link), 'paid'), { secrets: ['next-secret', HOSTEDLINK_SECRET] });
    expect(delivery.status).toBe(200);
    expect(await invoiceStatus(order.invoiceid)).toBe('Paid');
  });

  it('a callback for another amount than signed for is refused; for another amount than due it is a payment exception', async () => {
    const { order, link } = await hostedOrder();
    const callback = hostedlink.callbackFor(fieldsOf(link), 'paid');
    const { signCallback } = await import('../../src/server/payments/hostedlink/canonical');
    const tampered = await new Browser(t.app).request({
      method: 'POST', url: '/checkout/api/webhooks/hostedlink', headers: { 'content-type': 'application/json', 'webhook-signature': signCallback(HOSTEDLINK_SECRET, callback) },
      payload: JSON.stringify({ ...callback, amount: '0.01' }),
    });
    expect(tampered.status).toBe(400);
    const underpaid = await hostedlink.send({ ...callback, amount: '0.01' });
    expect(underpaid.status).toBe(200);
    expect(await invoiceStatus(order.invoiceid)).toBe('Unpaid');
    expect(await rows(t.db, sql`select reason, amount_cents from payment_exceptions where event_id = ${callback.id}`)).toEqual([{ reason: 'amount_mismatch', amount_cents: 1 }]);
  });

  it('a currency the processor does not take: GBP orders cannot use it, and the gateway list for GBP leaves it out', async () => {
    const browser = await guest(t.app);
    const before = await storeSnapshot(t.db);
    const refused = await browser.call('order', { body: { pid: 1, paymentmethod: 'hostedlink', amount: 10.99, currency: 'GBP' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: { code: 'currency_not_accepted', message: expect.stringContaining('GBP') } });
    const after = await storeSnapshot(t.db);
    expect({ ...after, sessions: null, clients: null }).toEqual({ ...before, sessions: null, clients: null });
    const forGbp = await browser.call('getGateway', { query: { currency: 'GBP' } });
    expect(forGbp.body).toEqual({
      paymentmethods: { paymentmethod: [{ module: 'coinbase', displayname: 'Crypto (Coinbase)', type: 'Cryptocurrency', currencies: ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] }] },
      defaultGateway: 'coinbase',
    });
    const all = await browser.call('getGateway');
    expect(all.body.paymentmethods.paymentmethod.map((gateway) => [gateway.module, gateway.displayname, gateway.currencies])).toEqual([
      ['coinbase', 'Crypto (Coinbase)', ['USD', 'EUR', 'SGD', 'GBP', 'USDC']], ['hostedlink', 'Card (hosted)', ['EUR']],
    ]);
  });
});
