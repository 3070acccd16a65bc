/**
 * The operator listener as an operator's scraper sees it, over real HTTP: a purchase on the sandbox counted in the
 * contract's series (issue 28), the webhook results, the render cache, WHMCS's calls timed, no label carrying an
 * e-mail, an id or an amount, the token beyond loopback, and nothing of it on the shop's own port.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsListener, type OpsListener } from '../../src/server/ops/listener';
import {
  BILLING_UNDER_TEST, createTestApp, deliverWebhook, guestWithOrder, payOnSandbox, paymentEvent, paymentIdOf, webhookSecret, type OrderResponse, type TestApp,
} from './helper';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function samples(text: string): Sample[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key as string, value as string]));
    return { name: match[1] as string, labels, value: Number(match[3]) };
  });
}

/** The sum of a series' samples whose labels include these. */
const total = (all: Sample[], name: string, labels: Record<string, string> = {}) => all
  .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
  .reduce((sum, sample) => sum + sample.value, 0);

/** The registry of an app started with OPS_PORT (the test starts the listener itself, on a port of its own). */
function registryOf(t: TestApp) {
  if (!t.app.metrics) throw new Error('The app measures nothing without OPS_PORT');
  return t.app.metrics.registry;
}

const scrape = async (ops: OpsListener, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${ops.address.port}/metrics`, { headers });

describe('the operator listener during a purchase on the sandbox', () => {
  let t: TestApp;
  let ops: OpsListener;
  let order: OrderResponse;
  let email: string;
  beforeAll(async () => {
    t = await createTestApp({ DIST_DIR: join(ROOT, 'dist'), OPS_PORT: '0' });
    ops = await startOpsListener({ port: 0, host: '127.0.0.1', token: null }, registryOf(t), t.app.log);
    const bought = await guestWithOrder(t.app);
    ({ order } = bought);
    email = bought.browser.email;
    await payOnSandbox(t.app, order.link);
  });
  afterAll(async () => {
    await ops?.close();
    await t?.close();
  });
  const read = async () => {
    const answer = await scrape(ops);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return samples(await answer.text());
  };

  it('counts the order with its gateway, billing and currency, its amount in cents, its link, and its payment activating its service', async () => {
    const all = await read();
    expect(total(all, 'checkout_orders_created_total', { gateway: 'sandbox', billing: BILLING_UNDER_TEST, currency: 'EUR' })).toBe(1);
    // The 1 Month plan is 12.99 EUR (tests/api/helper.ts BASIC_ORDER).
    expect(total(all, 'checkout_order_amount_cents_total', { currency: 'EUR' })).toBe(1299);
    expect(total(all, 'checkout_payment_links_total', { gateway: 'sandbox' })).toBe(1);
    expect(total(all, 'checkout_webhooks_total', { gateway: 'sandbox', result: 'applied' })).toBe(1);
    expect(total(all, 'checkout_orders_paid_total')).toBe(1);
    expect(total(all, 'checkout_services_activated_total')).toBe(1);
    expect(total(all, 'http_request_duration_seconds_count', { operation: 'order', method: 'POST', status: '2xx' })).toBe(1);
    expect(total(all, 'http_request_duration_seconds_count', { operation: 'paymentWebhook', method: 'POST', status: '2xx' })).toBe(1);
  });

  it('counts a replayed event as duplicate and a bad signature as invalid_signature', async () => {
    const { order: second } = await guestWithOrder(t.app);
    const event = paymentEvent({ paymentId: paymentIdOf(second.link), invoiceid: second.invoiceid, amount: second.amount, currency: second.currency });
    expect((await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') })).status).toBe(200);
    expect((await deliverWebhook(t.app, 'sandbox', event, { secret: webhookSecret('sandbox') })).status).toBe(200);
    expect((await deliverWebhook(t.app, 'sandbox', event, { secret: 'not-the-secret' })).status).toBe(400);
    const all = await read();
    expect(total(all, 'checkout_webhooks_total', { gateway: 'sandbox', result: 'applied' })).toBe(2);
    expect(total(all, 'checkout_webhooks_total', { gateway: 'sandbox', result: 'duplicate' })).toBe(1);
    expect(total(all, 'checkout_webhooks_total', { gateway: 'sandbox', result: 'invalid_signature' })).toBe(1);
    expect(total(all, 'http_request_duration_seconds_count', { operation: 'paymentWebhook', method: 'POST', status: '4xx' })).toBe(1);
  });

  it('counts an order refused for its price by the code the answer carries', async () => {
    const { browser } = await guestWithOrder(t.app);
    const refused = await browser.call('order', { body: { pid: 1, paymentmethod: 'sandbox', amount: 1.5, currency: 'EUR' } });
    expect(refused.status).toBe(409);
    expect((refused.body as { error: { code: string } }).error.code).toBe('price_changed');
    expect(total(await read(), 'checkout_orders_refused_total', { reason: 'price_changed' })).toBe(1);
  });

  it('counts the server render of the index: first a miss, then a hit on the cached page', async () => {
    const before = await read();
    for (let round = 0; round < 2; round += 1) expect((await t.app.inject({ method: 'GET', url: '/checkout/' })).statusCode).toBe(200);
    const after = await read();
    expect(total(after, 'checkout_render_total', { cache: 'hit' }) - total(before, 'checkout_render_total', { cache: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'checkout_render_total', { cache: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'http_request_duration_seconds_count', { operation: 'page', method: 'GET', status: '2xx' })).toBeGreaterThanOrEqual(2);
  });

  it('shows the outbox, the build and the process: the mails the purchase queued are pending (no mailer here)', async () => {
    const all = await read();
    expect(total(all, 'checkout_outbox_pending')).toBeGreaterThan(0);
    expect(total(all, 'checkout_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    const [build] = all.filter((sample) => sample.name === 'checkout_build_info');
    expect(build?.labels.version).toBe('0.1.0');
    expect(build?.labels.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    expect(total(all, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(all.some((sample) => sample.name === 'checkout_unhandled_rejections_total')).toBe(true);
  });

  it("carries no e-mail, id or amount in any label of the shop's series (the bucket bound `le` is Prometheus's own)", async () => {
    const all = (await read()).filter((sample) => /^(checkout_|http_)/.test(sample.name));
    const values = all.flatMap((sample) => Object.entries(sample.labels).filter(([key]) => key !== 'le').map(([key, value]) => ({ series: sample.name, key, value })));
    expect(values.length).toBeGreaterThan(0);
    const leaking = values.filter(({ value }) => /@/.test(value) || /^\d+$/.test(value) || /pay_/.test(value) || /^\d+[.,]\d+$/.test(value) || value.includes(email));
    expect(leaking).toEqual([]);
  });

  it('serves nothing of it on the public port', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    for (const path of ['/metrics', '/checkout/metrics', '/checkout/api/metrics']) {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain('checkout_orders_created_total');
    }
  });
});

describe('the operator listener beyond loopback', () => {
  let t: TestApp;
  let ops: OpsListener;
  beforeAll(async () => {
    t = await createTestApp({ OPS_PORT: '0' });
    ops = await startOpsListener({ port: 0, host: '0.0.0.0', token: 'operator-token-0123456789' }, registryOf(t), t.app.log);
  });
  afterAll(async () => {
    await ops?.close();
    await t?.close();
  });

  it('answers 401 without the bearer token or with another, and the series with it', async () => {
    expect((await scrape(ops)).status).toBe(401);
    expect((await scrape(ops, { authorization: 'Bearer operator-token-wrong' })).status).toBe(401);
    const answer = await scrape(ops, { authorization: 'Bearer operator-token-0123456789' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('# TYPE checkout_orders_created_total counter');
  });

  it('answers 404 for a path it does not serve', async () => {
    const answer = await fetch(`http://127.0.0.1:${ops.address.port}/debug`, { headers: { authorization: 'Bearer operator-token-0123456789' } });
    expect(answer.status).toBe(404);
  });
});

