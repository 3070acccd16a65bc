import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { BASIC_ORDER, Browser, DEMO_ACCOUNTS, createTestApp, guest, loggedIn, placeOrder, rows, signInByLink, type TestApp } from './helper';

const ANONYMOUS = { loggedIn: false, guest: false, userid: null, email: null };
const DAY_MS = 24 * 60 * 60 * 1000;

/** A browser that has only a copy of another's session cookie. */
function withCookie(t: TestApp, value: string): Browser {
  const copy = new Browser(t.app);
  copy.cookies.set('tvc_session', value);
  return copy;
}

describe('sessions live in the store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('two sign-ins of one client get two different cookies, each a 256-bit random id stored only as a keyed hash', async () => {
    const first = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const second = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const [a, b] = [first.cookies.get('tvc_session'), second.cookies.get('tvc_session')];
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    const stored = await rows<{ id_hash: string }>(t.db, sql`select id_hash from sessions`);
    expect(stored.map((row) => row.id_hash)).not.toContain(a);
    expect(stored.map((row) => row.id_hash)).not.toContain(b);
    expect((await first.call('getActiveProducts')).status).toBe(200);
    expect((await second.call('getActiveProducts')).status).toBe(200);
  });

  it('sign-out ends the session: the old cookie, replayed, opens nothing; another sign-in of the same client is untouched', async () => {
    const leaving = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const staying = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const old = leaving.cookies.get('tvc_session') ?? '';
    expect((await leaving.call('signOut', { body: {} })).status).toBe(200);
    const replay = withCookie(t, old);
    expect((await replay.call('getSession')).body).toEqual(ANONYMOUS);
    expect((await replay.call('getActiveProducts')).status).toBe(401);
    expect((await replay.call('isReseller')).status).toBe(401);
    expect((await staying.call('getActiveProducts')).status).toBe(200);
  });

  it('a sign-in rotates the id: the guest cookie the browser had before opens nothing afterwards', async () => {
    const browser = await guest(t.app);
    const order = await placeOrder(browser);
    const before = browser.cookies.get('tvc_session') ?? '';
    expect((await withCookie(t, before).call('getOrderStatus', { query: { orderid: String(order.orderid) } })).status).toBe(200);
    expect((await browser.call('auth', { body: DEMO_ACCOUNTS.client })).status).toBe(200);
    expect(browser.cookies.get('tvc_session')).not.toBe(before);
    expect((await withCookie(t, before).call('getSession')).body).toEqual(ANONYMOUS);
  });

  it('a session unused for 30 days, or begun 90 days ago, is over and is removed', async () => {
    const idle = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const old = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const fresh = await loggedIn(t.app, DEMO_ACCOUNTS.client);
    const count = async () => Number((await rows<{ n: number }>(t.db, sql`select count(*)::int as n from sessions`))[0]?.n);
    // The last three sessions begun are these; age them in the store.
    const [oldest, middle] = await rows<{ id_hash: string }>(t.db, sql`select id_hash from sessions order by created_at desc limit 3 offset 1`);
    await t.db.execute(sql`update sessions set idle_expires_at = now() - interval '1 second' where id_hash = ${middle?.id_hash}`);
    await t.db.execute(sql`update sessions set absolute_expires_at = now() - interval '1 second' where id_hash = ${oldest?.id_hash}`);
    const total = await count();
    expect((await idle.call('getActiveProducts')).status).toBe(401);
    expect((await old.call('getActiveProducts')).status).toBe(401);
    expect((await fresh.call('getActiveProducts')).status).toBe(200);
    expect(await count()).toBe(total - 2);
  });

  it('a new session runs 30 days idle and 90 days at most; its cookie says 90 days', async () => {
    const browser = new Browser(t.app);
    const answer = await browser.call('auth', { body: DEMO_ACCOUNTS.client });
    expect(answer.cookies.find((cookie) => cookie.name === 'tvc_session')?.maxAge).toBe(90 * 24 * 60 * 60);
    const [row] = await rows<{ idle: number; absolute: number }>(t.db, sql`select extract(epoch from idle_expires_at - created_at)::float8 * 1000 as idle, extract(epoch from absolute_expires_at - created_at)::float8 * 1000 as absolute from sessions order by created_at desc limit 1`);
    expect(row).toEqual({ idle: 30 * DAY_MS, absolute: 90 * DAY_MS });
  });

  it('an Idempotency-Key replay is bound to the session: another browser of the same e-mail gets no one else\'s order', async () => {
    const first = await guest(t.app);
    const headers = { 'idempotency-key': 'replayed-key-0001' };
    const placed = await placeOrder(first, {}, headers);
    expect((await first.call('order', { body: BASIC_ORDER, headers })).body).toMatchObject({ orderid: placed.orderid });
    const second = await guest(t.app, first.email);
    const other = await second.call('order', { body: BASIC_ORDER, headers });
    expect(other.status, other.text).toBe(200);
    expect(other.body.orderid).not.toBe(placed.orderid);
    expect((await second.call('getOrderStatus', { query: { orderid: String(placed.orderid) } })).status).toBe(403);
  });

  it('orders placed at once in one guest session are all remembered by it: the guest reads each of them', async () => {
    const shopper = await guest(t.app);
    const placed = await Promise.all(Array.from({ length: 6 }, () => placeOrder(shopper)));
    expect(new Set(placed.map((order) => order.orderid)).size).toBe(6);
    const statuses = await Promise.all(placed.map((order) => shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } })));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('a guest session remembers its newest 20 orders: the 21st placed drops the first', async () => {
    const shopper = await guest(t.app);
    const placed: number[] = [];
    for (let index = 0; index < 21; index += 1) placed.push((await placeOrder(shopper)).orderid);
    const read = async (orderid: number) => (await shopper.call('getOrderStatus', { query: { orderid: String(orderid) } })).status;
    expect(await read(placed[0] as number)).toBe(403);
    expect(await read(placed[1] as number)).toBe(200);
    expect(await read(placed[20] as number)).toBe(200);
  });

  it('an order older than the guest session\'s newest 20 answers 403 on every read (order, invoice, service, resume); signed in by a mailed link, it is read again', async () => {
    const shopper = await guest(t.app);
    const placed = [];
    for (let index = 0; index < 21; index += 1) placed.push(await placeOrder(shopper));
    const [oldest, newest] = [placed[0], placed[20]];
    if (!oldest || !newest) throw new Error('21 orders were placed');
    const reads = async (order: typeof oldest) => [
      (await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).status,
      (await shopper.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } })).status,
      (await shopper.call('getClientProducts', { query: { serviceid: String(order.serviceids[0]) } })).status,
      (await shopper.call('resumeOrder', { query: { orderid: String(order.orderid) } })).status,
    ];
    const forbidden = await shopper.call('getOrderStatus', { query: { orderid: String(oldest.orderid) } });
    expect(forbidden.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    expect(await reads(oldest)).toEqual([403, 403, 403, 403]);
    expect(await reads(newest)).toEqual([200, 200, 200, 200]);
    await signInByLink(t.app, shopper, shopper.userid);
    expect(await reads(oldest)).toEqual([200, 200, 200, 200]);
  });
});

describe('sessions across instances', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('a session begun on one instance works on another sharing the store, and a sign-out on either ends it on both', async () => {
    const other = await buildApp({ config: t.config, store: t.store, ports: portsFromEnvironment(t.config) });
    try {
      const onFirst = await loggedIn(t.app, DEMO_ACCOUNTS.client);
      const cookie = onFirst.cookies.get('tvc_session') ?? '';
      const onSecond = new Browser(other);
      onSecond.cookies.set('tvc_session', cookie);
      expect((await onSecond.call('getActiveProducts')).status).toBe(200);
      expect((await onSecond.call('signOut', { body: {} })).status).toBe(200);
      expect((await onFirst.call('getActiveProducts')).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
