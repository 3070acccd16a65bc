import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, inject, it } from 'vitest';
import type { components, operations } from '../../src/api/schema';
import { buildApp } from '../../src/server/app';
import { readConfig, type ServerConfig } from '../../src/server/config';
import { openStore, type Database, type Store } from '../../src/server/db/connect';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { signWebhook } from '../../src/server/payments/signature';
import { createDatabase } from '../../scripts/lib/postgres';
import { clients, invoices, promotions, services } from '../../src/server/db/schema';
import type { Clock } from '../../src/server/clock';
import { portsFromEnvironment, type Ports } from '../../src/server/ports';
import { assertMatchesContract, findOperation, operation } from './contract';
import { clearLocalBilling, mirrorWhmcsDemo } from './whmcs-mirror';
import {
  createWhmcsFake, DEFAULT_IDENTIFIER, DEFAULT_SECRET, DEMO_RESELLER_CLIENT_GROUP, DEMO_RESELLER_GID, DEMO_RETAIL_GID, type WhmcsFake, type WhmcsFakeOptions,
} from '../support/whmcs-fake';

export { DEMO_ACCOUNTS };

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  db: Database;
  config: ServerConfig;
  /** With BILLING=whmcs: the fake WHMCS this app talks to. */
  whmcs: WhmcsFake | null;
  close(): Promise<void>;
}

/** BILLING for the API suite: the env given, else TEST_BILLING (so the whole suite runs on either backend). */
const billingOf = (env: Record<string, string>) => env.BILLING ?? process.env.TEST_BILLING ?? 'local';

/** The billing backend this run of the API suite tests: `local`, or `whmcs` with TEST_BILLING=whmcs (a fake WHMCS per test app). */
export const BILLING_UNDER_TEST: 'local' | 'whmcs' = billingOf({}) === 'whmcs' ? 'whmcs' : 'local';

/**
 * A suite or test of the LOCAL store's own mechanics (its catalogue file, its tables set by hand), skipped when the
 * suite runs on WHMCS, whose catalogue, clients and invoices are WHMCS's. `reason` says why in one line.
 */
export function localBillingOnly(reason: string) {
  if (!reason.trim()) throw new Error('localBillingOnly needs the reason the test is local-only');
  const skip = BILLING_UNDER_TEST !== 'local';
  return { describe: describe.skipIf(skip), it: it.skipIf(skip) };
}

/** The WHMCS_ variables for a fake WHMCS seeded with the demo catalogue. */
export function whmcsEnv(fake: WhmcsFake): Record<string, string> {
  return {
    BILLING: 'whmcs', WHMCS_API_URL: fake.url, WHMCS_API_IDENTIFIER: DEFAULT_IDENTIFIER, WHMCS_API_SECRET: DEFAULT_SECRET,
    WHMCS_RETAIL_GID: String(DEMO_RETAIL_GID), WHMCS_RESELLER_GID: String(DEMO_RESELLER_GID), WHMCS_RESELLER_CLIENT_GROUP: String(DEMO_RESELLER_CLIENT_GROUP),
  };
}

let template: Blob | null = null;

/** The keys every test server is given, as an operator gives them (so no test writes a key file). */
export const TEST_SECRETS: Record<string, string> = {
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'),
  WEBHOOK_SECRET_SANDBOX: 'test-webhook-secret-sandbox',
  WEBHOOK_SECRET_SANDBOXCRYPTO: 'test-webhook-secret-sandboxcrypto',
};

/** A fresh PostgreSQL database on the DATABASE_URL server (tvc_test_<runId>_…); dropped by the returned function. */
const freshPostgresDatabase = (serverUrl: string) => createDatabase(serverUrl, `tvc_test_${inject('runId')}`);

/**
 * The checkout server on a store of its own: a copy of the seeded PGlite template, or, with DATABASE_URL,
 * a new PostgreSQL database migrated by openStore and seeded by buildApp. `env` overrides the configuration
 * (e.g. { TRUST_PROXY: '10.0.0.0/8' }); the developer's own environment is not read. A `logStream`
 * receives the server's log lines (JSON, one per write).
 */
