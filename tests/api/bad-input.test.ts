import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/build-if-stale';
import { EMAIL_PATTERN, isValidEmail } from '../../src/domain/email';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../src/server/db/schema';
import { signWebhook } from '../../src/server/payments/signature';
import { followRef, isValidRequest, operations, type ContractOperation, type RequestParts } from './contract';
import {
  Browser, createTestApp, DEMO_ACCOUNTS, loggedIn, paymentEvent, paymentIdOf, placeOrder, storeSnapshot, webhookSecret, type Answer, type TestApp,
} from './helper';

/**
 * Bad input for every operation, generated from openapi.yaml: from a valid request of each operation,
 * every query parameter, path parameter, header and body property (nested ones too) is made missing,
 * of another type or out of its pattern, and unknown ones are added. Ajv on the contract decides which
 * variants are invalid; the server must refuse each with 400 in the error shape and write nothing.
 */

type Query = Record<string, string | string[]>;
interface Baseline {
  /** Who sends it: a logged-in browser, or a new anonymous one. */
  as?: Browser;
  query?: Query;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

interface BadCase {
  name: string;
  query: Query;
  params: Record<string, string>;
  headers: Record<string, string>;
  /** Absent: no body is sent. */
  body?: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const describeValue = (value: unknown) => (typeof value === 'string' && value.length > 20 ? `"${value.slice(0, 8)}…" (${value.length} chars)` : JSON.stringify(value));

/** Values of other types and strings outside common patterns; only those the contract refuses are used. */
function replacementsFor(value: unknown): unknown[] {
  const candidates: unknown[] = [typeof value === 'string' ? 12 : String(value), 1, 1.5, -1, true, null, {}, [], '', 'x', 'x'.repeat(300), 'white space', '<b>1</b>'];
  return candidates.filter((candidate, index) => candidates.findIndex((other) => JSON.stringify(other) === JSON.stringify(candidate)) === index);
}

/** Bad query-string values: a string is the only type a query value has, so here "type" means shape. */
const BAD_QUERY_VALUES = ['', 'abc', '0', '-1', '1.5', '1e3', ' 1', '0x1F', 'x'.repeat(300), 'white space', '<b>1</b>'];

const REMOVE = Symbol('remove');

function setAt(target: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(target) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === REMOVE) delete at[last];
  // defineProperty, so that `__proto__` becomes an own key (sent in the JSON) rather than the prototype.
  else Object.defineProperty(at, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Every bad variant of a valid request that the contract refuses. */
function badCases(op: ContractOperation, baseline: Baseline): BadCase[] {
  const base: BadCase = { name: 'valid', query: baseline.query ?? {}, params: baseline.params ?? {}, headers: baseline.headers ?? {}, ...(op.body ? { body: baseline.body } : {}) };
  const cases: BadCase[] = [];
  const add = (variant: Omit<BadCase, 'query' | 'params' | 'headers'> & Partial<BadCase>) => {
    const candidate = { ...base, ...variant };
    const parts: RequestParts = { query: candidate.query, params: candidate.params, headers: candidate.headers, ...('body' in candidate ? { body: candidate.body } : {}) };
    if (!isValidRequest(op, parts)) cases.push(candidate);
  };

  // Query parameters: unknown, missing, repeated (an array), and values outside the schema.
  add({ name: 'query: unknown parameter', query: { ...base.query, unexpected: '1' } });
  for (const parameter of op.parameters.filter((candidate) => candidate.in === 'query')) {
    const { [parameter.name]: current, ...others } = base.query;
    add({ name: `query ${parameter.name}: missing`, query: others });
    add({ name: `query ${parameter.name}: repeated`, query: { ...others, [parameter.name]: [String(current ?? '1'), String(current ?? '1')] } });
    for (const value of BAD_QUERY_VALUES) add({ name: `query ${parameter.name}=${describeValue(value)}`, query: { ...others, [parameter.name]: value } });
  }
  for (const parameter of op.parameters.filter((candidate) => candidate.in === 'path')) {
    for (const value of BAD_QUERY_VALUES.filter(Boolean)) add({ name: `path ${parameter.name}=${describeValue(value)}`, params: { ...base.params, [parameter.name]: value } });
  }
  for (const parameter of op.parameters.filter((candidate) => candidate.in === 'header')) {
    const name = parameter.name.toLowerCase();
    const { [name]: _current, ...others } = base.headers;
    add({ name: `header ${parameter.name}: missing`, headers: others });
    for (const value of ['', 'x'.repeat(300), 'x'.repeat(2000)]) add({ name: `header ${parameter.name}: ${describeValue(value)}`, headers: { ...others, [name]: value } });
  }

  if (op.body) {
    const { body: _body, ...withoutBody } = base;
    if (op.body.required) cases.push({ ...withoutBody, name: 'body: none sent' });
    for (const value of [null, [], 'text', 1, true]) add({ name: `body: ${describeValue(value)} instead of an object`, body: value });
    // Walk the body along its schema: unknown properties at every level, then each property missing or replaced.
    const walk = (schema: unknown, value: unknown, path: string[]) => {
      const resolved = followRef(schema);
      if (!isPlainObject(value) || (resolved.type !== 'object' && !isPlainObject(resolved.properties))) return;
      const where = path.length ? `body.${path.join('.')}` : 'body';
      add({ name: `${where}: unknown property`, body: setAt(base.body, [...path, 'unexpected'], 1) });
      add({ name: `${where}: prototype key`, body: setAt(base.body, [...path, '__proto__'], { admin: true }) });
      for (const [key, propertySchema] of Object.entries(isPlainObject(resolved.properties) ? resolved.properties : {})) {
        if (!(key in value)) continue;
        add({ name: `${where}.${key}: missing`, body: setAt(base.body, [...path, key], REMOVE) });
        for (const replacement of replacementsFor(value[key])) {
          add({ name: `${where}.${key} = ${describeValue(replacement)}`, body: setAt(base.body, [...path, key], replacement) });
        }
        walk(propertySchema, value[key], [...path, key]);
      }
    };
    walk(op.body.schema, base.body, []);
  }
  return cases;
}

function queryString(query: Query): string {
  return Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => `${encodeURIComponent(name)}=${encodeURIComponent(item)}`)).join('&');
}

function send(browser: Browser, op: ContractOperation, request: Omit<BadCase, 'name'>): Promise<Answer> {
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(request.params[name] ?? ''));
  const query = queryString(request.query);
  const url = query ? `${path}?${query}` : path;
  return browser.request({ method: op.method, url, headers: request.headers, ...('body' in request ? { payload: JSON.stringify(request.body), headers: { ...request.headers, 'content-type': 'application/json' } } : {}) });
}

