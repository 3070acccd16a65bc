/**
 * Issue 30 item 4: the waiting and success pages' first paint is their final content. The server renders the
 * waiting page's status and receipt lines, and the success page's credentials for their signed-in owner only,
 * never stored by a cache; hydration then changes nothing (no recoverable hydration error, no layout shift).
 */
import type { Page } from '@playwright/test';
import { SEEDED_PLANS } from '../facts/catalogue';
import { declineOnSandbox, expect, guestOrder, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';
import { watchConsole } from './support/console';

const HYDRATION_TROUBLE = /hydrat|did not match|\[tvc\] hydration recovered/i;
const ONE_MONTH = SEEDED_PLANS.find((plan) => plan.name === '1 Month')!;

/** The page's text as the server sent it: React's empty comments between adjacent texts removed. */
const asSent = async (page: Page, path: string) => (await (await page.context().request.get(path)).text()).replaceAll('<!-- -->', '');

/** The layout shifts of the page so far, summed (CLS as the browser records it). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().reduce((sum, entry) => sum + (entry as PerformanceEntry & { value: number }).value, 0))).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 500);
      }),
  );

test('the waiting page as the server sends it holds the declined status and the receipt lines, and hydration changes none of it', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('first-paint-waiting') });
  await declineOnSandbox(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();

  const html = await asSent(page, '/checkout/waiting');
  expect(html).toMatch(/<h1[^>]*>Payment declined<\/h1>/);
  expect(html).toContain('<span class="badge danger">Declined</span>');
  expect(html).toContain(`<dt>Plan</dt><dd>1 Month, per month</dd>`);
  expect(html).toContain(`<dt>Total</dt><dd>€${ONE_MONTH.pricing.EUR!.monthly!.toFixed(2)}</dd>`);

  const messages = watchConsole(page);
  await page.reload();
  const receipt = page.getByRole('region', { name: 'Receipt' });
  await expect(receipt).toContainText(`€${ONE_MONTH.pricing.EUR!.monthly!.toFixed(2)}`);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible();
  expect(messages.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
  expect(await layoutShift(page)).toBe(0);
});

test('the success page as the server sends it holds its owner\'s credentials, never stored, and another visitor gets none', async ({ page, browser }) => {
  await guestOrder(page, { email: uniqueEmail('first-paint-success') });
  await payOnSandbox(page);
  await reachSuccess(page);
  const credentials = page.locator('dl.credentials code');
  const [username, password] = await credentials.allTextContents();
  expect(username).toMatch(/^TV-\d{8}$/);
  expect(password).toMatch(/^\d{12}$/);
  const path = new URL(page.url()).pathname + new URL(page.url()).search;

  const owner = await page.context().request.get(path);
  expect(owner.headers()['cache-control']).toBe('no-store');
  const html = (await owner.text()).replaceAll('<!-- -->', '');
  expect(html).toContain(`<code>${username}</code>`);
  expect(html).toContain(`<code>${password}</code>`);

  const stranger = await browser.newContext();
  const theirs = await stranger.request.get(path);
  expect(theirs.headers()['cache-control']).toBe('no-store');
  const theirHtml = await theirs.text();
  expect(theirHtml).not.toContain(username);
  expect(theirHtml).not.toContain(password);
  await stranger.close();

  const messages = watchConsole(page);
  await page.reload();
  await expect(page.getByText(username!, { exact: true }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(messages.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
  expect(await layoutShift(page)).toBe(0);
});