export async function createTestApp(env: Record<string, string> = {}, options: {
  logStream?: { write(line: string): void }; ports?: Partial<Ports> & { clock?: Clock }; apiDocsFile?: string; whmcsFake?: WhmcsFakeOptions;
} = {}): Promise<TestApp> {
  // With BILLING=whmcs (or TEST_BILLING=whmcs) each app gets a fake WHMCS of its own, seeded with the demo catalogue (`whmcsFake`: its options).
  const whmcs = billingOf(env) === 'whmcs' && !env.WHMCS_API_URL && !options.ports?.billing ? await createWhmcsFake(options.whmcsFake) : null;
  // Load shedding off: one test process floods its in-process app by design (tests/server checks shedding).
  const config = readConfig({ DIST_DIR: inject('distDir'), PUBLIC_URL: 'http://localhost:3000', LOAD_SHEDDING: 'off', ...TEST_SECRETS, ...(whmcs ? whmcsEnv(whmcs) : {}), ...env });
  const serverUrl = process.env.DATABASE_URL;
  let store: Store;
  let drop = async () => {};
  if (serverUrl) {
    const database = await freshPostgresDatabase(serverUrl);
    drop = database.drop;
    store = await openStore({ engine: 'postgres', databaseUrl: database.url });
  } else {
    const file = inject('storeTemplate');
    if (!file) throw new Error('The API tests run through vitest (tests/api/global-setup.ts builds the store template).');
    template ??= new Blob([readFileSync(file)]);
    store = await openStore({ engine: 'memory', from: template });
  }
  // The ports the configuration names (local billing and the sandbox gateways, or the fake WHMCS), the test's own in place of any.
  const { clock, ...given } = options.ports ?? {};
  const ports = { ...portsFromEnvironment(config), ...given };
  const app = await buildApp({ config, store, ports, ...(clock ? { clock } : {}), ...(options.logStream ? { logger: { stream: options.logStream } } : {}), ...(options.apiDocsFile ? { apiDocsFile: options.apiDocsFile } : {}) });
  // The template's demo rows are the local store's; with WHMCS the checkout's tables hold only mirrors of WHMCS's ids
  // (after buildApp, which applies the catalogue the mirror's services point at).
  if (whmcs) {
    await clearLocalBilling(store.db);
    await mirrorWhmcsDemo(store.db, whmcs);
  }
  return {
    app, store, db: store.db, config, whmcs,
    async close() {
      await app.close();
      await store.close();
      await drop();
      await whmcs?.close();
    },
  };
}

