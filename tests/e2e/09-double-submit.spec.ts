import { apiGuestOrder, expect, onSandboxPage, openCheckout, test, uniqueEmail } from './support/fixtures';

test('a double click on validate creates one order', async ({ page }) => {
  const email = uniqueEmail('double');
  await openCheckout(page);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);

  // Orders of this shopper placed through the API just before and just after bracket the order ids.
  const first = await apiGuestOrder(page.request, { email });

  // The order takes a moment to come back, so the second click lands while the first is in flight.
  const sent: string[] = [];
  const answered: number[] = [];
  await page.route('**/checkout/api/order', async (route) => {
    sent.push(route.request().headers()['idempotency-key'] ?? '');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const response = await route.fetch();
    if (response.ok()) answered.push(((await response.json()) as { orderid: number }).orderid);
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Validate and pay' }).dblclick();
  await onSandboxPage(page);
  await page.unroute('**/checkout/api/order');

  const last = await apiGuestOrder(page.request, { email });
  expect(new Set(answered).size).toBe(1);
  const [orderid] = answered;
  expect(orderid).toBeGreaterThan(first.orderid);
  expect(orderid).toBeLessThan(last.orderid);
  // Any request the page sent repeats the same Idempotency-Key.
  expect(new Set(sent).size).toBe(1);

  // Through the API: of every order placed between the two, exactly one is this shopper's.
  const mine: number[] = [];
  for (let id = first.orderid + 1; id < last.orderid; id += 1) {
    const status = await page.request.get(`/checkout/api/orderStatus?orderid=${id}`);
    expect([200, 403]).toContain(status.status());
    if (status.ok()) mine.push(id);
  }
  expect(mine).toEqual([orderid]);
  const order = (await (await page.request.get(`/checkout/api/orderStatus?orderid=${orderid}`)).json()) as { status: string; amount: number };
  expect(order).toMatchObject({ status: 'Pending', amount: 12.99 });
});
