import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collection, createWhmcsClient, encodeForm, phpTruthy, toCentsExact, toId, whmcsDate, whmcsDay, WhmcsRefusal, WhmcsUnavailable, type WhmcsClient } from './client';

/** A tiny WHMCS stand-in: each test sets what it answers; every request's form is kept. */
let server: Server;
let url = '';
let answer: (request: IncomingMessage, response: ServerResponse, form: URLSearchParams) => void = () => {};
const received: URLSearchParams[] = [];
const json = (status: number, body: string) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => { raw += chunk.toString('utf8'); });
    request.on('end', () => {
      const form = new URLSearchParams(raw);
      received.push(form);
      answer(request, response, form);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/includes/api.php`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let clients: WhmcsClient[] = [];
const newClient = (extra: Partial<Parameters<typeof createWhmcsClient>[0]> = {}) => {
  const client = createWhmcsClient({ url, identifier: 'ID', secret: 'SECRET', retryBackoffMs: 5, ...extra });
  clients.push(client);
  return client;
};
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  received.length = 0;
});

const rejection = async (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error);

describe('WHMCS client: the request', () => {
  it('POSTs form fields with credentials, accesskey, responsetype=json, bracket arrays and 1/0 booleans', async () => {
    let method = '';
    let contentType = '';
    answer = (request, response) => {
      method = request.method ?? '';
      contentType = request.headers['content-type'] ?? '';
      json(200, '{"result":"success","orderid":"1"}')(request, response);
    };
    await newClient({ accesskey: 'KEY' }).write('AddOrder', { clientid: 3, pid: [1, 2], billingcycle: ['monthly', 'annually'], noemail: true, noinvoice: false, promocode: null });
    const form = received[0] as URLSearchParams;
    expect(method).toBe('POST');
    expect(contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(form)).toEqual({
      action: 'AddOrder', identifier: 'ID', secret: 'SECRET', accesskey: 'KEY', responsetype: 'json', clientid: '3',
      'pid[0]': '1', 'pid[1]': '2', 'billingcycle[0]': 'monthly', 'billingcycle[1]': 'annually', noemail: '1', noinvoice: '0',
    });
  });

  it('never sends the string "false" (PHP reads it as true)', () => {
    expect(encodeForm({ autosetup: false, sendemail: true })).toBe('autosetup=0&sendemail=1');
  });
});

describe('WHMCS client: answers', () => {
  it('returns a success answer with its fields', async () => {
    answer = json(200, '{"result":"success","orderid":"7","serviceids":"11,12","invoiceid":9}');
    expect(await newClient().write('AddOrder', {})).toEqual({ result: 'success', orderid: '7', serviceids: '11,12', invoiceid: 9 });
  });

  it('an error result is a refusal (502 billing_error) whose WHMCS message is kept for the log, not shown', async () => {
    answer = json(200, '{"result":"error","message":"Invalid Payment Method. Valid options include paypal"}');
    const error = await rejection(newClient().write('AddOrder', {}));
    expect(error).toBeInstanceOf(WhmcsRefusal);
    expect((error as WhmcsRefusal).statusCode).toBe(502);
    expect((error as WhmcsRefusal).body().error.code).toBe('billing_error');
    expect((error as WhmcsRefusal).whmcsMessage).toBe('Invalid Payment Method. Valid options include paypal');
    expect(JSON.stringify((error as WhmcsRefusal).body())).not.toContain('paypal');
  });

  it('`status` instead of `result` ({"status":"error","message":"Invoice ID Not Found"}) is a refusal', async () => {
    answer = json(200, '{"status":"error","message":"Invoice ID Not Found"}');
    const error = await rejection(newClient().read('GetInvoice', { invoiceid: 99 }));
    expect(error).toBeInstanceOf(WhmcsRefusal);
    expect((error as WhmcsRefusal).whmcsMessage).toBe('Invoice ID Not Found');
  });

  it('a `warning` with HTTP 200 and no success is a refusal', async () => {
    answer = json(200, '{"warning":"Something was not done"}');
    const error = await rejection(newClient().write('UpdateClientProduct', {}));
    expect(error).toBeInstanceOf(WhmcsRefusal);
    expect((error as WhmcsRefusal).whmcsMessage).toBe('Something was not done');
  });

  it('`Invalid IP` with HTTP 403 is read from the body: a refusal, not retried', async () => {
    answer = json(403, '{"result":"error","message":"Invalid IP 203.0.113.9"}');
    const error = await rejection(newClient().read('GetProducts', {}));
    expect(error).toBeInstanceOf(WhmcsRefusal);
    expect((error as WhmcsRefusal).whmcsMessage).toBe('Invalid IP 203.0.113.9');
    expect(received).toHaveLength(1);
  });

  it('an HTML error page with 500 is unavailable (503 billing_unavailable)', async () => {
    answer = (_request, response) => { response.writeHead(500, { 'content-type': 'text/html' }).end('<html><body><h1>Oops!</h1></body></html>'); };
    const error = await rejection(newClient({ readRetries: 0 }).read('GetProducts', {}));
    expect(error).toBeInstanceOf(WhmcsUnavailable);
    expect((error as WhmcsUnavailable).statusCode).toBe(503);
    expect((error as WhmcsUnavailable).body().error.code).toBe('billing_unavailable');
  });

  it('an HTML page with 200 (not the API) is unavailable', async () => {
    answer = (_request, response) => { response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><title>Maintenance</title>'); };
    expect(await rejection(newClient({ readRetries: 0 }).read('GetProducts', {}))).toBeInstanceOf(WhmcsUnavailable);
  });

  it('an unreachable server is unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = newClient({ url: `http://127.0.0.1:${port}/includes/api.php`, readRetries: 0 });
    expect(await rejection(client.read('GetProducts', {}))).toBeInstanceOf(WhmcsUnavailable);
  });

  it('a server slower than the timeout is unavailable', async () => {
    answer = (request, response) => { setTimeout(() => json(200, '{"result":"success"}')(request, response), 500); };
    const started = Date.now();
    expect(await rejection(newClient({ timeoutMs: 100, readRetries: 0 }).read('GetProducts', {}))).toBeInstanceOf(WhmcsUnavailable);
    expect(Date.now() - started).toBeLessThan(450);
  });
});

