import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatedResponses } from './contract';
import { BASIC_ORDER, Browser, createTestApp, DEMO_ACCOUNTS, freshEmail, type Answer, type TestApp } from './helper';

const expectRateLimited = (answer: Answer) => {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.body).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/^Too many attempts\. Try again in \d+ s\.$/) } });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
};

/** Sends `count` calls from one browser and returns their statuses. */
async function hammer(count: number, send: () => Promise<Answer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) statuses.push((await send()).status);
  return statuses;
}

describe('rate limits (per connection address, per call)', () => {
  // An app (and store) of their own: no other test should run into these counters.
  // Each guess is on an address of its own, so the per-account limit (tests/api/throttle.test.ts) stays out of the way.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('auth: 10 attempts a minute, then 429 in the error shape, even with the right password; another address is not affected', async () => {
    const attacker = new Browser(t.app);
    expect(await hammer(10, () => attacker.call('auth', { body: { email: freshEmail(), password: 'guess' } }))).toEqual(Array(10).fill(401));
    expectRateLimited(await attacker.call('auth', { body: { email: freshEmail(), password: 'guess' } }));
    expectRateLimited(await attacker.call('auth', { body: DEMO_ACCOUNTS.client }));
    expect((await new Browser(t.app).call('auth', { body: DEMO_ACCOUNTS.client })).status).toBe(200);
  });

  it('auth: a forged X-Forwarded-For does not buy more attempts (no trusted proxy is configured)', async () => {
    const attacker = new Browser(t.app);
    const statuses = await hammer(12, () => attacker.request({
      method: 'POST', url: '/checkout/api/auth', json: { email: freshEmail(), password: 'guess' }, headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}` },
    }));
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it('auth: the window is a minute, so the 429 asks for a wait of more than a second and at most 60 s', async () => {
    const attacker = new Browser(t.app);
    await hammer(10, () => attacker.call('auth', { body: { email: freshEmail(), password: 'guess' } }));
    const refused = await attacker.call('auth', { body: { email: freshEmail(), password: 'guess' } });
    expectRateLimited(refused);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(1);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it('resellerAuth: 10 attempts a minute, then 429', async () => {
    const attacker = new Browser(t.app);
    const wrong = () => ({ email: freshEmail(), password: 'guess', existingReseller: true });
    expect(await hammer(10, () => attacker.call('resellerAuth', { body: wrong() }))).toEqual(Array(10).fill(401));
    expectRateLimited(await attacker.call('resellerAuth', { body: wrong() }));
  });

  it('getPromotion: 30 lookups a minute, then 429', async () => {
    const guesser = new Browser(t.app);
    const statuses = await hammer(30, () => guesser.call('getPromotion', { query: { code: `GUESS${Math.floor(Math.random() * 1e6)}` } }));
    expect(statuses).toEqual(Array(30).fill(422));
    expectRateLimited(await guesser.call('getPromotion', { query: { code: 'WELCOME10' } }));
    expect((await new Browser(t.app).call('getPromotion', { query: { code: 'WELCOME10' } })).status).toBe(200);
  });

  it('order: 30 submissions a minute, then 429', async () => {
    const bot = new Browser(t.app);
    // Without a session each submission is a cheap 401, which still counts.
    expect(await hammer(30, () => bot.call('order', { body: BASIC_ORDER }))).toEqual(Array(30).fill(401));
    expectRateLimited(await bot.call('order', { body: BASIC_ORDER }));
  });

  it('authMiddleware and newAffiliateClick, which write a row for anyone: 60 a minute, then 429', async () => {
    const bot = new Browser(t.app);
    const statuses = await hammer(60, () => bot.call('authMiddleware', { body: { email: `bot${Math.floor(Math.random() * 1e9)}@spam.example` } }));
    expect(statuses).toEqual(Array(60).fill(200));
    expectRateLimited(await bot.call('authMiddleware', { body: { email: 'one-more@spam.example' } }));
    const clicker = new Browser(t.app);
    expect(await hammer(60, () => clicker.call('newAffiliateClick', { body: { aff_id: 'partner_42', referer: 'https://partner.test/deals' } }))).toEqual(Array(60).fill(200));
    expectRateLimited(await clicker.call('newAffiliateClick', { body: { aff_id: 'partner_42', referer: 'https://partner.test/deals' } }));
    expect((await new Browser(t.app).call('authMiddleware', { body: { email: 'someone@mail.test' } })).status).toBe(200);
  });

  it('calls that are not limited are not: 40 catalogue reads from one address all succeed', async () => {
    const reader = new Browser(t.app);
    expect(await hammer(40, () => reader.call('getProducts'))).toEqual(Array(40).fill(200));
  });

  it('every 429 matched the contract\'s RateLimited response', () => {
    for (const operationId of ['auth', 'authMiddleware', 'resellerAuth', 'getPromotion', 'newAffiliateClick', 'order']) expect(validatedResponses.get(operationId)?.has('429'), operationId).toBe(true);
  });
});

describe('RATE_LIMIT=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
  });
  afterAll(async () => t?.close());

  it('turns the limits per address off (for load tests and the bad-input suite)', async () => {
    const attacker = new Browser(t.app);
    expect(await hammer(11, () => attacker.call('auth', { body: { email: freshEmail(), password: 'guess' } }))).toEqual(Array(11).fill(401));
    expect(await hammer(35, () => attacker.call('order', { body: BASIC_ORDER }))).toEqual(Array(35).fill(401));
  });

  it('keeps the limit on failed sign-ins per account, which no proxy in front can enforce', async () => {
    const wrong = { email: DEMO_ACCOUNTS.client.email, password: 'guess' };
    expect(await hammer(10, () => new Browser(t.app).call('auth', { body: wrong }))).toEqual(Array(10).fill(401));
    expectRateLimited(await new Browser(t.app).call('auth', { body: DEMO_ACCOUNTS.client }));
  });
});
