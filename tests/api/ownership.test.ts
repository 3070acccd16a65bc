import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../src/server/db/schema';
import {
  Browser, createTestApp, DEMO_ACCOUNTS, guest, guestWithOrder, loggedIn, newAccount, payOnSandbox, placeOrder, signInByLink, storeSnapshot, verifiedAccount,
  type Answer, type OrderResponse, type TestApp,
} from './helper';

type Call = (browser: Browser) => Promise<Answer>;

// One store for the first three groups; each test makes its own browsers, so they do not meet.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('every call on an order, invoice or service checks it belongs to the session', () => {
  let owner: Browser;
  let pending: OrderResponse;
  let paid: OrderResponse;
  let demoServiceId: number;
  let demoOrderId: number;

  beforeAll(async () => {
    owner = await guest(t.app);
    pending = await placeOrder(owner);
    paid = await placeOrder(owner);
    await payOnSandbox(t.app, paid.link);
    const demo = await loggedIn(t.app);
    const [service] = await t.db.select().from(services).where(eq(services.clientId, demo.userid));
    if (!service) throw new Error('The seed has no demo service');
    demoServiceId = service.id;
    demoOrderId = service.orderId;
  });

  /** The calls a stranger might try on the owner's things (ids of a pending and a paid order). */
  const callsOnTheOwnersThings = (): [string, Call][] => {
    const pendingService = pending.serviceids[0] as number;
    const paidService = paid.serviceids[0] as number;
    return [
      ['getOrderStatus', (b) => b.call('getOrderStatus', { query: { orderid: String(pending.orderid) } })],
      ['getInvoiceStatus', (b) => b.call('getInvoiceStatus', { query: { invoiceid: String(pending.invoiceid) } })],
      ['cancelOrder', (b) => b.call('cancelOrder', { body: { orderid: pending.orderid } })],
      ['fraudOrder', (b) => b.call('fraudOrder', { body: { orderid: pending.orderid } })],
      ['offshore', (b) => b.call('offshore', { body: { invoiceid: pending.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } })],
      ['coinbase', (b) => b.call('coinbase', { body: { invoiceid: pending.invoiceid, paymentmethod: 'sandboxcrypto', amount: 12.99, currency: 'EUR' } })],
      ['getClientProducts', (b) => b.call('getClientProducts', { query: { serviceid: String(paidService) } })],
      ['updateMacAddress', (b) => b.call('updateMacAddress', { body: { serviceid: paidService, macAddress: '00:1A:79:66:66:66' } })],
      ['updateClientProduct', (b) => b.call('updateClientProduct', { body: { serviceid: paidService, notes: 'mine now' } })],
      ['moduleTerminate', (b) => b.call('moduleTerminate', { body: { serviceid: paidService } })],
      ['moduleCreate', (b) => b.call('moduleCreate', { body: { serviceid: pendingService } })],
      ['restartService', (b) => b.call('restartService', { body: { serviceid: paidService } })],
    ];
  };

  /** Calls that need a signed-in client (password or mailed link): a guest session is 401 before any ownership check. */
  const SIGNED_IN_ONLY = new Set(['updateClientProduct', 'moduleTerminate', 'moduleCreate', 'restartService']);

  const expectForbidden = (name: string, answer: Answer) => {
    expect(answer.status, `${name}: ${answer.text}`).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
  };

  it('another guest gets 403 on each of them (401 where a signed-in client is needed), and nothing changes', async () => {
    const stranger = await guest(t.app);
    const before = await storeSnapshot(t.db);
    for (const [name, call] of callsOnTheOwnersThings()) {
      const answer = await call(stranger);
      if (!SIGNED_IN_ONLY.has(name)) expectForbidden(name, answer);
      else expect([answer.status, answer.body], name).toEqual([401, { error: { code: 'unauthenticated', message: expect.any(String) } }]);
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('another logged-in client gets 403 on each of them, and on addInvoice for a service of another client', async () => {
    const other = await newAccount(t.app);
    const before = await storeSnapshot(t.db);
    for (const [name, call] of callsOnTheOwnersThings()) expectForbidden(name, await call(other));
    expectForbidden('addInvoice', await other.call('addInvoice', { body: { serviceId: paid.serviceids[0] as number, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } }));
    expectForbidden('addInvoice', await other.call('addInvoice', { body: { serviceId: demoServiceId, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } }));
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('a reseller gets 403 on a retail client\'s service and the retail client on the reseller\'s', async () => {
    const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    const demo = await loggedIn(t.app);
    const [resellerService] = await t.db.select().from(services).where(eq(services.clientId, reseller.userid));
    expectForbidden('getClientProducts', await reseller.call('getClientProducts', { query: { serviceid: String(demoServiceId) } }));
    expectForbidden('getResellerProducts', await demo.call('getResellerProducts', { query: { serviceid: String(resellerService?.id) } }));
    expectForbidden('getOrderStatus', await reseller.call('getOrderStatus', { query: { orderid: String(demoOrderId) } }));
  });

  it('without a session each of them is 401', async () => {
    for (const [name, call] of callsOnTheOwnersThings()) {
      const answer = await call(new Browser(t.app));
      expect(answer.status, `${name}: ${answer.text}`).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    }
  });

  it('the owner\'s own browser may do each of them; provisioning and notes once it is signed in', async () => {
    const answers: Record<string, number> = {};
    for (const [name, call] of callsOnTheOwnersThings()) answers[name] = (await call(owner)).status;
    // Each call passed the ownership check; a refusal past it is about state (e.g. a paid service is already set up).
    // A guest session (an e-mail alone) is no proven identity: provisioning and notes answer 401.
    expect(answers).toEqual({
      getOrderStatus: 200, getInvoiceStatus: 200, cancelOrder: 200, fraudOrder: 409, offshore: 409, coinbase: 409, getClientProducts: 200,
      updateMacAddress: 200, updateClientProduct: 401, moduleTerminate: 401, moduleCreate: 401, restartService: 401,
    });
    await signInByLink(t.app, owner, (await t.app.sessions.find(owner.cookies.get('tvc_session') ?? ''))?.clientId ?? 0);
    const signedIn: Record<string, number> = {};
    for (const [name, call] of callsOnTheOwnersThings().filter(([name]) => SIGNED_IN_ONLY.has(name))) signedIn[name] = (await call(owner)).status;
    expect(signedIn).toEqual({ updateClientProduct: 200, moduleTerminate: 200, moduleCreate: 409, restartService: 409 });
  });
});

describe('an invoice of extra connections (no order behind it) is its client\'s alone', () => {
  it('another signed-in client gets 403 on its status and on a new payment link for it, and nothing changes', async () => {
    const owner = await verifiedAccount(t);
    const order = await placeOrder(owner);
    await payOnSandbox(t.app, order.link);
    // One extra connection on the 1 Month plan: 4 EUR (the demo catalogue's monthly price).
    const upsell = await owner.call('addInvoice', { body: { serviceId: order.serviceids[0] as number, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } });
    expect(upsell.status, upsell.text).toBe(200);
    const invoiceid = upsell.body.invoiceid;
    const other = await verifiedAccount(t);
    const before = await storeSnapshot(t.db);
    const answers = {
      getInvoiceStatus: await other.call('getInvoiceStatus', { query: { invoiceid: String(invoiceid) } }),
      offshore: await other.call('offshore', { body: { invoiceid, paymentmethod: 'sandbox', amount: 4, currency: 'EUR' } }),
      coinbase: await other.call('coinbase', { body: { invoiceid, paymentmethod: 'sandboxcrypto', amount: 4, currency: 'EUR' } }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect([answer.status, answer.body], name).toEqual([403, { error: { code: 'forbidden', message: expect.any(String) } }]);
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
    expect((await owner.call('getInvoiceStatus', { query: { invoiceid: String(invoiceid) } })).status).toBe(200);
  });
});

describe('a guest identified by e-mail never sees an existing client\'s services', () => {
  let demoServiceId: number;
  let demoOrderId: number;
  beforeAll(async () => {
    // Read as the demo client reads it (on either backend), not from the store.
    const demo = await loggedIn(t.app);
    const [active] = (await demo.call('getActiveProducts')).body.products;
    if (!active) throw new Error('The seed has no demo service');
    const service = (await demo.call('getClientProducts', { query: { serviceid: String(active.serviceid) } })).body;
    expect(service.username).toBe('TV-10000001');
    demoServiceId = service.serviceid;
    demoOrderId = service.orderid;
  });

  it('a guest giving the demo client\'s e-mail gets 403 on its service and order, and 401 where a login is needed', async () => {
    const impostor = await guest(t.app, DEMO_ACCOUNTS.client.email);
    expect((await impostor.call('getSession')).body).toMatchObject({ loggedIn: false, guest: true, email: DEMO_ACCOUNTS.client.email });
    const service = await impostor.call('getClientProducts', { query: { serviceid: String(demoServiceId) } });
    expect(service.status).toBe(403);
    expect(service.text).not.toContain('TV-10000001');
    expect((await impostor.call('getOrderStatus', { query: { orderid: String(demoOrderId) } })).status).toBe(403);
    expect((await impostor.call('updateMacAddress', { body: { serviceid: demoServiceId, macAddress: '00:1A:79:66:66:66' } })).status).toBe(403);
    expect((await impostor.call('getActiveProducts')).status).toBe(401);
    expect((await impostor.call('isReseller')).status).toBe(401);
    expect((await impostor.call('getResellerProducts', { query: { serviceid: String(demoServiceId) } })).status).toBe(401);
    expect((await impostor.call('addInvoice', { body: { serviceId: demoServiceId, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } })).status).toBe(401);
  });

  it('the demo client after auth sees its own service with its credentials', async () => {
    const demo = await loggedIn(t.app);
    const service = await demo.call('getClientProducts', { query: { serviceid: String(demoServiceId) } });
    expect(service.status).toBe(200);
    expect(service.body).toMatchObject({ serviceid: demoServiceId, username: 'TV-10000001', password: '100000000001', status: 'Active' });
    expect((await demo.call('getActiveProducts')).body.products.map((product) => product.serviceid)).toEqual([demoServiceId]);
  });

  it('the guest who paid sees the credentials in that browser; someone giving the same e-mail elsewhere does not', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link);
    const serviceid = String(order.serviceids[0]);
    expect((await browser.call('getClientProducts', { query: { serviceid } })).body.username).toMatch(/^TV-\d{8}$/);
    const sameEmail = await guest(t.app, (await browser.call('getSession')).body.email ?? '');
    const answer = await sameEmail.call('getClientProducts', { query: { serviceid } });
    expect(answer.status).toBe(403);
    expect((await sameEmail.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).status).toBe(403);
  });

  it('a guest may not change the device address of a service that is not active yet', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const answer = await browser.call('updateMacAddress', { body: { serviceid: order.serviceids[0] as number, macAddress: '00:1A:79:00:00:07' } });
    expect(answer.status).toBe(403);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax and scoped to /checkout (not Secure over plain HTTP)', async () => {
    const browser = new Browser(t.app);
    const answer = await browser.call('auth', { body: DEMO_ACCOUNTS.client });
    const cookie = answer.cookies.find((candidate) => candidate.name === 'tvc_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/checkout' });
    expect(cookie?.secure).toBeFalsy();
    const header = String(answer.headers['set-cookie']);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
  });

  it('a tampered or made-up cookie is no session', async () => {
    const browser = await loggedIn(t.app);
    const value = browser.cookies.get('tvc_session') ?? '';
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const forged = (cookie: string) => {
      const copy = new Browser(t.app);
      copy.cookies.set('tvc_session', cookie);
      return copy;
    };
    const flipped = `${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}`;
    const oldStyle = Buffer.from(JSON.stringify({ clientId: 2, email: DEMO_ACCOUNTS.reseller.email, kind: 'login', orders: [] })).toString('base64url');
    for (const cookie of [flipped, `${value}x`, value.slice(1), oldStyle, 'garbage']) {
      const copy = forged(cookie);
      expect((await copy.call('getSession')).body, cookie).toEqual({ loggedIn: false, guest: false, userid: null, email: null });
      expect((await copy.call('getActiveProducts')).status, cookie).toBe(401);
    }
    // The untouched cookie still works, so the refusals above are the tampering's doing.
    expect((await forged(value).call('getActiveProducts')).status).toBe(200);
  });
});

describe('the session cookie over HTTPS behind a trusted proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(async () => proxied?.close());

  it('is Secure', async () => {
    const answer = await new Browser(proxied.app).request({ method: 'POST', url: '/checkout/api/auth', json: DEMO_ACCOUNTS.client, headers: { 'x-forwarded-proto': 'https' } });
    expect(answer.status).toBe(200);
    expect(answer.cookies.find((candidate) => candidate.name === 'tvc_session')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });
});
