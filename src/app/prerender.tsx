/**
 * The first screen rendered at build time (vite.config.ts) by the app's own router, routes and views,
 * so the page the server sends already shows it: the header, the plan choice's title and lead, and
 * the placeholders the checkout shows while its catalogue loads. The browser paints it before any
 * script runs; the app keeps it on screen while it starts (StartingView), then renders the same
 * screen itself. Runs in Node (react-dom/server), never in the shopper's bundle.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToStaticMarkup } from 'react-dom/server';
import type { AuthSession } from '../../machines/auth.machine';
import { DEFAULT_COUNTRY, currencyForCountry } from '../domain/currency';
import type { Locale } from '../domain/locale';
export { LOCALES } from '../domain/locale';
import { LOCALE_TAGS, type Translations } from '../i18n';
import { App, createApp } from './app';
import { documentTitle } from './components/PageTitle';
import { localeParam } from './locale';
import { StartingView } from './views/PendingView';

/** Who asks for the page, as the server tells from the session cookie: the header and the first screen differ. */
export type PageVisitor = 'visitor' | 'guest' | 'client';
export const PAGE_VISITORS: readonly PageVisitor[] = ['visitor', 'guest', 'client'];

/** What a page needs from a prerendered screen. */
export interface PrerenderedScreen {
  /** The document's language (BCP 47). */
  lang: string;
  title: string;
  /** The markup inside #root. */
  html: string;
}

// A user of the session whose details never show on the first screen (checked below).
const STAND_IN_EMAIL = 'prerender@example.invalid';
const SESSIONS: Record<PageVisitor, AuthSession> = {
  visitor: { loggedIn: false, guest: false, userid: null, email: null },
  guest: { loggedIn: false, guest: true, userid: 'g_StandIn0Guest0Handle01', email: STAND_IN_EMAIL },
  client: { loggedIn: true, guest: false, userid: 1, email: STAND_IN_EMAIL },
};

const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));

/**
 * The index (plan choice) of a locale as the app renders it while the catalogue loads: the API
 * answers the session and the visitor's currency, and never the catalogue.
 */
export async function renderIndexScreen(locale: Locale, visitor: PageVisitor, translations: Translations): Promise<PrerenderedScreen> {
  const fetch = (input: RequestInfo | URL): Promise<Response> => {
    const { pathname } = new URL(input instanceof Request ? input.url : String(input));
    if (pathname === '/checkout/api/session') return answer(SESSIONS[visitor]);
    if (pathname === '/checkout/api/currency') return answer({ country: DEFAULT_COUNTRY, currency: currencyForCountry(DEFAULT_COUNTRY) });
    // The merchant is the running server's (its catalogue file): the build leaves the footer's box to the app.
    if (pathname === '/checkout/api/merchant') return Promise.resolve(new Response(JSON.stringify({ error: { code: 'not_found', message: 'Not known at build time.' } }), { status: 404, headers: { 'content-type': 'application/json' } }));
    return new Promise<Response>(() => {});
  };
  const prefix = localeParam(locale);
  const app = createApp({
    history: createMemoryHistory({ initialEntries: [prefix ? `/checkout/${prefix}` : '/checkout/'] }),
    fetch: fetch as typeof globalThis.fetch,
    baseUrl: 'http://prerender.invalid',
    loadTranslations: async () => translations,
    browserLanguages: () => [],
    store: { read: () => ({}), update: () => {}, clear: () => {} },
  });
  const html = await withBrowserStandIns(async () => {
    await app.router.load();
    return renderToStaticMarkup(<App app={app} />);
  });
  app.services.session.auth.stop();
  if (!html.includes('<h1') || html.includes(STAND_IN_EMAIL)) throw new Error(`prerender ${locale}/${visitor}: unexpected first screen`);
  return { lang: LOCALE_TAGS[locale], title: documentTitle(translations.checkout.title, translations.app.title), html: withoutScripts(html) };
}

/** The page of every other route while the app starts: the header and a placeholder (no text to translate). */
export function renderStartingScreen(locale: Locale): PrerenderedScreen {
  return { lang: LOCALE_TAGS[locale], title: 'TV Checkout', html: renderToStaticMarkup(<StartingView />) };
}

/**
 * The router renders an inline scroll-restoration script on the server; the page needs none (the
 * app restores scroll itself) and the CSP allows no inline script.
 */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
}

/**
 * The locale route remembers the locale in a cookie and sets the document's language: in Node there
 * is no document, so a stand-in takes both for the time of the render.
 */
async function withBrowserStandIns<T>(render: () => Promise<T>): Promise<T> {
  const scope = globalThis as { document?: unknown; location?: unknown };
  const saved = { document: scope.document, location: scope.location };
  scope.document = { cookie: '', documentElement: {} };
  scope.location = { protocol: 'https:' };
  try {
    return await render();
  } finally {
    scope.document = saved.document;
    scope.location = saved.location;
  }
}