/** A test app with a second instance on the same store, as two servers share one database; close() ends both. */
export async function createTwoInstances(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<TestApp & { second: FastifyInstance }> {
  const t = await createTestApp(env, options.clock ? { ports: { clock: options.clock } } : {});
  const second = await buildApp({ config: t.config, store: t.store, ports: portsFromEnvironment(t.config), ...(options.clock ? { clock: options.clock } : {}) });
  return {
    ...t,
    second,
    async close() {
      await second.close();
      await t.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// A browser: a cookie jar and a connection address, talking to the app through app.inject.

type OperationId = keyof operations;
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Op extends OperationId> = operations[Op]['responses'];
type OkBody<Op extends OperationId> = Responses<Op> extends { 200: infer Ok } ? JsonContent<Ok> : Responses<Op> extends { 202: infer Accepted } ? JsonContent<Accepted> : unknown;
type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody: infer Request } ? JsonContent<Request> : never;
type QueryOf<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Query } ? Query : never;
export type ApiError = components['schemas']['Error'];

export interface Answer<Body = unknown> {
  status: number;
  /** The parsed JSON body (undefined when the answer is not JSON). */
  body: Body;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
  /** Cookies set by this answer. */
  cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string; maxAge?: number; expires?: Date }[];
}

export interface CallInput<Op extends OperationId> {
  query?: QueryOf<Op>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  body?: RequestBody<Op>;
}

export interface RequestInput {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless `payload` is given. */
  json?: unknown;
  /** A raw payload (with its own content-type header). */
  payload?: string;
  /** Validate the answer against openapi.yaml when the URL is one of its operations (default true). */
  validate?: boolean;
}

let addresses = 0;
/** A connection address no other browser of this test file uses (rate limits and fraud rules count per address). */
export function freshIp(): string {
  addresses += 1;
  return `10.${20 + (addresses >> 16)}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

let emails = 0;
/** An e-mail no client of the store has yet. */
export function freshEmail(label = 'shopper'): string {
  emails += 1;
  return `${label}.${emails}.${randomBytes(3).toString('hex')}@mail.test`;
}

/**
 * One visitor's browser: keeps the cookies the server sets and sends them back, from its own address.
 * Every answer of an operation of openapi.yaml is validated against the contract.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly app: FastifyInstance, readonly ip: string = freshIp()) {}

  /** Calls an operation of openapi.yaml by its operationId. */
  async call<Op extends OperationId>(operationId: Op, input: CallInput<Op> = {}): Promise<Answer<OkBody<Op> & Partial<ApiError>>> {
    const op = operation(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(input.params?.[name] ?? ''));
    const query = new URLSearchParams(input.query as Record<string, string> | undefined).toString();
    // Like the app, a call sends a fresh Idempotency-Key where the contract requires one, unless the test gives its own;
    // a test of a missing key sends its request with request().
    const keyed = op.parameters.some((parameter) => parameter.in === 'header' && parameter.required && parameter.name.toLowerCase() === 'idempotency-key');
    const given = Object.keys(input.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
    const answer = await this.request({
      method: op.method,
      url: query ? `${path}?${query}` : path,
      headers: keyed && !given ? { 'idempotency-key': randomUUID(), ...input.headers } : input.headers,
      ...(op.method === 'POST' ? { json: input.body ?? {} } : {}),
    });
    return answer as Answer<OkBody<Op> & Partial<ApiError>>;
  }

  /** Any request, with this browser's cookies and address. */
  async request({ method, url, headers = {}, json, payload, validate = true }: RequestInput): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const options: InjectOptions = {
      method,
      url,
      remoteAddress: this.ip,
      headers: { ...(cookie ? { cookie } : {}), ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(payload !== undefined ? { payload } : json !== undefined ? { payload: JSON.stringify(json) } : {}),
    };
    const response = await this.app.inject(options);
    for (const set of response.cookies as Answer['cookies']) {
      const expired = set.maxAge === 0 || (set.expires !== undefined && set.expires.getTime() <= Date.now());
      if (expired || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
    const body: unknown = isJson && response.body !== '' ? JSON.parse(response.body) : undefined;
    const path = url.split('?')[0] ?? url;
    const op = findOperation(method, path);
    if (op && validate) assertMatchesContract(op, response.statusCode, body, String(response.headers['content-type'] ?? ''));
    return { status: response.statusCode, body, text: response.body, headers: response.headers, cookies: response.cookies as Answer['cookies'] };
  }
}

/**
 * A guest identified by e-mail (authMiddleware), from an address of its own. `userid` is the client's id read
 * from its session in the store (the answer carries only an opaque handle, `handle`), for tests that count the client's rows.
 */
export async function guest(app: FastifyInstance, email = freshEmail()): Promise<Browser & { userid: number; handle: string; email: string }> {
  const browser = new Browser(app);
  const answer = await browser.call('authMiddleware', { body: { email } });
  expect(answer.status, answer.text).toBe(200);
  const session = await app.sessions.find(browser.cookies.get('tvc_session') ?? '');
  if (!session) throw new Error(`authMiddleware began no session for ${email}`);
  return Object.assign(browser, { userid: session.clientId, handle: answer.body.userid, email: answer.body.email });
}

/** A client logged in with e-mail and password (auth). */
export async function loggedIn(app: FastifyInstance, account: { email: string; password: string } = DEMO_ACCOUNTS.client): Promise<Browser & { userid: number }> {
  const browser = new Browser(app);
  const answer = await browser.call('auth', { body: account });
  expect(answer.status, answer.text).toBe(200);
  return Object.assign(browser, { userid: answer.body.userid });
}

/** A new account just signed up through resellerAuth: its session reaches only what it orders, until the address is proved. */
export async function newAccount(app: FastifyInstance): Promise<Browser & { userid: number; email: string; password: string }> {
  const browser = new Browser(app);
  const email = freshEmail('account');
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const answer = await browser.call('resellerAuth', { body: { email, password, existingReseller: false } });
  expect(answer.status, answer.text).toBe(200);
  // The answer carries the session's opaque handle; the client id is read from the session in the store.
  const session = await app.sessions.find(browser.cookies.get('tvc_session') ?? '');
  if (!session) throw new Error(`resellerAuth began no session for ${email}`);
  return Object.assign(browser, { userid: session.clientId, email, password });
}

/**
 * A signed-up account whose address is proved (as following the mailed link does, written straight to the
 * store here), signed in with its password: a session that reaches everything of the client.
 */
export async function verifiedAccount(t: TestApp): Promise<Browser & { userid: number; email: string; password: string }> {
  const { email, password, userid } = await newAccount(t.app);
  await t.db.update(clients).set({ emailVerifiedAt: new Date() }).where(eq(clients.id, userid));
  const browser = new Browser(t.app);
  const answer = await browser.call('auth', { body: { email, password } });
  expect(answer.status, answer.text).toBe(200);
  return Object.assign(browser, { userid, email, password });
}

export type OrderRequest = components['schemas']['OrderRequest'];
export type OrderResponse = components['schemas']['OrderResponse'];

/** The 1 Month plan in EUR on the sandbox card gateway, no options: 12.99. */
export const BASIC_ORDER: OrderRequest = { pid: 1, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' };

/** Places an order that must succeed. */
export async function placeOrder(browser: Browser, order: Partial<OrderRequest> = {}, headers: Record<string, string> = {}): Promise<OrderResponse> {
  const answer = await browser.call('order', { body: { ...BASIC_ORDER, ...order }, headers });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** A guest with an order placed (1 Month, EUR, sandbox card gateway). */
export async function guestWithOrder(app: FastifyInstance, order: Partial<OrderRequest> = {}) {
  const browser = await guest(app);
  return { browser, order: await placeOrder(browser, order) };
}

/** The path of a payment link (links carry the public origin; inject needs the path). */
export function linkPath(link: string | null | undefined): string {
  if (!link) throw new Error('No payment link');
  return new URL(link).pathname;
}

/**
 * Pays (or declines) on the sandbox provider's hosted page, as a shopper does: open the page, submit the
 * form. The page belongs to the provider, so no session cookie is needed (a separate browser is used).
 */
export async function payOnSandbox(app: FastifyInstance, link: string | null | undefined, decision: 'pay' | 'decline' = 'pay'): Promise<Answer> {
  const provider = new Browser(app);
  const page = await provider.request({ method: 'GET', url: linkPath(link) });
  expect(page.status, page.text).toBe(200);
  const answer = await provider.request({
    method: 'POST', url: linkPath(link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `decision=${decision}`,
  });
  expect(answer.status, answer.text).toBe(303);
  return answer;
}

/** Posts a sign-in token as the "Continue signing in" button of the link's page does (a same-origin form). */
export function postSignInToken(browser: Browser, token: string, headers: Record<string, string> = {}): Promise<Answer> {
  return browser.request({
    method: 'POST', url: '/checkout/api/signIn', payload: new URLSearchParams({ token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin', ...headers },
  });
}

/**
 * Follows a mailed sign-in link as a shopper does: opens it (the page with "Continue signing in", nothing used
 * up yet), then presses the button. Answers the button's answer (303 to the link's page when it worked).
 */
export async function followSignInLink(browser: Browser, path: string): Promise<Answer> {
  const page = await browser.request({ method: 'GET', url: path });
  if (page.status !== 200) return page;
  expect(page.text).toContain('Continue signing in');
  const token = /name="token" value="([A-Za-z0-9_-]+)"/.exec(page.text)?.[1] ?? '';
  return postSignInToken(browser, token);
}

/**
 * Signs a browser's client in through a mailed sign-in link (made here as the mail would carry it), in that same
 * browser: its session then reaches everything of the client, the orders it placed as a guest included.
 */
export async function signInByLink<B extends Browser>(app: FastifyInstance, browser: B, clientId: number): Promise<B> {
  const link = new URL(await app.signInLinks.create(clientId, '/checkout/', 15 * 60_000));
  const answer = await followSignInLink(browser, `${link.pathname}${link.search}`);
  expect(answer.status, answer.text).toBe(303);
  return browser;
}

// ---------------------------------------------------------------------------------------------------
// The store.

type Row = Record<string, unknown>;

/** Rows of a raw SQL query, on PGlite and on PostgreSQL alike. */
export async function rows<T extends Row = Row>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Every table of the store with its row count and a hash of its whole content, so a comparison shows
 * any insert, update or delete (promotion uses included); rate-limit counters aside.
 */
export async function storeSnapshot(db: Database): Promise<Record<string, { rows: number; hash: string }>> {
  // Not rate_counters: rate limits count every request, refused ones included; that bookkeeping is no change of data.
  const tables = await rows<{ table_name: string }>(db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'rate_counters' order by table_name`);
  const snapshot: Record<string, { rows: number; hash: string }> = {};
  for (const { table_name: table } of tables) {
    const [row] = await rows<{ count: number; hash: string }>(db, sql`select count(*)::int as count, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as hash from ${sql.identifier(table)} t`);
    snapshot[table] = { rows: Number(row?.count), hash: String(row?.hash) };
  }
  expect(Object.keys(snapshot)).toEqual(expect.arrayContaining(['orders', 'invoices', 'services', 'payments', 'clients', 'webhook_events', 'idempotency_keys', 'affiliate_clicks', 'promotions']));
  return snapshot;
}

