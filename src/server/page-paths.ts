/** What a page request is, and the one clean spelling of its path (no dot segments, no doubled slashes). */
import { APP_BASE, APP_ROUTES, pagePathOf } from '../domain/app-routes';

/** A browser's request for a page: GET or HEAD under /checkout, not the API, an affiliate call or a built asset. */
export function isPageRequest(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path !== APP_BASE && !path.startsWith(`${APP_BASE}/`)) return false;
  return !path.startsWith(`${APP_BASE}/api/`) && !path.startsWith(`${APP_BASE}/aff/`) && !path.startsWith(`${APP_BASE}/assets/`);
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The path with `.` and `..` segments resolved (also percent-encoded, as RFC 3986 §6.2.2.3 allows) and empty
 * segments dropped; a trailing slash is kept. `/checkout/en-gb//waiting` → `/checkout/en-gb/waiting`.
 */
export function cleanPath(path: string): string {
  const kept: string[] = [];
  const segments = path.split('/').slice(1);
  for (const segment of segments) {
    if (segment === '') continue;
    if (DOT_SEGMENT.test(segment)) {
      if (segment.replace(/%2e/gi, '.') === '..') kept.pop();
      continue;
    }
    kept.push(segment);
  }
  const last = segments.at(-1) ?? '';
  const trailing = kept.length > 0 && (last === '' || DOT_SEGMENT.test(last)) ? '/' : '';
  return `/${kept.join('/')}${trailing}`;
}

/**
 * The success page, whose server render holds the signed-in owner's service credentials: sent `no-store`, so no
 * cache keeps it (which also keeps it out of the back/forward cache). Every other page is `no-cache` and may be kept there.
 */
export function carriesCredentials(path: string): boolean {
  return pagePathOf(path) === APP_ROUTES.success;
}
