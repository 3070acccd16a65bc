import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createTestApp, followSignInLink, freshEmail, guest, payOnSandbox, placeOrder, postSignInToken, rows, type TestApp } from './helper';
import { createMailingApp, mailEnv, startReceiver, until, type ReceivedMail, type Receiver } from './smtp-receiver';

const LINK = /http:\/\/localhost:3000(\/checkout\/api\/signIn\?token=([A-Za-z0-9_-]{43}))/;

/** The path and token of the sign-in link in a received mail (text and HTML carry the same one). */
function linkIn(mail: ReceivedMail | undefined): { path: string; token: string } {
  const match = LINK.exec(mail?.text ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`No sign-in link in: ${mail?.text ?? '(no mail)'}`);
  expect(mail?.html).toContain(match[0]);
  return { path: match[1], token: match[2] };
}

describe('one-time sign-in links by e-mail', () => {
  let receiver: Receiver;
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(mailEnv(receiver, { LOG_LEVEL: 'info' }), { logStream: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  /** A guest who has bought and paid: its receipt and "service active" mails have arrived. */
  async function paidGuest() {
    const shopper = await guest(t.app, freshEmail('signin'));
    const order = await placeOrder(shopper);
    await payOnSandbox(t.app, order.link);
    await receiver.waitFor(shopper.email, 2);
    return { shopper, serviceid: String(order.serviceids[0]) };
  }

  it('a new browser cannot read the credentials; after the mailed link it can, and the link works once', async () => {
    const { shopper, serviceid } = await paidGuest();
    const phone = new Browser(t.app);
    expect([401, 403]).toContain((await phone.call('getClientProducts', { query: { serviceid } })).status);

    const asked = await phone.call('signInLink', { body: { email: shopper.email, redirect: `/checkout/success?serviceid=${serviceid}` } });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ accepted: true });
    const mail = (await receiver.waitFor(shopper.email, 3))[2];
    expect(mail?.subject).toBe('Your sign-in link for TV Checkout');
    const { path, token } = linkIn(mail);

    const followed = await followSignInLink(phone, path);
    expect(followed.status).toBe(303);
    expect(followed.headers.location).toBe(`/checkout/success?serviceid=${serviceid}`);
    expect(followed.cookies.find((cookie) => cookie.name === 'tvc_session')?.httpOnly).toBe(true);
    const service = await phone.call('getClientProducts', { query: { serviceid } });
    expect(service.status).toBe(200);
    expect(service.body.username).toMatch(/^TV-\d{8}$/);
    expect((await phone.call('getSession')).body).toMatchObject({ loggedIn: true, email: shopper.email });
    // Following the link proved the address.
    const [client] = await rows<{ verified: boolean }>(t.db, sql`select email_verified_at is not null as verified from clients where email = ${shopper.email}`);
    expect(client?.verified).toBe(true);

    const again = new Browser(t.app);
    const second = await followSignInLink(again, path);
    expect(second.status).toBe(410);
    expect(second.headers['content-type']).toMatch(/^text\/html/);
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.text).toContain('cannot be used any more');
    expect(second.text).toContain('href="/checkout/"');
    expect(second.cookies.find((cookie) => cookie.name === 'tvc_session')).toBeUndefined();
    expect([401, 403]).toContain((await again.call('getClientProducts', { query: { serviceid } })).status);

    // The token is neither in the outbox nor in any log line.
    const outbox = await rows<{ row: string }>(t.db, sql`select row_to_json(mail_outbox)::text as row from mail_outbox`);
    expect(outbox.length).toBeGreaterThan(0);
    expect(outbox.filter(({ row }) => row.includes(token))).toEqual([]);
    expect(logLines.some((line) => line.includes('/checkout/api/signIn'))).toBe(true);
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);
  });

  it('opening a link (as a mail scanner or a link preview does) uses nothing up; only the button signs in, once', async () => {
    const { shopper, serviceid } = await paidGuest();
    await new Browser(t.app).call('signInLink', { body: { email: shopper.email, redirect: `/checkout/success?serviceid=${serviceid}` } });
    const { path, token } = linkIn((await receiver.waitFor(shopper.email, 3))[2]);
    const scanner = new Browser(t.app);
    for (let i = 0; i < 3; i++) {
      const page = await scanner.request({ method: 'GET', url: path });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).toContain('<button type="submit" autofocus>Continue signing in</button>');
      expect(page.text).toContain('<form method="post" action="/checkout/api/signIn">');
      expect(page.cookies).toEqual([]);
    }
    expect((await scanner.call('getSession')).body).toMatchObject({ loggedIn: false });
    expect(await rows(t.db, sql`select token_hash from sign_in_tokens where used_at is not null and created_at > now() - interval '1 minute' and redirect_path = ${`/checkout/success?serviceid=${serviceid}`}`)).toEqual([]);

    const shopperPhone = new Browser(t.app);
    const pressed = await postSignInToken(shopperPhone, token);
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe(`/checkout/success?serviceid=${serviceid}`);
    expect((await shopperPhone.call('getClientProducts', { query: { serviceid } })).status).toBe(200);
    const pressedAgain = await postSignInToken(new Browser(t.app), token);
    expect(pressedAgain.status).toBe(410);
    expect(pressedAgain.cookies).toEqual([]);
    expect((await scanner.request({ method: 'GET', url: path })).status).toBe(410);
  });

  it('the button\'s post from another site is refused with 403 and uses nothing up', async () => {
    const { shopper, serviceid } = await paidGuest();
    await new Browser(t.app).call('signInLink', { body: { email: shopper.email } });
    const { token } = linkIn((await receiver.waitFor(shopper.email, 3))[2]);
    const victim = new Browser(t.app);
    const forgeries: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }];
    for (const headers of forgeries) {
      const forged = await victim.request({
        method: 'POST', url: '/checkout/api/signIn', payload: `token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      expect(forged.status, JSON.stringify(headers)).toBe(403);
      expect(forged.cookies).toEqual([]);
    }
    expect((await victim.call('getClientProducts', { query: { serviceid } })).status).toBe(401);
    // The token is still good for the shopper's own click.
    expect((await postSignInToken(new Browser(t.app), token)).status).toBe(303);
  });

  it('a malformed token posted answers 400 as a page; a body without a token is 400 bad_request', async () => {
    const browser = new Browser(t.app);
    const malformed = await postSignInToken(browser, 'abc');
    expect(malformed.status).toBe(400);
    expect(malformed.headers['content-type']).toMatch(/^text\/html/);
    const empty = await browser.request({ method: 'POST', url: '/checkout/api/signIn', payload: 'nothing=1', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { code: 'bad_request' } });
    expect(browser.cookies.has('tvc_session')).toBe(false);
  });

  it('an expired link answers 410 and signs no one in', async () => {
    const { shopper } = await paidGuest();
    expect((await new Browser(t.app).call('signInLink', { body: { email: shopper.email } })).status).toBe(202);
    const { path } = linkIn((await receiver.waitFor(shopper.email, 3))[2]);
    await rows(t.db, sql`update sign_in_tokens set expires_at = now() - interval '1 second' where used_at is null`);
    const browser = new Browser(t.app);
    const answer = await followSignInLink(browser, path);
    expect(answer.status).toBe(410);
    expect(browser.cookies.has('tvc_session')).toBe(false);
  });

  it('a malformed token answers 400 as a page, not a session', async () => {
    const browser = new Browser(t.app);
    const answer = await browser.request({ method: 'GET', url: '/checkout/api/signIn?token=abc' });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.cookies.has('tvc_session')).toBe(false);
  });

  it('known and unknown addresses get the same answer; the unknown one gets no mail', async () => {
    const { shopper } = await paidGuest();
    const stranger = freshEmail('nobody');
    const known = await new Browser(t.app).call('signInLink', { body: { email: shopper.email } });
    const unknown = await new Browser(t.app).call('signInLink', { body: { email: stranger } });
    expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    await receiver.waitFor(shopper.email, 3);
    // A later mail to the known address arrives after anything queued for the stranger would have.
    await new Browser(t.app).call('signInLink', { body: { email: shopper.email } });
    await receiver.waitFor(shopper.email, 4);
    expect(receiver.to(stranger)).toEqual([]);
    expect(await rows(t.db, sql`select id from mail_outbox where recipient = ${stranger}`)).toEqual([]);
  });

  it('past 5 links in 15 minutes an address still gets 202 but no more mail', async () => {
    const { shopper } = await paidGuest();
    for (let i = 0; i < 7; i++) {
      // From a new address each time: the per-IP limit is not what stops them.
      const answer = await new Browser(t.app).call('signInLink', { body: { email: shopper.email } });
      expect([answer.status, answer.body]).toEqual([202, { accepted: true }]);
    }
    await receiver.waitFor(shopper.email, 2 + 5);
    // The order's recovery reminder stays pending for its hour; every other message has gone.
    await until(async () => (await rows(t.db, sql`select id from mail_outbox where status = 'pending' and kind <> 'recovery'`)).length === 0, 'the outbox to drain');
    expect(receiver.to(shopper.email)).toHaveLength(2 + 5);
  });

  it.each([
    ['https://evil.example/'],
    ['//evil.example/'],
    ['/checkout//evil.example'],
    ['/checkout/../x'],
    ['/checkout/%2e%2e/x'],
    ['/checkout/\\evil.example'],
    ['/checkout/api/signOut'],
    ['/checkout/success\r\nSet-Cookie: x=1'],
  ])('a redirect of %j lands on /checkout/', async (redirect) => {
    const { shopper } = await paidGuest();
    expect((await new Browser(t.app).call('signInLink', { body: { email: shopper.email, redirect } })).status).toBe(202);
    const { path } = linkIn((await receiver.waitFor(shopper.email, 3))[2]);
    const answer = await followSignInLink(new Browser(t.app), path);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/checkout/');
  });

  it('a checkout page in a locale is kept as the landing page', async () => {
    const { shopper, serviceid } = await paidGuest();
    await new Browser(t.app).call('signInLink', { body: { email: shopper.email, redirect: `/checkout/de-de/success?serviceid=${serviceid}` } });
    const { path } = linkIn((await receiver.waitFor(shopper.email, 3))[2]);
    expect((await followSignInLink(new Browser(t.app), path)).headers.location).toBe(`/checkout/de-de/success?serviceid=${serviceid}`);
  });

  it('the link in "service active" signs a new browser in on the success page, once, and lives 24 hours', async () => {
    const { shopper, serviceid } = await paidGuest();
    const active = (await receiver.waitFor(shopper.email, 2))[1];
    const { path } = linkIn(active);
    const [token] = await rows<{ hours: number }>(t.db, sql`select round(extract(epoch from (expires_at - created_at)) / 3600)::int as hours from sign_in_tokens order by created_at desc limit 1`);
    expect(token?.hours).toBe(24);
    const laptop = new Browser(t.app);
    const answer = await followSignInLink(laptop, path);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`/checkout/success?serviceid=${serviceid}`);
    expect((await laptop.call('getClientProducts', { query: { serviceid } })).status).toBe(200);
    expect((await followSignInLink(new Browser(t.app), path)).status).toBe(410);
  });
});

describe('the per-IP limit of signInLink', () => {
  it('answers 429 past 10 requests a minute from one address', async () => {
    const t = await createTestApp({ RATE_LIMIT: 'on' });
    try {
      const browser = new Browser(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await browser.call('signInLink', { body: { email: freshEmail('ip') } })).status);
      expect(statuses).toEqual([...Array(10).fill(202), 429]);
    } finally {
      await t.close();
    }
  });
});

describe('an address belongs to whoever reads its mail (no account pre-hijacking)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, receiver, close } = await createMailingApp());
  });
  afterAll(async () => close?.());

  it('a sign-up with someone else\'s address opens nothing of what its owner later buys, by session or by password', async () => {
    const victim = freshEmail('victim');
    const attacker = new Browser(t.app);
    const signUp = await attacker.call('resellerAuth', { body: { email: victim, password: 'attacker-pass-1', existingReseller: false } });
    expect(signUp.status, signUp.text).toBe(200);

    // The owner of the address buys as a guest: the order joins the client of the address, as in WHMCS.
    const owner = await guest(t.app, victim);
    const order = await placeOrder(owner);
    await payOnSandbox(t.app, order.link);
    const serviceid = String(order.serviceids[0]);
    expect((await owner.call('getClientProducts', { query: { serviceid } })).status).toBe(200);

    // The attacker's sign-up session reaches only what it ordered itself.
    expect((await attacker.call('getClientProducts', { query: { serviceid } })).status).toBe(403);
    expect((await attacker.call('getOrderStatus', { query: { orderid: String(order.orderid) } })).status).toBe(403);
    expect((await attacker.call('getActiveProducts')).body).toMatchObject({ totalresults: 0 });
    // The password opens nothing while the address is not proved, by either sign-in.
    const login = await new Browser(t.app).call('auth', { body: { email: victim, password: 'attacker-pass-1' } });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ error: { code: 'invalid_credentials', message: 'Email or Password Invalid' } });
    const resellerLogin = await new Browser(t.app).call('resellerAuth', { body: { email: victim, password: 'attacker-pass-1', existingReseller: true } });
    expect(resellerLogin.status).toBe(401);
  });

  it('when the owner of the address follows any other link first, the password someone set at sign-up is dropped and their session ends', async () => {
    const victim = freshEmail('victim');
    const attacker = new Browser(t.app);
    expect((await attacker.call('resellerAuth', { body: { email: victim, password: 'attacker-pass-2', existingReseller: false } })).status).toBe(200);
    const owner = await guest(t.app, victim);
    const order = await placeOrder(owner);
    await payOnSandbox(t.app, order.link);
    const mails = await receiver.waitFor(victim, 3);
    const active = mails.find((mail) => mail.subject === 'Your service is active');
    const { path } = linkIn(active);
    expect((await followSignInLink(new Browser(t.app), path)).status).toBe(303);

    for (const attempt of [
      () => new Browser(t.app).call('auth', { body: { email: victim, password: 'attacker-pass-2' } }),
      () => new Browser(t.app).call('resellerAuth', { body: { email: victim, password: 'attacker-pass-2', existingReseller: true } }),
    ]) expect((await attempt()).status).toBe(401);
    expect((await attacker.call('getSession')).body).toEqual({ loggedIn: false, guest: false, userid: null, email: null });
    const [client] = await rows<{ password: boolean; verified: boolean }>(t.db, sql`select password_hash is not null as password, email_verified_at is not null as verified from clients where email = ${victim}`);
    expect(client).toEqual({ password: false, verified: true });
  });

  it('a new account is mailed a link; once it is followed the address is proved and the password signs in', async () => {
    const email = freshEmail('new-reseller');
    const signUp = await new Browser(t.app).call('resellerAuth', { body: { email, password: 'mine-pass-1', existingReseller: false } });
    expect(signUp.status, signUp.text).toBe(200);
    expect((await new Browser(t.app).call('auth', { body: { email, password: 'mine-pass-1' } })).status).toBe(401);
    const [mail] = await receiver.waitFor(email, 1);
    expect(mail?.subject).toBe('Confirm your address for TV Checkout');
    const { path } = linkIn(mail);
    const followed = await followSignInLink(new Browser(t.app), path);
    expect(followed.status).toBe(303);
    expect(followed.headers.location).toBe('/checkout/resellers');
    const login = await new Browser(t.app).call('auth', { body: { email, password: 'mine-pass-1' } });
    expect(login.status, login.text).toBe(200);
  });

  it('a sign-up with an address that has an account mails its owner that someone tried, with a link to sign in instead', async () => {
    const owner = await guest(t.app, freshEmail('owner'));
    await placeOrder(owner);
    await receiver.waitFor(owner.email, 1);
    const tried = await new Browser(t.app).call('resellerAuth', { body: { email: owner.email, password: 'not-theirs-1', existingReseller: false } });
    expect(tried.status, tried.text).toBe(200);
    const mail = (await receiver.waitFor(owner.email, 2))[1];
    expect(mail?.subject).toBe('Someone tried to create an account with your address');
    expect(mail?.text).toContain('If that was you, sign in with the button below instead.');
    const { path } = linkIn(mail);
    const phone = new Browser(t.app);
    expect((await followSignInLink(phone, path)).status).toBe(303);
    expect((await phone.call('getActiveProducts')).status).toBe(200);
  });
});

describe('a used sign-in link always has its session (hardening item 7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  /** Makes every insert into the sessions table fail in the store, as a crash or a lost store between the two writes would. */
  const failSessionWrites = async (on: boolean) => {
    if (on) {
      await t.db.execute(sql.raw(`create or replace function tvc_test_fail_session() returns trigger language plpgsql as $$ begin raise exception 'session write failed (test)'; end $$`));
      await t.db.execute(sql.raw('create trigger tvc_test_fail_session before insert on sessions for each row execute function tvc_test_fail_session()'));
    } else {
      await t.db.execute(sql.raw('drop trigger tvc_test_fail_session on sessions'));
    }
  };

  for (const kind of ['a sign-in link', 'a recovery reminder\'s link (one order)'] as const) {
    it(`${kind}: when the session cannot be written the token is not used up, and the link works afterwards`, async () => {
      const shopper = await guest(t.app, freshEmail('crash'));
      const order = await placeOrder(shopper);
      await payOnSandbox(t.app, order.link);
      const serviceid = String(order.serviceids[0]);
      const link = new URL(await t.app.signInLinks.create(shopper.userid, '/checkout/', 15 * 60_000, kind === 'a sign-in link' ? undefined : order.orderid));
      const token = link.searchParams.get('token') ?? '';
      const phone = new Browser(t.app);
      const sessionsBefore = await rows<{ count: number }>(t.db, sql`select count(*)::int as count from sessions`);

      await failSessionWrites(true);
      try {
        // The crash: the answer is an error (not a sign-in), and no cookie is given.
        // (500 is no answer the contract promises, so it is not checked against it.)
        const crashed = await phone.request({
          method: 'POST', url: '/checkout/api/signIn', payload: new URLSearchParams({ token }).toString(), validate: false,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
        });
        expect(crashed.status).toBeGreaterThanOrEqual(500);
        expect(crashed.cookies.find((cookie) => cookie.name === 'tvc_session')).toBeUndefined();
      } finally {
        await failSessionWrites(false);
      }
      // Nothing of the link's use was kept: the token is unused, no session was written.
      expect(await rows(t.db, sql`select used_at from sign_in_tokens where client_id = ${shopper.userid}`)).toEqual([{ used_at: null }]);
      expect(await rows<{ count: number }>(t.db, sql`select count(*)::int as count from sessions`)).toEqual(sessionsBefore);
      expect([401, 403]).toContain((await phone.call('getClientProducts', { query: { serviceid } })).status);

      // The same link, followed again, signs the browser in.
      const followed = await followSignInLink(phone, `${link.pathname}${link.search}`);
      expect(followed.status, followed.text).toBe(303);
      expect(followed.cookies.find((cookie) => cookie.name === 'tvc_session')).toBeDefined();
      const service = await phone.call('getClientProducts', { query: { serviceid } });
      expect(service.status).toBe(200);
      expect(service.body.username).toMatch(/^TV-\d{8}$/);
      // And it is used now: once.
      expect((await followSignInLink(new Browser(t.app), `${link.pathname}${link.search}`)).status).toBe(410);
    });
  }
});
