import type { Locale } from '../domain/locale';
import { demo as deDe } from '../i18n/locales/de-de.json';
import { demo as enEn } from '../i18n/locales/en-en.json';
import { demo as enGb } from '../i18n/locales/en-gb.json';
import { demo as esEs } from '../i18n/locales/es-es.json';
import { demo as nlNl } from '../i18n/locales/nl-nl.json';
import { demo as ptPt } from '../i18n/locales/pt-pt.json';
import { escapeHtml } from './escape-html';

/** "Demo — payments are simulated" in each locale (translators keep it with the app's texts, key demo.banner). */
export const DEMO_BANNER_TEXTS: Record<Locale, string> = {
  'en-en': enEn.banner,
  'en-gb': enGb.banner,
  'de-de': deDe.banner,
  'es-es': esEs.banner,
  'nl-nl': nlNl.banner,
  'pt-pt': ptPt.banner,
};


// Fixed colours in both schemes: #5c3b00 on #fff3d6 is a contrast of about 9:1 (WCAG AA asks 4.5:1).
const BANNER_STYLE = 'display:block;margin:0;padding:.25rem 1rem;background:#fff3d6;color:#5c3b00;border-bottom:1px solid #d9b36a;font:600 .875rem/1.5 system-ui,sans-serif;text-align:center';

/**
 * The demo's banner: a complementary landmark (so it is not loose content outside landmarks) that is
 * read where it stands, never announced as an alert; styled inline, so it needs nothing of the page.
 */
export function demoBannerHtml(text: string): string {
  return `<aside class="tvc-demo-banner" data-demo-banner style="${BANNER_STYLE}">${escapeHtml(text)}</aside>`;
}

/**
 * The page with the banner as the first child of <body>, outside the app's #root, so the app never
 * replaces it and it is there at first paint (nothing moves when the app starts).
 */
export function withDemoBanner(html: string, text: string): string {
  const body = /<body\b[^>]*>/i.exec(html);
  if (!body) return demoBannerHtml(text) + html;
  const at = body.index + body[0].length;
  return `${html.slice(0, at)}${demoBannerHtml(text)}${html.slice(at)}`;
}
