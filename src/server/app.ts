import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, { type FastifyError, type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyRequest, type RawServerDefault, type RouteHandlerMethod } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ServerConfig } from './config';
import { isStoreUnavailable, type Store } from './db/connect';
import { applyCatalogue } from './catalogue/apply';
import { catalogueForStart, type Catalogue } from './catalogue/load';
import { DEMO_ACCOUNT_PIDS, seedDemoAccounts } from './db/seed';
import { HttpError } from './http-error';
import { isPageRequest } from './page-paths';
import { lazySchemaCompilers } from './lazy-schemas';
import { logSerializers } from './log';
import { demoOutboxPages } from './mail/demo-outbox';
import { apiDocsPage } from './api-docs';
import { inspectLiveOrigin, refuseInspectBuild } from './inspect-build';
import { mailRenderer } from './mail/render';
import { checkoutLinks } from './mail/templates';
import { startMailWorker, type MailWorker } from './mail/worker';
import { startRenewals, startUnfinishedWork } from './billing/scheduled-work';
import type { SpecOperation } from './openapi';
import { contractOperations, shareableInRender } from './operations';
import { sandboxPages } from './payments/sandbox';
import { catalogueRoutes } from './routes/catalogue';
import { orderRoutes } from './routes/orders';
import { paymentRoutes } from './routes/payments';
import { serviceRoutes } from './routes/services';
import { sessionRoutes } from './routes/session';
import { serveSpa } from './spa';
import { systemRoutes } from './routes/system';
import { flowRoutes, utcDay } from './routes/flow';
import type { RouteDeps } from './routes/types';
import { refusal, refuseDemoAccounts, unsafeConfigProblems } from './production';
import { demoMerchantPages, logoOrigin, merchantProblems, merchantRoutes, merchantView } from './merchant';
import type { Ports } from './ports';
import { trustFunction } from './proxy';
import { refuseCrossSite, type ShopSite } from './cross-site';
import { systemClock, type Clock } from './clock';
import { loadSecrets } from './secrets';
import { ACTIVATION_LINK_TTL_MS, createSignInLinks, SIGN_IN_LINK_TTL_MS, signInRoutes } from './sign-in';
import { createSessionStore } from './session';
import { createRecovery, RESUME_LINK_TTL_MS, resumeOrderRoute } from './recovery';
import { optOutPages } from './opt-out';
import { PAGE_SCRIPT_SOURCES } from './page-script-hashes';
import { createRenewalNotices, RENEWAL_LINK_TTL_MS } from './renewal-notices';
import { TRANSPORT_ERROR_CODES, transportOptions } from './transport';
import { createRateCounters, createSignInThrottle, rateLimitStore, tooManyAttempts } from './throttle';
import { buildInfo } from './ops/build-info';
import { measuredGateway } from './ops/gateways';
import { NO_METRICS, type ScrapedMetrics } from './ops/metrics';
import { outboxStateReader } from './ops/outbox';
import { flowStatsAnswer, flowTransitionTotalsReader } from './ops/flow-stats';
import { measureRequests } from './ops/requests';
import { unhandledRejectionsTotal } from './process-faults';
import { createLoopLag, createStoreGate, storeGateSettings, type Release, type StoreGate } from './store-gate';
import { tracingActive, traceLogFields } from './tracing/span';

/** What the checkout is built from: its caller gives every port (main.ts: the ones the environment names). */
export interface CheckoutOptions {
  config: ServerConfig;
  store: Store;
  /** The catalogue file as read at start (CATALOGUE_FILE, or the demo's). */
  catalogue: Catalogue;
  ports: Ports;
  /** The time the server acts on (payment deadlines, order times, caches); the wall clock by default. */
  clock?: Clock;
  /** Give a new store the demo accounts (in demo mode by default; never in production). */
  seed?: boolean;
  /** The Redoc page served at /checkout/api/docs in demo mode; build/api-docs.html by default. */
  apiDocsFile?: string;
  /** The registry this app counts into; with OPS_PORT set a fresh one by default (apps in one process never share counts). */
  metrics?: ScrapedMetrics;
}

/** Log to standard output (true), or to a stream (tests read what would be logged). */
export type ServerLogger = boolean | { stream: { write(line: string): void } };

/** HSTS for a year once the request came over HTTPS (directly, or from a trusted proxy's X-Forwarded-Proto). */
const HSTS = 'max-age=31536000';

/** Bad input is refused, never coerced, stripped or defaulted into something else. */
export const AJV_OPTIONS = {
  customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allowUnionTypes: true, allErrors: false },
};

const HEALTH_URL = '/checkout/api/health';

