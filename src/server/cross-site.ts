import type { FastifyRequest } from 'fastify';
import type { TrustedProxies } from './config';
import { HttpError } from './http-error';
import { fromTrustedProxy } from './proxy';

/** Where the shop is served: its public origin, and which proxies may tell the host a shopper used. */
export interface ShopSite {
  publicUrl: string;
  trustProxy: TrustedProxies;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Whether a browser says the request comes from a page of another site: `Sec-Fetch-Site: cross-site`, or an
 * `Origin` other than the public origin (or, when a trusted proxy forwarded the host, that host's origin).
 * `same-origin`, `same-site` and `none` are not refused on their own; a request with neither header (a server,
 * curl) is not a browser's cross-site post.
 */
export function isCrossSite(request: FastifyRequest, site: ShopSite, publicOrigin = originOf(site.publicUrl)): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (origin === publicOrigin) return false;
  // The page the browser is on has this server's own address (127.0.0.1 beside a PUBLIC_URL of localhost): same origin, not a cross-site post.
  const host = request.headers.host;
  if (host !== undefined && !fromTrustedProxy(request, site.trustProxy) && origin === originOf(`${request.protocol}://${host}`)) return false;
  if (fromTrustedProxy(request, site.trustProxy) && request.headers['x-forwarded-host'] !== undefined) {
    return origin !== originOf(`${request.protocol}://${request.host}`);
  }
  return true;
}

export const crossSiteRefusal = () => new HttpError(403, 'cross_site', 'This request came from another site and was refused.');

/** An onRequest hook refusing a cross-site request before its body is read, so it changes nothing. */
export function refuseCrossSite(site: ShopSite) {
  const publicOrigin = originOf(site.publicUrl);
  return async (request: FastifyRequest): Promise<void> => {
    if (isCrossSite(request, site, publicOrigin)) throw crossSiteRefusal();
  };
}
