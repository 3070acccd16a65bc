import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from './contract';
import {
  BASIC_ORDER, Browser, createTestApp, deliverWebhook, DEMO_ACCOUNTS, freshEmail, loggedIn, paymentEvent, paymentIdOf, placeOrder, storeSnapshot, webhookSecret,
  type Answer, type OrderResponse, type TestApp,
} from './helper';
import { services } from '../../src/server/db/schema';
import { eq } from 'drizzle-orm';

/**
 * Hardening item 2: a state-changing call posted by a page of another site is refused with 403 in the error shape
 * and writes nothing. The test servers' public origin (PUBLIC_URL) is http://localhost:3000.
 */
const SHOP = 'http://localhost:3000';
const EVIL = 'https://evil.example';

/** POSTs of the contract not posted by the shop's pages: the providers' webhooks and the sign-in link's own form (tested below). */
const NOT_GUARDED = ['paymentWebhook', 'useSignInLink'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type Input = { body: unknown; headers?: Record<string, string> };

describe('every state-changing operation refuses a cross-site post', () => {
  let demo: Awaited<ReturnType<typeof loggedIn>>;
  let pending: OrderResponse;
  let serviceid: number;
  const posts = operations.filter((op) => op.method === 'POST');
  const guarded = posts.filter((op) => !NOT_GUARDED.includes(op.operationId));

  /** A request each operation would carry out for the demo client (the shop's own page would send these). */
  const valid = (operationId: string): Input => {
    const inputs: Record<string, Input> = {
      auth: { body: DEMO_ACCOUNTS.client },
      authMiddleware: { body: { email: freshEmail() } },
      resellerAuth: { body: { email: freshEmail('reseller'), password: 'pw-1234567890', existingReseller: false } },
      newAffiliateClick: { body: { aff_id: 'partner_42', referer: 'https://partner.test/deals' } },
      order: { body: BASIC_ORDER, headers: { 'idempotency-key': `cross-site-${Math.random()}` } },
      fraudOrder: { body: { orderid: pending.orderid } },
      cancelOrder: { body: { orderid: pending.orderid } },
      updateClientProduct: { body: { serviceid, notes: 'Living-room box' } },
      moduleTerminate: { body: { serviceid } },
      moduleCreate: { body: { serviceid } },
      restartService: { body: { serviceid } },
      updateMacAddress: { body: { serviceid, macAddress: '00:1A:79:12:34:56' } },
      addInvoice: { body: { serviceId: serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' }, headers: { 'idempotency-key': `cross-site-${Math.random()}` } },
      offshore: { body: { invoiceid: pending.invoiceid, paymentmethod: 'sandbox', amount: pending.amount, currency: pending.currency } },
      coinbase: { body: { invoiceid: pending.invoiceid, paymentmethod: 'sandboxcrypto', amount: pending.amount, currency: pending.currency } },
      signOut: { body: {} },
      signInLink: { body: { email: DEMO_ACCOUNTS.client.email } },
      reportFlowEvents: { body: { locale: 'en-en', steps: [{ machine: 'checkout', transitions: [], entered: ['checkout'], exited: [] }], vitals: [], ended: [] } },
    };
    const input = inputs[operationId];
    if (!input) throw new Error(`No request for ${operationId}: a new POST of the contract needs one here`);
    return input;
  };

  const post = (browser: Browser, path: string, input: Input, headers: Record<string, string>): Promise<Answer> =>
    browser.request({ method: 'POST', url: path, json: input.body, headers: { ...input.headers, ...headers } });

  beforeAll(async () => {
    demo = await loggedIn(t.app);
    pending = await placeOrder(demo);
    const [service] = await t.db.select().from(services).where(eq(services.clientId, demo.userid));
    if (!service) throw new Error('The seed has no demo service');
    serviceid = service.id;
  });

  it('covers every POST of the contract', () => {
    expect(posts.map((op) => op.operationId).sort()).toEqual([...guarded.map((op) => op.operationId), ...NOT_GUARDED].sort());
    for (const op of guarded) expect(op.statuses, `${op.operationId} declares its 403`).toContain('403');
  });

  for (const [what, headers] of [
    ['a cross-site Origin', { origin: EVIL }],
    ['Origin null (a sandboxed frame, a data: page)', { origin: 'null' }],
    ['the shop\'s host on another scheme or port', { origin: 'https://localhost:3000' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: cross-site with the shop\'s Origin', { 'sec-fetch-site': 'cross-site', origin: SHOP }],
  ] as const) {
    it(`${what}: 403 cross_site on each, and nothing is written`, async () => {
      const before = await storeSnapshot(t.db);
      for (const op of guarded) {
        const answer = await post(demo, op.path, valid(op.operationId), headers);
        expect(answer.status, `${op.operationId}: ${answer.text}`).toBe(403);
        expect(answer.body).toEqual({ error: { code: 'cross_site', message: 'This request came from another site and was refused.' } });
        expect(answer.cookies, op.operationId).toEqual([]);
      }
      expect(await storeSnapshot(t.db)).toEqual(before);
      // The session was not ended by the refused signOut.
      expect((await demo.call('getSession')).body).toMatchObject({ loggedIn: true });
    });
  }

  it('from the shop\'s own page (its Origin; Sec-Fetch-Site same-origin, same-site or none) or with neither header (curl), none is refused', async () => {
    const variants: Record<string, string>[] = [{ origin: SHOP, 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'none' }, {}];
    for (const headers of variants) {
      demo = await loggedIn(t.app);
      pending = await placeOrder(demo);
      for (const op of guarded) {
        // The calls that begin or end a session go from a browser of their own, so the demo's session stays for the others.
        const browser = ['auth', 'authMiddleware', 'resellerAuth', 'signOut'].includes(op.operationId) ? await loggedIn(t.app) : demo;
        const answer = await post(browser, op.path, valid(op.operationId), headers);
        expect(answer.status, `${op.operationId} ${JSON.stringify(headers)}: ${answer.text}`).not.toBe(403);
        expect(answer.status, `${op.operationId}: ${answer.text}`).toBeLessThan(500);
      }
    }
  });
});

describe('what the guard leaves alone', () => {
  it('a payment webhook carrying browser headers is still verified and applied', async () => {
    const demo = await loggedIn(t.app);
    const order = await placeOrder(demo);
    const event = paymentEvent({ paymentId: paymentIdOf(order.link), invoiceid: order.invoiceid, amount: order.amount, currency: order.currency });
    const provider = new Browser(t.app);
    const { signWebhook } = await import('../../src/server/payments/signature');
    const answer = await provider.request({
      method: 'POST', url: '/checkout/api/webhooks/sandbox', payload: event,
      headers: { 'content-type': 'application/json', 'webhook-signature': signWebhook(webhookSecret('sandbox'), event), origin: 'https://provider.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ received: true, duplicate: false });
    expect((await demo.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).body).toMatchObject({ status: 'Active' });
    // And without them, as providers send it.
    expect((await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') })).body).toEqual({ received: true, duplicate: true });
  });

  it('the sandbox payment page\'s own form post (same-origin) still pays', async () => {
    const demo = await loggedIn(t.app);
    const order = await placeOrder(demo);
    const path = new URL(order.link ?? '').pathname;
    const provider = new Browser(t.app);
    expect((await provider.request({ method: 'GET', url: path })).status).toBe(200);
    const paid = await provider.request({
      method: 'POST', url: path, payload: 'decision=pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SHOP, 'sec-fetch-site': 'same-origin' },
    });
    expect(paid.status, paid.text).toBe(303);
    expect((await demo.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).body).toMatchObject({ status: 'Active' });
  });

  it('the sign-in link\'s button refuses a cross-site post itself, with its page (403, text/html)', async () => {
    const answer = await new Browser(t.app).request({
      method: 'POST', url: '/checkout/api/signIn', payload: 'token=ExampleOnlyTokenNeverIssued_0123456789abcde',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL, 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status).toBe(403);
    expect(String(answer.headers['content-type'])).toMatch(/^text\/html/);
  });
});

describe('behind a trusted proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    // The test browsers connect from 10.x addresses: the proxy's.
    proxied = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(async () => proxied?.close());

  const authMiddleware = (headers: Record<string, string>, app = proxied) =>
    new Browser(app.app).request({ method: 'POST', url: '/checkout/api/authMiddleware', json: { email: freshEmail() }, headers });

  it('the forwarded host is the shop\'s origin too; any other Origin is still refused', async () => {
    const forwarded = { 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' };
    expect((await authMiddleware({ ...forwarded, origin: 'https://shop.example' })).status).toBe(200);
    expect((await authMiddleware({ ...forwarded, origin: SHOP })).status).toBe(200);
    expect((await authMiddleware({ ...forwarded, origin: 'http://shop.example' })).status).toBe(403);
    expect((await authMiddleware({ ...forwarded, origin: EVIL })).status).toBe(403);
  });

  it("a page on the server's own address (Host) is the shop's origin too, as 127.0.0.1 beside a PUBLIC_URL of localhost; another port is not", async () => {
    expect((await authMiddleware({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }, t)).status).toBe(200);
    expect((await authMiddleware({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:4000' }, t)).status).toBe(403);
    expect((await authMiddleware({ host: '127.0.0.1:3000', origin: EVIL }, t)).status).toBe(403);
  });

  it('without a trusted proxy a forwarded host is not believed', async () => {
    const answer = await authMiddleware({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', origin: EVIL }, t);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'cross_site', message: expect.any(String) } });
  });
});
