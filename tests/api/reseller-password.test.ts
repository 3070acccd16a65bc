import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createTestApp, DEMO_ACCOUNTS, freshEmail, storeSnapshot, type TestApp } from './helper';

/** Issue 16 item 10: a new account's password has at least 10 characters and is not the e-mail address. */
describe('a sign-up\'s password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
  });
  afterAll(async () => t?.close());

  const signUp = (browser: Browser, email: string, password: string) => browser.call('resellerAuth', { body: { email, password, existingReseller: false } });

  it.each([
    ['one character', 'x'],
    ['nine characters', '123456789'],
    // Nine characters of two UTF-16 units each: counted as characters, as the contract's minLength counts them.
    ['nine emoji', '📺📺📺📺📺📺📺📺📺'],
  ])('of %s is refused with 400 in the error shape, writes nothing and begins no session', async (_name, password) => {
    const browser = new Browser(t.app);
    const before = await storeSnapshot(t.db);
    const answer = await signUp(browser, freshEmail('short'), password);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('10 characters') } });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it.each([
    ['exactly', (email: string) => email],
    ['in capitals', (email: string) => email.toUpperCase()],
    ['in mixed case', (email: string) => email.charAt(0).toUpperCase() + email.slice(1)],
  ])('that is the e-mail address %s is refused with 400 password_is_email and writes nothing', async (_name, passwordOf) => {
    const email = freshEmail('same');
    const before = await storeSnapshot(t.db);
    const answer = await signUp(new Browser(t.app), email, passwordOf(email));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'password_is_email', message: 'Choose a password that is not your e-mail address.' } });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('an address that already has an account is refused alike, so the refusal tells nothing of the account', async () => {
    const before = await storeSnapshot(t.db);
    const known = await signUp(new Browser(t.app), DEMO_ACCOUNTS.client.email, 'short');
    const unknown = await signUp(new Browser(t.app), freshEmail('unknown'), 'short');
    expect(known.status).toBe(400);
    expect(known.text).toBe(unknown.text);
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('of exactly 10 characters, or containing the address with more, is taken', async () => {
    const email = freshEmail('ten');
    expect((await signUp(new Browser(t.app), email, '1234567890')).status).toBe(200);
    const another = freshEmail('longer');
    expect((await signUp(new Browser(t.app), another, `${another}!`)).status).toBe(200);
  });

  it('does not apply to an existing reseller\'s sign-in: a short wrong password is 401 "Email or Password Invalid", not 400', async () => {
    const answer = await new Browser(t.app).call('resellerAuth', { body: { email: DEMO_ACCOUNTS.reseller.email, password: 'short', existingReseller: true } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'invalid_credentials', message: 'Email or Password Invalid' } });
  });
});
