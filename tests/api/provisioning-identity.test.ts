import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../src/server/db/schema';
import { createTestApp, guest, newAccount, payOnSandbox, placeOrder, signInByLink, storeSnapshot, unprovisionService, type Answer, type Browser, type TestApp } from './helper';

/**
 * Hardening item 1: provisioning (terminate, create, restart) and a service's billing notes need a proven identity,
 * a client signed in by password or mailed link, as addInvoice does. A guest session made by authMiddleware from an
 * e-mail alone changes nothing. Notes are plain text: at most 1000 characters, no control characters, no `<` or `>`.
 * Runs on the local store and, with TEST_BILLING=whmcs, on the fake WHMCS.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The service as the billing holds it: the local store's row, or WHMCS's (the fake's tblhosting). */
async function stored(serviceId: number): Promise<{ status: string; notes: string; username: string }> {
  if (t.whmcs) {
    const row = t.whmcs.state.services.find((service) => service.id === serviceId);
    if (!row) throw new Error(`WHMCS holds no service ${serviceId}`);
    return { status: row.status, notes: row.notes, username: row.username };
  }
  const [row] = await t.db.select().from(services).where(eq(services.id, serviceId));
  if (!row) throw new Error(`The store holds no service ${serviceId}`);
  return { status: row.status, notes: row.notes, username: row.username ?? '' };
}

const calls = (serviceid: number): [string, (browser: Browser) => Promise<Answer>][] => [
  ['updateClientProduct', (b) => b.call('updateClientProduct', { body: { serviceid, notes: 'Living-room box' } })],
  ['moduleTerminate', (b) => b.call('moduleTerminate', { body: { serviceid } })],
  ['moduleCreate', (b) => b.call('moduleCreate', { body: { serviceid } })],
  ['restartService', (b) => b.call('restartService', { body: { serviceid } })],
];

const plainOnly = (answer: Answer) => {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
};

describe('provisioning needs a signed-in client', () => {
  let shopper: Awaited<ReturnType<typeof guest>>;
  let serviceid: number;
  beforeAll(async () => {
    shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    serviceid = order.serviceids[0] as number;
  });

  it('the guest session that bought the service (an e-mail alone) gets 401 on each call, and the service and its notes stay as they were', async () => {
    const before = await stored(serviceid);
    expect(before.status).toBe('Active');
    const snapshot = await storeSnapshot(t.db);
    for (const [name, call] of calls(serviceid)) {
      const answer = await call(shopper);
      expect(answer.status, `${name}: ${answer.text}`).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    }
    // Markup is refused whoever sends it (the contract's schema, before any session is read).
    plainOnly(await shopper.call('updateClientProduct', { body: { serviceid, notes: '<script>alert(1)</script>' } }));
    // Even once the service lost its credentials (moduleCreate would provision it), a guest cannot create it.
    await unprovisionService(t, serviceid);
    const created = await shopper.call('moduleCreate', { body: { serviceid } });
    expect(created.status, created.text).toBe(401);
    expect((await stored(serviceid)).username).toBe('');
    expect((await stored(serviceid)).notes).toBe(before.notes);
    expect((await stored(serviceid)).status).toBe('Pending');
    // Nothing but the test's own unprovisioning changed (on the local store the snapshot shows every row).
    if (!t.whmcs) {
      const after = await storeSnapshot(t.db);
      expect({ ...after, services: null }).toEqual({ ...snapshot, services: null });
    }
  });

  it('a sign-up whose address is not proved yet gets 401 on its own service, 403 on another\'s', async () => {
    const account = await newAccount(t.app);
    const own = await placeOrder(account);
    await payOnSandbox(t.app, own.link);
    const ownService = own.serviceids[0] as number;
    for (const [name, call] of calls(ownService)) {
      const answer = await call(account);
      expect(answer.status, `${name}: ${answer.text}`).toBe(401);
    }
    expect(await stored(ownService)).toMatchObject({ status: 'Active', notes: '' });
    const stranger = await account.call('moduleTerminate', { body: { serviceid } });
    expect(stranger.status, stranger.text).toBe(403);
    expect(stranger.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
  });

  it('signed in by a mailed link, the same shopper may do each of them', async () => {
    const client = await signInByLink(t.app, shopper, shopper.userid);
    const created = await client.call('moduleCreate', { body: { serviceid } });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({ serviceid, status: 'Active', result: 'success' });
    expect((await stored(serviceid)).username).toMatch(/^TV-\d{8}$/);
    const noted = await client.call('updateClientProduct', { body: { serviceid, notes: 'Living-room box, MAG 322 (2nd floor) & more: 100%' } });
    expect(noted.status, noted.text).toBe(200);
    expect((await stored(serviceid)).notes).toBe('Living-room box, MAG 322 (2nd floor) & more: 100%');
    expect((await client.call('restartService', { body: { serviceid } })).status).toBe(200);
    const terminated = await client.call('moduleTerminate', { body: { serviceid } });
    expect(terminated.body).toEqual({ serviceid, status: 'Terminated', result: 'success' });
    expect((await stored(serviceid)).status).toBe('Terminated');
  });
});

describe('notes are plain text of at most 1000 characters', () => {
  let client: Browser;
  let serviceid: number;
  beforeAll(async () => {
    const shopper = await guest(t.app);
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    serviceid = order.serviceids[0] as number;
    client = await signInByLink(t.app, shopper, shopper.userid);
  });

  it('markup, control characters and 1001 characters are refused with 400 and the notes stay as they were', async () => {
    expect((await client.call('updateClientProduct', { body: { serviceid, notes: 'kept' } })).status).toBe(200);
    for (const notes of ['<script>alert(1)</script>', 'a <b>bold</b> note', '1 > 0', 'two\nlines', 'tab\there', 'nul\u0000', 'del\u007f', 'c1\u0085', 'x'.repeat(1001)]) {
      plainOnly(await client.call('updateClientProduct', { body: { serviceid, notes } }));
      expect((await stored(serviceid)).notes).toBe('kept');
    }
  });

  it('plain text up to 1000 characters, in any script, is kept as sent', async () => {
    for (const notes of ['', 'Wohnzimmer-Box – Küche', 'x'.repeat(1000)]) {
      const answer = await client.call('updateClientProduct', { body: { serviceid, notes } });
      expect(answer.status, answer.text).toBe(200);
      expect((await stored(serviceid)).notes).toBe(notes);
    }
  });
});
