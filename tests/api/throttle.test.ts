import { createHash } from 'node:crypto';
import { eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { clients, rateCounters } from '../../src/server/db/schema';
import { Browser, createTwoInstances, DEMO_ACCOUNTS, freshEmail, newAccount, type Answer, type TestApp } from './helper';

/** The issue: 10 failed sign-ins in 15 minutes lock the account. */
const FAILURES_ALLOWED = 10;
const WINDOW_S = 15 * 60;

const expectLocked = (answer: Answer, windowS = WINDOW_S) => {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.body).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/^Too many attempts\. Try again in \d+ s\.$/) } });
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
  // No session is handed out by a refused attempt.
  expect(answer.cookies.filter((cookie) => cookie.name === 'tvc_session')).toEqual([]);
};

/**
 * A client with a password, signed up through resellerAuth (as a reseller, on either backend) with its address
 * marked proved in the store, where both backends keep that; not signed in yet, so no attempt is counted.
 */
async function accountWithPassword(t: TestApp): Promise<{ email: string; password: string }> {
  const { email, password, userid } = await newAccount(t.app);
  await t.db.update(clients).set({ emailVerifiedAt: new Date() }).where(eq(clients.id, userid));
  return { email, password };
}

const signIn = (app: FastifyInstance, body: { email: string; password: string }) => new Browser(app).call('auth', { body });
const resellerSignIn = (app: FastifyInstance, body: { email: string; password: string }) => new Browser(app).call('resellerAuth', { body: { ...body, existingReseller: true } });

/** Ends every window of the account limit, as 15 minutes passing would. */
const windowsPass = (t: TestApp) => t.db.update(rateCounters).set({ resetAt: sql`now() - interval '1 second'` }).where(like(rateCounters.key, 'signin:%'));

describe('failed sign-ins per account, shared by instances on one store', () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    const both = await createTwoInstances();
    ({ second } = both);
    t = both;
  });
  afterAll(async () => t?.close());

  it('10 failures from 10 addresses over two instances lock the account: the 11th attempt, with the right password, is 429 on both', async () => {
    const account = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      // Every attempt from a new address (Browser), alternately on each instance: no per-IP limit is reached.
      const answer = await signIn(attempt % 2 ? second : t.app, { email: account.email, password: `guess-${attempt}` });
      expect(answer.status, answer.text).toBe(401);
    }
    expectLocked(await signIn(second, account));
    expectLocked(await signIn(t.app, account));
    expectLocked(await resellerSignIn(t.app, account));
  });

  it('20 wrong guesses sent at once get 10 answers of 401 and 10 of 429 (each attempt is counted before its password is checked)', async () => {
    const account = await accountWithPassword(t);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, attempt) => signIn(attempt % 2 ? second : t.app, { email: account.email, password: `guess-${attempt}` })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
  });

  it('auth and resellerAuth share one budget', async () => {
    const reseller = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      const wrong = { email: reseller.email, password: `guess-${attempt}` };
      const answer = attempt % 2 ? await resellerSignIn(second, wrong) : await signIn(t.app, wrong);
      expect(answer.status, answer.text).toBe(401);
    }
    expectLocked(await resellerSignIn(t.app, reseller));
    expectLocked(await signIn(second, reseller));
  });

  it('the lock holds whatever the case of the address', async () => {
    const account = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      expect((await signIn(t.app, { email: attempt % 2 ? account.email.toUpperCase() : account.email, password: 'guess' })).status).toBe(401);
    }
    expectLocked(await signIn(second, { email: account.email.toUpperCase(), password: account.password }));
  });

  it('an unknown address is counted and locked the same way: the same answers as a known one', async () => {
    const known = await accountWithPassword(t);
    const unknown = { email: freshEmail('nobody'), password: 'whatever-1' };
    // The seconds left differ by the time between two answers; everything else must be the same.
    const strip = (answer: Answer) => ({ status: answer.status, body: JSON.parse(JSON.stringify(answer.body ?? null).replace(/in \d+ s\./, 'in N s.')), retryAfter: answer.headers['retry-after'] !== undefined, cookies: answer.cookies.length });
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      const onKnown = await signIn(t.app, { email: known.email, password: 'guess' });
      const onUnknown = await signIn(t.app, { ...unknown, password: 'guess' });
      expect(onKnown.status).toBe(401);
      expect(strip(onUnknown)).toEqual(strip(onKnown));
    }
    const knownLocked = await signIn(second, known);
    const unknownLocked = await signIn(second, unknown);
    expectLocked(knownLocked);
    expectLocked(unknownLocked);
    expect(strip(unknownLocked)).toEqual(strip(knownLocked));
  });

  it('once the window has passed the account signs in again', async () => {
    const account = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) expect((await signIn(t.app, { email: account.email, password: 'guess' })).status).toBe(401);
    expectLocked(await signIn(t.app, account));
    await windowsPass(t);
    const browser = new Browser(second);
    const answer = await browser.call('auth', { body: account });
    expect(answer.status, answer.text).toBe(200);
    expect((await browser.call('getSession')).body).toMatchObject({ loggedIn: true, email: account.email });
  });

  it('a successful sign-in clears the account\'s failures: 9 failures, a success, then 10 more failures before the lock', async () => {
    const account = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED - 1; attempt++) expect((await signIn(t.app, { email: account.email, password: 'guess' })).status).toBe(401);
    expect((await signIn(second, account)).status).toBe(200);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) expect((await signIn(t.app, { email: account.email, password: 'guess' })).status).toBe(401);
    expectLocked(await signIn(second, account));
  });

  it('a locked account does not lock another', async () => {
    const locked = await accountWithPassword(t);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) expect((await signIn(t.app, { email: locked.email, password: 'guess' })).status).toBe(401);
    expectLocked(await signIn(t.app, locked));
    expect((await signIn(t.app, DEMO_ACCOUNTS.client)).status).toBe(200);
  });

  it('the store keeps nothing of the e-mail in clear, nor its plain SHA-256', async () => {
    const email = freshEmail('secretive');
    await signIn(t.app, { email, password: 'guess' });
    const keys = (await t.db.select({ key: rateCounters.key }).from(rateCounters).where(like(rateCounters.key, 'signin:%'))).map((row) => row.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(/^signin:[0-9a-f]{64}$/);
    const [local, domain] = email.split('@') as [string, string];
    const plainHash = createHash('sha256').update(email).digest('hex');
    const all = (await t.db.select().from(rateCounters)).map((row) => row.key).join('\n');
    for (const part of [email, local, domain, plainHash]) expect(all).not.toContain(part);
  });
});

