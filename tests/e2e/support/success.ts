/** The success page's tools: copy with its 'Copied!' hint, and the playlist download. */
import type { BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';

/** The streaming host the playlist comes from is the provider's, not this server: a stand-in answers for it. */
export async function servePlaylistHost(context: BrowserContext): Promise<void> {
  await context.route('http://stream.tvcheckout.test/**', (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'audio/x-mpegurl', 'content-disposition': 'attachment; filename="playlist.m3u"' },
      body: '#EXTM3U\n#EXTINF:-1,Test channel\nhttp://stream.tvcheckout.test/live/1.ts\n',
    }),
  );
}

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

/** The playlist downloads as an M3U file carrying the service's credentials; the page stays. */
export async function downloadsThePlaylist(page: Page, press: () => Promise<void>): Promise<void> {
  const username = await page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy Username' }) }).locator('code').textContent();
  const url = page.url();
  const [download] = await Promise.all([page.waitForEvent('download'), press()]);
  expect(download.suggestedFilename()).toMatch(/\.m3u$/);
  expect(download.url()).toContain(`username=${username}`);
  expect(download.url()).toContain('type=m3u_plus');
  expect(await download.failure()).toBeNull();
  expect(page.url()).toBe(url);
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
}
