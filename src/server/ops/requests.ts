import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../db/connect';
import { HttpError } from '../http-error';
import { isPageRequest } from '../page-paths';
import type { ShopMetrics } from './metrics';

/** The operation a request is counted under: the contract's operationId (set on its route), else a page or a static file. */
export function operationOf(request: FastifyRequest): string {
  const operation = request.routeOptions.config?.operation;
  if (operation) return operation;
  return isPageRequest(request.method, request.url.split('?')[0] ?? '') ? 'page' : 'static';
}

/** The code a failed request answers with, as the error handler turns the error into one. */
function refusalCode(error: Error): string {
  if (error instanceof HttpError) return error.code;
  if ((error as { validation?: unknown }).validation) return 'bad_request';
  if (isStoreUnavailable(error)) return 'store_unavailable';
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status < 500 ? 'bad_request' : 'internal';
}

/** Every answer's time by operation, method and status class; orders refused by their code; requests shed as overloaded. */
export function measureRequests(app: FastifyInstance, metrics: ShopMetrics): void {
  // Callback hooks, not async ones: no promise per request for a few counter updates.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(operationOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const code = refusalCode(error);
    if (code === 'overloaded') metrics.shed();
    if (operationOf(request) === 'order') metrics.orderRefused(code);
    done();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's own registry, scraped on the operator listener; null without one (OPS_PORT unset). */
    metrics: import('./metrics').ScrapedMetrics | null;
  }
  interface FastifyContextConfig {
    /** The contract's operationId of the route. */
    operation?: string;
  }
}
