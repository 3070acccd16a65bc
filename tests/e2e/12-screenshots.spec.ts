/**
 * Every screen and important state compared with its committed picture, on phone and desktop, light and
 * dark, in en-en and de-de, and axe-clean on each. What changes from run to run is masked: order and
 * invoice numbers, credentials, dates, times and the countdown. Regenerate: `npm run test:screens:update`.
 */
import type { Locator, Page } from '@playwright/test';
import { axeFindings, blockingFindings, type AxeFinding } from './support/axe';
import { expect, test } from './support/fixtures';
import { STATE_WALKS, WALK_LOCALES, type Extent } from './support/screen-states';

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Per pixel, the default colour threshold (0.2, YIQ), which absorbs a shade of anti-aliasing on glyph edges; per
 * picture, up to 0.1 % of pixels may differ beyond it (about 1,400 on a desktop page): room for a masked date one
 * character longer (about 180), while a line of hint text (about 0.2 % of a desktop page) or a status badge (0.15 %)
 * is seen. A 1 % allowance let a receipt's longer time and a removed hint line go unseen.
 */
const TOLERANCE = { threshold: 0.2, maxDiffPixelRatio: 0.001 } as const;

/** What differs on every run: numbers the store hands out, credentials, dates and times, the countdown. */
function changing(page: Page): Locator[] {
  return [
    page.getByRole('timer'),
    page.getByRole('progressbar'),
    page.getByText(/#\d+/),
    page.locator('select').filter({ hasText: /#\d+/ }),
    page.getByText(/TV-\d{8}/),
    page.getByText(/^\d{12}$/),
    page.getByText(/\b20\d\d\b/),
    // The sandbox's test-card expiry: December of next year.
    page.getByText(/\b12 \/ \d\d\b/),
    // A time of day, not a device address such as 00:1A:79:12:34:56.
    page.getByText(/(?<![:\w])\d{1,2}:\d{2}(?![:\w])/),
  ];
}

async function compare(screen: string, locale: string, page: Page, extent: Extent, alsoChanging: Locator[], findings: AxeFinding[]): Promise<void> {
  for (const { name, viewport } of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate((wanted) => matchMedia(`(prefers-color-scheme: ${wanted})`).matches, scheme)).toBe(true);
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} fits ${name} width`).toBeLessThanOrEqual(viewport.width);
      // Soft: one changed screen does not hide the rest of the walk.
      await expect.soft(page).toHaveScreenshot(`${screen}-${locale}-${name}-${scheme}.png`, {
        ...TOLERANCE,
        fullPage: extent === 'page',
        animations: 'disabled',
        caret: 'hide',
        mask: [...changing(page), ...alsoChanging],
        timeout: 30_000,
      });
      findings.push(...(await axeFindings(`${screen} ${locale} ${name}`, page, scheme)));
    }
  }
  await page.setViewportSize(WIDTHS[1].viewport);
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const where of WALK_LOCALES) {
  for (const [part, walk] of Object.entries(STATE_WALKS)) {
    test(`the ${part} screens in ${where.code} look as their pictures on phone and desktop, light and dark, and are axe-clean`, async ({ browser }, testInfo) => {
      test.setTimeout(240_000);
      const findings: AxeFinding[] = [];
      await walk(browser, where, (screen, page, extent, alsoChanging) => compare(screen, where.code, page, extent, alsoChanging, findings));
      await testInfo.attach('axe-findings.json', { body: JSON.stringify(findings, null, 2), contentType: 'application/json' });
      expect(blockingFindings(findings)).toEqual([]);
    });
  }
}