/**
 * WHMCS bills a client in one currency (a new guest's is its country's, EUR when none is known): an order in
 * another currency is refused there with 409 currency_not_offered, where the local store takes it.
 */
export function expectCurrencyNotOffered(answer: Answer, billedIn: 'EUR' | 'GBP'): void {
  expect(answer.status, answer.text).toBe(409);
  expect(answer.body).toEqual({ error: { code: 'currency_not_offered', message: expect.stringContaining(billedIn) } });
}

/** Sets a currency's rate (units per unit of the default currency) where the billing keeps it: the local store, or WHMCS. */
export async function setCurrencyRate(t: TestApp, code: 'GBP', rate: number): Promise<void> {
  if (t.whmcs) {
    const currency = t.whmcs.state.currencies.find((row) => row.code === code);
    if (!currency) throw new Error(`WHMCS holds no currency ${code}`);
    currency.rate = rate.toFixed(5);
    return;
  }
  await t.db.execute(sql`update currencies set rate = ${rate} where code = ${code}`);
}

/** A paid service left without credentials, as a provisioning that failed at payment time leaves it: in the store, or in WHMCS. */
export async function unprovisionService(t: TestApp, serviceId: number): Promise<void> {
  if (t.whmcs) {
    const service = t.whmcs.state.services.find((row) => row.id === serviceId);
    if (!service) throw new Error(`WHMCS holds no service ${serviceId}`);
    Object.assign(service, { status: 'Pending', username: '', password: '' });
    return;
  }
  await t.db.update(services).set({ username: null, passwordEncrypted: null, status: 'Pending' }).where(eq(services.id, serviceId));
}

