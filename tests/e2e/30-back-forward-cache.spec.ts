/**
 * Issue 30 item 6: back from the provider's page is instant. The index and the waiting page are restored from
 * Chromium's back/forward cache (which Playwright turns off by default, so this file turns it back on), and
 * the restored page's chart reads the order again at once.
 */
import type { Page } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './support/chromium';
import { expect, guestOrder, onSandboxPage, test, uniqueEmail } from './support/fixtures';

test.use({ launchOptions: { executablePath: CHROME_PATH, args: CHROME_ARGS, ignoreDefaultArgs: ['--disable-back-forward-cache'] } });

/** Records each pageshow's `persisted` in the page, and Chromium's reasons for not caching it (CDP). */
async function watchRestores(page: Page): Promise<{ notUsed: unknown[] }> {
  await page.addInitScript(() => {
    addEventListener('pageshow', (event) => {
      const shows = ((window as unknown as { shows?: boolean[] }).shows ??= []);
      shows.push(event.persisted);
    });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  const notUsed: unknown[] = [];
  cdp.on('Page.backForwardCacheNotUsed', (event) => notUsed.push(event.notRestoredExplanations));
  return { notUsed };
}

const lastShowPersisted = (page: Page) => page.evaluate(() => (window as unknown as { shows?: boolean[] }).shows?.at(-1) ?? null);

test('back from the payment page, the index is restored from the back/forward cache and offers the unpaid order', async ({ page }) => {
  const watched = await watchRestores(page);
  await guestOrder(page, { email: uniqueEmail('bfcache-index') });
  // A page restored from the cache fires no load event: the navigation is done once committed.
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/checkout\/$/);
  expect(watched.notUsed).toEqual([]);
  expect(await lastShowPersisted(page)).toBe(true);
  // The chart that handed the order over starts again and finds it unpaid.
  await expect(page.getByRole('region', { name: 'Unpaid order' })).toContainText('You have an unpaid order #');
});

test('back from the payment page, the waiting page is restored from the back/forward cache and shows the status the provider set meanwhile', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('bfcache-waiting') });
  const payment = page.url();
  const watched = await watchRestores(page);
  await page.goto('/checkout/waiting');
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting for your payment' })).toBeVisible();
  // Left right after a poll, so the next one would be a whole interval (5 s) away without the restore's own.
  await page.waitForResponse(/\/checkout\/api\/orderStatus/);
  await page.getByRole('link', { name: 'Go to the payment page' }).click();
  await onSandboxPage(page);
  const declined = await page.request.post(payment, { form: { decision: 'decline' }, maxRedirects: 0 });
  expect(declined.status()).toBe(303);
  // A page restored from the cache fires no load event: the navigation is done once committed.
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  expect(watched.notUsed).toEqual([]);
  expect(await lastShowPersisted(page)).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment declined' })).toBeVisible({ timeout: 2_500 });
});
