/**
 * Traces of the real server (issue "The operator sees the shop", item 5). With OTEL_EXPORTER_OTLP_ENDPOINT set, one
 * order on BILLING=whmcs (the fake WHMCS) arrives at an OTLP/HTTP receiver in this process as one trace: the request's
 * span, a child span per WHMCS call (with undici's HTTP span under it) and the store transaction; every log line of
 * that request carries its trace id, the order's receipt goes to SMTP under a span of its own, and no span carries the
 * shopper's e-mail or address. Without the endpoint,
 * nothing is exported and no OpenTelemetry module is even loaded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailEnv, startReceiver, type Receiver } from '../api/smtp-receiver';
import { createWhmcsFake, DEMO_RESELLER_CLIENT_GROUP, DEMO_RESELLER_GID, DEMO_RETAIL_GID, type WhmcsFake } from '../support/whmcs-fake';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';
import { eventually, placeSandboxOrder, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-traces-'));
const RECORD_OTEL_MODULES = ['--import', resolve(import.meta.dirname, 'preload/record-otel-modules.mjs')];
const EMAIL = 'traced.shopper@example.com';
let fake: WhmcsFake;
let receiver: OtlpReceiver;
let smtp: Receiver;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  [fake, receiver, smtp] = await Promise.all([createWhmcsFake(), startOtlpReceiver(), startReceiver()]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all([fake?.close(), receiver?.close(), smtp?.stop()]);
  rmSync(workDir, { recursive: true, force: true });
});

async function start(name: string, env: Record<string, string>): Promise<{ server: ServerProcess; modulesFile: string }> {
  const modulesFile = join(workDir, `${name}-otel-modules.txt`);
  writeFileSync(modulesFile, '');
  const server = await spawnServer({
    DATA_DIR: join(workDir, name), OTEL_MODULES_FILE: modulesFile, BILLING: 'whmcs', WHMCS_API_URL: fake.url, WHMCS_API_IDENTIFIER: fake.identifier, WHMCS_API_SECRET: fake.secret,
    WHMCS_RETAIL_GID: String(DEMO_RETAIL_GID), WHMCS_RESELLER_GID: String(DEMO_RESELLER_GID), WHMCS_RESELLER_CLIENT_GROUP: String(DEMO_RESELLER_CLIENT_GROUP), ...env,
  }, RECORD_OTEL_MODULES);
  servers.push(server);
  await server.ready;
  return { server, modulesFile };
}

/** One order on the sandbox gateway, as the checkout's page places it. */
async function placeOrder(baseUrl: string): Promise<void> {
  expect((await placeSandboxOrder(baseUrl, EMAIL)).status).toBe(200);
}

interface LogLine { reqId?: string; req?: { url?: string }; trace_id?: string; msg?: string }
const logLines = (output: string): LogLine[] => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);

/** The span's ancestors up to the trace's root, nearest first. */
function ancestors(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let parent = spans.find((other) => other.spanId === span.parentSpanId); parent; parent = spans.find((other) => other.spanId === parent?.parentSpanId)) chain.push(parent);
  return chain;
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports one order\'s trace with its WHMCS calls and store transaction, and its log lines carry the trace id', async () => {
    const { server, modulesFile } = await start('traced', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'checkout-under-test', OTEL_BSP_SCHEDULE_DELAY: '100', ...mailEnv(smtp) });
    await placeOrder(server.baseUrl);

    // The server span of node:http for POST /checkout/api/order: the root of the order's trace.
    const isOrderRequest = (span: ReceivedSpan) => span.parentSpanId === '' && span.attributes['http.request.method'] === 'POST' && span.attributes['http.route'] === '/checkout/api/order';
    const request = await eventually(async () => {
      const found = receiver.spans.find(isOrderRequest);
      expect(found).toBeDefined();
      return found as ReceivedSpan;
    }, 15_000, 100);
    const trace = await eventually(async () => {
      const spans = receiver.spans.filter((span) => span.traceId === request.traceId);
      expect(spans.map((span) => span.name)).toContain('store transaction');
      return spans;
    }, 15_000, 100);
    expect(request.service).toBe('checkout-under-test');

    // Every WHMCS call the order made (the fake counts them) is a span of this trace under the request, each with undici's POST under it.
    const whmcsSpans = trace.filter((span) => span.name.startsWith('WHMCS '));
    expect(whmcsSpans.map((span) => span.attributes['whmcs.action'])).toContain('AddOrder');
    for (const span of whmcsSpans) {
      expect(ancestors(span, trace)).toContain(request);
      const calls = trace.filter((other) => other.parentSpanId === span.spanId && other.attributes['url.full'] === fake.url);
      expect(calls.length, `${span.name} has its HTTP call`).toBeGreaterThanOrEqual(1);
    }
    for (const span of trace.filter((other) => other.name === 'store transaction')) expect(ancestors(span, trace)).toContain(request);

    // The receipt's SMTP send, by the mail worker outside the request: a span of its own that names the host, not the shopper.
    await smtp.waitFor(EMAIL, 1, 15_000);
    await eventually(async () => expect(receiver.spans.find((span) => span.name === 'SMTP send')?.attributes['smtp.host']).toBe('127.0.0.1'), 15_000, 100);

    // No span of any trace carries the shopper's e-mail, address or browser (node:http records the last two unless dropped).
    expect(JSON.stringify(receiver.spans)).not.toContain(EMAIL);
    const keys = new Set(receiver.spans.flatMap((span) => Object.keys(span.attributes)));
    for (const personal of ['client.address', 'network.peer.address', 'user_agent.original']) expect(keys).not.toContain(personal);

    // Every line the server logged for the order's request carries the order trace's id.
    const lines = logLines(server.output());
    const reqId = lines.find((line) => line.req?.url === '/checkout/api/order')?.reqId;
    expect(reqId).toBeDefined();
    const requestLines = lines.filter((line) => line.reqId === reqId);
    expect(requestLines.length).toBeGreaterThanOrEqual(2);
    for (const line of requestLines) expect(line.trace_id, line.msg).toBe(request.traceId);

    // The preload sees the OpenTelemetry modules tracing loads (the check below would see them too).
    expect(readFileSync(modulesFile, 'utf8')).toMatch(/@opentelemetry/);
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports nothing, loads no OpenTelemetry module and logs no trace id', async () => {
    const before = receiver.spans.length;
    const postsBefore = receiver.contentTypes.length;
    // No operator listener either: prom-client loads @opentelemetry/api (its exemplars) whenever metrics are on.
    const { server, modulesFile } = await start('untraced', { OPS_PORT: 'off' });
    await placeOrder(server.baseUrl);
    await server.stop();

    expect(readFileSync(modulesFile, 'utf8')).toBe('');
    expect(receiver.contentTypes.length).toBe(postsBefore);
    expect(receiver.spans.length).toBe(before);
    const lines = logLines(server.output());
    expect(lines.some((line) => line.req?.url === '/checkout/api/order')).toBe(true);
    expect(lines.filter((line) => 'trace_id' in line)).toEqual([]);
  });
});
