import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SPA_TITLE } from './global-setup';
import { Browser, guestWithOrder, createTestApp, linkPath, type Answer, type TestApp } from './helper';

describe('HTTP: security headers, unknown paths and the SPA', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await createTestApp();
    browser = new Browser(t.app);
  });
  afterAll(async () => t?.close());

  const get = (url: string) => browser.request({ method: 'GET', url });
  const expectSecurityHeaders = (answer: Answer) => {
    const csp = String(answer.headers['content-security-policy']);
    for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) {
      expect(csp).toContain(directive);
    }
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-powered-by']).toBeUndefined();
  };

  it('API answers, error answers, the sandbox page and the SPA all carry the security headers', async () => {
    const { order } = await guestWithOrder(t.app);
    const answers = {
      api: await get('/checkout/api/getProducts'),
      error: await get('/checkout/api/getProduct?pid=abc'),
      notFound: await get('/checkout/api/nothing-here'),
      sandbox: await get(linkPath(order.link)),
      spa: await get('/checkout/waiting'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({ api: 200, error: 400, notFound: 404, sandbox: 200, spa: 200 });
    for (const answer of Object.values(answers)) expectSecurityHeaders(answer);
  });

  it.each([
    ['GET', '/checkout/api/nothing-here'],
    ['POST', '/checkout/api/nothing-here'],
    ['GET', '/checkout/api/'],
    ['GET', '/checkout/api/order'],
    ['POST', '/checkout/api/getProducts'],
    ['GET', '/checkout/aff/nothing-here'],
    ['GET', '/checkout/api/webhooks'],
    ['GET', '/checkout/assets/missing.js'],
    ['GET', '/checkout/assets/'],
    ['GET', '/checkout/../package.json'],
    ['POST', '/checkout/waiting'],
    ['GET', '/elsewhere'],
  ] as const)('%s %s is a 404 error body in JSON, not the SPA', async (method, url) => {
    const answer = await browser.request({ method, url, ...(method === 'POST' ? { json: {} } : {}) });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(answer.text).not.toContain(TEST_SPA_TITLE);
  });

  // The success page carries its owner's login details: stored nowhere (no-store); the others are checked again on every use.
  it.each([
    ['/checkout', 'no-cache'], ['/checkout/', 'no-cache'], ['/checkout/en-gb/', 'no-cache'], ['/checkout/waiting', 'no-cache'], ['/checkout/success?orderid=5', 'no-store'],
    ['/checkout/de-de/success', 'no-store'], ['/checkout/resellers/waiting', 'no-cache'], ['/checkout/de-de/upsell', 'no-cache'],
  ])(
    'GET %s is the SPA\'s index.html (history fallback), never served from a cache unchecked (%s)',
    async (url, cacheControl) => {
      const answer = await get(url);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['cache-control']).toBe(cacheControl);
      expect(answer.text).toContain(`<title>${TEST_SPA_TITLE}</title>`);
    },
  );

  it('serves the SPA\'s assets, cached for good', async () => {
    const answer = await get('/checkout/assets/app.js');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.text).toContain('test build');
  });

  it('API answers are JSON in UTF-8', async () => {
    const answer = await get('/checkout/api/getGateway');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
