import { DEMO_CLIENT, expect, logIn, payOnSandbox, test } from './support/fixtures';

test('a client logs in, buys 2 extra connections for an active service, pays, and sees the new count', async ({ page }) => {
  await logIn(page, DEMO_CLIENT);
  await page.getByRole('link', { name: 'Add connections to your service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add connections' })).toBeVisible();

  // The first active service is selected; what it has today.
  const service = page.getByRole('combobox', { name: 'Service' });
  await expect(service).toHaveValue(/^\d+$/);
  const serviceid = await service.inputValue();
  const current = page.getByText(/^\d+ extra connections? today\.$/);
  const before = Number(((await current.textContent()) ?? '').split(' ')[0]);

  const quantity = page.getByRole('slider', { name: 'Extra connections' });
  await expect(quantity).toHaveValue('1');
  await quantity.press('ArrowRight');
  await expect(quantity).toHaveValue('2');
  // Two connections on the monthly plan: 2 × €4.00.
  await expect(page.getByRole('status').filter({ hasText: '€8.00' })).toHaveText('€8.00 per month');
  await expect(page.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
  await page.getByRole('button', { name: 'Pay €8.00' }).click();

  await expect(page.getByRole('button', { name: 'Pay €8.00' })).toBeVisible();
  const backOnWaiting = page.waitForURL(/\/checkout\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await expect(page).toHaveURL(new RegExp(`/checkout/success\\?serviceid=${serviceid}&invoiceid=\\d+$`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();

  await page.getByRole('link', { name: 'Add connections to this service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add connections' })).toBeVisible();
  await expect(page.getByText(`${before + 2} extra connections today.`)).toBeVisible();

  const product = await page.request.get(`/checkout/api/getClientProducts?serviceid=${serviceid}`);
  expect(((await product.json()) as { extraConnect: { value: number } }).extraConnect.value).toBe(before + 2);
});