describe('WHMCS client: retries and the breaker', () => {
  it('retries a read twice after unavailability, then succeeds', async () => {
    let calls = 0;
    answer = (request, response) => {
      calls += 1;
      if (calls < 3) response.writeHead(502).end('<html>Bad gateway</html>');
      else json(200, '{"result":"success","totalresults":0}')(request, response);
    };
    expect(await newClient().read('GetProducts', {})).toEqual({ result: 'success', totalresults: 0 });
    expect(calls).toBe(3);
  });

  it('never retries a write', async () => {
    answer = (_request, response) => { response.writeHead(503).end('<html>down</html>'); };
    expect(await rejection(newClient().write('AddOrder', {}))).toBeInstanceOf(WhmcsUnavailable);
    expect(received).toHaveLength(1);
  });

  it('fails fast after N unavailable answers in a row, probes after the open time, and recovers', async () => {
    let clock = 1_000;
    let down = true;
    answer = (request, response) => {
      if (down) response.writeHead(503).end('<html>down</html>');
      else json(200, '{"result":"success"}')(request, response);
    };
    const client = newClient({ breakerThreshold: 3, breakerOpenMs: 5_000, readRetries: 0, now: () => clock });
    for (let i = 0; i < 3; i += 1) await rejection(client.write('GetProducts', {}));
    expect(received).toHaveLength(3);
    const fast = await rejection(client.write('GetProducts', {}));
    expect(fast).toBeInstanceOf(WhmcsUnavailable);
    expect(received).toHaveLength(3);
    down = false;
    clock += 5_001;
    expect(await client.write('GetProducts', {})).toEqual({ result: 'success' });
    expect(await client.write('GetProducts', {})).toEqual({ result: 'success' });
    expect(received).toHaveLength(5);
  });
});

describe('WHMCS coercion', () => {
  it('reads ids given as numbers or numeric strings', () => {
    expect(toId(1)).toBe(1);
    expect(toId('1')).toBe(1);
    expect(toId('')).toBeNull();
    expect(toId('abc')).toBeNull();
    expect(toId(undefined)).toBeNull();
  });

  it('reads money strings into exact integer cents', () => {
    expect(toCentsExact('25.99')).toBe(2599);
    expect(toCentsExact('0.29')).toBe(29);
    expect(toCentsExact('4.35')).toBe(435);
    expect(toCentsExact('-1.00')).toBe(-100);
    expect(toCentsExact('12')).toBe(1200);
    expect(toCentsExact(25.99)).toBe(2599);
    expect(toCentsExact('1,234.50')).toBe(123450);
    expect(toCentsExact('')).toBeNull();
    expect(toCentsExact('abc')).toBeNull();
  });

  it('reads missing, "" and single-object collections as lists', () => {
    expect(collection({ result: 'success', totalresults: 0 }, 'promotions', 'promotion')).toEqual([]);
    expect(collection({ products: '' }, 'products', 'product')).toEqual([]);
    expect(collection({ products: { product: { id: 1 } } }, 'products', 'product')).toEqual([{ id: 1 }]);
    expect(collection({ products: { product: [{ id: 1 }, { id: 2 }] } }, 'products', 'product')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('reads 0000-00-00 as no date', () => {
    expect(whmcsDate('0000-00-00')).toBeNull();
    expect(whmcsDate('0000-00-00 00:00:00')).toBeNull();
    expect(whmcsDate('2026-01-31')).toBe('2026-01-31');
  });

  it('reads a due date as a calendar day only: 0000-00-00, a time or a stray text is no day', () => {
    expect(whmcsDay('2026-12-27')).toBe('2026-12-27');
    expect(whmcsDay('0000-00-00')).toBeNull();
    expect(whmcsDay('2026-12-27 10:00:00')).toBeNull();
    expect(whmcsDay('27/12/2026')).toBeNull();
    expect(whmcsDay(undefined)).toBeNull();
  });

  it('reads flags as PHP does: "false" is true', () => {
    expect(phpTruthy('false')).toBe(true);
    expect(phpTruthy('0')).toBe(false);
    expect(phpTruthy('')).toBe(false);
    expect(phpTruthy(1)).toBe(true);
  });
});
