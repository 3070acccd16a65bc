import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../domain/locale';
import { SESSION_COOKIE, type Session, type SessionStore } from './session';
import { acceptedLanguages, serveSpa } from './spa';

/** A built SPA whose every page names itself, as vite.config.ts lays them out, without the server's render bundle (ssr/): every page is then its locale's starting shell. */
function fakeDist(withPages: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'spa-test-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), 'page index.html');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1);\n');
  if (!withPages) return dir;
  mkdirSync(join(dir, 'pages'));
  const write = (name: string) => {
    const file = join(dir, 'pages', name);
    writeFileSync(file, `page ${name}`);
    writeFileSync(`${file}.br`, brotliCompressSync(`page ${name}`));
    writeFileSync(`${file}.gz`, gzipSync(`page ${name}`));
  };
  for (const locale of LOCALES) write(`starting.${locale}.html`);
  return dir;
}

async function server(distDir: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyCookie);
  // Sessions as the store would answer them: one id per kind of visitor, any other id unknown.
  const known = (kind: 'login' | 'guest'): Session => ({ id: `hash-${kind}`, clientId: 3, email: 'ann@mail.test', kind, reach: kind === 'login' ? 'client' : 'placed', orders: [] });
  app.decorate('sessions', {
    find: async (token: string) => (token === SESSION_IDS.login ? known('login') : token === SESSION_IDS.guest ? known('guest') : null),
  } as unknown as SessionStore);
  await serveSpa(app, distDir);
  await app.ready();
  return app;
}

const SESSION_IDS = { login: 'L'.repeat(43), guest: 'G'.repeat(43), unknown: 'U'.repeat(43) };
const session = (kind: keyof typeof SESSION_IDS) => `${SESSION_COOKIE}=${SESSION_IDS[kind]}`;

describe('the pages of the SPA', () => {
  let dist: string;
  let app: FastifyInstance;
  const page = async (url: string, headers: Record<string, string> = {}) => {
    const answer = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...headers } });
    return { status: answer.statusCode, headers: answer.headers, body: answer.body };
  };

  beforeAll(async () => {
    dist = fakeDist(true);
    app = await server(dist);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    ['/checkout', 'starting.en-en.html'],
    ['/checkout/', 'starting.en-en.html'],
    ['/checkout/?pid=2&promocode=WELCOME10', 'starting.en-en.html'],
    ['/checkout/de-de', 'starting.de-de.html'],
    ['/checkout/pt-pt/', 'starting.pt-pt.html'],
    ['/checkout/waiting', 'starting.en-en.html'],
    ['/checkout/resellers/success?serviceid=4', 'starting.en-en.html'],
    ['/checkout/nl-nl/upsell', 'starting.nl-nl.html'],
    ['/checkout/de-de/renew?serviceid=3001', 'starting.de-de.html'],
  ])('GET %s is %s, never cached', async (url, name) => {
    const answer = await page(url);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(answer.body).toBe(`page ${name}`);
  });

  // Issue 16 item 11: no soft 404. The shell starts the app, which shows its translated 404 page.
  it.each([
    // The default locale has no prefix: the app shows its 404, as for any unknown path.
    ['/checkout/en-en/', 'starting.en-en.html'],
    ['/checkout/nope', 'starting.en-en.html'],
    ['/checkout/xx-yy/', 'starting.en-en.html'],
    ['/checkout/de-de/nope', 'starting.de-de.html'],
    ['/checkout/resellers/nope', 'starting.en-en.html'],
    // The folder of pages is not served as files.
    ['/checkout/pages/starting.de-de.html', 'starting.en-en.html'],
    // Nor is the server's render bundle.
    ['/checkout/ssr/entry-server.js', 'starting.en-en.html'],
  ])('GET %s is 404 with %s', async (url, name) => {
    const answer = await page(url);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(answer.body).toBe(`page ${name}`);
  });

  it('an unprefixed path is in the locale the app will pick: the language cookie, else the browser languages', async () => {
    expect((await page('/checkout/', { 'accept-language': 'nl-BE,nl;q=0.9,en;q=0.8' })).body).toBe('page starting.nl-nl.html');
    expect((await page('/checkout/', { 'accept-language': 'fr-FR, en-GB;q=0.5' })).body).toBe('page starting.en-gb.html');
    expect((await page('/checkout/waiting', { 'accept-language': 'de' })).body).toBe('page starting.de-de.html');
    expect((await page('/checkout/', { cookie: 'browserLang=es-es', 'accept-language': 'de' })).body).toBe('page starting.es-es.html');
    // A prefix wins over both.
    expect((await page('/checkout/pt-pt', { cookie: 'browserLang=es-es', 'accept-language': 'de' })).body).toBe('page starting.pt-pt.html');
  });

  it('without the render bundle a session changes nothing: the shell is the same for everyone', async () => {
    expect((await page('/checkout/de-de', { cookie: session('login') })).body).toBe('page starting.de-de.html');
    expect((await page('/checkout/', { cookie: session('guest') })).body).toBe('page starting.en-en.html');
    expect((await page('/checkout/', { cookie: session('unknown') })).body).toBe('page starting.en-en.html');
    expect((await page('/checkout/', { cookie: `${SESSION_COOKIE}=not-an-id` })).body).toBe('page starting.en-en.html');
    expect((await page('/checkout/waiting', { cookie: session('login') })).body).toBe('page starting.en-en.html');
  });

  it('sends the compressed page the browser accepts', async () => {
    const br = await app.inject({ method: 'GET', url: '/checkout/de-de', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('page starting.de-de.html');
    const gzip = await app.inject({ method: 'GET', url: '/checkout/de-de', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('page starting.de-de.html');
    expect((await page('/checkout/de-de')).headers['content-encoding']).toBeUndefined();
  });

  it('/ redirects to /checkout/, keeping a deep link\'s query', async () => {
    const root = await app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/checkout/');
    const deepLink = await app.inject({ method: 'GET', url: '/?pid=2&email=me%40example.com&auto_redirect=true' });
    expect(deepLink.headers.location).toBe('/checkout/?pid=2&email=me%40example.com&auto_redirect=true');
  });

  it('serves the assets, cached for good, and answers unknown API paths with a JSON 404', async () => {
    const asset = await page('/checkout/assets/app.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const api = await page('/checkout/api/nothing');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toEqual({ error: { code: 'not_found', message: 'No route GET /checkout/api/nothing.' } });
  });
});

describe('a build without pages', () => {
  it('serves index.html for every page', async () => {
    const dist = fakeDist(false);
    const app = await server(dist);
    try {
      for (const url of ['/checkout/', '/checkout/de-de', '/checkout/waiting']) expect((await app.inject({ method: 'GET', url })).body).toBe('page index.html');
    } finally {
      await app.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('acceptedLanguages', () => {
  it('orders the tags of Accept-Language by quality, keeping their order among equals', () => {
    expect(acceptedLanguages('de;q=0.5, nl-NL, en;q=0.9, fr')).toEqual(['nl-NL', 'fr', 'en', 'de']);
    expect(acceptedLanguages('*, es;q=0, pt')).toEqual(['pt']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
