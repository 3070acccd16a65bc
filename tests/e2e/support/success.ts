/** The success page's tools: copy with its 'Copied!' hint, and the playlist download. */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Copy the password: the clipboard holds it, 'Copied!' shows, and is gone 2.5 s later. */
export async function copyPasswordShowsCopiedForTwoAndAHalfSeconds(page: Page, press?: () => Promise<void>): Promise<void> {
  const password = (await page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy Password' }) }).locator('code').textContent()) ?? '';
  expect(password).toMatch(/^\d{12}$/);
  // The page notes when the hint appears and goes: the duration does not depend on how busy the test runner is.
  await page.evaluate(() => {
    const hint: { shown?: number; hidden?: number } = {};
    (window as unknown as { copiedHint: typeof hint }).copiedHint = hint;
    new MutationObserver(() => {
      const shown = [...document.querySelectorAll('[role="status"]')].some((element) => element.textContent === 'Copied!');
      if (shown && hint.shown === undefined) hint.shown = performance.now();
      if (!shown && hint.shown !== undefined && hint.hidden === undefined) hint.hidden = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const copied = page.getByText('Copied!');
  await (press ? press() : page.getByRole('button', { name: 'Copy Password' }).click());
  await expect(copied).toBeVisible();
  // Next to the button that was pressed.
  await expect(page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy Password' }) }).getByRole('status')).toHaveText('Copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await expect(copied).toBeHidden({ timeout: 8_000 });
  const hint = await page.evaluate(() => (window as unknown as { copiedHint: { shown?: number; hidden?: number } }).copiedHint);
  const shownFor = (hint.hidden ?? 0) - (hint.shown ?? 0);
  expect(shownFor).toBeGreaterThanOrEqual(2_400);
  expect(shownFor).toBeLessThan(4_000);
}

/**
 * The playlist downloads from the checkout's own endpoint (no password in its address) as an M3U file that
 * points at the panel with the service's credentials; the page stays, and its history gains no entry.
 */
export async function downloadsThePlaylist(page: Page, press: () => Promise<void>): Promise<void> {
  const credential = (name: string) => page.getByRole('definition').filter({ has: page.getByRole('button', { name: `Copy ${name}` }) }).locator('code').textContent();
  const [username, password, host] = [await credential('Username'), await credential('Password'), await credential('Server host')];
  const url = page.url();
  const historyLength = await page.evaluate(() => history.length);
  const [download] = await Promise.all([page.waitForEvent('download'), press()]);
  expect(download.url()).toMatch(/\/checkout\/api\/playlist\?serviceid=\d+$/);
  expect(download.url()).not.toContain(password);
  expect(download.suggestedFilename()).toMatch(/^tv-checkout-\d+\.m3u$/);
  expect(await download.failure()).toBeNull();
  const file = readFileSync(await download.path(), 'utf8').split('\n');
  expect(file[0]).toMatch(/^#EXTM3U /);
  expect(file[1]).toMatch(/^#EXTINF:-1 /);
  expect(file[2]).toBe(`http://${host}/get.php?username=${username}&password=${password}&type=m3u_plus&output=ts`);
  expect(page.url()).toBe(url);
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  await expect(page.getByText(username ?? '', { exact: true }).first()).toBeVisible();
  // No link on the page carries the password.
  expect(await page.locator(`a[href*="${password}"]`).count()).toBe(0);
}
