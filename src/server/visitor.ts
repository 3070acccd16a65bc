import type { FastifyRequest } from 'fastify';
import { DEFAULT_COUNTRY } from '../domain/currency';
import type { ServerConfig } from './config';
import { fromTrustedProxy } from './proxy';

/** The visitor's IP and country, from the connection (and a trusted proxy's headers), never from the body. */
export function visitorOf(request: FastifyRequest, config: ServerConfig): { ip: string; country: string } {
  // A country header is only as good as who set it: a client can write one too.
  const header = config.countryHeader && fromTrustedProxy(request, config.trustProxy) ? request.headers[config.countryHeader] : undefined;
  const country = typeof header === 'string' && /^[A-Za-z]{2}$/.test(header) ? header.toUpperCase() : DEFAULT_COUNTRY;
  return { ip: request.ip, country };
}
