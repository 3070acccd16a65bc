/**
 * Receipts and a cancel that asks once (issue 16, Build 3 and 5): the waiting page and the success page
 * show what was bought and paid, read from the server (a reload keeps it), and the success page thanks
 * the shopper; "Cancel order" on the waiting page cancels only once confirmed.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { declineOnSandbox, expect, guestOrder, onSandboxPage, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

/** The receipt block: its rows as the shopper reads them (label, value). */
async function receiptRows(page: Page): Promise<string[][]> {
  const block = page.getByRole('region', { name: 'Receipt' });
  await expect(block).toBeVisible();
  await expect(block.getByText('Total', { exact: true })).toBeVisible();
  const rows = block.locator('.line');
  return Promise.all((await rows.all()).map(async (row) => [(await row.locator('dt').textContent()) ?? '', (await row.locator('dd').textContent()) ?? '']));
}

/** axe-core's serious or critical violations on the page, light and dark. */
async function blockingViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    for (const { id, impact, nodes } of violations) if (impact === 'serious' || impact === 'critical') found.push(`${scheme} ${id} at ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** A label's value in the order's facts above the receipt (order, invoice, payment method, status). */
const fact = (page: Page, label: string) => page.locator('dl.facts > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');

/**
 * 1 Month with an extra connection and WELCOME10, in EUR: 12.99 + 4.00 = 16.99, 10 % off = 1.70,
 * total 15.29 (tests/facts/prices.ts, from the demo catalogue).
 */
const ORDERED = [
  ['Plan', '1 Month, per month'],
  ['Add-ons', '1 extra connection'],
  ['Promo code', 'WELCOME10'],
  ['Discount', '−€1.70'],
  ['Total', '€15.29'],
];

test('the receipt on the waiting page and on the success page, "Thank you", and the receipt still there after a reload', async ({ page }) => {
  // An automatic-order link goes straight to the payment page with the promotion and the extra connection.
  await page.goto(`/checkout/?pid=1&email=${encodeURIComponent(uniqueEmail('receipt'))}&auto_redirect=true&extraconnect=1&promocode=WELCOME10`);
  await onSandboxPage(page);
  await page.goto('/checkout/waiting');
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting for your payment' })).toBeVisible();

  const invoice = (await fact(page, 'Invoice').textContent()) ?? '';
  const gateway = (await fact(page, 'Payment method').textContent()) ?? '';
  expect(invoice).toMatch(/^#\d+$/);
  expect(gateway).not.toBe('');
  const waiting = await receiptRows(page);
  expect(waiting.slice(0, 5)).toEqual(ORDERED);
  expect(waiting[5]).toEqual(['Invoice', invoice]);
  expect(waiting[6]![0]).toBe('Date');
  expect(waiting[6]![1]).toMatch(/\d{4}/);
  expect(waiting[7]).toEqual(['Payment method', gateway]);
  expect(waiting).toHaveLength(8);
  await expect(page.getByText('Thank you for your order!')).toBeHidden();
  expect(await blockingViolations(page)).toEqual([]);

  await page.getByRole('link', { name: 'Go to the payment page' }).click();
  await payOnSandbox(page);
  await reachSuccess(page);
  await expect(page).toHaveURL(new RegExp(`[?&]invoiceid=${invoice.slice(1)}(&|$)`));
  const block = page.getByRole('region', { name: 'Receipt' });
  await expect(block.getByText('Thank you for your order!')).toBeVisible();
  const paid = await receiptRows(page);
  expect(paid.slice(0, 6)).toEqual([...ORDERED, ['Invoice', invoice]]);
  // Paid: dated by the payment.
  expect(paid[6]![0]).toBe('Paid on');
  expect(paid[7]).toEqual(['Payment method', gateway]);
  expect(await blockingViolations(page)).toEqual([]);

  // Read from the server, not from the page's memory: a reload (and a fresh tab) shows it again.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Receipt' }).getByText('Thank you for your order!')).toBeVisible();
  expect(await receiptRows(page)).toEqual(paid);
  const tab = await page.context().newPage();
  await tab.goto(page.url());
  expect(await receiptRows(tab)).toEqual(paid);
  await tab.close();
});

test('another browser opening the success URL sees no receipt', async ({ page, browser }) => {
  await guestOrder(page, { email: uniqueEmail('receipt-owner') });
  await payOnSandbox(page);
  await reachSuccess(page);
  await expect(page.getByRole('region', { name: 'Receipt' })).toBeVisible();
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(page.url());
  await expect(other.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  // The credentials part asks the stranger to sign in; the invoice answers 401, so no receipt is shown.
  await expect(other.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(other.getByRole('region', { name: 'Receipt' })).toBeHidden();
  await expect(other.getByText('Thank you for your order!')).toBeHidden();
  await stranger.close();
});

test('"Cancel order" asks once: the first click cancels nothing, "Keep my order" keeps it, the confirmation cancels', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('cancel-once') });
  await declineOnSandbox(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  const orderid = ((await fact(page, 'Order').textContent()) ?? '').slice(1);
  const statusOf = async () => ((await (await page.request.get(`/checkout/api/orderStatus?orderid=${orderid}`)).json()) as { status: string }).status;
  const question = page.getByText(`Cancel order #${orderid}? You will not be able to pay for it afterwards.`);
  const panel = page.getByRole('region', { name: `Cancel order #${orderid}? You will not be able to pay for it afterwards.` });

  await page.getByRole('button', { name: 'Cancel order' }).click();
  // Asked, not cancelled: the question has the focus (screen readers read it), the page stays.
  await expect(question).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Cancel order' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(1);
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  expect(await statusOf()).toBe('Pending');
  expect(await blockingViolations(page)).toEqual([]);

  await panel.getByRole('button', { name: 'Keep my order' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Cancel order' })).toBeFocused();
  expect(await statusOf()).toBe('Pending');

  // Escape keeps it too.
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await expect(question).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  expect(await statusOf()).toBe('Pending');

  await page.getByRole('button', { name: 'Cancel order' }).click();
  await panel.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your order was cancelled.' })).toBeVisible();
  expect(await statusOf()).toBe('Cancelled');
});