const ERROR_CODES: Record<number, string> = { ...TRANSPORT_ERROR_CODES, 401: 'unauthenticated', 403: 'forbidden', 405: 'method_not_allowed', 409: 'conflict', 429: 'rate_limited' };

/** Seconds a shed caller is told to wait (the pressure is sampled every second). */
const OVERLOADED_RETRY_AFTER_S = 2;
const OVERLOADED = new HttpError(503, 'overloaded', `The server is overloaded. Please try again in ${OVERLOADED_RETRY_AFTER_S} s.`);

/** A request let through the store gate: its place, and whether its handler is running (then the handler's end gives it back). */
interface Admission {
  release: Release;
  running: boolean;
}
const admissions = new WeakMap<FastifyRequest, Admission>();

/** Where the store gate sits in a route: an onRequest hook that admits or refuses, and the handler wrapped to give the place back. */
export interface StoreAdmission {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  wrap(handler: RouteHandlerMethod): RouteHandlerMethod;
}

/**
 * The store gate on a route. Admission is the route's first onRequest hook, before the rate limits (counted in the
 * store), the body and the handler: a refused request has read or written nothing. The place is given back when
 * the handler ends, or when the answer is sent or the connection closes for a request that never reached it.
 */
export function storeAdmission(gate: StoreGate, refused: (request: FastifyRequest) => void = () => {}, waited: (seconds: number) => void = () => {}): StoreAdmission {
  const admit = (request: FastifyRequest, reply: FastifyReply, release: Release) => {
    const admission: Admission = { release, running: false };
    admissions.set(request, admission);
    reply.raw.once('close', () => {
      if (!admission.running) release();
    });
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply) => {
    refused(request);
    reply.header('retry-after', String(OVERLOADED_RETRY_AFTER_S));
    throw OVERLOADED;
  };
  return {
    async onRequest(request, reply) {
      const entered = gate.enter();
      if (entered === null) return refuse(request, reply);
      if (typeof entered === 'function') {
        waited(0);
        return admit(request, reply, entered);
      }
      // Waiting for its turn: a caller that goes away leaves the line.
      const leave = () => entered.cancel();
      reply.raw.once('close', leave);
      const waitStarted = performance.now();
      const release = await entered.admitted;
      waited((performance.now() - waitStarted) / 1000);
      reply.raw.off('close', leave);
      if (!release) return refuse(request, reply);
      admit(request, reply, release);
    },
    wrap(handler) {
      return async function gated(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
        const admission = admissions.get(request);
        if (admission) admission.running = true;
        try {
          return await (handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown).call(this, request, reply);
        } finally {
          if (admission) {
            admission.running = false;
            admission.release();
          }
        }
      } as RouteHandlerMethod;
    },
  };
}

/** At most one warning per this many ms that the store gate refuses requests. */
const GATE_WARNING_INTERVAL_MS = 10_000;

/** Past the thresholds a request is answered 503 at once instead of queueing; health always answers. */
function loadSheddingOptions(limits: ServerConfig['loadShedding']) {
  return {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    maxEventLoopUtilization: limits.maxEventLoopUtilization,
    eventLoopUtilizationMode: 'interval' as const,
    pressureHandler: (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
      if (request.routeOptions.url === HEALTH_URL) return undefined;
      reply.header('retry-after', String(OVERLOADED_RETRY_AFTER_S));
      // Rejected, the request goes to the error handler, which answers in the one error shape.
      return Promise.reject(OVERLOADED);
    },
  };
}

/** The Fastify instance's options for the checkout (main.ts and the tests create it with these): log, proxies, limits, schemas. */
export function serverOptions(config: ServerConfig, logger: ServerLogger = false): FastifyHttpOptions<RawServerDefault> {
  return {
    logger: logger ? {
      level: config.logLevel, serializers: logSerializers, ...(typeof logger === 'object' ? { stream: logger.stream } : {}),
      // With tracing on, every line carries the trace id of the request (or work) it was written in.
      ...(tracingActive() ? { mixin: traceLogFields } : {}),
    } : false,
    trustProxy: trustFunction(config.trustProxy),
    bodyLimit: 64 * 1024,
    schemaController: { compilersFactory: lazySchemaCompilers() },
    ajv: AJV_OPTIONS,
    // The app's start may wait its turn behind other instances' start-up writes on one database: no 10 s plugin deadline ends it.
    pluginTimeout: 0,
    ...transportOptions(config),
  };
}

