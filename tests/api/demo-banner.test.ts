import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/domain/locale';
import { DEMO_BANNER_TEXT } from '../support/demo-banner-texts';
import { Browser, createTestApp, guestWithOrder, linkPath, type TestApp } from './helper';

const BANNER_TEXT = DEMO_BANNER_TEXT;

const BANNER = /<aside class="tvc-demo-banner"[^>]*>([^<]*)<\/aside>/;
const page = (name: string) => `<!doctype html><html><head><title>${name}</title></head><body><div id="root"><h1>${name}</h1></div></body></html>`;

/** A build with the starting shell of each locale (as vite.config.ts lays them out), each precompressed, without the server's render bundle. */
function distWithPages(): string {
  const dir = mkdtempSync(join(tmpdir(), 'banner-api-'));
  mkdirSync(join(dir, 'pages'), { recursive: true });
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1);\n');
  const write = (file: string, html: string) => {
    writeFileSync(file, html);
    writeFileSync(`${file}.br`, brotliCompressSync(html));
    writeFileSync(`${file}.gz`, gzipSync(html));
  };
  write(join(dir, 'index.html'), page('index.html'));
  for (const locale of LOCALES) write(join(dir, 'pages', `starting.${locale}.html`), page(`starting.${locale}`));
  return dir;
}

describe('the demo banner (demo mode, the default start)', () => {
  let dist: string;
  let t: TestApp;
  beforeAll(async () => {
    dist = distWithPages();
    t = await createTestApp({ DIST_DIR: dist });
    expect(t.config.mode).toBe('demo');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...headers } });

  it.each(LOCALES.map((locale) => [locale, locale === 'en-en' ? '/checkout/' : `/checkout/${locale}/`] as const))(
    '%s: %s carries the translated banner before #root',
    async (locale, url) => {
      const answer = await get(url);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(page(`starting.${locale}`).replace('<body>', `<body>${BANNER.exec(answer.body)?.[0]}`));
      expect(BANNER.exec(answer.body)?.[1]).toBe(BANNER_TEXT[locale]);
    },
  );

  it('every other route of a locale carries it too, and a browser that accepts br or gzip gets the bannered page compressed', async () => {
    const plain = await get('/checkout/pt-pt/upsell');
    expect(BANNER.exec(plain.body)?.[1]).toBe(BANNER_TEXT['pt-pt']);
    const br = await get('/checkout/pt-pt/upsell', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    const gz = await get('/checkout/pt-pt/upsell', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('the sandbox page carries the English banner, also when it refuses a link', async () => {
    const { order } = await guestWithOrder(t.app);
    const provider = new Browser(t.app);
    const payPage = await provider.request({ method: 'GET', url: linkPath(order.link) });
    expect(payPage.status).toBe(200);
    expect(BANNER.exec(payPage.text)?.[1]).toBe('Demo — payments are simulated');
    expect(payPage.text.indexOf('tvc-demo-banner')).toBeLessThan(payPage.text.indexOf('<main>'));
    const unknown = await provider.request({ method: 'GET', url: '/checkout/sandbox/pay/pay_doesNotExist0000000' });
    expect(unknown.status).toBe(404);
    expect(BANNER.exec(unknown.text)?.[1]).toBe('Demo — payments are simulated');
  });
});

it('with the stand-in build (no pages/), its index.html carries the English banner', async () => {
  const t = await createTestApp();
  try {
    const answer = await t.app.inject({ method: 'GET', url: '/checkout/de-de/' });
    expect(answer.statusCode).toBe(200);
    expect(BANNER.exec(answer.body)?.[1]).toBe('Demo — payments are simulated');
  } finally {
    await t.close();
  }
});