/** Gives a service its next due date (YYYY-MM-DD), as its billing holds it: in the store, or in WHMCS. */
export async function setNextDueDate(t: TestApp, serviceId: number, date: string): Promise<void> {
  if (t.whmcs) {
    const service = t.whmcs.state.services.find((row) => row.id === serviceId);
    if (!service) throw new Error(`WHMCS holds no service ${serviceId}`);
    service.nextduedate = date;
    return;
  }
  await t.db.update(services).set({ nextDueDate: date }).where(eq(services.id, serviceId));
}

/** How often a promotion code was used, as the billing counts it: the local store's row, or WHMCS's (the fake's tblpromotions). */
export async function promotionUses(t: TestApp, code: string): Promise<number | undefined> {
  if (t.whmcs) return t.whmcs.state.promotions.find((promotion) => promotion.code.toUpperCase() === code.toUpperCase())?.uses;
  return (await rows<{ uses: number }>(t.db, sql`select uses from promotions where code = ${code}`))[0]?.uses;
}

/** A Percentage promotion for the given products, with no dates, added as the billing's operator adds one (local store, or WHMCS). */
export async function addPercentagePromotion(t: TestApp, promotion: { code: string; value: number; appliesto: string; maxuses: number }): Promise<void> {
  if (t.whmcs) {
    const { promotions: rows } = t.whmcs.state;
    rows.push({
      id: Math.max(0, ...rows.map((row) => row.id)) + 1, code: promotion.code, type: 'Percentage', recurring: 0, value: promotion.value.toFixed(2), cycles: '',
      appliesto: promotion.appliesto, requires: '', requiresexisting: 0, startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: promotion.maxuses, uses: 0,
      lifetimepromo: 0, applyonce: 0, newsignups: 0, existingclient: 0, onceperclient: 0, recurfor: 0, upgrades: 0, upgradeconfig: '', notes: '',
    });
    return;
  }
  await t.db.insert(promotions).values({ ...promotion, type: 'Percentage', startdate: '0000-00-00', expirationdate: '0000-00-00', uses: 0 });
}

