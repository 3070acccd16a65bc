/** Plain `document.cookie` access: values are URI-encoded, SameSite=Lax, Secure over HTTPS. */

import { AFFILIATE_COOKIE_MAX_AGE_S } from '../domain/constants';

/** The affiliate of this browser (90 days). */
export const AFFILIATE_COOKIE = 'affiliate';

export interface CookieOptions {
  maxAgeSeconds: number;
  path?: string;
}

/** The value of a cookie, or null. */
export function readCookie(name: string): string | null {
  for (const pair of document.cookie.split(';')) {
    const [key, ...rest] = pair.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Writes a cookie readable by the checkout's pages. */
export function writeCookie(name: string, value: string, { maxAgeSeconds, path = '/checkout' }: CookieOptions): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=${path}; SameSite=Lax${secure}`;
}

/**
 * Removes a cookie: an expiry in the past, as the server expires its own. Not `Max-Age=0`, which
 * happy-dom (the DOM tests) reads as "expires now" and keeps the empty cookie until the clock moves.
 */
export function deleteCookie(name: string, path = '/checkout'): void {
  document.cookie = `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=${path}; SameSite=Lax`;
}

/** Keeps an affiliate id for 90 days; true when it is new to this browser (its click is then recorded). */
export function rememberAffiliate(affId: string): boolean {
  if (readCookie(AFFILIATE_COOKIE) === affId) return false;
  writeCookie(AFFILIATE_COOKIE, affId, { maxAgeSeconds: AFFILIATE_COOKIE_MAX_AGE_S });
  return true;
}
