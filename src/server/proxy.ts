import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';
import type { TrustedProxies } from './config';

/** Whether the hop at `index` (0: the connection's peer) may be believed about the address before it. */
export type TrustFunction = (address: string, index: number) => boolean;

/**
 * TRUST_PROXY as a function of Fastify's: a hop count trusts that many proxies nearest the server (Fastify
 * itself no longer takes a count); addresses and CIDRs trust those proxies only.
 */
export function trustFunction(trust: TrustedProxies): TrustFunction | false {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, index) => index < trust;
  return proxyAddr.compile(trust);
}

const compiledLists = new WeakMap<string[], TrustFunction>();

/** True when the connection's peer is a trusted proxy, so its forwarded headers (country, protocol) may be read. */
export function fromTrustedProxy(request: FastifyRequest, trust: TrustedProxies): boolean {
  const peer = request.raw.socket?.remoteAddress;
  if (trust === false || peer === undefined) return false;
  if (typeof trust === 'number') return trust > 0;
  let isTrusted = compiledLists.get(trust);
  if (!isTrusted) {
    isTrusted = proxyAddr.compile(trust);
    compiledLists.set(trust, isTrusted);
  }
  return isTrusted(peer, 0);
}
