/**
 * The operator listener: a second HTTP server, apart from the shop's, serving GET /metrics and GET /flowStats. On
 * loopback it answers anyone on the machine; on any other address only a request bearing OPS_TOKEN.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** Where the demo opens the operator listener when OPS_PORT is unset (the flow studio reads it there). */
export const DEMO_OPS_PORT = 9464;

export interface OpsSettings {
  port: number;
  host: string;
  token: string | null;
}

export interface OpsListener {
  /** Where it listens (the port chosen when OPS_PORT=0). */
  address: AddressInfo;
  close(): Promise<void>;
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

// Hashing both sides first gives equal lengths, so the comparison takes the same time whatever was sent.
const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request may read: always on loopback, else only with `Authorization: Bearer <token>` (none set: nobody). */
export function opsAuthorized(settings: Pick<OpsSettings, 'host' | 'token'>, authorization: string | undefined): boolean {
  if (isLoopbackHost(settings.host)) return true;
  if (!settings.token || !authorization?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(authorization.slice('Bearer '.length)), digest(settings.token));
}

function answer(response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
}

/** GET /flowStats: the answer for the URL's query parameters (FlowStats, or 400 in the one error shape). */
export type FlowStatsAnswer = (params: URLSearchParams) => Promise<{ status: number; body: unknown }>;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Starts the operator listener; a scrape or a read that fails answers 500 and is logged. */
export async function startOpsListener(settings: OpsSettings, registry: Registry, log: { error(fields: object, message: string): void }, flowStats: FlowStatsAnswer | null = null): Promise<OpsListener> {
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    if (!opsAuthorized(settings, request.headers.authorization)) {
      return answer(response, 401, 'text/plain; charset=utf-8', 'A bearer token (OPS_TOKEN) is required.\n', { 'www-authenticate': 'Bearer' });
    }
    const url = new URL(request.url ?? '/', 'http://ops.invalid');
    const path = url.pathname;
    if (path !== '/metrics' && (path !== '/flowStats' || !flowStats)) return answer(response, 404, 'text/plain; charset=utf-8', 'Not found.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'text/plain; charset=utf-8', 'GET only.\n', { allow: 'GET, HEAD' });
    if (path === '/flowStats' && flowStats) {
      try {
        const { status, body } = await flowStats(url.searchParams);
        return answer(response, status, JSON_TYPE, request.method === 'HEAD' ? '' : JSON.stringify(body));
      } catch (error) {
        log.error({ err: error }, 'flow stats could not be read');
        return answer(response, 500, JSON_TYPE, JSON.stringify({ error: { code: 'internal', message: 'Flow stats could not be read.' } }));
      }
    }
    try {
      const text = await registry.metrics();
      return answer(response, 200, registry.contentType, request.method === 'HEAD' ? '' : text);
    } catch (error) {
      log.error({ err: error }, 'metrics could not be collected');
      return answer(response, 500, 'text/plain; charset=utf-8', 'Metrics could not be collected.\n');
    }
  };
  const server = createServer((request, response) => { void serve(request, response); });
  // A scraper's idle connection does not hold a shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: settings.port, host: settings.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
