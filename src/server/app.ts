import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance, type RouteHandlerMethod } from 'fastify';
import { createLocalBilling } from './billing/local';
import type { ServerConfig } from './config';
import type { Store } from './db/connect';
import { seedDemo } from './db/seed';
import { localFraudRules } from './fraud/local-rules';
import { HttpError } from './http-error';
import { lazySchemaCompilers } from './lazy-schemas';
import type { SpecOperation } from './openapi';
import { contractOperations } from './operations';
import { configuredGateways } from './payments/gateways';
import { sandboxPages } from './payments/sandbox';
import { catalogueRoutes } from './routes/catalogue';
import { orderRoutes } from './routes/orders';
import { paymentRoutes } from './routes/payments';
import { serviceRoutes } from './routes/services';
import { sessionRoutes } from './routes/session';
import { serveSpa } from './spa';
import { systemRoutes } from './routes/system';
import type { RouteDeps } from './routes/types';
import { refuseDemoAccounts, refuseUnsafeConfig } from './production';
import { loadSecrets } from './secrets';
import { TRANSPORT_ERROR_CODES, transportOptions } from './transport';

export interface AppOptions {
  config: ServerConfig;
  store: Store;
  /** Fill an empty store with the demo catalogue and accounts (in demo mode by default; never in production). */
  seed?: boolean;
  logger?: boolean;
}

/**
 * Per-route limits for the calls an attacker would hammer: sign-in, promo guessing, order creation, and
 * the two that write a row for anyone who asks (a guest client per e-mail, an affiliate click).
 */
const RATE_LIMITS: Record<string, { max: number; timeWindow: string }> = {
  auth: { max: 10, timeWindow: '1 minute' },
  authMiddleware: { max: 60, timeWindow: '1 minute' },
  newAffiliateClick: { max: 60, timeWindow: '1 minute' },
  resellerAuth: { max: 10, timeWindow: '1 minute' },
  getPromotion: { max: 30, timeWindow: '1 minute' },
  order: { max: 30, timeWindow: '1 minute' },
};

/** Bad input is refused, never coerced, stripped or defaulted into something else. */
export const AJV_OPTIONS = {
  customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allowUnionTypes: true, allErrors: false },
};

const ERROR_CODES: Record<number, string> = { ...TRANSPORT_ERROR_CODES, 401: 'unauthenticated', 403: 'forbidden', 405: 'method_not_allowed', 409: 'conflict', 429: 'rate_limited' };

/** Fastify's form of TRUST_PROXY: a hop count trusts that many proxies nearest the server, never more. */
function trustedProxies(trust: ServerConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the checkout server: the contract's routes, the sandbox payment page and the SPA. */
export async function buildApp({ config, store, seed = config.mode === 'demo', logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: config.logLevel } : false,
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 64 * 1024,
    schemaController: { compilersFactory: lazySchemaCompilers() },
    ajv: AJV_OPTIONS,
    ...transportOptions(config),
  });

  refuseUnsafeConfig(config);
  const secrets = await loadSecrets(config, store.db);
  if (seed && config.mode === 'demo') await seedDemo(store.db, secrets, config.serverHostname);
  const billing = createLocalBilling(store.db, { encryptionKey: secrets.encryptionKey, serverHostname: config.serverHostname, catalogueTtlMs: config.catalogueTtlMs });
  await refuseDemoAccounts(config, billing);
  const gateways = configuredGateways(config, secrets);
  const deps: RouteDeps = { config, billing, gateways, fraud: localFraudRules(config.fraud, billing), secrets, storeEngine: store.engine };

  await app.register(fastifyCookie, { secret: secrets.session });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"], formAction: ["'self'"], frameAncestors: ["'none'"], objectSrc: ["'none'"], baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpError(429, 'rate_limited', `Too many attempts. Try again in ${Math.ceil(context.ttl / 1000)} s.`),
  });

  // Every body the contract takes is JSON: text/plain is refused with 415 like any other type, not parsed into a string.
  app.removeContentTypeParser('text/plain');
  // The raw body is kept for webhook signatures, which are computed over the exact bytes sent.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    (request as { rawBody?: string }).rawBody = body as string;
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(new HttpError(400, 'bad_request', 'The body is not valid JSON.'), undefined);
    }
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body());
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      return reply.code(400).send({ error: { code: 'bad_request', message: `Invalid ${where}: ${error.message.replace(/^[a-z]+\/?/, '').trim() || 'does not match the contract'}` } });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.code(status).send({ error: { code: ERROR_CODES[status] ?? 'bad_request', message: error.message } });
    request.log.error(error);
    return reply.code(500).send({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
  });

  const handlers: Record<string, RouteHandlerMethod> = Object.assign({},
    sessionRoutes(deps), catalogueRoutes(deps), orderRoutes(deps), paymentRoutes(deps), serviceRoutes(deps), systemRoutes(deps),
  ) as Record<string, RouteHandlerMethod>;
  registerOperations(app, contractOperations(), handlers, config.rateLimit ? RATE_LIMITS : {});

  await app.register(async (scope) => sandboxPages(scope, { gateways, findPayment: (id) => billing.payment(id) }));
  await serveSpa(app, config.distDir);
  return app;
}

/** Registers every operation of the contract with its handler; a missing or extra handler stops the start. */
export function registerOperations(app: FastifyInstance, operations: SpecOperation[], handlers: Record<string, RouteHandlerMethod>, rateLimits = RATE_LIMITS): void {
  const unserved = operations.filter((operation) => !handlers[operation.operationId]).map((operation) => operation.operationId);
  const unknown = Object.keys(handlers).filter((id) => !operations.some((operation) => operation.operationId === id));
  if (unserved.length || unknown.length) {
    throw new Error(`Handlers and openapi.yaml differ. Not served: ${unserved.join(', ') || 'none'}. Not in the spec: ${unknown.join(', ') || 'none'}.`);
  }
  for (const operation of operations) {
    const limit = rateLimits[operation.operationId];
    app.route({
      method: operation.method,
      url: operation.url,
      schema: operation.schema,
      handler: handlers[operation.operationId] as RouteHandlerMethod,
      config: limit ? { rateLimit: limit } : {},
    });
  }
}