/** Sets an invoice's status as the billing's operator does (a refund, a cancellation): in the local store, or in WHMCS. */
export async function setInvoiceStatus(t: TestApp, invoiceId: number, status: 'Cancelled' | 'Refunded'): Promise<void> {
  if (t.whmcs) {
    const invoice = t.whmcs.state.invoices.find((row) => row.id === invoiceId);
    if (!invoice) throw new Error(`WHMCS holds no invoice ${invoiceId}`);
    invoice.status = status;
    return;
  }
  await t.db.update(invoices).set({ status }).where(eq(invoices.id, invoiceId));
}

/** The number of rows of a table. */
export async function countRows(db: Database, table: string, where?: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rows<{ count: number }>(db, sql`select count(*)::int as count from ${sql.identifier(table)} ${where ? sql`where ${where}` : sql``}`);
  return Number(row?.count);
}

/** The webhook secret the test servers are given for a gateway. */
export function webhookSecret(gateway: string): string {
  const secret = TEST_SECRETS[`WEBHOOK_SECRET_${gateway.toUpperCase()}`];
  if (!secret) throw new Error(`No webhook secret for ${gateway}`);
  return secret;
}

export interface PaymentEventInput {
  id?: string;
  type?: 'payment.succeeded' | 'payment.failed' | 'payment.confirming';
  paymentId: string;
  invoiceid: number;
  amount: number;
  currency: 'EUR' | 'GBP';
  /** When the provider saw the payment: now unless given (a test whose server clock is moved gives that clock's time). */
  created?: Date;
}

/** A webhook event body as a provider would send it. */
export function paymentEvent({ id = `evt_${randomBytes(12).toString('hex')}`, type = 'payment.succeeded', paymentId, invoiceid, amount, currency, created = new Date() }: PaymentEventInput): string {
  return JSON.stringify({ id, type, created: Math.floor(created.getTime() / 1000), data: { paymentId, invoiceid, amount, currency } });
}

/** Delivers a webhook to /checkout/api/webhooks/<gateway>, signed with `secret` at time `t` unless a signature is given. */
export async function deliverWebhook(app: FastifyInstance, gateway: string, rawBody: string, signing: { secret: string; t?: number } | { signature: string }): Promise<Answer> {
  const signature = 'signature' in signing ? signing.signature : signWebhook(signing.secret, rawBody, signing.t);
  return new Browser(app).request({
    method: 'POST', url: `/checkout/api/webhooks/${gateway}`, headers: { 'content-type': 'application/json', 'webhook-signature': signature }, payload: rawBody,
  });
}

/** The payment id of a sandbox link. */
export function paymentIdOf(link: string | null | undefined): string {
  const id = linkPath(link).split('/').pop();
  if (!id?.startsWith('pay_')) throw new Error(`Not a sandbox payment link: ${link}`);
  return id;
}
