import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiGuestOrder, apiPay, DEMO_CLIENT, expect, logIn, newShopper, test, uniqueEmail } from './support/fixtures';

interface Credentials {
  email: string;
  orderid: number;
  invoiceid: number;
  serviceid: number;
  username: string;
  password: string;
}

/** Someone's paid order, placed and paid in their own browser. */
async function paidOrder(request: APIRequestContext, label: string): Promise<Credentials> {
  const email = uniqueEmail(label);
  const order = await apiGuestOrder(request, { email });
  await apiPay(request, order.link ?? '');
  const serviceid = order.serviceids[0] ?? 0;
  let product: { username: string | null; password: string | null } = { username: null, password: null };
  await expect
    .poll(async () => {
      product = (await (await request.get(`/checkout/api/getClientProducts?serviceid=${serviceid}`)).json()) as typeof product;
      return product.username;
    })
    .toMatch(/^TV-\d{8}$/);
  return { email, orderid: order.orderid, invoiceid: order.invoiceid, serviceid, username: product.username ?? '', password: product.password ?? '' };
}

/** The success page for a service that is not this browser's: refused, and nothing of it shows. */
async function refusedOnSuccessPage(page: Page, alice: Credentials, url = `/checkout/success?serviceid=${alice.serviceid}`) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  const text = await page.locator('body').innerText();
  expect(text).not.toContain(alice.username);
  expect(text).not.toContain(alice.password);
  return (await page.getByRole('alert').textContent()) ?? '';
}

/** Every call on Alice's order, invoice and service, with the caller's cookies. */
async function everyCallIsRefused(request: APIRequestContext, alice: Credentials, expected: number[]) {
  const calls = [
    request.get(`/checkout/api/getClientProducts?serviceid=${alice.serviceid}`),
    request.get(`/checkout/api/orderStatus?orderid=${alice.orderid}`),
    request.get(`/checkout/api/invoiceStatus?invoiceid=${alice.invoiceid}`),
    request.post('/checkout/api/updateMacAddress', { data: { serviceid: alice.serviceid, macAddress: '00:1A:79:66:66:66' } }),
    request.post('/checkout/api/updateClientProduct', { data: { serviceid: alice.serviceid, notes: 'mine now' } }),
    request.post('/checkout/api/cancelOrder', { data: { orderid: alice.orderid } }),
    request.post('/checkout/api/restartService', { data: { serviceid: alice.serviceid } }),
    request.post('/checkout/api/moduleTerminate', { data: { serviceid: alice.serviceid } }),
    request.post('/checkout/api/offshore', { data: { invoiceid: alice.invoiceid, paymentmethod: 'sandbox', amount: 12.99, currency: 'EUR' } }),
  ];
  for (const answer of await Promise.all(calls)) {
    expect(expected, `${answer.url()} answered ${answer.status()}`).toContain(answer.status());
    const body = await answer.text();
    expect(body).not.toContain(alice.username);
    expect(body).not.toContain(alice.password);
  }
}

test("credentials of someone else's service cannot be reached by changing ids in the URL or the calls", async ({ browser, page }) => {
  const { context: alicesBrowser } = await newShopper(browser);
  const alice = await paidOrder(alicesBrowser.request, 'alice');

  await test.step('a visitor without a session is asked to log in', async () => {
    expect(await refusedOnSuccessPage(page, alice)).toBe('Please log in.');
    await expect(page.getByRole('form', { name: 'Log in to see your service' })).toBeVisible();
    await everyCallIsRefused(page.request, alice, [401]);
  });

  await test.step("a guest with a paid order of their own changes the serviceid to Alice's", async () => {
    const bob = await paidOrder(page.request, 'bob');
    await page.goto(`/checkout/success?serviceid=${bob.serviceid}`);
    await expect(page.getByText(bob.username, { exact: true })).toBeVisible();
    expect(await refusedOnSuccessPage(page, alice)).toBe('This belongs to another account.');
    // A guest session is no proven identity: notes, restart and terminate are 401 before any ownership check.
    await everyCallIsRefused(page.request, alice, [401, 403]);
  });

  await test.step('the saved checkout cookie edited to point at Alice’s order and service', async () => {
    const url = new URL(page.url());
    const forged = { payment: { flow: 'order', order: { orderid: alice.orderid, invoiceid: alice.invoiceid, serviceid: alice.serviceid, fraud: false }, link: null, gateway: 'sandbox', lastDate: Date.now() + 86_400_000, duration: 86_400_000 } };
    await page.context().addCookies([{ name: 'checkout', value: encodeURIComponent(JSON.stringify(forged)), domain: url.hostname, path: '/checkout' }]);
    expect(await refusedOnSuccessPage(page, alice, '/checkout/success')).toBe('This belongs to another account.');
    await page.goto('/checkout/waiting');
    await expect(page.getByRole('heading', { level: 1, name: 'Waiting for your payment' })).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeHidden();
  });

  await test.step("Alice's e-mail in the URL identifies a guest, never Alice's services", async () => {
    const { context, page: mallory } = await newShopper(browser);
    await mallory.goto(`/checkout/?email=${encodeURIComponent(alice.email)}`);
    await expect(mallory.getByText(`Ordering as ${alice.email}.`)).toBeVisible();
    expect(await refusedOnSuccessPage(mallory, alice)).toBe('This belongs to another account.');
    await everyCallIsRefused(mallory.request, alice, [401, 403]);
    await context.close();
  });

  await test.step('a logged-in client changes the serviceid to Alice’s', async () => {
    const { context, page: client } = await newShopper(browser);
    await logIn(client, DEMO_CLIENT);
    expect(await refusedOnSuccessPage(client, alice)).toBe('This belongs to another account.');
    await everyCallIsRefused(client.request, alice, [403]);
    const upsell = await client.request.post('/checkout/api/addInvoice', { data: { serviceId: alice.serviceid, extraQuantity: 1, paymentmethod: 'sandbox', price: 4, currency: 'EUR' }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(upsell.status()).toBe(403);
    await context.close();
  });

  // Alice still has what she bought, untouched.
  const hers = (await (await alicesBrowser.request.get(`/checkout/api/getClientProducts?serviceid=${alice.serviceid}`)).json()) as { password: string; status: string; macAddress: { value: string } };
  expect(hers).toMatchObject({ password: alice.password, status: 'Active' });
  expect(hers.macAddress.value).not.toBe('00:1A:79:66:66:66');
  await alicesBrowser.close();
});
