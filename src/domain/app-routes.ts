import { DEFAULT_LOCALE, isLocale } from './locale';

/** Where the app is served. */
export const APP_BASE = '/checkout';

/**
 * The app's pages, each under every locale prefix (none for the default locale): the router builds its
 * routes from these paths and the server answers any other path under /checkout/ with 404.
 */
export const APP_ROUTES = {
  index: '/',
  creatingOrder: 'creatingOrder',
  waiting: 'waiting',
  success: 'success',
  upsell: 'upsell',
  renew: 'renew',
  resellers: 'resellers',
  resellersWaiting: 'resellers/waiting',
  resellersSuccess: 'resellers/success',
} as const;

// Marked pure so a bundle without isAppPage (the browser's) leaves the set out.
const PAGE_PATHS = /* @__PURE__ */ (() => new Set(Object.values(APP_ROUTES).map((path) => path.replace(/^\/$/, '').toLowerCase())))();

/**
 * A pathname's page path under /checkout, as the router reads it: without the locale prefix (one of the locales
 * other than the default, in lower case), in lower case, without slashes around it; null outside /checkout.
 */
export function pagePathOf(pathname: string): string | null {
  if (pathname !== APP_BASE && !pathname.startsWith(`${APP_BASE}/`)) return null;
  const segments = pathname.slice(APP_BASE.length).split('/').filter(Boolean);
  const [first] = segments;
  const prefixed = first !== undefined && isLocale(first) && first !== DEFAULT_LOCALE;
  return segments.slice(prefixed ? 1 : 0).join('/').toLowerCase();
}

/** A pathname under /checkout the app has a page for (page paths match in any case and with or without a trailing slash). */
export function isAppPage(pathname: string): boolean {
  const page = pagePathOf(pathname);
  return page !== null && PAGE_PATHS.has(page);
}
