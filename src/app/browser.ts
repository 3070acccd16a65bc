/**
 * The browser side of the app: the one module that reaches for `document`, `window`, `navigator` and
 * `location` on behalf of routes and actors. The server's render is given `serverSide` instead, which
 * reads the request and changes nothing, so no route effect (a cookie, a navigation) runs on the server.
 * Components touch the document only in effects and event handlers, which never run in the server render.
 */
import type { CookieJar } from './cookies';
import { cookieValue, requestCookies } from './cookies';

/** What the app does to the page it runs in, outside React's tree. */
export interface PageSide {
  cookies: CookieJar;
  /** The browser's languages, most preferred first. */
  languages(): readonly string[];
  /** The document's language (the server writes it into the page it sends). */
  setDocumentLanguage(tag: string): void;
  /** Leaves the SPA for a payment page. */
  leave(url: string): void;
  /** Writes to the clipboard (the success page's copy buttons). */
  copy(text: string): Promise<void>;
  /** Downloads a file the server sends as an attachment; the page stays. */
  download(url: string): void;
}

/**
 * Removes a cookie: an expiry in the past, as the server expires its own. Not `Max-Age=0`, which
 * happy-dom (the DOM tests) reads as "expires now" and keeps the empty cookie until the clock moves.
 */
const documentCookies: CookieJar = {
  read: (name) => cookieValue(document.cookie, name),
  write(name, value, { maxAgeSeconds, path = '/checkout' }) {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=${path}; SameSite=Lax${secure}`;
  },
  delete(name, path = '/checkout') {
    document.cookie = `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=${path}; SameSite=Lax`;
  },
};

/** The page in a browser. */
export function browserSide(): PageSide {
  return {
    cookies: documentCookies,
    languages: () => navigator.languages,
    setDocumentLanguage: (tag) => {
      document.documentElement.lang = tag;
    },
    leave: (url) => window.location.assign(url),
    copy: (text) => navigator.clipboard.writeText(text),
    download: (url) => {
      Object.assign(document.createElement('a'), { href: url, download: '', rel: 'noopener' }).click();
    },
  };
}

/** After a navigation the new page's h1 takes the focus, so screen readers start there. */
export function focusPageHeading(): void {
  document.querySelector<HTMLElement>('main h1')?.focus();
}

/**
 * Calls back when the browser shows this page again from its back/forward cache (back from a payment page):
 * its scripts were frozen meanwhile, so what they showed may be stale. Returns the unsubscribe.
 */
export function onPageRestored(callback: () => void): () => void {
  const listener = (event: PageTransitionEvent) => {
    if (event.persisted) callback();
  };
  window.addEventListener('pageshow', listener);
  return () => window.removeEventListener('pageshow', listener);
}

/** Calls back when the page is left (navigated away, closed, or put in the back/forward cache). Returns the unsubscribe. */
export function onPageHide(callback: () => void): () => void {
  window.addEventListener('pagehide', callback);
  return () => window.removeEventListener('pagehide', callback);
}

const RELOADED_AT = 'tvc:reloaded';

/** Reloads the page (a new deploy replaced a chunk) unless that was done within `guardMs`; false when it did not (or there is no page: the server's render). */
export function reloadForNewDeploy(guardMs: number): boolean {
  if (typeof window === 'undefined') return false;
  const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
  if (Date.now() - last <= guardMs) return false;
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  window.location.reload();
  return true;
}

/** The page in the server's render: the request's cookies and languages, and no effect at all. */
export function serverSide({ cookie, languages }: { cookie: string; languages: readonly string[] }): PageSide {
  return {
    cookies: requestCookies(cookie),
    languages: () => languages,
    setDocumentLanguage: () => {},
    leave: () => {},
    copy: async () => {},
    download: () => {},
  };
}
