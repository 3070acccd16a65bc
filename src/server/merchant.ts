import type { FastifyInstance } from 'fastify';
import type { components } from '../api/schema';
import type { Locale } from '../domain/locale';
import { merchant as deDe } from '../i18n/locales/de-de.json';
import { merchant as enEn } from '../i18n/locales/en-en.json';
import { merchant as enGb } from '../i18n/locales/en-gb.json';
import { merchant as esEs } from '../i18n/locales/es-es.json';
import { merchant as nlNl } from '../i18n/locales/nl-nl.json';
import { merchant as ptPt } from '../i18n/locales/pt-pt.json';
import type { Catalogue, CatalogueTranslations } from './catalogue/load';
import type { ServerMode } from './config';
import { escapeHtml } from './escape-html';
import { CARD_CSS, serverPage } from './html-page';
import type { Handlers, RouteDeps } from './routes/types';

export type Merchant = components['schemas']['Merchant'];

/** The shop's name when a demo catalogue file names no merchant (production refuses such a file). */
export const DEMO_FALLBACK_MERCHANT_NAME = 'TV Checkout';

/** What production cannot start without: a shop shows who sells and on what terms. */
const REQUIRED_IN_PRODUCTION = ['name', 'termsUrl', 'privacyUrl'] as const;

/** The demo's own merchant pages (demoMerchantPages), which production does not serve. */
const DEMO_PAGES_PREFIX = '/checkout/demo/';
const LINK_FIELDS = ['logo', 'supportUrl', 'termsUrl', 'privacyUrl', 'refundUrl'] as const;

/** What production cannot start with in the file's merchant: a missing name, terms or privacy URL; a link to the demo's placeholder pages. */
export function merchantProblems(mode: ServerMode, catalogue: Pick<Catalogue, 'merchant' | 'merchantLines' | 'source'>): string[] {
  if (mode !== 'production') return [];
  const problems: string[] = [];
  const missing = REQUIRED_IN_PRODUCTION.filter((field) => !catalogue.merchant[field]);
  if (missing.length) problems.push(`CATALOGUE_FILE ${catalogue.source} has no merchant ${missing.join(', ')}: production shows shoppers who sells and on what terms (README, "Catalogue file", merchant:).`);
  for (const field of LINK_FIELDS) {
    const link = catalogue.merchant[field];
    if (link?.startsWith(DEMO_PAGES_PREFIX)) problems.push(`CATALOGUE_FILE ${catalogue.source} line ${catalogue.merchantLines[field] ?? 1}: merchant.${field} ${link} is a placeholder page of the demo, which production does not serve: link the shop's own page.`);
  }
  return problems;
}

/** The merchant as the contract gives it: every field present, null when the file leaves it out. */
export function merchantView(merchant: Catalogue['merchant']): Merchant {
  return {
    name: merchant.name ?? DEMO_FALLBACK_MERCHANT_NAME,
    logo: merchant.logo ?? null,
    supportEmail: merchant.supportEmail ?? null,
    supportUrl: merchant.supportUrl ?? null,
    termsUrl: merchant.termsUrl ?? null,
    privacyUrl: merchant.privacyUrl ?? null,
    refundUrl: merchant.refundUrl ?? null,
  };
}

/** The origin of a logo on another site, which the Content-Security-Policy must allow; null for a path on this server. */
export function logoOrigin(merchant: Merchant): string | null {
  return merchant.logo && /^https?:\/\//.test(merchant.logo) ? new URL(merchant.logo).origin : null;
}

type Named = { name: string; description?: string };

/** A product's name and description in `locale`: the file's translation where it has one, the default text otherwise. */
export function translatedProduct<T extends Named & { pid: number }>(product: T, locale: Locale | undefined, translations: CatalogueTranslations): T {
  const text = locale ? translations.products.get(product.pid)?.[locale] : undefined;
  if (!text) return product;
  return { ...product, name: text.name ?? product.name, ...(product.description !== undefined ? { description: text.description ?? product.description } : {}) };
}

/** A gateway's display name in `locale`, else its default name. */
export function translatedGatewayName(module: string, name: string, locale: Locale | undefined, translations: CatalogueTranslations): string {
  return (locale ? translations.gateways.get(module)?.[locale]?.name : undefined) ?? name;
}

