import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { DEMO_CATALOGUE_FILE } from '../../src/server/catalogue/load';
import { ConfigError, readConfig } from '../../src/server/config';
import { openStore } from '../../src/server/db/connect';
import { Browser, createTestApp, guestWithOrder, linkPath, type TestApp } from './helper';

const dir = mkdtempSync(join(tmpdir(), 'tvc-merchant-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The demo catalogue file with `edit` applied, written as an operator's file. */
function catalogueFile(name: string, edit: (file: Record<string, unknown>) => void): string {
  const file = parse(readFileSync(DEMO_CATALOGUE_FILE, 'utf8')) as Record<string, unknown>;
  edit(file);
  const path = join(dir, name);
  writeFileSync(path, stringify(file));
  return path;
}

// The demo's merchant, as src/server/catalogue/demo.yaml writes it.
const DEMO_MERCHANT = {
  name: 'TV Checkout Demo Ltd.',
  logo: '/checkout/demo/logo.svg',
  supportEmail: 'support@tvcheckout.test',
  supportUrl: '/checkout/demo/support',
  termsUrl: '/checkout/demo/terms',
  privacyUrl: '/checkout/demo/privacy',
  refundUrl: '/checkout/demo/refunds',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('getMerchant', () => {
  it('answers the demo catalogue\'s merchant to anyone, every field present', async () => {
    const answer = await new Browser(t.app).call('getMerchant');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual(DEMO_MERCHANT);
  });

  it('answers null for what a demo file leaves out, and the checkout\'s name when it names no merchant', async () => {
    const partial = await createTestApp({ CATALOGUE_FILE: catalogueFile('partial.yaml', (file) => { file.merchant = { name: 'Streamers B.V.', termsUrl: 'https://streamers.example/terms' }; }) });
    const none = await createTestApp({ CATALOGUE_FILE: catalogueFile('none.yaml', (file) => { delete file.merchant; }) });
    try {
      expect((await new Browser(partial.app).call('getMerchant')).body).toEqual({
        name: 'Streamers B.V.', logo: null, supportEmail: null, supportUrl: null, termsUrl: 'https://streamers.example/terms', privacyUrl: null, refundUrl: null,
      });
      expect((await new Browser(none.app).call('getMerchant')).body).toEqual({
        name: 'TV Checkout', logo: null, supportEmail: null, supportUrl: null, termsUrl: null, privacyUrl: null, refundUrl: null,
      });
    } finally {
      await Promise.all([partial.close(), none.close()]);
    }
  });

  it('lets the page load a logo from another site (Content-Security-Policy img-src)', async () => {
    const remote = await createTestApp({ CATALOGUE_FILE: catalogueFile('remote-logo.yaml', (file) => { file.merchant = { ...DEMO_MERCHANT, logo: 'https://cdn.streamers.example/logo.png' }; }) });
    try {
      const page = await new Browser(remote.app).request({ method: 'GET', url: '/checkout/' });
      expect(String(page.headers['content-security-policy'])).toMatch(/img-src 'self' data: https:\/\/cdn\.streamers\.example;/);
      const own = await new Browser(t.app).request({ method: 'GET', url: '/checkout/' });
      expect(String(own.headers['content-security-policy'])).toMatch(/img-src 'self' data:;/);
    } finally {
      await remote.close();
    }
  });
});

describe('a production start', () => {
  // GATEWAYS empty: the start goes past the catalogue and the merchant, then stops at the gateway step.
  const production = (file: string) => readConfig({
    NODE_ENV: 'production', GATEWAYS: '', DIST_DIR: inject('distDir'), CATALOGUE_FILE: file,
    SESSION_SECRET: 'production-session-secret-0123456789', ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64url'),
    SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'no-reply@shop.example',
  });
  // One store for the three starts: a refused one writes nothing, and the last one stops at the gateways.
  let store: Awaited<ReturnType<typeof openStore>>;
  beforeAll(async () => {
    store = await openStore({ engine: 'memory' });
  });
  afterAll(async () => store?.close());
  const startWith = (file: string) => {
    const config = production(file);
    return buildApp({ config, store, ports: portsFromEnvironment(config) }).then(() => null, (error: unknown) => error);
  };

  it('is refused while the catalogue file names no merchant name, terms or privacy URL, naming each missing one', async () => {
    const none = await startWith(catalogueFile('production-none.yaml', (file) => { delete file.merchant; }));
    expect(none).toBeInstanceOf(ConfigError);
    expect((none as Error).message).toMatch(/^CATALOGUE_FILE \S+production-none\.yaml has no merchant name, termsUrl, privacyUrl: production shows shoppers who sells/);
    const noPrivacy = await startWith(catalogueFile('production-no-privacy.yaml', (file) => { file.merchant = { name: 'Streamers B.V.', termsUrl: 'https://streamers.example/terms' }; }));
    expect(noPrivacy).toBeInstanceOf(ConfigError);
    expect((noPrivacy as Error).message).toMatch(/ has no merchant privacyUrl: /);
  });

  it('goes past the merchant with name, terms and privacy (support, logo and refunds may be left out)', async () => {
    const error = await startWith(catalogueFile('production-ok.yaml', (file) => {
      file.merchant = { name: 'Streamers B.V.', termsUrl: 'https://streamers.example/terms', privacyUrl: 'https://streamers.example/privacy' };
    }));
    expect((error as Error).message).toBe('GATEWAYS names no payment gateway.');
  });
});

describe('the catalogue in the shopper\'s locale', () => {
  const names = (answer: { body: { products: { name: string }[] } }) => answer.body.products.map((product) => product.name);

  it('getProducts gives the file\'s translation per locale, and the default text for a locale it does not translate', async () => {
    const browser = new Browser(t.app);
    expect(names(await browser.call('getProducts', { query: { locale: 'de-de' } }))).toEqual(['1 Monat', '6 Monate', 'Lebenslang']);
    expect(names(await browser.call('getProducts', { query: { locale: 'es-es' } }))).toEqual(['1 mes', '6 meses', 'De por vida']);
    expect(names(await browser.call('getProducts', { query: { locale: 'nl-nl' } }))).toEqual(['1 maand', '6 maanden', 'Levenslang']);
    expect(names(await browser.call('getProducts', { query: { locale: 'pt-pt' } }))).toEqual(['1 mês', '6 meses', 'Vitalício']);
    expect(names(await browser.call('getProducts', { query: { locale: 'en-gb' } }))).toEqual(['1 Month', '6 Months', 'Lifetime']);
    const english = await browser.call('getProducts');
    expect(names(english)).toEqual(['1 Month', '6 Months', 'Lifetime']);
    expect(english.body.products[1]?.description).toBe('Every channel and film, billed every 6 months.');
    const german = await browser.call('getProducts', { query: { locale: 'de-de' } });
    expect(german.body.products[1]?.description).toBe('Alle Sender und Filme, Abrechnung alle 6 Monate.');
    // Only the texts change: prices and ids are the default's.
    expect(german.body.products.map(({ name: _name, description: _description, ...rest }) => rest)).toEqual(english.body.products.map(({ name: _name, description: _description, ...rest }) => rest));
  });

  it('getProduct and getResellersProducts translate too', async () => {
    const browser = new Browser(t.app);
    expect((await browser.call('getProduct', { query: { pid: '3', locale: 'pt-pt' } })).body).toMatchObject({ pid: 3, name: 'Vitalício', description: 'Pague uma vez e veja enquanto o serviço existir.' });
    expect((await browser.call('getProduct', { query: { pid: '3', locale: 'en-gb' } })).body).toMatchObject({ name: 'Lifetime', description: 'Pay once, watch for as long as the service runs.' });
    const resellers = await browser.call('getResellersProducts', { query: { locale: 'es-es' } });
    expect(resellers.body.products.map((product) => product.name)).toEqual(['Revendedor 50 créditos', 'Revendedor 120 créditos', 'Revendedor 300 créditos', 'Activación del panel de revendedor']);
  });

  it('getGateway gives the gateways\' names per locale, without "(sandbox)", falling back to the default name', async () => {
    const browser = new Browser(t.app);
    const shown = async (locale?: 'de-de' | 'en-gb' | 'es-es') => (await browser.call('getGateway', { query: locale ? { locale } : {} })).body.paymentmethods.paymentmethod.map((gateway) => gateway.displayname);
    expect(await shown()).toEqual(['Card', 'Bitcoin']);
    expect(await shown('de-de')).toEqual(['Karte', 'Bitcoin']);
    expect(await shown('es-es')).toEqual(['Tarjeta', 'Bitcoin']);
    expect(await shown('en-gb')).toEqual(['Card', 'Bitcoin']);
  });

  it('refuses a locale the checkout does not have with 400 in the error shape', async () => {
    const answer = await new Browser(t.app).request({ method: 'GET', url: '/checkout/api/getProducts?locale=fr-fr' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });
});

describe('the hosted sandbox page', () => {
  it('shows whom the shopper pays, with support, terms, privacy and refund links and the secure-payment hint, in the checkout\'s language', async () => {
    const { order } = await guestWithOrder(t.app);
    const english = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
    expect(english.status).toBe(200);
    expect(english.text).toContain('<strong>Sold by TV Checkout Demo Ltd.</strong>');
    for (const link of ['href="mailto:support@tvcheckout.test"', 'href="/checkout/demo/support"', 'href="/checkout/demo/terms"', 'href="/checkout/demo/privacy"', 'href="/checkout/demo/refunds"']) {
      expect(english.text).toContain(link);
    }
    expect(english.text).toContain('>Terms of service</a>');
    expect(english.text).toContain('Secure payment: ');
    const german = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link), headers: { cookie: 'browserLang=de-de' } });
    expect(german.text).toContain('<footer class="merchant-footer" lang="de-DE">');
    expect(german.text).toContain('<strong>Verkauft von TV Checkout Demo Ltd.</strong>');
    expect(german.text).toContain('>AGB</a>');
  });

  it('the demo merchant\'s pages and logo are served', async () => {
    const browser = new Browser(t.app);
    for (const [path, heading] of [['/checkout/demo/terms', 'Terms of service'], ['/checkout/demo/privacy', 'Privacy policy'], ['/checkout/demo/refunds', 'Refund policy'], ['/checkout/demo/support', 'Help and support']] as const) {
      const page = await browser.request({ method: 'GET', url: path });
      expect(page.status, path).toBe(200);
      expect(page.text).toContain(`<h1>${heading}</h1>`);
    }
    const logo = await browser.request({ method: 'GET', url: '/checkout/demo/logo.svg' });
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });
});
