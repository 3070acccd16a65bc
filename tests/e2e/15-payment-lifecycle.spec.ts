/**
 * A payment a shopper can always finish (issue 15): a declined card payment is paid again on the same
 * gateway, an expired link is renewed on the same gateway, a Bitcoin payment seen but not yet confirmed
 * shows "Payment received, confirming" until it is confirmed; the waiting page says what was bought.
 */
import type { Page } from '@playwright/test';
import { declineOnSandbox, expect, guestOrder, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

/** The receipt block of the waiting page: its rows as the shopper reads them (label, value). */
async function receiptRows(page: Page): Promise<string[][]> {
  const block = page.getByRole('region', { name: 'Receipt' });
  await expect(block).toBeVisible();
  const rows = block.locator('.line');
  return Promise.all((await rows.all()).map(async (row) => [(await row.locator('dt').textContent()) ?? '', (await row.locator('dd').textContent()) ?? '']));
}

test('a declined card payment says so and is paid again on the same gateway, then reaches success', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('declined') });
  await expect(page.getByRole('heading', { level: 1, name: 'Card', exact: true })).toBeVisible();
  const invoice = (await page.getByText(/^Invoice #\d+$/).textContent()) ?? '';

  await declineOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Your payment was declined and no money was taken. Pay again, or choose another payment method.');
  await expect(page.getByText('Declined', { exact: true })).toBeVisible();
  await expect(page.getByText('Pending', { exact: true })).toBeHidden();
  // What was bought: 1 Month, no options, €12.99 (the demo catalogue).
  const rows = await receiptRows(page);
  expect(rows.slice(0, 3)).toEqual([['Plan', '1 Month, per month'], ['Total', '€12.99'], ['Invoice', `#${invoice.slice('Invoice #'.length)}`]]);
  expect(rows.map(([label]) => label).slice(3)).toEqual(['Date', 'Payment method']);

  await page.getByRole('button', { name: 'Pay again' }).click();
  // The same invoice, on the same gateway's page, with a new link.
  await expect(page.getByRole('heading', { level: 1, name: 'Card', exact: true })).toBeVisible();
  await expect(page.getByText(invoice, { exact: true })).toBeVisible();
  await payOnSandbox(page);
  await reachSuccess(page);
});

test('an expired link is renewed on the same gateway ("Get a new payment link") and paid', async ({ page, context }) => {
  await guestOrder(page, { email: uniqueEmail('expired') });
  const invoice = (await page.getByText(/^Invoice #\d+$/).textContent()) ?? '';
  const firstLink = page.url();
  // Back on the waiting page without paying, with the deadline moved into the past (as a day later).
  await page.goto('/checkout/waiting');
  await expect(page.getByRole('timer')).toBeVisible();
  // Off the app first: the waiting page saves the cookie as its status answers arrive, which could undo the edit.
  await page.goto('about:blank');
  const cookies = await context.cookies();
  const checkout = cookies.find((cookie) => cookie.name === 'checkout')!;
  const state = JSON.parse(decodeURIComponent(checkout.value)) as { payment: { lastDate: number } };
  state.payment.lastDate = Date.now() - 1_000;
  await context.addCookies([{ ...checkout, value: encodeURIComponent(JSON.stringify(state)) }]);
  await page.goto('/checkout/waiting');

  await expect(page.getByRole('heading', { level: 1, name: 'Waiting for your payment' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('This payment link has expired. Get a new payment link or choose another payment method.');
  await expect(page.getByText('Expired', { exact: true })).toBeVisible();
  await expect(page.getByRole('timer')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Go to the payment page' })).toBeHidden();

  await page.getByRole('button', { name: 'Get a new payment link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Card', exact: true })).toBeVisible();
  await expect(page.getByText(invoice, { exact: true })).toBeVisible();
  expect(page.url()).not.toBe(firstLink);
  await payOnSandbox(page);
  await reachSuccess(page);
});

test('a Bitcoin payment seen but not confirmed shows "Payment received, confirming", then the service once confirmed', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('confirming') });
  // Change to Bitcoin from the waiting page, as a shopper who prefers it.
  await page.goto('/checkout/waiting');
  await page.getByRole('button', { name: 'Change payment method' }).click();
  await page.getByRole('button', { name: 'Pay with Bitcoin' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bitcoin', exact: true })).toBeVisible();
  const link = page.url();

  await page.getByRole('button', { name: 'Pay, confirm later' }).click();
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment received, confirming' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Payment received, confirming.' })).toBeVisible();
  await expect(page.getByText('Confirming', { exact: true })).toBeVisible();
  await expect(page.getByText('Pending', { exact: true })).toBeHidden();
  // Nothing to do but wait: no payment page, no other method, no cancel.
  for (const name of ['Change payment method', 'Cancel order', 'Pay again', 'Get a new payment link']) await expect(page.getByRole('button', { name })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Go to the payment page' })).toBeHidden();

  // The provider confirms (the sandbox page of the same link).
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm the payment' }).click();
  await reachSuccess(page);
});

test('the receipt block fits a phone: every row visible without scrolling sideways', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-US' });
  const page = await context.newPage();
  await guestOrder(page, { email: uniqueEmail('phone') });
  await declineOnSandbox(page);
  const block = page.getByRole('region', { name: 'Receipt' });
  await expect(block).toBeVisible();
  await expect(block.getByText('€12.99')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const box = (await block.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await context.close();
});
