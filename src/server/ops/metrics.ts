/**
 * What the shop tells its operator (README, "Operating" → "Metrics"), as the parts that measure see it. The registry
 * behind it (registry.ts, prom-client) is loaded only with OPS_PORT; without it every call goes nowhere.
 */
import type { Registry } from 'prom-client';

export type Upstream = 'whmcs' | 'coinbase' | 'hostedlink' | 'smtp';
export type WebhookResult = 'applied' | 'duplicate' | 'invalid_signature' | 'stale_timestamp' | 'bad_request' | 'exception';

/** The outbox as the store has it at a scrape. */
export interface OutboxState {
  pending: number;
  oldestPendingSeconds: number;
}

/** One transition's count over all days, as the store has it at a scrape. */
export interface FlowTransitionTotal {
  machine: string;
  transition: string;
  count: number;
}

/** What the shop tells its operator, at the moment it happens; every method is cheap (counters, histograms). */
export interface ShopMetrics {
  request(operation: string, method: string, statusCode: number, seconds: number): void;
  orderCreated(order: { gateway: string; billing: string; currency: string; amountCents: number }): void;
  orderPaid(servicesActivated: number): void;
  orderRefused(reason: string): void;
  paymentLink(gateway: string): void;
  webhook(gateway: string, result: WebhookResult): void;
  paymentException(kind: string): void;
  mailSent(): void;
  mailFailed(error: string): void;
  upstream(upstream: Upstream, action: string, seconds: number, failed: boolean): void;
  storeWait(seconds: number): void;
  shed(): void;
  render(cache: 'hit' | 'miss'): void;
}

/** The shop's metrics and the registry they are scraped from. */
export interface ScrapedMetrics extends ShopMetrics {
  readonly registry: Registry;
  /** The outbox gauges read this at each scrape (the app sets it once its store is open). */
  readOutboxFrom(read: () => Promise<OutboxState>): void;
  /** checkout_flow_transitions_total reads this at each scrape: every transition's total at FLOW_MIN_COUNT or more. */
  readFlowTransitionsFrom(read: () => Promise<FlowTransitionTotal[]>): void;
}

/** Metrics that go nowhere: for parts built without an app (scripts, unit tests). */
export const NO_METRICS: ShopMetrics = {
  request() {}, orderCreated() {}, orderPaid() {}, orderRefused() {}, paymentLink() {}, webhook() {}, paymentException() {},
  mailSent() {}, mailFailed() {}, upstream() {}, storeWait() {}, shed() {}, render() {},
};

export interface BuildInfo {
  version: string;
  commit: string;
}

/** Times one call to an outside service: its duration always, an error when it throws. */
export async function timedCall<T>(metrics: ShopMetrics, upstream: Upstream, action: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await call();
    metrics.upstream(upstream, action, (performance.now() - started) / 1000, false);
    return result;
  } catch (error) {
    metrics.upstream(upstream, action, (performance.now() - started) / 1000, true);
    throw error;
  }
}
