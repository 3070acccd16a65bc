import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { applyCatalogue } from '../../src/server/catalogue/apply';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from '../../src/server/catalogue/load';
import { ConfigError, readConfig, type ServerConfig } from '../../src/server/config';
import { openStore, type Store } from '../../src/server/db/connect';
import { Browser, createTestApp, guest, localBillingOnly, payOnSandbox, placeOrder, rows, storeSnapshot, TEST_SECRETS, type Answer, type TestApp } from './helper';

// CATALOGUE_FILE fills the local store's catalogue tables; with BILLING=whmcs the catalogue is WHMCS's and the file does not apply.
const catalogueFileSuite = localBillingOnly('CATALOGUE_FILE is the local store\'s catalogue; WHMCS holds its own').describe;

const dir = mkdtempSync(join(tmpdir(), 'tvc-catalogue-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type DemoFile = {
  products: { pid: number; pricing: Record<string, Record<string, number>> }[];
  promotions: { code: string; appliesto: number[]; uses?: number }[];
  gateways: Record<string, string>;
  merchant: Record<string, string>;
};
/** The demo catalogue file as written, to derive an operator's edits from it. */
const demoFile = (): DemoFile => parse(readFileSync(DEMO_CATALOGUE_FILE, 'utf8')) as DemoFile;

/**
 * The operator's edit of the demo catalogue: Lifetime (3) and WELCOME10 taken out, 1 Month at 13.49 EUR,
 * a new code SPRING15, USEDUP50 saying `uses: 0` (which must not reset the store's count), the card
 * gateway renamed.
 */
function operatorCatalogue(): DemoFile {
  const file = demoFile();
  file.products = file.products.filter((product) => product.pid !== 3);
  const oneMonth = file.products.find((product) => product.pid === 1);
  if (!oneMonth?.pricing.EUR) throw new Error('The demo file has no 1 Month in EUR');
  oneMonth.pricing.EUR.monthly = 13.49;
  file.promotions = file.promotions.filter((promotion) => promotion.code !== 'WELCOME10')
    .map((promotion) => ({ ...promotion, appliesto: promotion.appliesto.filter((pid) => pid !== 3), ...(promotion.code === 'USEDUP50' ? { uses: 0 } : {}) }));
  file.promotions.push({ code: 'SPRING15', type: 'Percentage', value: 15, appliesto: [1, 2] } as DemoFile['promotions'][number]);
  file.gateways = { sandbox: 'Visa / Mastercard' };
  // The shop's own merchant pages: production refuses the demo's placeholders.
  file.merchant = { ...file.merchant, logo: 'https://shop.example/logo.svg', supportUrl: 'https://shop.example/support', termsUrl: 'https://shop.example/terms', privacyUrl: 'https://shop.example/privacy', refundUrl: 'https://shop.example/refunds' };
  return file;
}

/** A server started on the same store with CATALOGUE_FILE set, as a restart of the operator's would be. */
async function restartWith(t: TestApp, catalogueFile: string): Promise<FastifyInstance> {
  // Load shedding off, as createTestApp has it: on a loaded machine the restarted app would answer 503 overloaded.
  const config = readConfig({ DIST_DIR: inject('distDir'), PUBLIC_URL: 'http://localhost:3000', CATALOGUE_CACHE_MS: '0', LOAD_SHEDDING: 'off', ...TEST_SECRETS, CATALOGUE_FILE: catalogueFile });
  return buildApp({ config, store: t.store, ports: portsFromEnvironment(config) });
}

/** The same browser (cookies, address) talking to another server instance on the same store. */
const sameBrowserOn = (app: FastifyInstance, browser: Browser) => {
  const moved = new Browser(app, browser.ip);
  for (const [name, value] of browser.cookies) moved.cookies.set(name, value);
  return moved;
};

const expectError = (answer: Answer, status: number, code: string, message?: string) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ error: { code, message: message ?? expect.any(String) } });
};

const usesOf = async (t: TestApp, code: string) =>
  (await rows<{ uses: number; retired: boolean }>(t.db, sql`select uses, retired from promotions where code = ${code}`))[0];

