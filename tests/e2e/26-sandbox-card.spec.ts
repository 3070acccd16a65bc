/**
 * The sandbox payment page as a provider's hosted page: each documented test card's outcome through the
 * shop's waiting page (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks
 * to confirm the payment, then pays), errors tied to their fields, and axe on phone and desktop, light and dark.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, guestOrder, payWithCard, reachSuccess, serverUrl, TEST_CARD, test, uniqueEmail } from './support/fixtures';

/** axe-core's serious and critical violations of the page, in both schemes, at a phone's and a desktop's width. */
async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      for (const { id, impact, nodes } of violations) {
        if (impact === 'serious' || impact === 'critical') found.push(`${viewport.width}px ${colorScheme}: ${id} at ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `fits ${viewport.width}px`).toBeLessThanOrEqual(viewport.width);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

test('4242 4242 4242 4242 pays: the waiting page moves on to the service', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('card-pays') });
  // Whom the shopper pays, how much, for what, and that it is a demo.
  const order = page.getByRole('region', { name: 'Order summary' });
  await expect(order).toContainText('TV Checkout Demo Ltd.');
  await expect(order.getByText('Amount to pay: €12.99')).toBeVisible();
  await expect(order.getByRole('list', { name: 'What it pays for' }).getByRole('listitem')).toHaveText(['1 Month, per month']);
  await expect(page.getByText('Demo — no money moves', { exact: true })).toBeVisible();
  await payWithCard(page, TEST_CARD.pays);
  await expect(page).toHaveURL(/\/checkout\/(waiting|success)/);
  await reachSuccess(page);
});

test('4000 0000 0000 0002 is declined: the waiting page says so and that no money was taken', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('card-declined') });
  await payWithCard(page, TEST_CARD.declined);
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Your payment was declined and no money was taken. Pay again, or choose another payment method.');
});

test('4000 0025 0000 3155 asks to confirm the payment on a second page, then pays', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('card-second-step') });
  await payWithCard(page, TEST_CARD.secondStep);
  await expect(page.getByRole('heading', { level: 2, name: 'Confirm your payment' })).toBeVisible();
  await expect(page.getByText('Your bank asks you to confirm the payment of €12.99 to TV Checkout Demo Ltd. with the card ending in 3155.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm the payment' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm the payment' }).click();
  await reachSuccess(page);
});

test('a test card link fills the form; wrong entries are said at their fields and take the focus; axe finds nothing, nothing is fetched from elsewhere', async ({ page }) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(serverUrl()) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  await guestOrder(page, { email: uniqueEmail('card-errors') });
  await expect(page.getByRole('textbox', { name: 'Card number' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);

  // The link of the declined card fills the whole form.
  await page.getByRole('link', { name: TEST_CARD.declined }).click();
  await expect(page.getByRole('textbox', { name: 'Card number' })).toHaveValue(TEST_CARD.declined);
  await expect(page.getByRole('textbox', { name: 'Expiry date' })).toHaveValue(/^12 \/ \d\d$/);
  await expect(page.getByRole('textbox', { name: 'Security code' })).toHaveValue('123');

  // A card that is not a test card, an expiry in the past, a two-digit code.
  await page.getByRole('textbox', { name: 'Card number' }).fill('5555 5555 5555 4444');
  await page.getByRole('textbox', { name: 'Expiry date' }).fill('01 / 20');
  await page.getByRole('textbox', { name: 'Security code' }).fill('12');
  await page.getByRole('button', { name: 'Pay €12.99' }).click();
  const number = page.getByRole('textbox', { name: 'Card number' });
  await expect(number).toBeFocused();
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription('This sandbox takes only its test cards, listed below.');
  await expect(page.getByRole('textbox', { name: 'Expiry date' })).toHaveAccessibleDescription('MM / YY The expiry date is in the past.');
  await expect(page.getByRole('textbox', { name: 'Security code' })).toHaveAccessibleDescription('3 digits The security code has 3 digits.');
  expect(await axeViolations(page)).toEqual([]);

  // Put right, it pays.
  await page.getByRole('link', { name: TEST_CARD.pays }).click();
  await page.getByRole('button', { name: 'Pay €12.99' }).click();
  await reachSuccess(page);
  expect(elsewhere).toEqual([]);
});