/** A request of the operation built from openapi.yaml's own examples, for operations without a hand-written one. */
function fromExamples(op: ContractOperation): Baseline {
  const pick = (where: string) => Object.fromEntries(op.parameters.filter((parameter) => parameter.in === where && parameter.example !== undefined).map((parameter) => [where === 'header' ? parameter.name.toLowerCase() : parameter.name, String(parameter.example)]));
  return { query: pick('query'), params: pick('path'), headers: pick('header'), ...(op.body ? { body: op.body.examples[0] ?? {} } : {}) };
}

describe('bad input', () => {
  let t: TestApp;
  let demo: Browser;
  let reseller: Browser;
  const baselines: Record<string, Baseline> = {};

  beforeAll(async () => {
    // Every case is one request; auth alone has more cases than its 10/min limit, so the limits are off here
    // (tests/api/rate-limits.test.ts checks them).
    t = await createTestApp({ RATE_LIMIT: 'off' });
    demo = await loggedIn(t.app);
    reseller = await loggedIn(t.app, DEMO_ACCOUNTS.reseller);
    const [demoService] = await t.db.select().from(services).where(eq(services.clientId, (await demo.call('getSession')).body.userid as number));
    const [resellerService] = await t.db.select().from(services).where(eq(services.clientId, (await reseller.call('getSession')).body.userid as number));
    if (!demoService || !resellerService) throw new Error('The seed has no demo services');
    const pending = await placeOrder(demo, { pid: 1, promocode: 'WELCOME10', affid: 'partner_42', amount: 17.54, configoptions: { '2': 1, '4': 1 } });
    const serviceid = demoService.id;
    const event = paymentEvent({ paymentId: paymentIdOf(pending.link), invoiceid: pending.invoiceid, amount: pending.amount, currency: pending.currency });
    Object.assign(baselines, {
      auth: { body: DEMO_ACCOUNTS.client },
      authMiddleware: { body: { email: 'new.guest@mail.test' } },
      resellerAuth: { body: { email: 'new.reseller@mail.test', password: 'pw-1234567890', existingReseller: false } },
      newAffiliateClick: { body: { aff_id: 'partner_42', referer: 'https://partner.test/deals' } },
      getProductCustomFields: { query: { id: '1' } },
      order: {
        as: demo, headers: { 'idempotency-key': 'bad-input-order' },
        body: { pid: 1, paymentmethod: 'sandbox', promocode: 'WELCOME10', affid: 'partner_42', amount: 17.54, currency: 'EUR', configoptions: { '2': 1, '4': 1 } },
      },
      getGateway: {},
      getProducts: {},
      getProduct: { query: { pid: '1' } },
      getResellersProducts: {},
      getResellerProducts: { as: reseller, query: { serviceid: String(resellerService.id) } },
      getClientProducts: { as: demo, query: { serviceid: String(serviceid) } },
      getActiveProducts: { as: demo },
      getPromotion: { query: { code: 'WELCOME10' } },
      checkFraud: {},
      fraudOrder: { as: demo, body: { orderid: pending.orderid } },
      cancelOrder: { as: demo, body: { orderid: pending.orderid } },
      updateClientProduct: { as: demo, body: { serviceid, notes: 'Living-room box' } },
      moduleTerminate: { as: demo, body: { serviceid } },
      moduleCreate: { as: demo, body: { serviceid: pending.serviceids[0] } },
      restartService: { as: demo, body: { serviceid } },
      updateMacAddress: { as: demo, body: { serviceid, macAddress: '00:1A:79:12:34:56' } },
      isReseller: { as: demo },
      addInvoice: { as: demo, headers: { 'idempotency-key': 'bad-input-upsell' }, body: { serviceId: serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } },
      offshore: { as: demo, body: { invoiceid: pending.invoiceid, paymentmethod: 'sandbox', amount: pending.amount, currency: pending.currency } },
      coinbase: { as: demo, body: { invoiceid: pending.invoiceid, paymentmethod: 'sandboxcrypto', amount: pending.amount, currency: pending.currency } },
      getCurrency: {},
      getOrderStatus: { as: demo, query: { orderid: String(pending.orderid) } },
      getInvoiceStatus: { as: demo, query: { invoiceid: String(pending.invoiceid) } },
      paymentWebhook: { params: { gateway: 'sandbox' }, headers: { 'webhook-signature': signWebhook(webhookSecret('sandbox'), event) }, body: JSON.parse(event) },
      health: {},
      signOut: { body: {} },
      getSession: {},
      // A token of the right shape that was never issued: valid by the contract, answered 410 (sent as JSON here; the page's form body is tested in sign-in-link.test.ts).
      useSignInLink: { body: { token: 'ExampleOnlyTokenNeverIssued_0123456789abcde' } },
    } satisfies Record<string, Baseline>);
  });
  afterAll(async () => t?.close());

  const baselineOf = (op: ContractOperation) => baselines[op.operationId] ?? fromExamples(op);

  it('has a request valid by the contract for every operation (hand-written, or from openapi.yaml\'s examples)', () => {
    for (const op of operations) {
      const baseline = baselineOf(op);
      const parts: RequestParts = { query: baseline.query ?? {}, params: baseline.params ?? {}, headers: baseline.headers ?? {}, ...(op.body ? { body: baseline.body } : {}) };
      expect(isValidRequest(op, parts), op.operationId).toBe(true);
    }
  });

  for (const op of operations) {
    it(`${op.operationId}: every contract-breaking variant is refused with 400 bad_request and writes nothing; the valid request is not refused`, async () => {
      const baseline = baselineOf(op);
      const cases = badCases(op, baseline);
      // Every operation is probed at least for an unknown query parameter; those with input for much more.
      expect(cases.length).toBeGreaterThanOrEqual(op.parameters.length || op.body ? 5 : 1);
      const before = await storeSnapshot(t.db);
      const wrong: string[] = [];
      for (const { name, ...request } of cases) {
        const answer = await send(baseline.as ?? new Browser(t.app), op, request);
        const body = answer.body as { error?: { code?: unknown; message?: unknown } } | undefined;
        const shaped = body?.error?.code === 'bad_request' && typeof body.error.message === 'string' && body.error.message.length > 0 && Object.keys(body).length === 1;
        if (answer.status !== 400 || !shaped) wrong.push(`${name}: ${answer.status} ${answer.text}`);
      }
      expect(wrong).toEqual([]);
      expect(await storeSnapshot(t.db)).toEqual(before);

      const valid = await send(baseline.as ?? new Browser(t.app), op, { query: baseline.query ?? {}, params: baseline.params ?? {}, headers: baseline.headers ?? {}, ...(op.body ? { body: baseline.body } : {}) });
      expect(valid.status, valid.text).not.toBe(400);
    });
  }
});

