import { declineOnSandbox, expect, guestOrder, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

test('a declined card payment is said as such, then the shopper changes to Bitcoin, pays and reaches success', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('decline') });
  await expect(page.getByRole('heading', { level: 1, name: 'Card', exact: true })).toBeVisible();
  const invoice = (await page.getByText(/^Invoice #\d+$/).textContent()) ?? '';

  await declineOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  // Declined, said as such (issue 15), never "Pending".
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('timer')).toHaveText(/^2[34]:\d\d:\d\d$/);
  await expect(page.getByText('Declined', { exact: true })).toBeVisible();
  await expect(page.locator('dl.facts').getByRole('definition').filter({ hasText: /^Card$/ })).toBeVisible();

  await page.getByRole('button', { name: 'Change payment method' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Pay with another method' })).toBeFocused();
  await page.getByRole('button', { name: 'Pay with Bitcoin' }).click();

  // The same invoice, on the other gateway's page.
  await expect(page.getByRole('heading', { level: 1, name: 'Bitcoin', exact: true })).toBeVisible();
  await expect(page.getByText(invoice, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay €12.99' })).toBeVisible();
  const backOnWaiting = page.waitForURL(/\/checkout\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await reachSuccess(page);
});
