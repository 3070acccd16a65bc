import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, createTestApp, loggedIn, newAccount, payOnSandbox, rows, storeSnapshot, type TestApp } from './helper';

/** The demo catalogue (README "Demo data"): credit packs 10–12, panel activation 13 (€49 / £42); pack 11 is €300 / £259. */
const PACK = 11;
const ACTIVATION = 13;

const orderedPids = async (t: TestApp, orderid: number) =>
  (await rows<{ pid: number }>(t.db, sql`select pid from services where order_id = ${orderid} order by pid`)).map((row) => row.pid);

describe('the server builds a reseller order from the reseller\'s state', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('a new reseller who chose only a credit pack gets the panel activation added, and pays for both', async () => {
    const shopper = await newAccount(t.app);
    const answer = await shopper.call('order', { body: { pid: [PACK], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ amount: 349, currency: 'EUR' });
    expect(await orderedPids(t, answer.body.orderid)).toEqual([PACK, ACTIVATION]);
  });

  it('a new reseller\'s order priced without the activation is refused with the server\'s amount, and writes nothing', async () => {
    const shopper = await newAccount(t.app);
    const before = await storeSnapshot(t.db);
    const answer = await shopper.call('order', { body: { pid: [PACK], paymentmethod: 'sandbox', amount: 300, currency: 'EUR' } });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ error: { code: 'price_changed', amount: 349, currency: 'EUR' } });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('the activation alone is refused with 400 credit_pack_required, and so are two credit packs', async () => {
    const shopper = await newAccount(t.app);
    const before = await storeSnapshot(t.db);
    for (const [pid, amount] of [[[ACTIVATION], 49], [[10, PACK], 499]] as const) {
      const answer = await shopper.call('order', { body: { pid: [...pid], paymentmethod: 'sandbox', amount, currency: 'EUR' } });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body).toEqual({ error: { code: 'credit_pack_required', message: 'Choose one credit pack.' } });
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('an existing reseller\'s order never carries the activation: asked for, it is refused with 400 activation_not_needed', async () => {
    const reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    const before = await storeSnapshot(t.db);
    const refused = await reseller.call('order', { body: { pid: [PACK, ACTIVATION], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toEqual({ error: { code: 'activation_not_needed', message: expect.stringContaining('already a reseller') } });
    expect(await storeSnapshot(t.db)).toEqual(before);
    const pack = await reseller.call('order', { body: { pid: [PACK], paymentmethod: 'sandbox', amount: 300, currency: 'EUR' } });
    expect(pack.status, pack.text).toBe(200);
    expect(await orderedPids(t, pack.body.orderid)).toEqual([PACK]);
  });

  it('once the first order is paid the new reseller is a reseller, and the next order has no activation', async () => {
    const shopper = await newAccount(t.app);
    const first = await shopper.call('order', { body: { pid: [PACK, ACTIVATION], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
    expect(first.status, first.text).toBe(200);
    await payOnSandbox(t.app, first.body.link);
    expect((await shopper.call('isReseller')).body).toEqual({ reseller: true });
    const again = await shopper.call('order', { body: { pid: [PACK, ACTIVATION], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' } });
    expect(again.status).toBe(400);
    expect(again.body?.error?.code).toBe('activation_not_needed');
    const next = await shopper.call('order', { body: { pid: [PACK], paymentmethod: 'sandbox', amount: 300, currency: 'EUR' } });
    expect(next.status, next.text).toBe(200);
    expect(await orderedPids(t, next.body.orderid)).toEqual([PACK]);
  });

  it('the reseller success answer gives the panel address, the login of the activation and the credits of every paid pack', async () => {
    const shopper = await newAccount(t.app);
    const first = await shopper.call('order', { body: { pid: [10, ACTIVATION], paymentmethod: 'sandbox', amount: 199, currency: 'EUR' } });
    expect(first.status, first.text).toBe(200);
    const services = await Promise.all(first.body.serviceids.map(async (serviceid) => (await shopper.call('getClientProducts', { query: { serviceid: String(serviceid) } })).body));
    const activation = services.find((service) => service.pid === ACTIVATION);
    const pack = services.find((service) => service.pid === 10);
    const panelOf = async (serviceid: number | undefined) => (await shopper.call('getResellerProducts', { query: { serviceid: String(serviceid) } })).body.panel;
    // Unpaid: no login yet, no credits.
    expect(await panelOf(pack?.serviceid)).toEqual({ url: 'https://panel.tvcheckout.test/', username: null, password: null, credits: 0 });
    await payOnSandbox(t.app, first.body.link);
    const login = (await shopper.call('getClientProducts', { query: { serviceid: String(activation?.serviceid) } })).body;
    expect(login.username).toMatch(/^TV-\d{8}$/);
    // "Reseller 50 credits" paid: 50 credits, on the activation's login.
    expect(await panelOf(pack?.serviceid)).toEqual({ url: 'https://panel.tvcheckout.test/', username: login.username, password: login.password, credits: 50 });
    const next = await shopper.call('order', { body: { pid: [PACK], paymentmethod: 'sandbox', amount: 300, currency: 'EUR' } });
    await payOnSandbox(t.app, next.body.link);
    // Another pack ("Reseller 120 credits") adds its credits to the same panel login.
    expect(await panelOf(next.body.serviceids[0])).toEqual({ url: 'https://panel.tvcheckout.test/', username: login.username, password: login.password, credits: 170 });
  });
});

describe('the reseller panel address', () => {
  it('is the configured RESELLER_PANEL_URL', async () => {
    const configured = await createTestApp({ RESELLER_PANEL_URL: 'https://panel.example.net/reseller/' });
    try {
      const reseller = await loggedIn(configured.app, DEMO_ACCOUNTS.reseller);
      const [service] = await rows<{ id: number }>(configured.db, sql`select id from services where client_id = ${reseller.userid}`);
      const answer = await reseller.call('getResellerProducts', { query: { serviceid: String(service?.id) } });
      expect(answer.body.panel).toEqual({ url: 'https://panel.example.net/reseller/', username: 'TV-20000001', password: '200000000001', credits: 120 });
    } finally {
      await configured.close();
    }
  });
});
