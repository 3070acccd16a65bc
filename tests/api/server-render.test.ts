import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/build-if-stale';
import { products } from '../../src/server/db/schema';
import { SEEDED_PLANS } from '../facts/catalogue';
import { Browser, createTestApp, DEMO_ACCOUNTS, localBillingOnly, loggedIn, type TestApp } from './helper';

// Issue 17 item 1: the server renders each page with the app (the real SPA build and its render bundle).
const ENTRY = '?pid=2&promocode=WELCOME10&extraconnect=1';
const CLIENT_EMAIL = DEMO_ACCOUNTS.client.email;
const REQUEST_BLOCK = /<script type="application\/json" id="tvc-request">[^<]*<\/script>/;
const cookieHeader = (browser: Browser) => [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

describe('pages rendered by the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Catalogue reads uncached, so a changed catalogue shows at once.
    t = await createTestApp({ DIST_DIR: join(ROOT, 'dist'), CATALOGUE_CACHE_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...headers } });
  const cachedPages = () => [...t.app.serverRenderer.cache.values()].map((page) => `${page.before}${page.after}`);

  it("the index holds the plans, the entry's plan chosen, and the answers it was rendered with; never cached by the browser", async () => {
    const answer = await get(`/checkout/${ENTRY}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers.vary).toBe('accept-encoding, accept-language, cookie');
    for (const plan of SEEDED_PLANS) expect(answer.body).toContain(`<span class="plan-name">${plan.name}</span>`);
    expect(answer.body).toContain('<input type="radio" name="plan" checked="" value="2"/>');
    expect(answer.body).toContain('<div id="root" data-server-rendered="">');
    expect(answer.body).toMatch(/<script type="application\/json" id="tvc-shared">\{"answers":\[\{"url":"\/checkout\/api\/[^<]*<\/script>/);
    expect(answer.body).toMatch(REQUEST_BLOCK);
    // No script is asked for by the page itself (no module script, no modulepreload): its inline loader asks after the first paint.
    expect(answer.body).not.toMatch(/<script\b[^>]*\ssrc=/);
    expect(answer.body).not.toContain('modulepreload');
    // Two inline scripts besides the data blocks (the capture in the head, the loader at the end), each allowed by its hash and nothing else inline.
    const inline = [...answer.body.matchAll(/<script(\b[^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !attributes!.includes('type="application/json"'));
    expect(inline).toHaveLength(2);
    const scriptSrc = /script-src ([^;]*)/.exec(String(answer.headers['content-security-policy']))?.[1]?.split(' ') ?? [];
    for (const [, , text] of inline) expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-"))).toHaveLength(2);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    // The loader's module is the app's, served by the server.
    const module = /<script data-src="([^"]+)">/.exec(answer.body)?.[1] ?? '';
    expect(module).toMatch(/^\/checkout\/assets\/index-[\w-]+\.js$/);
    const script = await get(module);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it("a signed-in client's e-mail is only in the response's own data block, never in the cached page", async () => {
    const client = await loggedIn(t.app);
    // No promo code: a page with one is rendered per request and never cached.
    const answer = await get('/checkout/de-de/?pid=2&extraconnect=1', { cookie: cookieHeader(client) });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain(CLIENT_EMAIL);
    expect(REQUEST_BLOCK.exec(answer.body)?.[0]).toContain(CLIENT_EMAIL);
    expect(answer.body.replace(REQUEST_BLOCK, '')).not.toContain(CLIENT_EMAIL);
    expect(cachedPages().length).toBeGreaterThan(0);
    for (const page of cachedPages()) expect(page).not.toContain(CLIENT_EMAIL);
    // A second visitor of the same kind gets the cached page with their own block.
    const again = await get('/checkout/de-de/?pid=2&extraconnect=1', { cookie: cookieHeader(client) });
    expect(again.body.replace(REQUEST_BLOCK, '')).toBe(answer.body.replace(REQUEST_BLOCK, ''));
  });

  it('a saved form or payment (the checkout cookie) is rendered for this request alone, never cached', async () => {
    const before = t.app.serverRenderer.cache.size;
    const saved = encodeURIComponent(JSON.stringify({ choices: { pid: '3', email: 'saved-choice@example.com' } }));
    const answer = await get('/checkout/nl-nl/', { cookie: `checkout=${saved}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('<input type="radio" name="plan" checked="" value="3"/>');
    expect(t.app.serverRenderer.cache.size).toBe(before);
    for (const page of cachedPages()) expect(page).not.toContain('saved-choice@example.com');
  });

  localBillingOnly('renames a plan in the local store\'s products table').it('a changed catalogue is a new version: a new page, not the cached one', async () => {
    // English: the catalogue file's translations name the plans in the other locales.
    const first = await get('/checkout/');
    const renamed = 'Six months, renamed';
    const [six] = await t.db.select().from(products).where(eq(products.pid, 2));
    await t.db.update(products).set({ name: renamed }).where(eq(products.pid, 2));
    try {
      const second = await get('/checkout/');
      expect(first.body).not.toContain(renamed);
      expect(second.body).toContain(`<span class="plan-name">${renamed}</span>`);
    } finally {
      await t.db.update(products).set({ name: six!.name }).where(eq(products.pid, 2));
    }
  });

  it('cannot be flooded by the query: 600 distinct promo codes are rendered per request and leave the plain page cached', async () => {
    const plain = await get('/checkout/es-es/');
    const cachedPlain = cachedPages().find((page) => plain.body.startsWith(page.slice(0, 200)));
    expect(cachedPlain).toBeDefined();
    const size = t.app.serverRenderer.cache.size;
    // Valid codes in other spellings and codes that do not exist: each is what a visitor could type.
    for (let index = 0; index < 600; index += 1) {
      const code = index % 3 === 0 ? `WeLcOmE10`.split('').map((letter, at) => ((index >> at) & 1 ? letter.toLowerCase() : letter.toUpperCase())).join('') : `FLOOD${index}`;
      expect((await get(`/checkout/es-es/?promocode=${code}`)).statusCode).toBe(200);
    }
    expect(t.app.serverRenderer.cache.size).toBe(size);
    expect(cachedPages()).toContain(cachedPlain);
    expect((await get('/checkout/es-es/')).body.replace(REQUEST_BLOCK, '')).toBe(plain.body.replace(REQUEST_BLOCK, ''));
  }, 120_000);

  it.each([
    ['a pid the catalogue does not sell', '?pid=999'],
    ['a malformed add-on flag', '?extraconnect=yes'],
  ])('an index with %s is rendered for its request and not cached', async (_name, query) => {
    const size = t.app.serverRenderer.cache.size;
    expect((await get(`/checkout/pt-pt/${query}`)).statusCode).toBe(200);
    expect(t.app.serverRenderer.cache.size).toBe(size);
  });

  it('a repeated pid goes to the URL the app reads (the last), never a page cached under the first', async () => {
    const size = t.app.serverRenderer.cache.size;
    const repeated = await get('/checkout/nl-nl/?pid=1&pid=2');
    expect(repeated.statusCode).toBe(302);
    expect(repeated.headers.location).toBe('/checkout/nl-nl?pid=2');
    expect(t.app.serverRenderer.cache.size).toBe(size);
    const first = await get('/checkout/nl-nl/?pid=1');
    expect(first.body).toContain('<input type="radio" name="plan" checked="" value="1"/>');
  });

  it('sends the page compressed as the browser accepts', async () => {
    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const answer = await get('/checkout/', { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(decode(answer.rawPayload).toString('utf8')).toContain(`<span class="plan-name">${SEEDED_PLANS[0]!.name}</span>`);
    }
  });

  it('an unknown path is a 404 with the translated 404 page rendered in it', async () => {
    const answer = await get('/checkout/de-de/nope');
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toContain('Diese Seite wurde nicht gefunden');
  });

  it('an unprefixed index in another language is redirected there by the server, as the app would', async () => {
    const answer = await get('/checkout/?pid=2', { 'accept-language': 'de-DE,de;q=0.9' });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe('/checkout/de-de/?pid=2');
  });
});
