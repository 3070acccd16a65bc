import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../src/server/db/schema';
import { BASIC_ORDER, Browser, DEMO_ACCOUNTS, createTestApp, freshEmail, guest, loggedIn, paymentIdOf, payOnSandbox, placeOrder, type TestApp } from './helper';

/** Peers in 10.0.0.0/8 are the trusted proxies of these tests (TRUST_PROXY); 203.0.113.0/24 is the open internet. */
const PROXY = '10.9.9.9';
const OUTSIDER = '203.0.113.5';

describe('behind a proxy: only a trusted proxy is believed', () => {
  let byAddress: TestApp;
  let byHops: TestApp;
  beforeAll(async () => {
    const rules = { COUNTRY_HEADER: 'CF-IPCountry', FRAUD_BLOCKED_IPS: '198.51.100.7' };
    byAddress = await createTestApp({ ...rules, TRUST_PROXY: '10.0.0.0/8' });
    byHops = await createTestApp({ ...rules, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await byAddress?.close();
    await byHops?.close();
  });

  /** The address the fraud rules saw: 198.51.100.7 is blocked, so valid false means the client was taken to be it. */
  const seenAsBlocked = async (t: TestApp, peer: string, forwardedFor: string) =>
    (await new Browser(t.app, peer).call('checkFraud', { headers: { 'x-forwarded-for': forwardedFor } })).body.valid === false;

  it('the client IP is the first untrusted hop from the right: a hop the client wrote itself is not believed', async () => {
    expect(await seenAsBlocked(byAddress, PROXY, '198.51.100.7')).toBe(true);
    expect(await seenAsBlocked(byAddress, PROXY, '198.51.100.7, 10.2.2.2')).toBe(true);
    // A client at 203.0.113.77 that writes the blocked address itself is seen as 203.0.113.77.
    expect(await seenAsBlocked(byAddress, PROXY, '198.51.100.7, 203.0.113.77')).toBe(false);
    // The client wrote 6.6.6.6; the proxy appended the real address it saw.
    expect(await seenAsBlocked(byAddress, PROXY, '6.6.6.6, 198.51.100.7')).toBe(true);
  });

  it('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    expect(await seenAsBlocked(byAddress, OUTSIDER, '198.51.100.7')).toBe(false);
    expect(await seenAsBlocked(byAddress, '198.51.100.7', '203.0.113.9')).toBe(true);
  });

  it('a hop count trusts that many proxies nearest the server, no more', async () => {
    expect(await seenAsBlocked(byHops, PROXY, '6.6.6.6, 198.51.100.7')).toBe(true);
    expect(await seenAsBlocked(byHops, PROXY, '198.51.100.7, 6.6.6.6')).toBe(false);
  });

  it('COUNTRY_HEADER is read from a trusted proxy only: a client that writes it gets the default country', async () => {
    const viaProxy = await new Browser(byAddress.app, PROXY).call('getCurrency', { headers: { 'cf-ipcountry': 'GB' } });
    expect(viaProxy.body).toEqual({ country: 'GB', currency: 'GBP' });
    const direct = await new Browser(byAddress.app, OUTSIDER).call('getCurrency', { headers: { 'cf-ipcountry': 'GB' } });
    expect(direct.body).toEqual({ country: 'MA', currency: 'EUR' });
  });

  it('https from a trusted proxy makes the session cookie Secure and turns HSTS on; from anyone else neither', async () => {
    const viaProxy = await new Browser(byAddress.app, PROXY).call('authMiddleware', { body: { email: freshEmail() }, headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.cookies.find((cookie) => cookie.name === 'tvc_session')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000');

    const spoofed = await new Browser(byAddress.app, OUTSIDER).call('authMiddleware', { body: { email: freshEmail() }, headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.cookies.find((cookie) => cookie.name === 'tvc_session')?.secure).toBeFalsy();
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();

    const plain = await new Browser(byAddress.app, PROXY).call('getCurrency');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('answers with credentials or personal data are not stored; logs carry none of it', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({}, { logStream });
  });
  afterAll(async () => t?.close());

  it('credentials, sessions and order or invoice status are sent with Cache-Control: no-store', async () => {
    const demo = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    const [demoService] = await t.db.select().from(services).where(eq(services.clientId, demo.userid));
    const [resellerService] = await t.db.select().from(services).where(eq(services.clientId, reseller.userid));
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    const answers = {
      getClientProducts: await demo.call('getClientProducts', { query: { serviceid: String(demoService?.id) } }),
      getResellerProducts: await reseller.call('getResellerProducts', { query: { serviceid: String(resellerService?.id) } }),
      getActiveProducts: await demo.call('getActiveProducts'),
      getSession: await demo.call('getSession'),
      getOrderStatus: await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } }),
      getInvoiceStatus: await shopper.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } }),
      refused: await new Browser(t.app).call('getClientProducts', { query: { serviceid: String(demoService?.id) } }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['cache-control'], name).toBe('no-store');
    }
    expect(answers.getClientProducts.status).toBe(200);
    expect(answers.refused.status).toBe(401);
  });

  it('an order, an invoice of extra connections, a payment link and a reseller check are sent with Cache-Control: no-store', async () => {
    const demo = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const [demoService] = await t.db.select().from(services).where(eq(services.clientId, demo.userid));
    const shopper = await guest(t.app);
    const order = await shopper.call('order', { body: BASIC_ORDER });
    const { orderid, invoiceid } = order.body;
    const answers = {
      order,
      resumeOrder: await shopper.call('resumeOrder', { query: { orderid: String(orderid) } }),
      offshore: await shopper.call('offshore', { body: { invoiceid, paymentmethod: 'sandbox', amount: BASIC_ORDER.amount, currency: 'EUR' } }),
      coinbase: await shopper.call('coinbase', { body: { invoiceid, paymentmethod: 'sandboxcrypto', amount: BASIC_ORDER.amount, currency: 'EUR' } }),
      // One extra connection on the demo client's 1 Month plan: 4 EUR.
      addInvoice: await demo.call('addInvoice', { body: { serviceId: demoService?.id ?? 0, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } }),
      isReseller: await demo.call('isReseller'),
    };
    expect(order.status, order.text).toBe(200);
    expect(answers.addInvoice.status, answers.addInvoice.text).toBe(200);
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['cache-control'], name).toBe('no-store');
    }
  });

  it('a whole purchase logs no e-mail, password, session cookie or payment-link id', async () => {
    lines.length = 0;
    const email = freshEmail('private');
    const shopper = new Browser(t.app);
    await shopper.request({ method: 'GET', url: `/checkout/?email=${encodeURIComponent(email)}&promocode=WELCOME10&pid=1` });
    expect((await shopper.call('authMiddleware', { body: { email } })).status).toBe(200);
    const order = await placeOrder(shopper);
    const paymentId = paymentIdOf(order.link);
    await payOnSandbox(t.app, order.link);
    const credentials = await shopper.call('getClientProducts', { query: { serviceid: String(order.serviceids[0]) } });
    expect(credentials.status, credentials.text).toBe(200);
    const servicePassword = String((credentials.body as { password?: string }).password);
    expect(servicePassword).toMatch(/^\d{12}$/);
    await new Browser(t.app).call('auth', { body: DEMO_ACCOUNTS.client });
    await new Browser(t.app).call('auth', { body: { email, password: 'a-wrong-password-9' } });
    const session = shopper.cookies.get('tvc_session');
    expect(session).toBeTruthy();

    expect(lines.length).toBeGreaterThanOrEqual(16);
    const secrets = [email, encodeURIComponent(email), paymentId, servicePassword, DEMO_ACCOUNTS.client.password, DEMO_ACCOUNTS.client.email, 'a-wrong-password-9', String(session)];
    for (const line of lines) {
      for (const secret of secrets) expect(line, `a log line carries ${secret}`).not.toContain(secret);
      expect(line).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    }
    // The redacted routes are still there to read.
    expect(lines.some((line) => line.includes('/checkout/sandbox/pay/[redacted]'))).toBe(true);
    expect(lines.some((line) => line.includes('/checkout/?[redacted]'))).toBe(true);
  });
});
