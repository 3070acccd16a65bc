import type { FastifyRequest } from 'fastify';
import { DEFAULT_COUNTRY } from '../domain/currency';
import type { ServerConfig } from './config';

/** The visitor's IP and country, from the connection (and a trusted proxy's headers), never from the body. */
export function visitorOf(request: FastifyRequest, config: ServerConfig): { ip: string; country: string } {
  const header = config.countryHeader ? request.headers[config.countryHeader] : undefined;
  const country = typeof header === 'string' && /^[A-Za-z]{2}$/.test(header) ? header.toUpperCase() : DEFAULT_COUNTRY;
  return { ip: request.ip, country };
}
