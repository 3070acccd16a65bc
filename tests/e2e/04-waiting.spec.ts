import type { Page } from '@playwright/test';
import { declineOnSandbox, expect, guestOrder, test, uniqueEmail } from './support/fixtures';

/** An unpaid order on the waiting page (the shopper declined on the payment page). */
async function waitingForPayment(page: Page) {
  await guestOrder(page, { email: uniqueEmail('waiting') });
  await declineOnSandbox(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('timer')).toBeVisible();
  const order = (await page.getByRole('definition').filter({ hasText: /^#\d+$/ }).first().textContent()) ?? '';
  expect(order).toMatch(/^#\d+$/);
  return { orderid: Number(order.slice(1)) };
}

const seconds = (timer: string) => {
  const [h, m, s] = timer.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

test('cancelling from the waiting page cancels the order and goes home', async ({ page }) => {
  const { orderid } = await waitingForPayment(page);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  // Asked once (tests/e2e/20-receipt.spec.ts walks the question itself): confirm.
  await page.getByRole('region', { name: /^Cancel order #\d+\?/ }).getByRole('button', { name: 'Cancel order' }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your TV plan' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your order was cancelled.' })).toBeVisible();

  const status = await page.request.get(`/checkout/api/orderStatus?orderid=${orderid}`);
  expect(((await status.json()) as { status: string }).status).toBe('Cancelled');

  // Nothing is waiting any more; home is one link away.
  await page.goto('/checkout/waiting');
  await expect(page.getByText('There is no payment waiting.')).toBeVisible();
  await expect(page.getByRole('timer')).toBeHidden();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your TV plan' })).toBeVisible();
  // Only the cancel itself brings the notice.
  await expect(page.getByText('Your order was cancelled.')).toBeHidden();
});

test('a reload during waiting keeps the countdown and the order', async ({ page }) => {
  const { orderid } = await waitingForPayment(page);
  // The deadline is in the shopper's time zone, so it is written once the app runs ('…' in the server's page).
  await expect(page.getByText(/^Pay before /)).not.toHaveText(/…/);
  const deadline = await page.getByText(/^Pay before /).textContent();
  const before = seconds((await page.getByRole('timer').textContent()) ?? '');
  expect(before).toBeGreaterThan(23 * 3600);
  // Let the clock run, so a countdown started afresh (a new day from now) would show more time than before.
  await page.waitForTimeout(2_500);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: `#${orderid}` }).first()).toBeVisible();
  await expect(page.getByText(/^Pay before /)).toHaveText(deadline ?? '');
  const after = seconds((await page.getByRole('timer').textContent()) ?? '');
  expect(after).toBeLessThanOrEqual(before - 1);
  expect(after).toBeGreaterThan(before - 30);
  // The countdown keeps running after the reload.
  await expect.poll(async () => seconds((await page.getByRole('timer').textContent()) ?? '')).toBeLessThan(after);
  await expect(page.getByRole('progressbar', { name: 'Time left to pay' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel order' })).toBeVisible();

  // The order is still the shopper's and still pending.
  const status = await page.request.get(`/checkout/api/orderStatus?orderid=${orderid}`);
  expect(((await status.json()) as { status: string }).status).toBe('Pending');
});