catalogueFileSuite('CATALOGUE_FILE is applied at every start: products and promotions left out are retired, not deleted', () => {
  let t: TestApp;
  let edited: FastifyInstance;
  const yamlFile = join(dir, 'catalogue.yaml');
  const jsonFile = join(dir, 'catalogue.json');
  let lifetimeBuyer: Browser;
  let lifetimeService: number;

  beforeAll(async () => {
    t = await createTestApp({ CATALOGUE_CACHE_MS: '0' });
    // Before the edit: a shopper buys Lifetime (3) and pays, and WELCOME10 is used once.
    lifetimeBuyer = await guest(t.app);
    const order = await placeOrder(lifetimeBuyer, { pid: 3, amount: 179.1, promocode: 'WELCOME10' });
    await payOnSandbox(t.app, order.link);
    lifetimeService = order.serviceids[0] as number;
    writeFileSync(yamlFile, stringify(operatorCatalogue()));
    writeFileSync(jsonFile, JSON.stringify(operatorCatalogue(), null, 2));
    edited = await restartWith(t, yamlFile);
  });
  afterAll(async () => {
    await edited?.close();
    await t?.close();
  });

  it('the store holds what the file says: the new price, the new code, the renamed gateway', async () => {
    const visitor = new Browser(edited);
    const listed = await visitor.call('getProducts');
    expect(listed.body.products.map((product) => [product.pid, product.pricing.EUR.monthly])).toEqual([[1, 13.49], [2, -1]]);
    expect((await visitor.call('getPromotion', { query: { code: 'spring15' } })).body.promotions?.promotion[0]).toMatchObject({ code: 'SPRING15', type: 'Percentage', value: 15, appliesto: '1,2', uses: 0 });
    expect((await visitor.call('getGateway')).body.paymentmethods.paymentmethod).toEqual([
      { module: 'sandbox', displayname: 'Visa / Mastercard', type: 'CreditCard', currencies: ['EUR', 'GBP'] },
      // Not named in the file: the adapter's own name.
      { module: 'sandboxcrypto', displayname: 'Bitcoin', type: 'Bitcoin', currencies: ['EUR', 'GBP'] },
    ]);
  });

  it('a product left out is retired: kept in the store, not listed, not sold (404, nothing written), its paid service still readable', async () => {
    expect(await rows(t.db, sql`select pid, name, retired from products where pid = 3`)).toEqual([{ pid: 3, name: 'Lifetime', retired: true }]);
    const shopper = await guest(edited);
    expectError(await shopper.call('getProduct', { query: { pid: '3' } }), 404, 'not_found', 'This product does not exist.');
    const before = await storeSnapshot(t.db);
    expectError(await shopper.call('order', { body: { pid: 3, paymentmethod: 'sandbox', amount: 199, currency: 'EUR' } }), 404, 'not_found', 'Product 3 is not sold here.');
    expect(await storeSnapshot(t.db)).toEqual(before);
    const service = await sameBrowserOn(edited, lifetimeBuyer).call('getClientProducts', { query: { serviceid: String(lifetimeService) } });
    expect(service.status, service.text).toBe(200);
    expect(service.body).toMatchObject({ serviceid: lifetimeService, pid: 3, name: 'Lifetime', status: 'Active', username: expect.stringMatching(/^TV-\d{8}$/) });
  });

  it('a promotion left out is retired: refused by the lookup and by an order, its uses kept', async () => {
    const shopper = await guest(edited);
    expectError(await shopper.call('getPromotion', { query: { code: 'WELCOME10' } }), 422, 'promotion_not_found');
    const before = await storeSnapshot(t.db);
    expectError(await shopper.call('order', { body: { pid: 1, paymentmethod: 'sandbox', amount: 12.14, currency: 'EUR', promocode: 'welcome10' } }), 422, 'promotion_invalid', 'Promotion code not found.');
    expect(await storeSnapshot(t.db)).toEqual(before);
    expect(await usesOf(t, 'WELCOME10')).toEqual({ uses: 1, retired: true });
  });

  it('a file never resets a promotion\'s uses: USEDUP50 says uses: 0 and stays used up', async () => {
    expect(await usesOf(t, 'USEDUP50')).toEqual({ uses: 1, retired: false });
    const shopper = await guest(edited);
    expectError(await shopper.call('order', { body: { pid: 1, paymentmethod: 'sandbox', amount: 6.75, currency: 'EUR', promocode: 'USEDUP50' } }), 422, 'promotion_invalid');
  });

  it('starting again with the same file, YAML or the same in JSON, changes nothing', async () => {
    const before = await storeSnapshot(t.db);
    expect(await applyCatalogue(t.db, loadCatalogueFile(yamlFile))).toEqual({ added: 0, changed: 0, retired: 0, removed: 0 });
    const again = await restartWith(t, jsonFile);
    await again.close();
    expect(await applyCatalogue(t.db, loadCatalogueFile(jsonFile))).toEqual({ added: 0, changed: 0, retired: 0, removed: 0 });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('a bad file refuses the start with the field and the line, and the store is left as it was', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, readFileSync(yamlFile, 'utf8').replace('monthly: 13.49', 'monthly: "13.49"'));
    const line = readFileSync(bad, 'utf8').split('\n').findIndex((text) => text.includes('"13.49"')) + 1;
    const before = await storeSnapshot(t.db);
    const start = restartWith(t, bad);
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(`CATALOGUE_FILE ${bad} line ${line}: products[0].pricing.EUR.monthly must be a number`);
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  // Last: it changes the catalogue back.
  it('putting a product and a promotion back un-retires them, the promotion with its uses', async () => {
    const demo = await restartWith(t, DEMO_CATALOGUE_FILE);
    try {
      expect(await usesOf(t, 'WELCOME10')).toEqual({ uses: 1, retired: false });
      const shopper = await guest(demo);
      expect((await shopper.call('getProducts')).body.products.map((product) => product.pid)).toEqual([1, 2, 3]);
      expect((await placeOrder(shopper, { pid: 3, amount: 179.1, promocode: 'WELCOME10' })).amount).toBe(179.1);
      expect(await usesOf(t, 'WELCOME10')).toEqual({ uses: 2, retired: false });
      // SPRING15 is not in the demo file: retired in its turn.
      expectError(await shopper.call('getPromotion', { query: { code: 'SPRING15' } }), 422, 'promotion_not_found');
    } finally {
      await demo.close();
    }
  });
});

catalogueFileSuite('a production start and its catalogue', () => {
  // No real gateway adapter exists yet and production refuses the sandboxes: an empty GATEWAYS is the only
  // list that passes that check, so these starts end at the gateway step, after the catalogue's.
  const production = (env: Record<string, string> = {}) => readConfig({
    NODE_ENV: 'production', GATEWAYS: '', DIST_DIR: inject('distDir'),
    SESSION_SECRET: 'production-session-secret-0123456789', ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64url'),
    // Never connected to: these starts end before the mail worker would start.
    SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'no-reply@shop.example', ...env,
  });
  const startProduction = (config: ServerConfig, store: Store) => buildApp({ config, store, ports: portsFromEnvironment(config) });

  it('without CATALOGUE_FILE is refused, naming the variable, and seeds nothing (no demo catalogue, no demo account)', async () => {
    const store = await openStore({ engine: 'memory' });
    try {
      await expect(startProduction(production(), store)).rejects.toThrow(/^CATALOGUE_FILE is not set: production takes its products/);
      expect(await rows(store.db, sql`select (select count(*) from products)::int as products, (select count(*) from promotions)::int as promotions, (select count(*) from clients)::int as clients`))
        .toEqual([{ products: 0, promotions: 0, clients: 0 }]);
    } finally {
      await store.close();
    }
  });

  it('with CATALOGUE_FILE applies the operator\'s catalogue and seeds no demo account', async () => {
    const file = join(dir, 'production.yaml');
    writeFileSync(file, stringify(operatorCatalogue()));
    const store = await openStore({ engine: 'memory' });
    try {
      // The start goes past the catalogue and stops at the empty gateway list.
      await expect(startProduction(production({ CATALOGUE_FILE: file }), store)).rejects.toThrow('GATEWAYS names no payment gateway.');
      expect(await rows(store.db, sql`select pid from products order by pid`)).toEqual([1, 2, 10, 11, 12, 13].map((pid) => ({ pid })));
      expect(await rows(store.db, sql`select code, uses from promotions where code in ('SPRING15', 'USEDUP50') order by code`)).toEqual([{ code: 'SPRING15', uses: 0 }, { code: 'USEDUP50', uses: 0 }]);
      expect(await rows(store.db, sql`select count(*)::int as clients from clients`)).toEqual([{ clients: 0 }]);
    } finally {
      await store.close();
    }
  });


  it('with a bad catalogue file refuses naming the file, the line and the field, first of every problem (exit code 1)', () => {
    const bad = join(dir, 'production-bad.yaml');
    const text = readFileSync(DEMO_CATALOGUE_FILE, 'utf8').replace('  - pid: 2\n', '  - pid: 1\n');
    writeFileSync(bad, text);
    const line = text.split('\n').findIndex((row, index, all) => row === '  - pid: 1' && all.slice(0, index).includes('  - pid: 1')) + 1;
    const server = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: join(import.meta.dirname, '../..'),
      env: {
        PATH: process.env.PATH, NODE_ENV: 'production', CATALOGUE_FILE: bad, DATA_DIR: join(dir, 'production-data'), PORT: '0',
        SESSION_SECRET: 'production-session-secret-0123456789', ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64url'),
        GATEWAYS: 'sandbox', WEBHOOK_SECRET_SANDBOX: 'production-webhook-secret',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(server.status).toBe(1);
    // Every problem in one refusal, the file's fault first (production also refuses the sandbox gateway and a start without SMTP_URL).
    expect(server.stderr.trim()).toBe([
      'TV Checkout refuses to start: 3 problems:',
      `  1. CATALOGUE_FILE ${bad} line ${line}: products[1].pid 1 is listed twice (also products[0])`,
      '  2. SMTP_URL is not set: production mails receipts and access to shoppers; set SMTP_URL (smtp://user:password@mail.example:587) and MAIL_FROM.',
      '  3. GATEWAYS names the sandbox gateway sandbox, whose page pays for anyone: production takes real gateways only (or set DEMO=on for a demo).',
    ].join('\n'));
    expect(server.stdout).toBe('');
  });
});
