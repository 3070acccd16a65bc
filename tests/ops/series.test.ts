/**
 * The dashboard and the alert rules query only series the shop serves: every metric name in their PromQL is one the
 * operators' contract lists, a default process metric of prom-client, or Prometheus's own `up`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parser } from '@prometheus-io/lezer-promql';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The series the metrics issue names as the contract with operators ("these names are the contract"), and checkout_store_up, the store's reachability at each scrape. */
const CONTRACT_COUNTERS_AND_GAUGES = [
  'checkout_orders_created_total', 'checkout_orders_paid_total', 'checkout_services_activated_total',
  'checkout_order_amount_cents_total', 'checkout_orders_refused_total',
  'checkout_payment_links_total', 'checkout_webhooks_total', 'checkout_payment_exceptions_total',
  'checkout_outbox_pending', 'checkout_outbox_oldest_pending_seconds', 'checkout_store_up', 'checkout_outbox_sent_total', 'checkout_outbox_failures_total',
  'checkout_upstream_errors_total', 'checkout_shed_total', 'checkout_render_total', 'checkout_unhandled_rejections_total',
  'checkout_build_info',
];
/** The contract's histograms: the issue names two; the store wait is a time measured the same way. */
const CONTRACT_HISTOGRAMS = ['http_request_duration_seconds', 'checkout_upstream_duration_seconds', 'checkout_store_wait_seconds'];

/** What prom-client's collectDefaultMetrics serves (prom-client 15, lib/metrics). */
const PROCESS_DEFAULTS = [
  'process_cpu_user_seconds_total', 'process_cpu_system_seconds_total', 'process_cpu_seconds_total', 'process_start_time_seconds',
  'process_resident_memory_bytes', 'process_virtual_memory_bytes', 'process_heap_bytes', 'process_open_fds', 'process_max_fds',
  'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_min_seconds', 'nodejs_eventloop_lag_max_seconds',
  'nodejs_eventloop_lag_mean_seconds', 'nodejs_eventloop_lag_stddev_seconds', 'nodejs_eventloop_lag_p50_seconds',
  'nodejs_eventloop_lag_p90_seconds', 'nodejs_eventloop_lag_p99_seconds',
  'nodejs_active_resources', 'nodejs_active_resources_total', 'nodejs_active_handles', 'nodejs_active_handles_total',
  'nodejs_active_requests', 'nodejs_active_requests_total',
  'nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_external_memory_bytes',
  'nodejs_heap_space_size_total_bytes', 'nodejs_heap_space_size_used_bytes', 'nodejs_heap_space_size_available_bytes',
  'nodejs_version_info',
];
const PROCESS_HISTOGRAMS = ['nodejs_gc_duration_seconds'];

/** Prometheus writes `up` for every target it scrapes. */
const PROMETHEUS_OWN = ['up'];

const histogramSeries = (name: string) => [`${name}_bucket`, `${name}_sum`, `${name}_count`];
const SERVED = new Set([
  ...CONTRACT_COUNTERS_AND_GAUGES, ...CONTRACT_HISTOGRAMS.flatMap(histogramSeries),
  ...PROCESS_DEFAULTS, ...PROCESS_HISTOGRAMS.flatMap(histogramSeries), ...PROMETHEUS_OWN,
]);

/** Grafana's own variables stand for a range where PromQL expects one. */
const withGrafanaRanges = (expr: string) => expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');

/** The metric names an expression selects, from the PromQL grammar Prometheus's own UI parses with. */
function metricNames(expr: string): string[] {
  const source = withGrafanaRanges(expr);
  const names: string[] = [];
  const errors: string[] = [];
  parser.parse(source).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') names.push(source.slice(node.from, node.to));
    },
  });
  if (errors.length > 0) throw new Error(`not PromQL (${errors.join(', ')}): ${expr}`);
  return names;
}

interface Rule { alert: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> }
const rules = (parseYaml(readFileSync(`${ROOT}ops/prometheus/alerts.yml`, 'utf8')) as { groups: { rules: Rule[] }[] })
  .groups.flatMap((group) => group.rules);

interface Panel { title?: string; type: string; targets?: { expr: string }[]; panels?: Panel[] }
const dashboard = JSON.parse(readFileSync(`${ROOT}ops/grafana/checkout.json`, 'utf8')) as {
  panels: Panel[]; templating: { list: { name: string; query?: { query: string } | string }[] };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');
const panelExprs = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: panel.title ?? '', expr: target.expr })));
/** A query variable's label_values(metric, label) names its metric. */
const variableMetrics = dashboard.templating.list.flatMap((variable) => {
  const query = typeof variable.query === 'string' ? variable.query : variable.query?.query ?? '';
  const metric = /^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,/.exec(query)?.[1];
  return metric ? [metric] : [];
});

describe('the names read from PromQL', () => {
  it('are the selected metrics, not functions, labels, durations or grouping', () => {
    expect(metricNames('sum by (le, upstream) (rate(checkout_upstream_duration_seconds_bucket{upstream="whmcs"}[5m])) '
      + '/ on () vector(0) or (up unless up offset 30m)')).toEqual(['checkout_upstream_duration_seconds_bucket', 'up', 'up']);
    expect(metricNames('histogram_quantile(0.95, sum by (le) (rate(checkout_store_wait_seconds_bucket[$__rate_interval])))'))
      .toEqual(['checkout_store_wait_seconds_bucket']);
  });

  it('refuse an expression that is not PromQL', () => {
    expect(() => metricNames('sum(rate(checkout_shed_total[5m])')).toThrow(/not PromQL/);
  });
});

describe('the alert rules', () => {
  it('cover what an operator must hear about', () => {
    expect(rules.map((rule) => rule.alert).sort()).toEqual([
      'CheckoutDown', 'CheckoutOrdersNotPaid', 'CheckoutOutboxStuck', 'CheckoutPaymentException', 'CheckoutServerErrors',
      'CheckoutShedding', 'CheckoutStoreUnreachable', 'CheckoutUnhandledRejection', 'CheckoutUpstreamErrors',
      'CheckoutWebhookSignaturesInvalid',
    ]);
  });

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s queries only served series', (_alert, rule) => {
    const names = metricNames(rule.expr);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !SERVED.has(name))).toEqual([]);
  });

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s says how urgent it is and what to do first', (_alert, rule) => {
    expect(['page', 'ticket']).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toBeTruthy();
    expect(rule.annotations?.description).toMatch(/\bFirst\b/);
  });
});

describe('the dashboard', () => {
  it('has a query behind every panel', () => {
    expect(panels.filter((panel) => (panel.targets ?? []).length === 0).map((panel) => panel.title)).toEqual([]);
  });

  it('queries only served series', () => {
    const unknown = [...panelExprs, ...variableMetrics.map((metric) => ({ where: 'variables', expr: metric }))]
      .flatMap(({ where, expr }) => metricNames(expr).filter((name) => !SERVED.has(name)).map((name) => `${where}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it('shows every series of the contract', () => {
    const shown = new Set(panelExprs.flatMap(({ expr }) => metricNames(expr)));
    const missing = [
      ...CONTRACT_COUNTERS_AND_GAUGES.filter((name) => !shown.has(name)),
      ...CONTRACT_HISTOGRAMS.filter((name) => !histogramSeries(name).some((series) => shown.has(series))),
    ];
    expect(missing).toEqual([]);
  });
});
