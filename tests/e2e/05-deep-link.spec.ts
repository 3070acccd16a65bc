import type { Page } from '@playwright/test';
import { expect, newShopper, onSandboxPage, test, uniqueEmail } from './support/fixtures';

/** The checkout stayed put: the form is on screen, no order was placed, and nothing navigates away. */
async function staysOnCheckout(page: Page, orders: () => number) {
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your TV plan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Validate and pay' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page).not.toHaveURL(/sandbox/);
  expect(orders()).toBe(0);
}

function countOrders(page: Page) {
  let orders = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/checkout/api/order')) orders += 1;
  });
  return () => orders;
}

test('a deep link with pid, email and auto_redirect=true goes straight to the payment page', async ({ page }) => {
  await page.goto(`/checkout/?pid=2&email=${encodeURIComponent(uniqueEmail('deeplink'))}&auto_redirect=true`);
  await onSandboxPage(page);
  await expect(page.getByRole('button', { name: 'Pay €59.99' })).toBeVisible();
});

test('a deep link carries its add-on and a valid promo into the automatic order', async ({ page }) => {
  await page.goto(`/checkout/creatingOrder?pid=2&extraconnect=true&promocode=HALFYEAR20&email=${encodeURIComponent(uniqueEmail('deeplink'))}&auto_redirect=true`);
  await onSandboxPage(page);
  // (59.99 + 20.00) less 20 %.
  await expect(page.getByRole('button', { name: 'Pay €63.99' })).toBeVisible();
});

const broken: [string, (email: string) => string][] = [
  ['without an e-mail', () => '/checkout/?pid=2&auto_redirect=true'],
  ['with an invalid e-mail', () => '/checkout/?pid=2&email=nobody&auto_redirect=true'],
  ['without auto_redirect=true', (email) => `/checkout/?pid=2&email=${email}&auto_redirect=false`],
  ['with a pid that is not a number', (email) => `/checkout/?pid=two&email=${email}&auto_redirect=true`],
  ['with a pid of no product', (email) => `/checkout/?pid=99&email=${email}&auto_redirect=true`],
  ['without a pid', (email) => `/checkout/?email=${email}&auto_redirect=true`],
];

test('deep links with a missing or broken condition stay on the checkout', async ({ browser }) => {
  for (const [name, url] of broken) {
    await test.step(`a deep link ${name}`, async () => {
      const { context, page } = await newShopper(browser);
      const orders = countOrders(page);
      await page.goto(url(encodeURIComponent(uniqueEmail('broken'))));
      await staysOnCheckout(page, orders);
      await context.close();
    });
  }
});

test('a deep link with a wrong condition pre-fills the form it falls back to', async ({ page }) => {
  const email = uniqueEmail('prefill');
  const orders = countOrders(page);
  await page.goto(`/checkout/creatingOrder?pid=2&email=${encodeURIComponent(email)}&auto_redirect=false&extraconnect=true`);
  await staysOnCheckout(page, orders);
  await expect(page.getByRole('radio', { name: /^6 Months/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /Extra connection/ })).toBeChecked();
});
