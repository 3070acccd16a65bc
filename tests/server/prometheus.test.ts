/**
 * A real Prometheus (Debian's `prometheus`, installed by .ci/run) scrapes the operator listener of the real server
 * (BILLING=whmcs on the fake WHMCS) every second while a shopper buys on the sandbox gateway; the series are read
 * back through Prometheus's own HTTP API: the order counted, its webhook applied, the WHMCS calls timed. Every metric
 * the dashboard and the alert rules query is one the listener exposes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhmcsFake, DEMO_RESELLER_CLIENT_GROUP, DEMO_RESELLER_GID, DEMO_RETAIL_GID, type WhmcsFake } from '../support/whmcs-fake';
import { eventually, freePort, placeSandboxOrder, spawnServer, type ServerProcess } from './support';

const ROOT = resolve(import.meta.dirname, '../..');
const workDir = mkdtempSync(join(tmpdir(), 'tvc-prometheus-'));
let fake: WhmcsFake;
let server: ServerProcess;
let prometheus: ChildProcess;
let prometheusUrl = '';
let opsPort = 0;

beforeAll(async () => {
  fake = await createWhmcsFake();
  opsPort = await freePort();
  server = await spawnServer({
    DATA_DIR: join(workDir, 'data'), OPS_PORT: String(opsPort), BILLING: 'whmcs', WHMCS_API_URL: fake.url, WHMCS_API_IDENTIFIER: fake.identifier,
    WHMCS_API_SECRET: fake.secret, WHMCS_RETAIL_GID: String(DEMO_RETAIL_GID), WHMCS_RESELLER_GID: String(DEMO_RESELLER_GID),
    WHMCS_RESELLER_CLIENT_GROUP: String(DEMO_RESELLER_CLIENT_GROUP), FLOW_MIN_COUNT: '2',
  });
  await server.ready;
  const webPort = await freePort();
  prometheusUrl = `http://127.0.0.1:${webPort}`;
  const config = join(workDir, 'prometheus.yml');
  writeFileSync(config, [
    'global: { scrape_interval: 1s, evaluation_interval: 1s }',
    'scrape_configs:',
    `  - { job_name: tv-checkout, static_configs: [{ targets: ['127.0.0.1:${opsPort}'] }] }`,
    '',
  ].join('\n'));
  prometheus = spawn('prometheus', [
    `--config.file=${config}`, `--storage.tsdb.path=${join(workDir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${webPort}`, '--log.level=warn',
  ], { stdio: 'ignore' });
  await eventually(async () => expect((await fetch(`${prometheusUrl}/-/ready`)).status).toBe(200), 30_000);
}, 90_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await server?.stop();
  await fake?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** The value of an instant query through Prometheus's HTTP API (0 when it has no result). */
async function query(expression: string): Promise<number> {
  const answer = await (await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`)).json() as { status: string; data: { result: { value: [number, string] }[] } };
  expect(answer.status).toBe('success');
  return answer.data.result.reduce((sum, row) => sum + Number(row.value[1]), 0);
}

/** A guest's 1 Month order on the sandbox gateway, paid on the sandbox page as a shopper pays it. */
async function buy(baseUrl: string): Promise<void> {
  const order = await placeSandboxOrder(baseUrl, 'scraped.shopper@example.com');
  expect(order.status).toBe(200);
  const page = await (await fetch(order.link ?? '')).text();
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  const fields = [...(form?.[2] ?? '').matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']);
  const paid = await fetch(new URL(form?.[1] ?? '', baseUrl), {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl }, body: new URLSearchParams([...fields, ['decision', 'pay']]),
  });
  expect(paid.status).toBe(303);
}

/** Metric names a PromQL text uses: the series names of the contract and the process defaults. */
const metricNames = (text: string) => new Set([...text.matchAll(/\b((?:checkout|http|process|nodejs)_[a-z_]+?)(?:_bucket|_count|_sum)?\b(?=\s*[{[(\s)]|$)/gm)].map((match) => match[1] ?? ''));

describe('a real Prometheus scraping the operator listener', () => {
  it('sees a purchase: the order created, its payment applied and paid, the WHMCS calls timed', async () => {
    await buy(server.baseUrl);
    await eventually(async () => expect(await query('sum(checkout_orders_paid_total{job="tv-checkout"})')).toBe(1), 30_000, 500);
    expect(await query('sum(checkout_orders_created_total{gateway="sandbox",billing="whmcs",currency="EUR"})')).toBe(1);
    expect(await query('sum(checkout_order_amount_cents_total{currency="EUR"})')).toBe(1299);
    expect(await query('sum(checkout_webhooks_total{gateway="sandbox",result="applied"})')).toBe(1);
    expect(await query('sum(checkout_upstream_duration_seconds_count{upstream="whmcs",action="AddOrder"})')).toBe(1);
    expect(await query('sum(checkout_upstream_duration_seconds_count{upstream="whmcs",action="AddInvoicePayment"})')).toBe(1);
    expect(await query('sum(http_request_duration_seconds_count{operation="order",method="POST",status="2xx"})')).toBe(1);
    expect(await query('up{job="tv-checkout"}')).toBe(1);
    expect(await query('checkout_store_up{job="tv-checkout"}')).toBe(1);
  }, 90_000);

  it('sees the flow traffic: a transition counted once the threshold (FLOW_MIN_COUNT=2) is reached, never before', async () => {
    // The checkout's first step as machines/checkout.machine.ts defines it, and its label as `npm run paths` prints it.
    const loaded = { source: 'checkout.loading', event: 'always', targets: ['checkout.ready'], guard: 'catalogueLoaded' };
    const series = 'checkout_flow_transitions_total{machine="checkout",transition="checkout.loading → checkout.ready on always [catalogueLoaded]"}';
    const report = async () => {
      const answer = await fetch(`${server.baseUrl}/checkout/api/flowEvents`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ locale: 'en-en', steps: [{ machine: 'checkout', transitions: [loaded], entered: ['checkout.ready'], exited: ['checkout.loading'] }], vitals: [], ended: [] }),
      });
      expect(answer.status).toBe(204);
    };
    await report();
    // Two scrapes later the one count is still hidden.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await query(`count(${series})`)).toBe(0);
    await report();
    await eventually(async () => expect(await query(series)).toBe(2), 30_000, 500);
  }, 60_000);

  it('exposes every series the dashboard and the alert rules query', async () => {
    const exposed = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
    const declared = new Set([...exposed.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));
    const queried = new Set([...metricNames(readFileSync(join(ROOT, 'ops/grafana/checkout.json'), 'utf8')), ...metricNames(readFileSync(join(ROOT, 'ops/prometheus/alerts.yml'), 'utf8'))]);
    expect(queried.size).toBeGreaterThan(15);
    expect([...queried].filter((name) => !declared.has(name))).toEqual([]);
  });
});
