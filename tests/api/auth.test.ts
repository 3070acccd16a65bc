import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema';
import { Browser, createTestApp, DEMO_ACCOUNTS, freshEmail, guest, loggedIn, placeOrder, type Answer, type TestApp } from './helper';

const ANONYMOUS = { loggedIn: false, guest: false, userid: null, email: null };

describe('sign-in, reseller sign-in or sign-up, sign-out and the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const expectInvalidLogin = (answer: Answer) => {
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'invalid_credentials', message: 'Email or Password Invalid' } });
    expect(answer.cookies).toEqual([]);
  };

  it('auth with a wrong password, an unknown e-mail or a guest\'s e-mail (no password) is 401 "Email or Password Invalid" and sets no session', async () => {
    const someGuest = await guest(t.app);
    const browser = new Browser(t.app);
    expectInvalidLogin(await browser.call('auth', { body: { email: DEMO_ACCOUNTS.client.email, password: 'wrong-password' } }));
    expectInvalidLogin(await browser.call('auth', { body: { email: 'nobody@mail.test', password: DEMO_ACCOUNTS.client.password } }));
    expectInvalidLogin(await browser.call('auth', { body: { email: someGuest.email, password: 'anything' } }));
    expect((await browser.call('getSession')).body).toEqual(ANONYMOUS);
  });

  it('the right password of an address not yet confirmed answers byte for byte as a wrong password and as an unknown address', async () => {
    const email = freshEmail('unconfirmed');
    expect((await new Browser(t.app).call('resellerAuth', { body: { email, password: 'right-pass-1', existingReseller: false } })).status).toBe(200);
    const answers = [
      ['unconfirmed, right password', { email, password: 'right-pass-1' }],
      ['unconfirmed, wrong password', { email, password: 'wrong-pass-1' }],
      ['unknown address', { email: freshEmail('unknown'), password: 'right-pass-1' }],
      ['confirmed, wrong password', { email: DEMO_ACCOUNTS.client.email, password: 'wrong-pass-1' }],
    ] as const;
    const seen = new Set<string>();
    for (const [name, body] of answers) {
      for (const operationId of ['auth', 'resellerAuth'] as const) {
        const answer = operationId === 'auth'
          ? await new Browser(t.app).call('auth', { body: { ...body } })
          : await new Browser(t.app).call('resellerAuth', { body: { ...body, existingReseller: true } });
        expectInvalidLogin(answer);
        seen.add(JSON.stringify({ status: answer.status, text: answer.text, headers: Object.keys(answer.headers).filter((header) => header !== 'date').sort() }));
        expect(seen.size, `${operationId}: ${name}`).toBe(1);
      }
    }
  });

  it('auth with the right password logs in (e-mail case does not matter) and getSession says who', async () => {
    const browser = new Browser(t.app);
    const answer = await browser.call('auth', { body: { email: DEMO_ACCOUNTS.client.email.toUpperCase(), password: DEMO_ACCOUNTS.client.password } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ userid: expect.any(Number), email: DEMO_ACCOUNTS.client.email, loggedIn: true });
    expect((await browser.call('getSession')).body).toEqual({ loggedIn: true, guest: false, userid: answer.body.userid, email: DEMO_ACCOUNTS.client.email });
  });

  it('authMiddleware gives a guest session; getSession says guest; the same browser\'s login stays a login', async () => {
    const email = freshEmail();
    const browser = new Browser(t.app);
    const identified = await browser.call('authMiddleware', { body: { email } });
    expect(identified.status).toBe(200);
    expect((await browser.call('getSession')).body).toEqual({ loggedIn: false, guest: true, userid: identified.body.userid, email });
    // The same e-mail in another browser is another guest session, with a handle of its own.
    const again = await new Browser(t.app).call('authMiddleware', { body: { email: email.toUpperCase() } });
    expect(again.body.email).toBe(email);
    expect(again.body.userid).not.toBe(identified.body.userid);

    const demo = await loggedIn(t.app);
    expect((await demo.call('authMiddleware', { body: { email: DEMO_ACCOUNTS.client.email } })).status).toBe(200);
    expect((await demo.call('getSession')).body).toMatchObject({ loggedIn: true, guest: false });
  });

  it('authMiddleware answers a known and an unknown address alike: same status, keys, types and headers, and an opaque handle, never the client id', async () => {
    const someGuest = await guest(t.app);
    await placeOrder(someGuest);
    const [demoClient] = await t.db.select({ id: clients.id }).from(clients).where(eq(clients.email, DEMO_ACCOUNTS.client.email));
    const known = [
      { email: DEMO_ACCOUNTS.client.email, clientId: demoClient?.id },
      { email: someGuest.email, clientId: someGuest.userid },
    ];
    const shapeOf = (answer: Answer) => ({
      status: answer.status,
      keys: Object.keys(answer.body ?? {}).sort(),
      types: Object.values(answer.body ?? {}).map((value) => typeof value),
      headers: Object.keys(answer.headers).filter((name) => name !== 'date').sort(),
      cookies: answer.cookies.map((cookie) => ({ ...cookie, value: cookie.value.length })),
    });
    const shapes: string[] = [];
    const handles: string[] = [];
    for (const { email, clientId } of [...known, { email: freshEmail('unknown'), clientId: undefined }]) {
      const browser = new Browser(t.app);
      const answer = await browser.call('authMiddleware', { body: { email } });
      expect(answer.body.email).toBe(email);
      expect(answer.body.userid).toMatch(/^g_[A-Za-z0-9_-]{22}$/);
      // Not the id, nor any number: a random 22 characters (one may hold a digit by chance, so no digit test).
      if (clientId !== undefined) expect(answer.body.userid).not.toBe(String(clientId));
      expect(answer.body.userid.slice(2)).not.toMatch(/^\d+$/);
      expect((await browser.call('getSession')).body).toEqual({ loggedIn: false, guest: true, userid: answer.body.userid, email });
      shapes.push(JSON.stringify(shapeOf(answer)));
      handles.push(answer.body.userid);
    }
    expect(new Set(shapes).size).toBe(1);
    // Handles of sessions begun one after another share no telling prefix (they are not a counter).
    for (let i = 0; i < 10; i++) handles.push((await new Browser(t.app).call('authMiddleware', { body: { email: freshEmail('seq') } })).body.userid);
    for (let i = 1; i < handles.length; i++) expect(handles[i]?.slice(0, 8), `${handles[i - 1]} then ${handles[i]}`).not.toBe(handles[i - 1]?.slice(0, 8));
    expect(new Set(handles).size).toBe(handles.length);
  });

  it('resellerAuth signs a new reseller up; the password signs in only once the address is proved', async () => {
    const email = freshEmail('reseller');
    const browser = new Browser(t.app);
    const signUp = await browser.call('resellerAuth', { body: { email, password: 'n3w-Reseller-pass', existingReseller: false } });
    expect(signUp.status).toBe(200);
    expect(signUp.body).toEqual({ userid: expect.stringMatching(/^g_[A-Za-z0-9_-]{22}$/), email, reseller: false });
    expect((await browser.call('getSession')).body).toEqual({ loggedIn: true, guest: false, userid: signUp.body.userid, email });
    expect((await new Browser(t.app).call('auth', { body: { email, password: 'n3w-Reseller-pass' } })).status).toBe(401);
    // What following the mailed link does (tests/api/sign-in-link.test.ts follows a real one).
    await t.db.update(clients).set({ emailVerifiedAt: new Date() }).where(eq(clients.email, email));
    const login = await new Browser(t.app).call('auth', { body: { email, password: 'n3w-Reseller-pass' } });
    expect(login.status).toBe(200);
    const [client] = await t.db.select({ id: clients.id }).from(clients).where(eq(clients.email, email));
    expect(login.body.userid).toBe(client?.id);
  });

  it('resellerAuth logs an existing reseller in, and refuses a wrong password or an unknown e-mail with 401', async () => {
    const existing = await new Browser(t.app).call('resellerAuth', { body: { ...DEMO_ACCOUNTS.reseller, existingReseller: true } });
    expect(existing.status).toBe(200);
    expect(existing.body).toEqual({ userid: expect.any(Number), email: DEMO_ACCOUNTS.reseller.email, reseller: true });
    expectInvalidLogin(await new Browser(t.app).call('resellerAuth', { body: { email: DEMO_ACCOUNTS.reseller.email, password: 'wrong', existingReseller: true } }));
    expectInvalidLogin(await new Browser(t.app).call('resellerAuth', { body: { email: freshEmail(), password: 'whatever-1', existingReseller: true } }));
  });

  it('a sign-up with an address already known answers as a new one, keeps the password as it was, and reaches nothing of the account', async () => {
    const someGuest = await guest(t.app);
    const bought = await placeOrder(someGuest);
    const fresh = freshEmail('fresh');
    const answers = [];
    for (const email of [DEMO_ACCOUNTS.client.email, DEMO_ACCOUNTS.reseller.email, someGuest.email, fresh]) {
      const browser = new Browser(t.app);
      const answer = await browser.call('resellerAuth', { body: { email, password: 'claiming-1', existingReseller: false } });
      expect(answer.status, email).toBe(200);
      answers.push({ keys: Object.keys(answer.body ?? {}).sort(), email: answer.body.email === email, reseller: answer.body.reseller, handle: /^g_[A-Za-z0-9_-]{22}$/.test(String(answer.body.userid)) });
      expect((await browser.call('getSession')).body.userid, 'getSession tells the sign-up its handle, not an id').toBe(answer.body.userid);
      expect((await browser.call('getSession')).body).toMatchObject({ loggedIn: true, email });
      expect((await browser.call('getActiveProducts')).body).toMatchObject({ totalresults: 0 });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // The known accounts keep their passwords; the one tried signs in to none of them.
    expect((await new Browser(t.app).call('auth', { body: DEMO_ACCOUNTS.client })).status).toBe(200);
    expect((await new Browser(t.app).call('auth', { body: { email: DEMO_ACCOUNTS.client.email, password: 'claiming-1' } })).status).toBe(401);
    // The guest's orders stay out of reach of whoever tried to claim the e-mail.
    const claimer = new Browser(t.app);
    await claimer.call('resellerAuth', { body: { email: someGuest.email, password: 'claiming-1', existingReseller: false } });
    expect((await claimer.call('getOrderStatus', { query: { orderid: String(bought.orderid) } })).status).toBe(403);
    expect((await new Browser(t.app).call('auth', { body: { email: someGuest.email, password: 'claiming-1' } })).status).toBe(401);
  });

  it('signOut clears the session cookie; the browser is anonymous again; it succeeds without a session too', async () => {
    const browser = await loggedIn(t.app);
    const answer = await browser.call('signOut', { body: {} });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ loggedIn: false });
    const cleared = answer.cookies.find((cookie) => cookie.name === 'tvc_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/checkout');
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(browser.cookies.has('tvc_session')).toBe(false);
    expect((await browser.call('getSession')).body).toEqual(ANONYMOUS);
    expect((await browser.call('getActiveProducts')).status).toBe(401);
    expect((await new Browser(t.app).call('signOut', { body: {} })).status).toBe(200);
  });
});
