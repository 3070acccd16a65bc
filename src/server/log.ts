import type { FastifyRequest } from 'fastify';

/** Path segments that are bearer tokens (a payment link's id pays an invoice), by the prefix before them. */
const TOKEN_SEGMENTS = /(\/checkout\/sandbox\/pay\/)[^/?#]+/g;

/**
 * A URL as it may be logged: query strings carry e-mails, promo codes and tokens, and payment-link ids
 * are bearer tokens, so both are replaced; the route stays readable.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(TOKEN_SEGMENTS, '$1[redacted]');
  return queryAt === -1 ? path : `${path}?[redacted]`;
}

/** Drizzle puts a failed query's parameters (e-mails, hashes) into its message; PostgreSQL puts values into `detail`. */
const redactMessage = (text: string | undefined) => (text ?? '').replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');

type LoggedError = {
  [key: string]: unknown;
  type: string;
  message: string;
  code?: unknown;
  stack: string;
  cause?: LoggedError;
};

function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]', stack: '' };
  const { code, cause } = error as Error & { code?: unknown };
  return {
    type: error.constructor.name,
    message: redactMessage(error.message),
    ...(code !== undefined ? { code } : {}),
    stack: redactMessage(error.stack),
    ...(cause !== undefined && depth < 3 ? { cause: serializeError(cause, depth + 1) } : {}),
  };
}

/**
 * Pino serializers for Fastify's logger: a request is its method and redacted URL (no headers, so no
 * cookie; no address); an error keeps its type, code and stack but none of the values a query carried.
 */
export const logSerializers = {
  req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url) }),
  err: (error: unknown) => serializeError(error),
};