/** The checkout server as a plugin at the instance's root (its hooks, error and not-found handlers apply to every route): the contract's routes, the sandbox payment page and the SPA. */
export const checkoutApp = fastifyPlugin(async (app: FastifyInstance, options: CheckoutOptions) => {
  const { config, store, catalogue: file, ports, seed = config.mode === 'demo', clock = systemClock } = options;
  refuseInspectBuild(config);
  const catalogueStarted = performance.now();
  // Production fails closed, naming every problem at once; a shop shows who sells (name, terms, privacy, its own pages).
  const problems = [...unsafeConfigProblems(config), ...merchantProblems(config.mode, file)];
  if (problems.length) throw refusal(problems);
  const merchant = merchantView(file.merchant);
  const secrets = await store.exclusive(() => loadSecrets(config, store.db));
  // Without an operator listener (OPS_PORT unset) nobody reads the figures: nothing is measured.
  // prom-client is loaded only for a server that is scraped.
  const scraped = options.metrics ?? (config.ops.port === null ? null
    : (await import('./ops/registry')).createShopMetrics(buildInfo(), { unhandledRejections: unhandledRejectionsTotal }));
  const metrics = scraped ?? NO_METRICS;
  app.decorate('metrics', scraped);
  app.decorate('flowStats', flowStatsAnswer(store.db, config.flowAnalytics.minCount, () => utcDay(clock.now())));
  if (scraped) {
    scraped.readOutboxFrom(outboxStateReader(store.db));
    scraped.readFlowTransitionsFrom(flowTransitionTotalsReader(store.db, config.flowAnalytics.minCount));
    measureRequests(app, scraped);
  }
  let mailWorker: MailWorker | null = null;
  const portContext = { config, db: store.db, secrets, clock, metrics, mailQueued: () => mailWorker?.nudge(), log: app.log.child({ part: 'billing' }) };
  const billing = ports.billing(portContext);
  // A billing port with connections of its own (WHMCS's keep-alive agent) closes them with the app.
  app.addHook('onClose', async () => { await billing.close?.(); });
  // Before anything is written: a store holding a demo account is refused as it is.
  await refuseDemoAccounts(config, billing);
  // Instances starting together on one database write their start-up rows one at a time.
  await store.exclusive(async () => {
    // The store's catalogue is the file's at every start: the operator's CATALOGUE_FILE, or the demo's own.
    const changes = await applyCatalogue(store.db, file);
    app.log.info({ catalogue: file.source, ...changes, ms: Math.round(performance.now() - catalogueStarted) }, 'catalogue file applied');
    const demoProducts = DEMO_ACCOUNT_PIDS.every((pid) => file.products.some((product) => product.pid === pid));
    if (seed && config.mode === 'demo' && demoProducts && config.billing.kind === 'local') await seedDemoAccounts(store.db, secrets, config.serverHostname);
  });
  const gateways = ports.payments(portContext).map((gateway) => measuredGateway(gateway, metrics));
  const fraud = ports.fraud({ ...portContext, billing });
  const deps: RouteDeps = { config, billing, gateways, fraud, secrets, clock, metrics, shop: { merchant, translations: file.translations, showcase: file.showcase }, storeEngine: store.engine, pingStore: (timeoutMs) => store.ping(timeoutMs) };

  await app.register(fastifyCookie);
  app.decorate('sessions', createSessionStore(store.db, secrets.session));
  // Rate-limit counters live in the store, so every instance on it enforces one limit.
  const rateCounters = createRateCounters(store.db);
  app.decorate('signInThrottle', createSignInThrottle(rateCounters, secrets.session));
  app.decorate('signInLinks', createSignInLinks(store.db, secrets.session, config.publicUrl, rateCounters, () => mailWorker?.nudge()));
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"], scriptSrc: ["'self'", ...PAGE_SCRIPT_SOURCES], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:', ...[logoOrigin(merchant)].filter((origin) => origin !== null)],
        // A demo whose SPA was built with INSPECT=on may talk to the flow studio's live view on this machine.
        connectSrc: ["'self'", ...(config.mode === 'demo' ? [inspectLiveOrigin(config.distDir) ?? []].flat() : [])], formAction: ["'self'"], frameAncestors: ["'none'"], objectSrc: ["'none'"], baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  await app.register(fastifyRateLimit, {
    global: false,
    store: rateLimitStore(rateCounters, secrets.session),
    errorResponseBuilder: (_request, context) => tooManyAttempts(Math.ceil(context.ttl / 1000)),
  });

  if (config.loadShedding.enabled) await app.register(fastifyUnderPressure, loadSheddingOptions(config.loadShedding));

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
    // A page answers in HTML, translated, with the status the error has (a shopper's browser shows it).
    const page = isPageRequest(request.method, request.url.split('?')[0] ?? '') && app.hasDecorator('sendErrorPage');
    if (page) {
      const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
      if (status >= 500) request.log.error({ err: error }, 'page failed');
      if (error instanceof HttpError && status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '5');
      return app.sendErrorPage(request, reply, status >= 400 && status < 600 ? status : 500);
    }
    if (error instanceof HttpError) {
      // The billing system unreachable: the caller may retry shortly (the client's breaker probes again within seconds).
      if (error.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '5');
      return reply.code(error.statusCode).send(error.body());
    }
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      return reply.code(400).send({ error: { code: 'bad_request', message: `Invalid ${where}: ${error.message.replace(/^[a-z]+\/?/, '').trim() || 'does not match the contract'}` } });
    }
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'store unavailable');
      return reply.code(503).header('retry-after', '5').send({ error: { code: 'store_unavailable', message: 'The store cannot be reached right now. Please try again in a moment.' } });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.code(status).send({ error: { code: ERROR_CODES[status] ?? 'bad_request', message: error.message } });
    // The error goes through the redacting serializer; pino would copy its raw message (query parameters) into msg.
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
  });

  const recovery = createRecovery(store.db, secrets.session, config.publicUrl, clock);
  const renewals = createRenewalNotices({ db: store.db, secret: secrets.session, publicUrl: config.publicUrl, renewals: config.renewals, translations: file.translations });
  const handlers: Record<string, RouteHandlerMethod> = Object.assign({},
    sessionRoutes(deps), merchantRoutes(deps), catalogueRoutes(deps), orderRoutes(deps), paymentRoutes(deps), serviceRoutes(deps), systemRoutes(deps), signInRoutes(config),
    resumeOrderRoute({ billing, gateways, clock, recovery, publicUrl: config.publicUrl }), flowRoutes({ config, clock, db: store.db }),
  ) as Record<string, RouteHandlerMethod>;
  const gateSettings = config.loadShedding.enabled ? storeGateSettings(config.loadShedding, store) : null;
  let admission: StoreAdmission | undefined;
  if (gateSettings) {
    const loopLag = createLoopLag();
    app.addHook('onClose', async () => loopLag.stop());
    const gate = createStoreGate({ ...gateSettings, lagMs: loopLag.lagMs });
    let warnedAt = -Infinity;
    admission = storeAdmission(gate, (request) => {
      if (performance.now() - warnedAt < GATE_WARNING_INTERVAL_MS) return;
      warnedAt = performance.now();
      const { inFlight, waiting, holdMs, refused } = gate.stats();
      request.log.warn({ inFlight, waiting, holdMs: Math.round(holdMs), lagMs: Math.round(loopLag.lagMs()), refused, ...gateSettings }, 'overloaded: the store gate refuses requests (503 overloaded)');
    }, metrics.storeWait);
    app.log.info(gateSettings, 'store gate');
  }
  const operations = contractOperations();
  registerOperations(app, operations, handlers, { rateLimited: config.rateLimit, admission, site: { publicUrl: config.publicUrl, trustProxy: config.trustProxy } });

  await app.register(async (scope) => sandboxPages(scope, {
    gateways, findPayment: (id) => billing.payment(id), demo: config.mode === 'demo', merchant,
    findReceipt: (invoiceId) => billing.invoiceProgress(invoiceId, clock.now()), now: () => clock.now(),
  }));
  if (config.mode === 'demo') await app.register(async (scope) => demoMerchantPages(scope));
  const renderMail = mailRenderer({
    links: checkoutLinks(config.publicUrl), credentials: config.mail.credentials, billing, db: store.db,
    signInLink: (clientId, redirectPath, ttlMs, orderId, purpose) => app.signInLinks.create(clientId, redirectPath, ttlMs, orderId, purpose),
    ttl: { requested: SIGN_IN_LINK_TTL_MS, activation: ACTIVATION_LINK_TTL_MS, resume: RESUME_LINK_TTL_MS, renewal: RENEWAL_LINK_TTL_MS },
    recovery, renewals,
  });
  await app.register(async (scope) => optOutPages(scope, { pages: [recovery.optOutPage, renewals.optOutPage], demo: config.mode === 'demo' }));
  await app.register(async (scope) => demoOutboxPages(scope, { db: store.db, render: renderMail, demo: config.mode === 'demo', from: config.mail.from, sending: ports.mailer !== null }));
  await app.register(async (scope) => apiDocsPage(scope, { demo: config.mode === 'demo', publicUrl: config.publicUrl, file: options.apiDocsFile }));
  await serveSpa(app, config.distDir, { metrics, demoBanner: config.mode === 'demo', countryHeader: config.countryHeader, shareable: shareableInRender(operations), flowAnalytics: config.flowAnalytics.enabled });
  // Without a mailer (the demo without SMTP_URL) the mail stays in the outbox, for the demo outbox page.
  if (ports.mailer) {
    const worker = startMailWorker({
      db: store.db, transport: ports.mailer, render: renderMail,
      pollMs: config.mail.pollMs, retryMs: config.mail.retryMs, log: app.log.child({ part: 'mail' }), metrics,
    });
    mailWorker = worker;
    app.addHook('onClose', () => worker.stop());
  }
  // WHMCS's undos it refused and payments not yet applied there are retried in the server, not left to a shopper or a provider.
  if (billing.resumeUnfinished && config.billing.kind === 'whmcs') {
    const worker = startUnfinishedWork({ billing: { resumeUnfinished: billing.resumeUnfinished.bind(billing) }, pollMs: config.billing.retryPollMs, log: app.log.child({ part: 'billing-retry' }) });
    app.addHook('onClose', () => worker.stop());
  }
  // The local billing's renewals (WHMCS does its own): the start's round ends before the server answers, so its writes come first.
  const renewalRounds = billing.renewalRound
    ? startRenewals({ billing: { renewalRound: billing.renewalRound.bind(billing) }, clock, tickMs: config.renewals.tickMs, log: app.log.child({ part: 'renewals' }) })
    : null;
  if (renewalRounds) {
    app.addHook('onClose', () => renewalRounds.stop());
    await renewalRounds.first;
  }
  app.decorate('renewalRound', async () => (renewalRounds ? renewalRounds.runNow() : null));
}, { name: 'tv-checkout', fastify: '5.x' });

