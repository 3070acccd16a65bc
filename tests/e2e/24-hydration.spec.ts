import type { BrowserContext, Page } from '@playwright/test';
import { SEEDED_PLANS } from '../facts/catalogue';
import { DEMO_CLIENT, declineOnSandbox, expect, guestOrder, logIn, test, uniqueEmail } from './support/fixtures';
import { watchConsole } from './support/console';

// Issue 17 item 1: the first screen is rendered by the server and hydrated, not replaced.
const ENTRY = '?pid=2&promocode=WELCOME10&extraconnect=1';
const SIX_MONTHS = SEEDED_PLANS.find((plan) => plan.pid === 2)!;
const HYDRATION_TROUBLE = /hydrat|did not match|\[tvc\] hydration recovered/i;

/**
 * The API calls a page may make before the shopper does anything, each with its reason:
 * - getPromotion: the entry's pre-filled promo code is checked by the chart once it runs (its answer decides the discount).
 */
const EXPECTED_CALLS = [/^\/checkout\/api\/getPromotion\?code=WELCOME10$/];

/** The API calls the page makes from now on (path and query). */
async function watchApiCalls(context: BrowserContext): Promise<string[]> {
  const calls: string[] = [];
  await context.route('**/checkout/api/**', (route) => {
    const url = new URL(route.request().url());
    calls.push(`${url.pathname}${url.search}`);
    return route.continue();
  });
  return calls;
}

/** Opens a page and waits until the app has hydrated it (the entry's promo code is checked, so the chart runs). */
async function openHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('radio', { checked: true }).first()).toBeVisible();
  await expect(page.locator('.discount-status [role="status"]')).toHaveText(/WELCOME10/);
}

for (const [name, prefix] of [
  ['the default locale', ''],
  ['German', 'de-de/'],
] as const) {
  test(`a visitor's index in ${name} is server-rendered with the plans and hydrates without a mismatch or an early API call`, async ({ page, context }) => {
    const messages = watchConsole(page);
    const calls = await watchApiCalls(context);
    await openHydrated(page, `/checkout/${prefix}${ENTRY}`);
    // The 6 Months plan of the entry query is chosen, and the extra connection is on.
    await expect(page.locator('input[name="plan"][value="2"]')).toBeChecked();
    await expect(page.getByRole('switch').first()).toBeChecked();
    expect(messages.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
    expect(calls.filter((call) => !EXPECTED_CALLS.some((expected) => expected.test(call)))).toEqual([]);
  });
}

test('a logged-in client\'s index hydrates without a mismatch, and shows the e-mail once the app runs', async ({ page, context }) => {
  await logIn(page, DEMO_CLIENT);
  const messages = watchConsole(page);
  const calls = await watchApiCalls(context);
  await openHydrated(page, `/checkout/${ENTRY}`);
  await expect(page.getByText(DEMO_CLIENT.email)).toBeVisible();
  expect(messages.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
  expect(calls.filter((call) => !EXPECTED_CALLS.some((expected) => expected.test(call)))).toEqual([]);
});

test('the page the server sends holds the plans, their prices and the entry\'s plan chosen', async ({ request }) => {
  const answer = await request.get(`/checkout/${ENTRY}`);
  expect(answer.status()).toBe(200);
  const html = await answer.text();
  for (const plan of SEEDED_PLANS) expect(html).toContain(`<span class="plan-name">${plan.name}</span>`);
  expect(html).toContain(`<strong>€${SIX_MONTHS.pricing.EUR!.semiannually!.toFixed(2)}</strong>`);
  expect(html).toMatch(/<input type="radio" name="plan" checked="" value="2"\/>/);
  // The answers it was rendered with are data blocks, for the app to hydrate from.
  expect(html).toContain('<script type="application/json" id="tvc-shared">');
  expect(html).toContain('<script type="application/json" id="tvc-request">');
});

test('without JavaScript the page shows the plans with their prices, the entry\'s plan selected', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`/checkout/${ENTRY}`);
  for (const plan of SEEDED_PLANS) await expect(page.getByRole('radio', { name: new RegExp(`^${plan.name}`) })).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(`^${SIX_MONTHS.name}`) })).toBeChecked();
  await expect(page.getByText(`€${SIX_MONTHS.pricing.EUR!.semiannually!.toFixed(2)}`).first()).toBeVisible();
  await context.close();
});

test('the waiting page with a saved payment is server-rendered with its receipt and hydrates without a mismatch', async ({ page, context }) => {
  await guestOrder(page, { email: uniqueEmail('hydration') });
  await declineOnSandbox(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  const order = (await page.getByRole('definition').filter({ hasText: /^#\d+$/ }).first().textContent()) ?? '';
  expect(order).toMatch(/^#\d+$/);

  // What the server sends for this browser (its cookies): the frame and the receipt, before any script.
  // React separates adjacent texts with an empty comment ('#<!-- -->42'). The receipt's lines are checked by 30-first-paint.spec.ts.
  const html = (await (await context.request.get('/checkout/waiting')).text()).replaceAll('<!-- -->', '');
  expect(html).toContain(`<dt>Order</dt><dd>${order}</dd>`);
  expect(html).toContain('role="timer"');

  const messages = watchConsole(page);
  const calls = await watchApiCalls(context);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  await expect(page.getByRole('timer')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(messages.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
  // The waiting chart reads the payment's status as soon as it runs: that is its job on this page.
  expect(calls.filter((call) => !/^\/checkout\/api\/(invoiceStatus|orderStatus|paymentStatus)/.test(call))).toEqual([]);
});