describe('bad input, by hand', () => {
  let t: TestApp;
  let shopper: Browser;
  let demo: Browser;
  let before: Awaited<ReturnType<typeof storeSnapshot>>;

  beforeAll(async () => {
    t = await createTestApp();
    shopper = new Browser(t.app);
    expect((await shopper.call('authMiddleware', { body: { email: 'hand.cases@mail.test' } })).status).toBe(200);
    // Signed in before the snapshot: a sign-in writes its session, bad input must write nothing.
    demo = await loggedIn(t.app);
    before = await storeSnapshot(t.db);
  });
  afterAll(async () => t?.close());

  const expectBadRequest = (answer: Answer, message?: RegExp) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'bad_request', message: message ? expect.stringMatching(message) : expect.any(String) } });
  };
  const order = (payload: string) => shopper.request({ method: 'POST', url: '/checkout/api/order', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, payload });

  it.each([
    ['pid=abc'], ['pid='], ['pid=1&pid=2'], ['pid=1.0'], ['pid=0'], ['pid=%201'], ['pid=01'], ['pid=12345678901'], ['pid[]=1'], ['pid[a]=1'], [''], ['pid=1&extra=1'],
  ])('getProduct?%s is refused with 400', async (query) => {
    expectBadRequest(await shopper.request({ method: 'GET', url: `/checkout/api/getProduct?${query}` }));
  });

  it('a body that is not JSON is refused with 400', async () => {
    expectBadRequest(await order('{"pid": 1, "paymentmethod": '), /not valid JSON/);
    expectBadRequest(await order(''));
    expectBadRequest(await order("{ pid: 1 }"), /not valid JSON/);
  });

  it('a text/plain body is refused with 415, like any body that is not JSON', async () => {
    const answer = await shopper.request({ method: 'POST', url: '/checkout/api/order', headers: { 'content-type': 'text/plain', 'idempotency-key': randomUUID() }, payload: 'pid=1&amount=12.99' });
    expect(answer.status, answer.text).toBe(415);
    expect(answer.body).toEqual({ error: { code: 'unsupported_media_type', message: expect.any(String) } });
  });

  it('a string amount is refused, not coerced: "amount": "12.99"', async () => {
    expectBadRequest(await order('{"pid":1,"paymentmethod":"sandbox","amount":"12.99","currency":"EUR"}'), /amount/);
  });

  it.each([
    ['pid as a string', '{"pid":"1","paymentmethod":"sandbox","amount":12.99,"currency":"EUR"}'],
    ['an option as a string', '{"pid":1,"paymentmethod":"sandbox","amount":16.99,"currency":"EUR","configoptions":{"2":"1"}}'],
    ['an option as a boolean', '{"pid":1,"paymentmethod":"sandbox","amount":16.99,"currency":"EUR","configoptions":{"2":true}}'],
    ['an option id the contract does not know', '{"pid":1,"paymentmethod":"sandbox","amount":12.99,"currency":"EUR","configoptions":{"3":1}}'],
    ['a currency in lower case', '{"pid":1,"paymentmethod":"sandbox","amount":12.99,"currency":"eur"}'],
    ['a negative amount', '{"pid":1,"paymentmethod":"sandbox","amount":-12.99,"currency":"EUR"}'],
    ['the client IP in the body', '{"pid":1,"paymentmethod":"sandbox","amount":12.99,"currency":"EUR","ip":"203.0.113.9"}'],
    ['the country in the body', '{"pid":1,"paymentmethod":"sandbox","amount":12.99,"currency":"EUR","country":"GB"}'],
    ['a __proto__ key', '{"pid":1,"paymentmethod":"sandbox","amount":12.99,"currency":"EUR","__proto__":{"fraud":false}}'],
    ['three reseller products', '{"pid":[10,11,12],"paymentmethod":"sandbox","amount":1100,"currency":"EUR"}'],
    ['an empty product list', '{"pid":[],"paymentmethod":"sandbox","amount":0,"currency":"EUR"}'],
    ['a fractional pid', '{"pid":1.5,"paymentmethod":"sandbox","amount":12.99,"currency":"EUR"}'],
  ])('order with %s is refused with 400', async (_name, payload) => {
    expectBadRequest(await order(payload));
  });

  it.each([0, 11, 1.5, '2'])('addInvoice with extraQuantity %j is refused with 400', async (extraQuantity) => {
    expectBadRequest(await demo.request({ method: 'POST', url: '/checkout/api/addInvoice', headers: { 'idempotency-key': randomUUID() }, json: { serviceId: 1, extraQuantity, paymentmethod: 'sandbox', price: 4, currency: 'EUR' } }));
  });

  // Addresses no mail server accepts pass "text@text.text" but are refused by the one e-mail rule (src/domain/email.ts), here as in the form.
  it.each(['a@.....', 'a@b..c', 'a@1.2', 'x@127.0.0.1', 'a@-b.c', 'a@b-.c', `${'l'.repeat(65)}@mail.test`])('an undeliverable e-mail %j is refused with 400 by every call that takes one', async (email) => {
    expectBadRequest(await shopper.call('authMiddleware', { body: { email } }));
    expectBadRequest(await shopper.call('signInLink', { body: { email, redirect: '/checkout/' } }));
    expectBadRequest(await shopper.call('auth', { body: { email, password: 'correct horse battery' } }));
    expect(isValidEmail(email)).toBe(false);
  });

  it("holds the contract's Email pattern to the form's rule", () => {
    const contract = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8')) as { components: { schemas: { Email: { pattern: string } } } };
    expect(contract.components.schemas.Email.pattern).toBe(EMAIL_PATTERN);
  });

  it('writes nothing for any of them', async () => {
    expect(await storeSnapshot(t.db)).toEqual(before);
  });
});
