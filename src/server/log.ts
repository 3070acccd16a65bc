import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from './config';

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

/** Where a log line goes: a stream taking one JSON line at a time. */
export interface LogStream {
  write(line: string): void;
}

/** The pretty-printer's factory, as pino-pretty exports it (loaded only when it is used). */
type Prettifier = (options: { colorize: boolean; translateTime: string; ignore: string; destination?: NodeJS.WritableStream | number }) => LogStream;

/**
 * Human-readable lines for a person at a terminal: pino-pretty (a devDependency, kept out of the bundle) when
 * stdout is a TTY, outside production, and it is installed. Otherwise null: JSON lines, for log collectors.
 */
export async function terminalLogStream({
  mode, isTTY = process.stdout.isTTY === true, destination, load = async () => ((await import('pino-pretty')).default as unknown as Prettifier),
}: {
  mode: ServerConfig['mode'];
  isTTY?: boolean;
  destination?: NodeJS.WritableStream;
  load?: () => Promise<Prettifier>;
}): Promise<LogStream | null> {
  if (mode === 'production' || !isTTY) return null;
  try {
    const pretty = await load();
    return pretty({ colorize: destination === undefined, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: destination ?? 1 });
  } catch {
    // Installed without devDependencies (npm ci --omit=dev): JSON it is.
    return null;
  }
}
