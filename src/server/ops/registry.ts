/**
 * The series an operator scrapes (README, "Operating" → "Metrics"): their names and labels are a contract. Each app
 * has its own registry, so apps in one process (tests) count apart. No label carries an e-mail, an id or an amount.
 * Loaded only when OPS_PORT is set (prom-client and what it loads stay out of a server that measures nothing).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BuildInfo, FlowTransitionTotal, OutboxState, ScrapedMetrics } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// An unknown label value (a new refusal code, say) is kept only when it looks like a code, never free text or a number.
const CODE = /^[a-z][a-z0-9_]{0,39}$/;
const asCode = (value: string) => (CODE.test(value) ? value : 'other');
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** A fresh registry with every series of the contract, the process defaults and the build's version. */
export function createShopMetrics(build: BuildInfo, { defaults = true, unhandledRejections = () => 0 }: { defaults?: boolean; unhandledRejections?: () => number } = {}): ScrapedMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (defaults) collectDefaultMetrics({ register: registry });
  new Gauge({ name: 'checkout_build_info', help: 'The running build: its package version and git commit', labelNames: ['version', 'commit'], registers })
    .set({ version: build.version, commit: build.commit }, 1);
  const requests = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer a request, by operation (operationId, page or static), method and status class', labelNames: ['operation', 'method', 'status'], registers });
  const ordersCreated = new Counter({ name: 'checkout_orders_created_total', help: 'Orders placed', labelNames: ['gateway', 'billing', 'currency'], registers });
  const ordersPaid = new Counter({ name: 'checkout_orders_paid_total', help: 'Orders whose invoice a payment paid', registers });
  const servicesActivated = new Counter({ name: 'checkout_services_activated_total', help: 'Services activated by a paid order', registers });
  const amount = new Counter({ name: 'checkout_order_amount_cents_total', help: 'What placed orders are for, in cents of their currency', labelNames: ['currency'], registers });
  const refused = new Counter({ name: 'checkout_orders_refused_total', help: 'Orders refused, by the code the answer carries', labelNames: ['reason'], registers });
  const links = new Counter({ name: 'checkout_payment_links_total', help: 'Payment links made', labelNames: ['gateway'], registers });
  const webhooks = new Counter({ name: 'checkout_webhooks_total', help: 'Payment events received, by what became of them', labelNames: ['gateway', 'result'], registers });
  const exceptions = new Counter({ name: 'checkout_payment_exceptions_total', help: 'Payments reported that could not be applied (npm run payments:exceptions)', labelNames: ['kind'], registers });
  const mailSent = new Counter({ name: 'checkout_outbox_sent_total', help: 'Mails sent from the outbox', registers });
  const mailFailed = new Counter({ name: 'checkout_outbox_failures_total', help: 'Mail attempts that failed, by SMTP error code', labelNames: ['error'], registers });
  const upstreamTime = new Histogram({ name: 'checkout_upstream_duration_seconds', help: 'Time of a call to WHMCS, a payment provider or the SMTP server', labelNames: ['upstream', 'action'], registers });
  const upstreamErrors = new Counter({ name: 'checkout_upstream_errors_total', help: 'Calls to WHMCS, a payment provider or the SMTP server that failed', labelNames: ['upstream', 'action'], registers });
  const storeWait = new Histogram({ name: 'checkout_store_wait_seconds', help: 'Time a request waited for its turn at the store', buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1], registers });
  const shed = new Counter({ name: 'checkout_shed_total', help: 'Requests refused 503 overloaded (the store gate or the process under pressure)', registers });
  const renders = new Counter({ name: 'checkout_render_total', help: 'Pages rendered on the server, by whether the shared part came from the cache', labelNames: ['cache'], registers });

  new Counter({
    name: 'checkout_unhandled_rejections_total', help: 'Promises rejected with no handler (bugs; the server kept serving)', registers,
    // The process counts them (src/server/process-faults.ts); a scrape reads that count.
    collect() {
      this.reset();
      this.inc(unhandledRejections());
    },
  });

  let readOutbox: (() => Promise<OutboxState>) | null = null;
  let outbox: Promise<OutboxState | null> | null = null;
  // Both gauges share one read per scrape.
  const outboxNow = () => {
    outbox ??= (readOutbox ? readOutbox().catch(() => null) : Promise.resolve(null)).finally(() => { setImmediate(() => { outbox = null; }); });
    return outbox;
  };
  new Gauge({
    // The outbox read is the scrape's one store query: whether it answered in time says whether the store is reachable.
    name: 'checkout_store_up', help: 'Whether the store answered the scrape\'s outbox read within its timeout (1) or not (0)', registers,
    async collect() {
      if (readOutbox) this.set((await outboxNow()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'checkout_outbox_pending', help: 'Mails waiting in the outbox', registers,
    async collect() {
      const state = await outboxNow();
      if (state) this.set(state.pending);
    },
  });
  new Gauge({
    name: 'checkout_outbox_oldest_pending_seconds', help: 'Age of the oldest mail waiting in the outbox (0 when none waits)', registers,
    async collect() {
      const state = await outboxNow();
      if (state) this.set(state.oldestPendingSeconds);
    },
  });

  let readFlowTransitions: (() => Promise<FlowTransitionTotal[]>) | null = null;
  new Counter({
    name: 'checkout_flow_transitions_total', help: 'Statechart transitions shoppers took (all days), by machine and transition label; absent under FLOW_MIN_COUNT', labelNames: ['machine', 'transition'], registers,
    // The totals are the store's, summed over every instance: a scrape reads them; a store that does not answer leaves the series out.
    async collect() {
      this.reset();
      const totals = readFlowTransitions ? await readFlowTransitions().catch(() => []) : [];
      for (const { machine, transition, count } of totals) this.inc({ machine, transition }, count);
    },
  });

  return {
    registry,
    readOutboxFrom(read) { readOutbox = read; },
    readFlowTransitionsFrom(read) { readFlowTransitions = read; },
    request(operation, method, statusCode, seconds) {
      requests.observe({ operation, method: METHODS.has(method) ? method : 'other', status: statusClass(statusCode) }, seconds);
    },
    orderCreated({ gateway, billing, currency, amountCents }) {
      ordersCreated.inc({ gateway, billing, currency });
      amount.inc({ currency }, amountCents);
    },
    orderPaid(count) {
      ordersPaid.inc();
      if (count > 0) servicesActivated.inc(count);
    },
    orderRefused: (reason) => refused.inc({ reason: asCode(reason) }),
    paymentLink: (gateway) => links.inc({ gateway }),
    webhook: (gateway, result) => webhooks.inc({ gateway, result }),
    paymentException: (kind) => exceptions.inc({ kind: asCode(kind) }),
    mailSent: () => mailSent.inc(),
    mailFailed: (error) => mailFailed.inc({ error: /^[A-Z0-9_]{1,40}$/.test(error) ? error : 'other' }),
    upstream(upstream, action, seconds, failed) {
      upstreamTime.observe({ upstream, action }, seconds);
      if (failed) upstreamErrors.inc({ upstream, action });
    },
    storeWait: (seconds) => storeWait.observe(seconds),
    shed: () => shed.inc(),
    render: (cache) => renders.inc({ cache }),
  };
}

