import { expect, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';
import { copyPasswordShowsCopiedForTwoAndAHalfSeconds, downloadsThePlaylist } from './support/success';

test('a guest buys 6 months with an extra connection and WELCOME10, pays, waits and gets working credentials', async ({ page }) => {
  const email = uniqueEmail('guest');
  await page.goto('/checkout/');

  await page.getByRole('radio', { name: /^6 Months/ }).check();
  await page.getByRole('switch', { name: /Extra connection/ }).check();
  const summary = page.getByRole('region', { name: 'Your order' });
  await expect(summary.getByRole('status')).toHaveText('€79.99');

  await page.getByRole('textbox', { name: 'Discount code' }).fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Code WELCOME10 applied.')).toBeVisible();
  await expect(summary.getByRole('status')).toHaveText('€71.99');
  await expect(summary).toContainText('every 6 months');

  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await expect(page.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
  await page.getByRole('button', { name: 'Validate and pay' }).click();

  // The sandbox provider charges exactly the total the checkout showed.
  await expect(page.getByRole('button', { name: 'Pay €71.99' })).toBeVisible();
  const backOnWaiting = page.waitForURL(/\/checkout\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await reachSuccess(page);
  // The service's name, and the receipt of what was paid (the same €71.99 as on the payment page).
  await expect(page.locator('p', { hasText: '6 Months' })).toBeVisible();
  const receipt = page.getByRole('region', { name: 'Receipt' });
  await expect(receipt.getByText('Thank you for your order!')).toBeVisible();
  await expect(receipt.getByText('6 Months, every 6 months')).toBeVisible();
  await expect(receipt.getByText('WELCOME10')).toBeVisible();
  await expect(receipt.getByText('€71.99')).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  await copyPasswordShowsCopiedForTwoAndAHalfSeconds(page);
  await downloadsThePlaylist(page, () => page.getByRole('button', { name: 'Download playlist' }).click());

  const device = page.getByRole('textbox', { name: 'Device address (MAC)' });
  await device.fill('00:1a:79:ab:cd:ef');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Device address saved.')).toBeVisible();
  // Kept by the server: a reload shows it.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Device address (MAC)' })).toHaveValue(/00:1A:79:AB:CD:EF/i);
});
