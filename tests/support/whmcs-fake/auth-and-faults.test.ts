/**
 * The fake's auth layer (identifier + secret on every call, IP allow list, access key) and its fault modes,
 * against the reference's facts (integrations.md §1 and developer-docs issue 303).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callWhmcs } from './call';
import { createWhmcsFake, type WhmcsFake } from './server';

const started: WhmcsFake[] = [];
async function start(options: Parameters<typeof createWhmcsFake>[0] = {}): Promise<WhmcsFake> {
  const fake = await createWhmcsFake(options);
  started.push(fake);
  return fake;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

describe('authentication on every call', () => {
  it('refuses a wrong secret and missing credentials, and does nothing', async () => {
    const whmcs = await start({ identifier: 'id-1', secret: 'right' });
    const wrong = await callWhmcs({ ...whmcs, secret: 'wrong' }, 'AddClient', { email: 'x@example.test', password2: 'p', skipvalidation: '1' });
    expect(wrong.body).toEqual({ result: 'error', message: 'Authentication Failed' });
    const missing = await callWhmcs(whmcs, 'GetCurrencies', {}, { auth: false });
    expect(missing.body).toEqual({ result: 'error', message: 'Invalid or missing credentials' });
    expect(whmcs.state.clients.some((client) => client.email === 'x@example.test')).toBe(false);
  });

  it('accepts the credentials as username + password too', async () => {
    const whmcs = await start({ identifier: 'id-2', secret: 's-2' });
    const answer = await callWhmcs(whmcs, 'GetCurrencies', { username: 'id-2', password: 's-2' }, { auth: false });
    expect(answer.body.result).toBe('success');
  });

  it('reads only a form-encoded (or multipart) POST, as PHP fills $_POST: a JSON body has no credentials', async () => {
    const whmcs = await start();
    const json = await fetch(whmcs.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'GetCurrencies', identifier: whmcs.identifier, secret: whmcs.secret, responsetype: 'json' }) });
    expect(await json.text()).not.toContain('"result":"success"');
    const form = new FormData();
    for (const [key, value] of Object.entries({ action: 'GetCurrencies', identifier: whmcs.identifier, secret: whmcs.secret, responsetype: 'json' })) form.append(key, value);
    const multipart = await fetch(whmcs.url, { method: 'POST', body: form });
    expect(((await multipart.json()) as { result: string }).result).toBe('success');
  });

  it('refuses an action the credential\'s role does not allow', async () => {
    const whmcs = await start({ allowedActions: ['GetProducts'] });
    expect((await callWhmcs(whmcs, 'getproducts')).body.result).toBe('success');
    const refused = await callWhmcs(whmcs, 'AddOrder', { clientid: '1' });
    expect(refused.body.result).toBe('error');
    expect(refused.body.message).toMatch(/^Invalid Permissions: API action "addorder" is not allowed$/i);
  });

  it('records every call in order, with the secret and passwords redacted', async () => {
    const whmcs = await start({ secret: 'top-secret-value' });
    await callWhmcs(whmcs, 'GetProducts', { pid: '1' });
    await callWhmcs(whmcs, 'ValidateLogin', { email: 'demo@tvcheckout.test', password2: 'demo-password-1' });
    expect(whmcs.calls.map((call) => call.action)).toEqual(['GetProducts', 'ValidateLogin']);
    expect(whmcs.calls[0]?.params.pid).toBe('1');
    expect(JSON.stringify(whmcs.calls)).not.toContain('top-secret-value');
    expect(JSON.stringify(whmcs.calls)).not.toContain('demo-password-1');
  });
});

describe('IP allow list and access key', () => {
  it('answers HTTP 403 "Invalid IP <ip>" to an address not on the list', async () => {
    const whmcs = await start({ allowedIps: ['192.0.2.55'] });
    const answer = await callWhmcs(whmcs, 'GetCurrencies');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ result: 'error', message: 'Invalid IP 127.0.0.1' });
  });

  it('lets a listed address in', async () => {
    const whmcs = await start({ allowedIps: ['127.0.0.1'] });
    expect((await callWhmcs(whmcs, 'GetCurrencies')).body.result).toBe('success');
  });

  it('bypasses the list with the right access key; a wrong one is Invalid Access Key', async () => {
    const whmcs = await start({ allowedIps: ['192.0.2.55'], accesskey: 'k3y!@#' });
    expect((await callWhmcs(whmcs, 'GetCurrencies', { accesskey: 'k3y!@#' })).body.result).toBe('success');
    expect((await callWhmcs(whmcs, 'GetCurrencies', { accesskey: 'nope' })).body).toEqual({ result: 'error', message: 'Invalid Access Key' });
    expect(JSON.stringify(whmcs.calls)).not.toContain('k3y!@#');
  });
});

describe('fault modes', () => {
  it('down: the connection closes without an answer', async () => {
    const whmcs = await start();
    whmcs.fault('down');
    await expect(callWhmcs(whmcs, 'GetProducts')).rejects.toThrow();
    whmcs.fault('none');
    expect((await callWhmcs(whmcs, 'GetProducts')).body.result).toBe('success');
  });

  it('down marks the call it dropped, which was not carried out', async () => {
    const whmcs = await start();
    whmcs.fault('down', { actions: ['AddInvoicePayment'], times: 1 });
    const payment = { invoiceid: '1', transid: 'evt-1', amount: '1.00', gateway: 'sandbox', date: '2026-01-02 10:00:00' };
    await expect(callWhmcs(whmcs, 'AddInvoicePayment', payment)).rejects.toThrow();
    expect(whmcs.callsOf('AddInvoicePayment').map((call) => call.fault)).toEqual(['down']);
    expect(whmcs.state.transactions.filter((row) => row.transid === 'evt-1')).toHaveLength(0);
    expect((await callWhmcs(whmcs, 'AddInvoicePayment', payment)).body.result).toBe('success');
    expect(whmcs.state.transactions.filter((row) => row.transid === 'evt-1')).toHaveLength(1);
  });

  it('suspend refuses connections until resume, on the same URL', async () => {
    const whmcs = await start();
    await whmcs.suspend();
    await expect(callWhmcs(whmcs, 'GetCurrencies')).rejects.toThrow();
    await whmcs.resume();
    expect((await callWhmcs(whmcs, 'GetCurrencies')).body.result).toBe('success');
  });

  it('slow: the answer comes after delayMs, beyond a client\'s timeout', async () => {
    const whmcs = await start();
    whmcs.fault('slow', { delayMs: 400 });
    await expect(callWhmcs(whmcs, 'GetCurrencies', {}, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    const started = Date.now();
    const answer = await callWhmcs(whmcs, 'GetCurrencies');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(answer.body.result).toBe('success');
  });

  it('invalid-ip: HTTP 403 with the Invalid IP body', async () => {
    const whmcs = await start();
    whmcs.fault('invalid-ip');
    const answer = await callWhmcs(whmcs, 'GetProducts');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ result: 'error', message: 'Invalid IP 127.0.0.1' });
  });

  it('warning: HTTP 200 with a warning key and no result, and the order is not placed', async () => {
    const whmcs = await start();
    whmcs.fault('warning', { actions: ['AddOrder'] });
    const before = whmcs.state.orders.length;
    const answer = await callWhmcs(whmcs, 'AddOrder', { clientid: '1', paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly' });
    expect(answer.status).toBe(200);
    expect(typeof answer.body.warning).toBe('string');
    expect(answer.body).not.toHaveProperty('result');
    expect(whmcs.state.orders.length).toBe(before);
  });

  it('warning with result success: HTTP 200 {"result":"success","warning":…}', async () => {
    const whmcs = await start();
    whmcs.fault('warning', { warningShape: 'success' });
    const answer = await callWhmcs(whmcs, 'GetCurrencies');
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBe('success');
    expect(typeof answer.body.warning).toBe('string');
  });

  it('html: HTTP 500 with an HTML error page', async () => {
    const whmcs = await start();
    whmcs.fault('html');
    const answer = await callWhmcs(whmcs, 'GetProducts');
    expect(answer.status).toBe(500);
    expect(answer.contentType).toContain('text/html');
    expect(answer.text).toMatch(/<html/i);
    expect(() => JSON.parse(answer.text) as unknown).toThrow();
  });

  it('error: a business error (HTTP 200, result error) with the message given, and nothing is done', async () => {
    const whmcs = await start();
    whmcs.fault('error', { actions: ['CancelOrder'], times: 1, message: 'Order ID not found or Status not Pending' });
    const order = await callWhmcs(whmcs, 'AddOrder', { clientid: '1', paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly' });
    const refused = await callWhmcs(whmcs, 'CancelOrder', { orderid: String(order.body.orderid) });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ result: 'error', message: 'Order ID not found or Status not Pending' });
    expect(whmcs.state.orders.find((row) => row.id === Number(order.body.orderid))?.status).toBe('Pending');
    expect((await callWhmcs(whmcs, 'CancelOrder', { orderid: String(order.body.orderid) })).body).toEqual({ result: 'success' });
    expect(whmcs.state.orders.find((row) => row.id === Number(order.body.orderid))?.status).toBe('Cancelled');
  });

  it('is scoped to the actions named (any letter case) and to a number of calls', async () => {
    const whmcs = await start();
    whmcs.fault('html', { actions: ['getinvoice'], times: 2 });
    expect((await callWhmcs(whmcs, 'GetProducts')).status).toBe(200);
    expect((await callWhmcs(whmcs, 'GetInvoice', { invoiceid: '1' })).status).toBe(500);
    expect((await callWhmcs(whmcs, 'GetInvoice', { invoiceid: '1' })).status).toBe(500);
    const third = await callWhmcs(whmcs, 'GetInvoice', { invoiceid: '1' });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ result: 'success', status: 'Paid' });
  });
});