describe('without OPS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('measures nothing: no registry to scrape, and a purchase still goes through', async () => {
    expect(t.app.metrics).toBeNull();
    const { order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link);
  });
});

describe('WHMCS calls on the operator listener', () => {
  let t: TestApp;
  let ops: OpsListener;
  beforeAll(async () => {
    t = await createTestApp({ BILLING: 'whmcs', OPS_PORT: '0' });
    ops = await startOpsListener({ port: 0, host: '127.0.0.1', token: null }, registryOf(t), t.app.log);
  });
  afterAll(async () => {
    await ops?.close();
    await t?.close();
  });

  it('times each call by action with upstream="whmcs", and counts the order with billing="whmcs"', async () => {
    const { order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link);
    const all = samples(await (await scrape(ops)).text());
    expect(total(all, 'checkout_orders_created_total', { gateway: 'sandbox', billing: 'whmcs', currency: 'EUR' })).toBe(1);
    // An order is placed in WHMCS with its AddOrder action (the WHMCS API reference).
    expect(total(all, 'checkout_upstream_duration_seconds_count', { upstream: 'whmcs', action: 'AddOrder' })).toBeGreaterThanOrEqual(1);
    expect(total(all, 'checkout_upstream_errors_total', { upstream: 'whmcs' })).toBe(0);
  });
});