/** The footer's labels per locale (translators keep them with the app's texts, section "merchant"). */
export const MERCHANT_LABELS: Record<Locale, typeof enEn> = {
  'en-en': enEn, 'en-gb': enGb, 'de-de': deDe, 'es-es': esEs, 'nl-nl': nlNl, 'pt-pt': ptPt,
};

/** The BCP 47 tag of a locale (en-en is plain English, as in the app). */
const languageTag = (locale: Locale) => (locale === 'en-en' ? 'en' : locale.replace(/-(\w+)$/, (_all, region: string) => `-${region.toUpperCase()}`));

/** Footer styles of the server's own pages (system colours, so both schemes read). */
export const MERCHANT_FOOTER_CSS = [
  '.merchant-footer{max-width:40rem;margin:0 auto;padding:1rem;font-size:.875rem;text-align:center}',
  '.merchant-footer ul{display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem 1rem;margin:.5rem 0 0;padding:0;list-style:none}',
  '.merchant-footer a{color:LinkText}',
  '.merchant-footer img{width:2rem;height:2rem;object-fit:contain;vertical-align:middle;margin-right:.5rem}',
].join('\n');

/**
 * The merchant footer of a page the server renders itself (the sandbox payment page): the same name,
 * links and "secure payment" hint as the app's footer (src/app/components/MerchantFooter.tsx), in `locale`.
 */
export function merchantFooterHtml(merchant: Merchant, locale: Locale): string {
  const labels = MERCHANT_LABELS[locale];
  const link = (href: string | null, text: string) => (href ? `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>` : '');
  const links = [
    merchant.supportEmail ? link(`mailto:${merchant.supportEmail}`, labels.supportEmail.replace('{{email}}', merchant.supportEmail)) : '',
    link(merchant.supportUrl, labels.support),
    link(merchant.termsUrl, labels.terms),
    link(merchant.privacyUrl, labels.privacy),
    link(merchant.refundUrl, labels.refunds),
  ].join('');
  const logo = merchant.logo ? `<img src="${escapeHtml(merchant.logo)}" alt="" width="32" height="32">` : '';
  return `<footer class="merchant-footer" lang="${languageTag(locale)}">`
    + `<p>${logo}<strong>${escapeHtml(labels.soldBy.replace('{{name}}', merchant.name))}</strong></p>`
    + `<p>${escapeHtml(labels.securePayment)}</p>`
    + (links ? `<nav aria-label="${escapeHtml(labels.label)}"><ul>${links}</ul></nav>` : '')
    + '</footer>';
}

/** getMerchant: the same answer for everyone, read from the catalogue file at start. */
export function merchantRoutes({ shop }: Pick<RouteDeps, 'shop'>): Handlers<'getMerchant'> {
  return { getMerchant: async () => shop.merchant };
}

/** The demo merchant's logo: the checkout's screen-and-play mark in a blue tile. */
const DEMO_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28" width="28" height="28"><rect width="28" height="28" rx="6" fill="#1d4ed8"/><rect x="5" y="7" width="18" height="12" rx="2" fill="none" stroke="#fff" stroke-width="2"/><path d="M12.5 10v6l5-3z" fill="#fff"/><path d="M10 23h8" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>`;

/** The pages the demo's merchant links to (src/server/catalogue/demo.yaml), standing in for a real shop's. */
const DEMO_PAGES: Record<string, { title: string; text: string }> = {
  terms: { title: 'Terms of service', text: 'A shop links its terms of service here. This demo sells nothing: no payment is taken and no service is delivered.' },
  privacy: { title: 'Privacy policy', text: 'A shop links its privacy policy here. This demo keeps what you enter in its own store on this machine and sends no mail out (it stays in the demo outbox).' },
  refunds: { title: 'Refund policy', text: 'A shop links its refund policy here. This demo takes no money, so there is nothing to refund.' },
  support: { title: 'Help and support', text: 'A shop links its help or contact page here. For this demo, see the README.' },
};

/** The demo merchant's logo and its terms, privacy, refund and support pages (demo mode only). */
export async function demoMerchantPages(app: FastifyInstance): Promise<void> {
  app.get('/checkout/demo/logo.svg', async (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(DEMO_LOGO_SVG));
  for (const [slug, { title, text }] of Object.entries(DEMO_PAGES)) {
    app.get(`/checkout/demo/${slug}`, async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache')
      .send(serverPage({ title, site: 'TV Checkout Demo Ltd.', css: CARD_CSS, demo: true, body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/checkout/">Back to the checkout</a></p>` })));
  }
}
