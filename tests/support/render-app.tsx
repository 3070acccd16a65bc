/**
 * Renders the whole app for DOM tests (tests/routes, tests/model): the real router, views and
 * machines at a URL of a memory history, with a fake `fetch` answering the API. Everything a test
 * sees is found by role and label; what would leave the page is recorded instead.
 *
 * Where each machine runs: checkout on `/checkout/` (and `/checkout/creatingOrder` for an automatic
 * order link); auth in the header and the login panels; waiting on `/checkout/waiting` and
 * `/checkout/resellers/waiting`, resumed from a `checkout` cookie holding a `payment`; upsell on
 * `/checkout/upsell` and service on `/checkout/success?serviceid=…` (both for a logged-in session);
 * reseller on `/checkout/resellers` and `/checkout/resellers/success?serviceid=…`. Pass `inspect` to
 * observe every actor the app starts, `now` for a clock of your own (fake timers work too).
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type { Locale } from '../../src/domain/locale';
import type { LoadTranslations, Translations } from '../../src/i18n';
import { App, createApp, type CreateAppOptions } from '../../src/app/app';
import { browserSide } from '../../src/app/browser';

const translationFiles = import.meta.glob<Translations>('../../src/i18n/locales/*.json', { import: 'default' });

/** The locale files, imported instead of fetched. */
export const importTranslations: LoadTranslations = (locale: Locale) => translationFiles[`../../src/i18n/locales/${locale}.json`]!();

export interface RenderAppOptions extends Omit<CreateAppOptions, 'history' | 'fetch'> {
  /** Full path with the basepath, e.g. `/checkout/de-de/waiting?…`. */
  url: string;
  /** Answers every API call. */
  fetch: typeof fetch;
  /** Cookies set before the app starts (e.g. `checkout` to resume a payment); every other cookie is cleared. */
  cookies?: Record<string, string>;
}

/** What a test can check besides the screen. */
export interface RenderedApp extends ReturnType<typeof render> {
  app: ReturnType<typeof createApp>;
  /** Payment pages the app sent the shopper to. */
  left: string[];
  /** Texts written to the clipboard. */
  copied: string[];
  /** Files downloaded. */
  downloaded: string[];
}

/** Renders the app at `url` and waits until its first route has loaded. Loading states do not linger (minLoadingMs 0) unless asked. */
export async function renderApp({ url, fetch, cookies = {}, ...options }: RenderAppOptions): Promise<RenderedApp> {
  resetCookies(cookies);
  const left: string[] = [];
  const copied: string[] = [];
  const downloaded: string[] = [];
  const app = createApp({
    minLoadingMs: 0,
    baseUrl: window.location.origin,
    browserLanguages: () => ['en-US'],
    loadTranslations: importTranslations,
    leave: (target) => left.push(target),
    copy: async (text) => void copied.push(text),
    download: (target) => downloaded.push(target),
    ...options,
    fetch,
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  const rendered = render(<App app={app} />);
  await act(() => app.router.load());
  return { ...rendered, app, left, copied, downloaded };
}

/**
 * Clears every cookie (on both paths the app writes) with an expiry in the past: a `Max-Age=0`
 * cookie stays visible in happy-dom for the rest of the millisecond, so deleting `checkout` on
 * Path=/ would add an empty `checkout` listed before the one set here; under fake timers, whose
 * Date stands still between ticks, the app would read that one and find no saved state.
 */
function resetCookies(cookies: Record<string, string>): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) for (const path of ['/', '/checkout']) browserSide().cookies.delete(name, path);
  }
  for (const [name, value] of Object.entries(cookies)) document.cookie = `${name}=${encodeURIComponent(value)}; Path=${name === 'browserLang' ? '/' : '/checkout'}`;
}
