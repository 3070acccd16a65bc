/**
 * The server's page is in the page's locale, for all six (spec §2, §9): the visible text, the plans as the
 * catalogue names them in that locale with prices in its currency format, the data blocks the browser
 * hydrates from, and the translations it carries. Every expected string is written out here from the
 * locale files (src/i18n/locales) and the demo catalogue (src/server/catalogue/demo.yaml), never taken
 * from another render.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/build-if-stale';
import type { Locale } from '../../src/domain/locale';
import { createTestApp, localBillingOnly, type TestApp } from './helper';

/** Intl puts a no-break space between amount and symbol in these locales. */
const NBSP = '\u00a0';

interface LocalePage {
  path: string;
  lang: string;
  /** checkout.title, checkout.submit, checkout.summary of the locale file. */
  title: string;
  submit: string;
  summary: string;
  /** The three plans' cards: name (demo.yaml's translation, else the default) and price line (money in the locale's currency, then cycle.*). */
  plans: [name: string, price: string][];
  /** The sandbox gateway's name (demo.yaml's gateway translation). */
  card: string;
}

const PAGES: Record<Locale, LocalePage> = {
  'en-en': {
    path: '/checkout/',
    lang: 'en',
    title: 'Choose your TV plan',
    submit: 'Validate and pay',
    summary: 'Your order',
    plans: [['1 Month', '€12.99 per month'], ['6 Months', '€59.99 every 6 months'], ['Lifetime', '€199.00 billed once']],
    card: 'Card',
  },
  'en-gb': {
    path: '/checkout/en-gb/',
    lang: 'en-GB',
    title: 'Choose your TV plan',
    submit: 'Validate and pay',
    summary: 'Your order',
    // en-gb pays in pounds; demo.yaml leaves en-gb out, so the default names show.
    plans: [['1 Month', '£10.99 per month'], ['6 Months', '£49.99 every 6 months'], ['Lifetime', '£169.00 billed once']],
    card: 'Card',
  },
  'de-de': {
    path: '/checkout/de-de/',
    lang: 'de-DE',
    title: 'Wählen Sie Ihr TV-Paket',
    submit: 'Bestätigen und bezahlen',
    summary: 'Ihre Bestellung',
    plans: [['1 Monat', `12,99${NBSP}€ pro Monat`], ['6 Monate', `59,99${NBSP}€ alle 6 Monate`], ['Lebenslang', `199,00${NBSP}€ einmalige Zahlung`]],
    card: 'Karte',
  },
  'es-es': {
    path: '/checkout/es-es/',
    lang: 'es-ES',
    title: 'Elige tu plan de TV',
    submit: 'Validar y pagar',
    summary: 'Tu pedido',
    plans: [['1 mes', `12,99${NBSP}€ al mes`], ['6 meses', `59,99${NBSP}€ cada 6 meses`], ['De por vida', `199,00${NBSP}€ pago único`]],
    card: 'Tarjeta',
  },
  'nl-nl': {
    path: '/checkout/nl-nl/',
    lang: 'nl-NL',
    title: 'Kies je tv-abonnement',
    submit: 'Bevestigen en betalen',
    summary: 'Je bestelling',
    plans: [['1 maand', `€${NBSP}12,99 per maand`], ['6 maanden', `€${NBSP}59,99 per 6 maanden`], ['Levenslang', `€${NBSP}199,00 eenmalige betaling`]],
    card: 'Kaart',
  },
  'pt-pt': {
    path: '/checkout/pt-pt/',
    lang: 'pt-PT',
    title: 'Escolha o seu plano de TV',
    submit: 'Validar e pagar',
    summary: 'A sua encomenda',
    plans: [['1 mês', `12,99${NBSP}€ por mês`], ['6 meses', `59,99${NBSP}€ a cada 6 meses`], ['Vitalício', `199,00${NBSP}€ pagamento único`]],
    card: 'Cartão',
  },
};

/** Text of a piece of markup: tags and React's text separators dropped, entities decoded. */
const text = (html: string) =>
  html.replace(/<!-- -->/g, '').replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const all = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((match) => text(match[1] ?? ''));

/** The JSON data block of that id: the answers the render used, for the browser to hydrate from. */
function dataBlock(html: string, id: string): { answers: { url: string; status: number; body: unknown }[] } {
  const json = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html)?.[1];
  expect(json, `the ${id} block`).toBeDefined();
  return JSON.parse(json!) as { answers: { url: string; status: number; body: unknown }[] };
}

