import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../src/domain/app-routes';
import { TEST_SPA_TITLE } from './global-setup';
import { createTestApp, type TestApp } from './helper';

/** Issue 16 item 11, over real HTTP: no soft 404, and the site's root leads to the checkout. */
describe('HTTP statuses of pages', () => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  const fetchPage = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });
  const rawGet = (path: string) => new Promise<{ status: number; location: string; contentType: string }>((resolve, reject) => {
    const { port } = new URL(origin);
    const outgoing = request({ host: '127.0.0.1', port, path, method: 'GET' }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, location: String(answer.headers.location ?? ''), contentType: String(answer.headers['content-type'] ?? '') }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

  it.each(['/checkout/nope', '/checkout/xx-yy/', '/checkout/fr-fr/success', '/checkout/en-en/', '/checkout/DE-DE/waiting', '/checkout/waiting/nope', '/checkout/de-de/nope?pid=2'])(
    'GET %s is 404 with the app\'s page (it shows the translated 404), never cached',
    async (path) => {
      const answer = await fetchPage(path);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(await answer.text()).toContain(`<title>${TEST_SPA_TITLE}</title>`);
    },
  );

  // Every page of the README's list, in the default locale and under a prefix.
  const pages = Object.values(APP_ROUTES).flatMap((route) => {
    const path = route === '/' ? '' : route;
    return [`/checkout/${path}`, `/checkout/nl-nl/${path}`];
  });
  it.each(pages)('GET %s is 200 with the app\'s page', async (path) => {
    const answer = await fetchPage(path);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(`<title>${TEST_SPA_TITLE}</title>`);
  });

  it('HEAD of an unknown page is 404 too', async () => {
    expect((await fetchPage('/checkout/nope', { method: 'HEAD' })).status).toBe(404);
    expect((await fetchPage('/checkout/waiting', { method: 'HEAD' })).status).toBe(200);
  });

  it.each([
    ['/checkout/./success', '/checkout/success'],
    ['/checkout/en-gb//waiting?orderid=7', '/checkout/en-gb/waiting?orderid=7'],
    ['//checkout/', '/checkout/'],
    ['/checkout/%2e/de-de/%2E%2e/upsell', '/checkout/upsell'],
    ['/checkout/de-de/./', '/checkout/de-de/'],
  ])('%s, an unclean spelling of a page, redirects to %s', async (path, clean) => {
    // fetch would resolve dot segments itself: node's http sends the path as written.
    const answer = await rawGet(path);
    expect(answer.status).toBe(301);
    expect(answer.location).toBe(clean);
  });

  it.each(['/checkout/%5Cevil.example', '/checkout/de-de/a%5Cb', '/checkout/../../etc/passwd'])('%s is a 404 page in HTML, not the static files\' 403', async (path) => {
    const answer = await rawGet(path);
    expect(answer.status).toBe(404);
    expect(answer.contentType).toBe('text/html; charset=utf-8');
  });

  it('an unknown API path stays a JSON 404 in the one error shape', async () => {
    const answer = await fetchPage('/checkout/api/nope');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /checkout/api/nope.' } });
  });

  it('/ redirects to /checkout/ (a deep link\'s query kept), and following it reaches the checkout', async () => {
    const root = await fetchPage('/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/checkout/');
    expect((await fetchPage('/?pid=2&auto_redirect=true')).headers.get('location')).toBe('/checkout/?pid=2&auto_redirect=true');
    const followed = await fetch(`${origin}/`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${origin}/checkout/`);
    expect(await followed.text()).toContain(`<title>${TEST_SPA_TITLE}</title>`);
  });
});
