/**
 * Measure 3c: the checkout on BILLING=whmcs against the fake WHMCS (tests/support/whmcs-fake, in this
 * process): the WHMCS calls each step of a shopper's whole purchase makes, and getProducts from the
 * catalogue cache under a fixed rate.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createWhmcsFake, demoSeed } from '../../tests/support/whmcs-fake';
import { cannon, type LoadFigures } from './load';
import { request, startServer, type HttpAnswer } from './lib/proc';

export interface PurchaseStep {
  step: string;
  /** WHMCS actions called during the step, in order. */
  actions: string[];
}

export interface WhmcsFigures {
  steps: PurchaseStep[];
  /** getProducts on a cold cache: its time and its WHMCS calls. */
  cold: { ms: number; actions: string[] };
  warm: LoadFigures & { rate: number; whmcsCalls: number };
  logFile: string;
}

export interface WhmcsOptions {
  entry: string[];
  workDir: string;
  rate: number;
  durationS: number;
  log: (line: string) => void;
}

const json = (body: unknown, cookie?: string) => ({
  method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body),
});

export async function measureWhmcs(options: WhmcsOptions): Promise<WhmcsFigures> {
  const seed = demoSeed();
  const fake = await createWhmcsFake({ seed });
  const dataDir = mkdtempSync(join(options.workDir, 'whmcs-'));
  const logFile = join(options.workDir, 'whmcs-server.log');
  const server = await startServer({
    entry: options.entry, dataDir, logFile,
    env: {
      BILLING: 'whmcs', WHMCS_API_URL: fake.url, WHMCS_API_IDENTIFIER: fake.identifier, WHMCS_API_SECRET: fake.secret,
      WHMCS_RETAIL_GID: String(seed.demo.retailGid), WHMCS_RESELLER_GID: String(seed.demo.resellerGid),
      WHMCS_RESELLER_CLIENT_GROUP: String(seed.demo.resellerClientGroup),
    },
  });
  try {
    const api = (path: string) => `${server.base}/checkout/api/${path}`;
    const steps: PurchaseStep[] = [];
    /** Runs a step and records the WHMCS calls it made. */
    const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const before = fake.calls.length;
      const result = await work();
      steps.push({ step: name, actions: fake.calls.slice(before).map((call) => call.action) });
      return result;
    };
    const expectOk = (answer: HttpAnswer, what: string): HttpAnswer => {
      if (answer.status < 200 || answer.status >= 400) throw new Error(`${what} answered ${answer.status}: ${answer.body}`);
      return answer;
    };

    const coldStarted = performance.now();
    const coldBefore = fake.calls.length;
    expectOk(await request(api('getProducts')), 'getProducts');
    const cold = { ms: performance.now() - coldStarted, actions: fake.calls.slice(coldBefore).map((call) => call.action) };

    await step('catalogue (getProducts, getGateway, currency; cached)', async () => {
      for (const path of ['getProducts', 'getGateway', 'currency']) expectOk(await request(api(path)), path);
    });
    const email = `bench-${Date.now()}@loadtest.example`;
    const cookie = await step('identify the guest (authMiddleware)', async () => {
      const answer = expectOk(await request(api('authMiddleware'), json({ email })), 'authMiddleware');
      return (answer.headers['set-cookie'] ?? []).map((value) => value.split(';')[0]).join('; ');
    });
    const order = await step('place the order (order)', async () => {
      const body = json({ pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' }, cookie);
      const answer = expectOk(await request(api('order'), { ...body, headers: { ...body.headers, 'idempotency-key': `bench-${email}` } }), 'order');
      return JSON.parse(answer.body) as { link: string; orderid: number; serviceids: number[] };
    });
    await step('pay on the sandbox page (its webhook settles the payment)', async () => {
      const link = new URL(order.link);
      const path = `${server.base}${link.pathname}`;
      expectOk(await request(path), 'sandbox page');
      expectOk(await request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=pay' }), 'sandbox pay');
    });
    await step('one poll of the waiting page (orderStatus)', async () => {
      expectOk(await request(api(`orderStatus?orderid=${order.orderid}`), { headers: { cookie } }), 'orderStatus');
    });
    await step('read the credentials (getClientProducts)', async () => {
      expectOk(await request(api(`getClientProducts?serviceid=${order.serviceids[0]}`), { headers: { cookie } }), 'getClientProducts');
    });

    const callsBefore = fake.calls.length;
    const streams = Math.max(1, Math.ceil(options.rate / 50));
    const warm = await cannon({ url: api('getProducts'), overallRate: options.rate, duration: options.durationS, connections: streams }, 'getProducts (cached)', streams);
    return { steps, cold, warm: { ...warm, rate: options.rate, whmcsCalls: fake.calls.length - callsBefore }, logFile };
  } finally {
    await server.stop();
    await fake.close();
  }
}