describe('per-address rate limits, shared by instances on one store', () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    const both = await createTwoInstances();
    ({ second } = both);
    t = both;
  });
  afterAll(async () => t?.close());

  it('getPromotion (30 a minute): 15 lookups on each instance from one address, then 429 on both', async () => {
    const ip = '10.99.0.1';
    const onFirst = new Browser(t.app, ip);
    const onSecond = new Browser(second, ip);
    for (let lookup = 0; lookup < 30; lookup++) {
      const answer = await (lookup % 2 ? onSecond : onFirst).call('getPromotion', { query: { code: `GUESS${lookup}` } });
      expect(answer.status, answer.text).toBe(422);
    }
    for (const browser of [onFirst, onSecond]) {
      const answer = await browser.call('getPromotion', { query: { code: 'WELCOME10' } });
      expectLocked(answer, 60);
    }
    // Another address is counted apart.
    expect((await new Browser(second, '10.99.0.2').call('getPromotion', { query: { code: 'WELCOME10' } })).status).toBe(200);
  });

  it('expired counters are deleted by an instance as it counts (live ones are kept)', async () => {
    await t.db.insert(rateCounters).values([
      { key: 'ip:stale-1', hits: 3, resetAt: sql`now() - interval '1 minute'` },
      { key: 'ip:stale-2', hits: 3, resetAt: sql`now() - interval '1 second'` },
      { key: 'ip:live', hits: 3, resetAt: sql`now() + interval '1 minute'` },
    ]);
    // A new instance prunes at its first count.
    const third = await buildApp({ config: t.config, store: t.store, ports: portsFromEnvironment(t.config) });
    try {
      expect((await new Browser(third).call('getPromotion', { query: { code: 'WELCOME10' } })).status).toBe(200);
    } finally {
      await third.close();
    }
    const keys = (await t.db.select({ key: rateCounters.key }).from(rateCounters).where(like(rateCounters.key, 'ip:%'))).map((row) => row.key);
    expect(keys).toContain('ip:live');
    expect(keys).not.toContain('ip:stale-1');
    expect(keys).not.toContain('ip:stale-2');
    const expired = await t.db.select().from(rateCounters).where(sql`${rateCounters.resetAt} <= now()`);
    expect(expired).toEqual([]);
  });
});
