import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { WALKS } from './support/screens';

/** Where the pictures go: under test-results/ (gitignored), replaced on every run. */
const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots');

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;
const SCHEMES = ['light', 'dark'] as const;

async function photograph(screen: string, page: Page): Promise<string[]> {
  const files: string[] = [];
  for (const { name, viewport } of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate((dark) => matchMedia(`(prefers-color-scheme: ${dark})`).matches, scheme)).toBe(true);
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} fits ${name} width`).toBeLessThanOrEqual(viewport.width);
      const path = join(SCREENSHOTS, `${screen}.${name}.${scheme}.png`);
      // A full-page capture of a long screen on a busy 2-core machine can take longer than a click.
      await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide', timeout: 30_000 });
      files.push(path);
    }
  }
  await page.setViewportSize(WIDTHS[1].viewport);
  await page.emulateMedia({ colorScheme: 'light' });
  return files;
}

for (const [who, walk] of Object.entries(WALKS)) {
  test(`screenshots of the ${who}'s screens at phone and desktop widths, light and dark`, async ({ browser }, testInfo) => {
    // A whole walk through the product, with a check on every screen.
    test.setTimeout(180_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const files: string[] = [];
    await walk(browser, async (screen, page) => {
      files.push(...(await photograph(screen, page)));
    });
    await testInfo.attach('screenshots', { body: files.join('\n'), contentType: 'text/plain' });
    expect(files.length).toBeGreaterThan(0);
  });
}
