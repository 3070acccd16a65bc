/**
 * Affiliate links (spec: aff_id on entry; a click is recorded when the id differs from the stored cookie,
 * which lasts 7776000 s): the server records the click as it sends the page, with the page request's
 * Referer and address, and sets the cookie.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/build-if-stale';
import { affiliateClicks } from '../../src/server/db/schema';
import { createTestApp, type TestApp } from './helper';

describe('an affiliate link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DIST_DIR: join(ROOT, 'dist') });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.db.delete(affiliateClicks);
  });

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...headers }, remoteAddress: '203.0.113.7' });
  const clicks = () => t.db.select({ affId: affiliateClicks.affId, referer: affiliateClicks.referer, ip: affiliateClicks.ip }).from(affiliateClicks);

  it("records a new id's click with the page's Referer and address, and keeps the id in a 90-day cookie", async () => {
    const answer = await page('/checkout/?aff_id=partner_42', { referer: 'https://partner.test/best-tv-deals' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(await clicks()).toEqual([{ affId: 'partner_42', referer: 'https://partner.test/best-tv-deals', ip: '203.0.113.7' }]);
    const cookie = answer.cookies.find((entry) => entry.name === 'affiliate');
    expect(cookie).toMatchObject({ value: 'partner_42', path: '/checkout', maxAge: 7_776_000, sameSite: 'Lax' });
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('records nothing when the browser already has that affiliate, and again when another one brings it', async () => {
    await page('/checkout/de-de/waiting?aff_id=partner_42', { cookie: 'affiliate=partner_42' });
    expect(await clicks()).toEqual([]);
    const other = await page('/checkout/de-de/waiting?aff_id=partner_7', { cookie: 'affiliate=partner_42' });
    expect(other.statusCode).toBe(200);
    expect(await clicks()).toEqual([{ affId: 'partner_7', referer: '', ip: '203.0.113.7' }]);
  });

  it('ignores a malformed id (as the app does), and serves the page all the same', async () => {
    for (const id of ['', '%3Cscript%3E', 'a'.repeat(65), 'x%00y', 'caf%C3%A9']) {
      const answer = await page(`/checkout/?aff_id=${id}`);
      expect(answer.statusCode, id).toBe(200);
      expect(answer.cookies.find((entry) => entry.name === 'affiliate'), id).toBeUndefined();
    }
    expect(await clicks()).toEqual([]);
  });

  it("keeps the Referer to the contract's 2048 characters", async () => {
    await page('/checkout/?aff_id=long_ref', { referer: `https://partner.test/${'r'.repeat(3000)}` });
    const [click] = await clicks();
    expect(click?.referer).toHaveLength(2048);
  });

  it('of a repeated aff_id, takes the last one, as the app reads the query', async () => {
    await page('/checkout/?aff_id=first&aff_id=second');
    expect((await clicks()).map((click) => click.affId)).toEqual(['second']);
  });
});