/** A checkout server for tests and scripts: the instance created as main.ts creates it, every port given; the catalogue is the configuration's unless given. */
export async function buildApp({ logger, catalogue, ...options }: Omit<CheckoutOptions, 'catalogue'> & { catalogue?: Catalogue; logger?: ServerLogger }): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.config, logger));
  await app.register(checkoutApp, { ...options, catalogue: catalogue ?? catalogueForStart(options.config) });
  return app;
}

async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}

/**
 * Registers every operation of the contract with its handler and its policy (openapi.yaml's x- extensions); a
 * missing or extra handler stops the start. Private answers are sent no-store; rate limits apply unless turned
 * off; with the shop's site, every POST but those allowed cross-site refuses a cross-site request with 403 before
 * anything runs; with an admission, operations not answered from memory pass the store gate.
 */
export function registerOperations(app: FastifyInstance, operations: SpecOperation[], handlers: Record<string, RouteHandlerMethod>, { rateLimited = true, admission, site = null }: { rateLimited?: boolean; admission?: StoreAdmission | undefined; site?: ShopSite | null } = {}): void {
  const unserved = operations.filter((operation) => !handlers[operation.operationId]).map((operation) => operation.operationId);
  const unknown = Object.keys(handlers).filter((id) => !operations.some((operation) => operation.operationId === id));
  if (unserved.length || unknown.length) {
    throw new Error(`Handlers and openapi.yaml differ. Not served: ${unserved.join(', ') || 'none'}. Not in the spec: ${unknown.join(', ') || 'none'}.`);
  }
  const crossSiteGuard = site ? refuseCrossSite(site) : null;
  for (const operation of operations) {
    const { policy } = operation;
    const limit = rateLimited ? policy.rateLimit : undefined;
    const handler = handlers[operation.operationId] as RouteHandlerMethod;
    const gated = admission && !policy.answeredFromMemory ? admission : null;
    // A cross-site post is refused first; no-store next (a refusal is not cached either), then the gate: the rate limit's own hook, added after these, counts in the store.
    const onRequest = [
      ...(crossSiteGuard && operation.method === 'POST' && !policy.crossSiteAllowed ? [crossSiteGuard] : []),
      ...(policy.private ? [noStore] : []),
      ...(gated ? [gated.onRequest] : []),
    ];
    const route = (scope: FastifyInstance) => scope.route({
      method: operation.method,
      url: operation.url,
      schema: operation.schema,
      ...(policy.bodyLimit ? { bodyLimit: policy.bodyLimit } : {}),
      handler: gated ? gated.wrap(handler) : handler,
      // The operationId names the request in the metrics.
      config: { operation: operation.operationId, ...(limit ? { rateLimit: limit } : {}) },
      ...(onRequest.length ? { onRequest } : {}),
    });
    // An HTML form's body is parsed only for the operations that take one, so no other call accepts a cross-site form post.
    if (operation.form) void app.register(async (scope) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
      route(scope);
    });
    else route(app);
  }
}
