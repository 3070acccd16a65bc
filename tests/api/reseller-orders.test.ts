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
});
