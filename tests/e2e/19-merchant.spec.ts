import type { Locator, Page } from '@playwright/test';
import { declineOnSandbox, expect, guestOrder, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

// The demo's merchant (src/server/catalogue/demo.yaml) and the links it gives.
const LINKS: [string, string][] = [
  ['Support: support@tvcheckout.test', 'mailto:support@tvcheckout.test'],
  ['Help and support', '/checkout/demo/support'],
  ['Terms of service', '/checkout/demo/terms'],
  ['Privacy policy', '/checkout/demo/privacy'],
  ['Refund policy', '/checkout/demo/refunds'],
];

/** The footer names the merchant, gives every link in order and says the payment is secure. */
async function showsTheMerchant(footer: Locator) {
  await expect(footer.getByText('Sold by TV Checkout Demo Ltd.')).toBeVisible();
  await expect(footer.getByText(/^Secure payment: /)).toBeVisible();
  const links = footer.getByRole('navigation', { name: 'About the seller' }).getByRole('link');
  await expect(links).toHaveCount(LINKS.length);
  for (const [index, [name, href]] of LINKS.entries()) {
    await expect(links.nth(index)).toHaveText(name);
    await expect(links.nth(index)).toHaveAttribute('href', href);
  }
}

/** The app's footer: the page's one contentinfo landmark. */
const appFooter = (page: Page) => page.getByRole('contentinfo');

test('the merchant footer is on the index, the sandbox page, the waiting page and the success page', async ({ page }) => {
  await page.goto('/checkout/');
  await showsTheMerchant(appFooter(page));
  await expect(appFooter(page).locator('img')).toHaveAttribute('src', '/checkout/demo/logo.svg');

  await guestOrder(page, { email: uniqueEmail('merchant') });
  // The hosted sandbox page: its own footer, whom the shopper pays.
  await showsTheMerchant(page.getByRole('contentinfo'));

  await declineOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await showsTheMerchant(appFooter(page));

  await page.getByRole('button', { name: 'Pay again' }).click();
  const backOnWaiting = page.waitForURL(/\/checkout\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await reachSuccess(page);
  await showsTheMerchant(appFooter(page));

  // A link works: the demo's terms page.
  await appFooter(page).getByRole('link', { name: 'Terms of service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeVisible();
});

test('the footer does not move the page when the app takes over the prerendered page', async ({ page }) => {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/checkout/');
  await expect(appFooter(page).getByText('Sold by TV Checkout Demo Ltd.')).toBeVisible();
  // The footer is the page's last box, its height reserved: filling it shifts nothing.
  await expect(page.locator('footer.site-footer > :last-child')).toHaveAttribute('data-merchant-footer');
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0))).toBe(0);
});

test('a German page shows the plans, the payment method and the footer in German', async ({ page }) => {
  await page.goto('/checkout/de-de/');
  const plans = page.getByRole('group', { name: 'Paket' });
  await expect(plans.getByRole('radio', { name: /^1 Monat/ })).toBeVisible();
  await expect(plans.getByRole('radio', { name: /^6 Monate/ })).toBeVisible();
  await expect(plans.getByText('Alle Sender und Filme, Abrechnung alle 6 Monate.')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Karte', exact: true })).toBeVisible();
  await expect(page.getByText(/\(sandbox\)/)).toHaveCount(0);
  await expect(appFooter(page).getByText('Verkauft von TV Checkout Demo Ltd.')).toBeVisible();
  await expect(appFooter(page).getByRole('navigation', { name: 'Über den Verkäufer' }).getByRole('link', { name: 'AGB' })).toHaveAttribute('href', '/checkout/demo/terms');

  // Switching language in the page names the plans in the new language.
  await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/checkout\/es-es\/?$/);
  await expect(page.getByRole('radio', { name: /^1 mes/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Tarjeta', exact: true })).toBeVisible();
});
