/**
 * Affiliate links (spec: aff_id on entry, POST /aff/new_click when the id differs from the stored cookie):
 * the server records the click as it sends the page, with the request's own Referer and address, and sets
 * the affiliate cookie. The shopper's browser runs nothing for it, so a click counts even when the script
 * never runs, and the server's render stays free of effects.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AFFILIATE_COOKIE, AFFILIATE_COOKIE_MAX_AGE_S } from '../domain/constants';
import { ENTRY_CODE } from '../domain/entry-query';
import { headersOf, PROXY_HEADERS } from './server-render';

const REFERER_MAX_LENGTH = 2048;

/** The link's affiliate id as the app reads it (the last `aff_id`, trimmed), or null when absent or malformed. */
export function affiliateOf(url: string): string | null {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return null;
  const id = new URLSearchParams(url.slice(queryAt + 1)).getAll('aff_id').at(-1)?.trim();
  return id !== undefined && ENTRY_CODE.test(id) ? id : null;
}

/**
 * Records a new affiliate's click through the contract's own operation (its validation and rate limit
 * apply), then remembers the id in the browser for 90 days. A click not recorded leaves the cookie as it was.
 */
export async function recordNewAffiliateClick(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const affId = affiliateOf(request.url);
  if (affId === null || request.cookies?.[AFFILIATE_COOKIE] === affId) return;
  const referer = typeof request.headers.referer === 'string' ? request.headers.referer.slice(0, REFERER_MAX_LENGTH) : '';
  const answer = await app.inject({
    method: 'POST',
    url: '/checkout/aff/new_click',
    headers: { ...headersOf(request, PROXY_HEADERS), 'content-type': 'application/json' },
    payload: JSON.stringify({ aff_id: affId, referer }),
    remoteAddress: request.socket?.remoteAddress ?? request.ip,
  });
  if (answer.statusCode >= 300) {
    request.log.warn({ status: answer.statusCode }, 'affiliate click not recorded');
    return;
  }
  reply.setCookie(AFFILIATE_COOKIE, affId, { path: '/checkout', maxAge: AFFILIATE_COOKIE_MAX_AGE_S, sameSite: 'lax', secure: request.protocol === 'https', httpOnly: false });
}
