/**
 * The server's render of a page (src/server/spa.ts imports the build of this file, `vite build --ssr`):
 * the app's own router at the request's URL (memory history, so the locale prefix and the entry query
 * apply as in the browser), its API calls answered in-process by the server, and React's server
 * renderer, which waits for every lazy part so the page never holds a fallback the browser replaces.
 * Runs in Node, never in the shopper's bundle.
 */
import { Writable } from 'node:stream';
import { createMemoryHistory, isRedirect } from '@tanstack/react-router';
import { renderToPipeableStream } from 'react-dom/server';
import { APP_BASE } from '../domain/app-routes';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../domain/locale';
import { LOCALE_TAGS, type Translations } from '../i18n';
import { App, createApp } from './app';
import { serverSide } from './browser';
import { documentTitle } from './components/PageTitle';
import { answerKey, type PageTranslations, type RecordedAnswer } from './dehydrated';

export { dataBlock, REQUEST_DATA_ID, SHARED_DATA_ID, type DehydratedData, type PageTranslations, type RecordedAnswer } from './dehydrated';

const TRANSLATIONS = Object.fromEntries(
  Object.entries(import.meta.glob<Translations>('../i18n/locales/*.json', { eager: true, import: 'default' })).map(([file, translations]) => [file.replace(/^.*\/([\w-]+)\.json$/, '$1'), translations]),
) as Record<Locale, Translations>;

/** One GET of the app's typed client, answered by the server in-process. */
export type ServerGet = (url: string) => Promise<{ status: number; body: unknown }>;

export interface RenderRequest {
  /** Path and query, e.g. /checkout/de-de/?pid=2. */
  url: string;
  /** The request's Cookie header: the app reads its language, affiliate and saved-state cookies from it. */
  cookie: string;
  /** Accept-Language, most preferred first. */
  browserLanguages: readonly string[];
  get: ServerGet;
  /** The clock of the render (the browser's first render of a countdown uses the same). */
  now: number;
}

export type RenderResult =
  | { kind: 'redirect'; location: string }
  | {
      kind: 'page';
      /** 200, or 404 for a path the app has no page for. */
      status: number;
      lang: string;
      title: string;
      /** The markup inside #root. */
      html: string;
      /** Resource hints of the markup (React's preloads), for the document's head. */
      head: string;
      /** Every GET the render made, in order: the page embeds them for the browser. */
      answers: RecordedAnswer[];
      /** The translations the page was rendered with: the page embeds them, so the browser hydrates with the same words. */
      translations: PageTranslations;
    };

/** Renders the page of a URL as the app does in the browser; renders share nothing, so any number run at once. */
export function renderPage(request: RenderRequest): Promise<RenderResult> {
  return render(request);
}

/** A URL without the trailing slash of its path, as the router writes its canonical URLs. */
const canonical = (url: string) => {
  const parsed = new URL(url, 'http://page.invalid');
  return `${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
};

/**
 * The router's server load redirects a URL to its canonical form (no trailing slash), which the
 * browser's router shows as it is: that page is rendered at once, as the browser would show it.
 */
async function render(request: RenderRequest): Promise<RenderResult> {
  const result = await renderOnce(request);
  if (result.kind === 'redirect' && canonical(result.location) === canonical(request.url) && result.location !== request.url) return renderOnce({ ...request, url: result.location });
  return result;
}

async function renderOnce({ url, cookie, browserLanguages, get, now }: RenderRequest): Promise<RenderResult> {
  const answers: RecordedAnswer[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    // Only reads: an automatic login or an order is the browser's to make, once it runs.
    if (request.method !== 'GET') return new Promise<Response>(() => {});
    const key = answerKey(request.url);
    const answer = await get(key);
    answers.push({ url: key, status: answer.status, body: answer.body });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  const app = createApp({
    history: createMemoryHistory({ initialEntries: [url] }),
    fetch: fetch as typeof globalThis.fetch,
    baseUrl: 'http://server-render.invalid',
    loadTranslations: async (locale) => TRANSLATIONS[locale],
    // The request's cookies and languages, read-only: no effect of a route reaches the server (no global of the browser is touched).
    page: serverSide({ cookie, languages: browserLanguages }),
    now: () => now,
    renderedAt: now,
    isServer: true,
  });
  try {
    await app.router.load();
    // What the router's server load decided (router-core's load-server: a render with its status, or a redirect).
    const decided = (app.router as unknown as { _serverResult?: { type: 'render'; status: number } | { type: 'redirect'; redirect: unknown } })._serverResult;
    if (decided?.type === 'redirect' && isRedirect(decided.redirect)) {
      const { options } = decided.redirect;
      const href = options.href ?? app.router.buildLocation(options as Parameters<typeof app.router.buildLocation>[0]).publicHref;
      // The app's own redirects name a path under the router's base; the canonical ones already include it.
      return { kind: 'redirect', location: href === APP_BASE || href.startsWith(`${APP_BASE}/`) || href.startsWith(`${APP_BASE}?`) ? href : `${APP_BASE}${href}` };
    }
    const statusCode = decided?.type === 'render' ? decided.status : 200;
    // React puts the resource hints of what it rendered (an image's preload) before the markup: they belong in the head, not in #root.
    const [, head = '', html = ''] = /^((?:<link\b[^>]*>)*)([\s\S]*)$/.exec(withoutScripts(await renderToString(<App app={app} />))) ?? [];
    const language = app.services.i18n.language;
    const locale: Locale = isLocale(language) ? language : DEFAULT_LOCALE;
    const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]*>/g, '');
    const appTitle = TRANSLATIONS[locale].app.title;
    return { kind: 'page', status: statusCode === 404 ? 404 : 200, lang: LOCALE_TAGS[locale], title: heading ? documentTitle(heading, appTitle) : appTitle, head, html, answers, translations: { locale, resources: TRANSLATIONS[locale] } };
  } finally {
    // The auth actor (and anything it started) ends with the render.
    try {
      app.services.session.auth.stop();
    } catch {
      // Not started: the session never loaded.
    }
  }
}

/** The whole markup once every Suspense boundary resolved (lazy parts included): no fallback reaches the page. */
function renderToString(element: React.ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        done();
      },
    });
    const stream = renderToPipeableStream(element, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}

/**
 * The router renders an inline scroll-restoration script on the server; the page needs none (the
 * app restores scroll itself) and the CSP allows no inline script.
 */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
}