describe("the server's index page is in its locale", () => {
  let t: TestApp;
  const pages = new Map<Locale, string>();
  beforeAll(async () => {
    t = await createTestApp({ DIST_DIR: join(ROOT, 'dist') });
    for (const locale of Object.keys(PAGES) as Locale[]) {
      const answer = await t.app.inject({ method: 'GET', url: PAGES[locale].path, headers: { 'accept-encoding': 'identity' } });
      expect(answer.statusCode, PAGES[locale].path).toBe(200);
      pages.set(locale, answer.body);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(Object.keys(PAGES) as Locale[])('%s: the language, the visible text and the translations it carries', (locale) => {
    const page = PAGES[locale];
    const html = pages.get(locale)!;
    expect(/<html lang="([^"]*)">/.exec(html)?.[1]).toBe(page.lang);
    expect(all(html, /<h1\b[^>]*>([\s\S]*?)<\/h1>/g)).toEqual([page.title]);
    expect(all(html, /<button\b[^>]*type="submit"[^>]*>([\s\S]*?)<\/button>/g)).toEqual([page.submit]);
    expect(all(html, /<h2\b[^>]*>([\s\S]*?)<\/h2>/g)).toContain(page.summary);
    expect(all(html, /<span class="plan-price">([\s\S]*?)<\/span>/g)).toEqual(page.plans.map(([, price]) => price));
    // The browser hydrates with the translations the page carries (its shared data block): the locale's own file, whole.
    const shared = JSON.parse(/<script type="application\/json" id="tvc-shared">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null') as { translations?: { locale: string; resources: unknown } } | null;
    expect(shared?.translations).toEqual({ locale, resources: JSON.parse(readFileSync(join(ROOT, 'src/i18n/locales', `${locale}.json`), 'utf8')) });
    expect(html).not.toMatch(/<link rel="preload" as="fetch"/);
  });

  localBillingOnly("the demo catalogue file translates the plans' and gateways' names; WHMCS names them once").it.each(Object.keys(PAGES) as Locale[])(
    "%s: the plans and gateways by the catalogue's names in the locale, on the page and in its data block",
    (locale) => {
      const page = PAGES[locale];
      const html = pages.get(locale)!;
      const names = page.plans.map(([name]) => name);
      expect(all(html, /<span class="plan-name">([\s\S]*?)<\/span>/g)).toEqual(names);
      expect(html).toContain(`>${page.card}<`);
      const answers = dataBlock(html, 'tvc-shared').answers;
      const products = answers.find((answer) => answer.url.startsWith('/checkout/api/getProducts'));
      expect(products?.url).toBe(`/checkout/api/getProducts?locale=${locale}`);
      expect((products?.body as { products: { name: string }[] }).products.slice(0, 3).map((product) => product.name)).toEqual(names);
      const gateways = answers.find((answer) => answer.url.startsWith('/checkout/api/getGateway'));
      expect(gateways?.url).toBe(`/checkout/api/getGateway?locale=${locale}`);
      expect((gateways?.body as { paymentmethods: { paymentmethod: { module: string; displayname: string }[] } }).paymentmethods.paymentmethod.find((gateway) => gateway.module === 'sandbox')?.displayname).toBe(page.card);
    },
  );
});

describe("the server's index page follows the visitor's country (spec §4, §5)", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy that names the visitor's country, as in production.
    t = await createTestApp({ DIST_DIR: join(ROOT, 'dist'), TRUST_PROXY: '10.0.0.0/8', COUNTRY_HEADER: 'cf-ipcountry' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const requestFrom = (country: string, path: string) =>
    t.app.inject({ method: 'GET', url: path, remoteAddress: '10.0.0.9', headers: { 'accept-encoding': 'identity', 'cf-ipcountry': country } });
  const pageFrom = async (country: string, path: string) => {
    const answer = await requestFrom(country, path);
    expect(answer.statusCode, `${path} from ${country}`).toBe(200);
    return answer.body;
  };
  const planPrices = (html: string) => all(html, /<span class="plan-price">([\s\S]*?)<\/span>/g);

  it('a visitor from ES on the unprefixed index is sent to the Spanish page', async () => {
    const answer = await requestFrom('ES', '/checkout/');
    expect([answer.statusCode, answer.headers.location]).toEqual([302, '/checkout/es-es/']);
  });

  it('one locale is priced in GBP for a visitor from GB and in EUR for anyone else, whichever came first', async () => {
    // de-de has no currency of its own: GB pays in GBP, every other country in EUR (demo.yaml: 10.99, 49.99, 169 GBP).
    const british = [`10,99${NBSP}£ pro Monat`, `49,99${NBSP}£ alle 6 Monate`, `169,00${NBSP}£ einmalige Zahlung`];
    const euro = PAGES['de-de'].plans.map(([, price]) => price);
    expect(planPrices(await pageFrom('GB', '/checkout/de-de/'))).toEqual(british);
    expect(planPrices(await pageFrom('FR', '/checkout/de-de/'))).toEqual(euro);
    expect(planPrices(await pageFrom('GB', '/checkout/de-de/'))).toEqual(british);
  });
});
