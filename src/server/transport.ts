import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyReply, FastifyRequest, FastifyServerOptions, RawServerDefault } from 'fastify';
import type { ServerConfig } from './config';
import { isPageRequest } from './page-paths';

/** A longer request head (request line and headers) is refused with 431; Node's own default, said out loud. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** A real client sends its head in one packet; a head still arriving after this (or REQUEST_TIMEOUT_MS, if shorter) is a 408. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** The answer's code in the one error shape, for the statuses Node and Fastify produce before a handler runs. */
export const TRANSPORT_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

const MESSAGES: Record<number, string> = {
  400: 'The request line or a header is not valid HTTP.',
  408: 'The request did not arrive in time.',
  413: 'The request is too large.',
  431: `The request head (request line and headers) is larger than ${MAX_HEADER_BYTES / 1024} kB.`,
};

/** Node's parser and timeout errors as an HTTP status, as Node's own clientError answer maps them. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  return 400;
}

/** The raw HTTP/1.1 answer for a connection Node refused before Fastify saw a request. */
export function clientErrorResponse(status: number, { head = false }: { head?: boolean } = {}): string {
  const body = JSON.stringify({ error: { code: TRANSPORT_ERROR_CODES[status] ?? 'bad_request', message: MESSAGES[status] ?? MESSAGES[400] } });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    // An answer to HEAD has no body (RFC 9110 §9.3.2), though it says how long the body would be.
    head ? '' : body,
  ].join('\r\n');
}

/**
 * Node's clientError (bad request line or header, head over 16 kB, request or head timeout) bypasses
 * Fastify's error handler: the answer is written here, in the error shape, unless a response has begun.
 */
function answerClientError(this: { log: { debug(object: object, message: string): void } }, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = clientErrorStatus(error.code);
  this.log.debug({ code: error.code, status }, 'client error before a request');
  const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  const head = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (socket.writable && !inProgress?.headersSent) socket.end(clientErrorResponse(status, { head }));
  socket.destroy();
}

/** Fastify's own routing refusals (a URL that cannot be decoded, a path parameter over 100 characters). */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isPageRequest(request.method, request.url.split('?')[0] ?? '') && request.server.hasDecorator('sendErrorPage')) {
    void request.server.sendErrorPage(request, reply, 400);
    return;
  }
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment of the URL is too long.' : 'The URL cannot be decoded.';
  void reply.code(400).type('application/json; charset=utf-8').send({ error: { code: 'bad_request', message } });
}

/**
 * The server's timeouts and limits: a request (head and body) must arrive within REQUEST_TIMEOUT_MS, its
 * head within HEADERS_TIMEOUT_MS; an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS.
 */
export function transportOptions(config: Pick<ServerConfig, 'requestTimeoutMs' | 'keepAliveTimeoutMs'>): Pick<FastifyHttpOptions<RawServerDefault>, 'requestTimeout' | 'keepAliveTimeout' | 'http' | 'clientErrorHandler' | 'frameworkErrors'> {
  const requestTimeout = config.requestTimeoutMs;
  return {
    requestTimeout,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node looks for late requests on this interval (30 s by default), so a timeout is met within a quarter of it or 1 s.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeout / 4))),
    },
    clientErrorHandler: answerClientError as FastifyServerOptions['clientErrorHandler'],
    frameworkErrors: answerFrameworkError,
  };
}
