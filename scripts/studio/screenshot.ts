/**
 * Takes the README's picture of the flow studio (docs/flow-studio.png) with Playwright and the
 * system Chromium: the checkout machine in the product view, a scenario six steps in, at fit. Run after npm run studio:build.
 */
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from '../../tests/e2e/support/chromium';
import { startStudioServer } from './serve';

const ROOT = resolve(import.meta.dirname, '../..');
const studio = await startStudioServer({ port: 0 });
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1500 }, colorScheme: 'light' });
  await page.goto(`${studio.url}#/machine/checkout/scenario/3`);
  const next = page.getByRole('button', { name: 'Next', exact: true });
  for (let step = 0; step < 6; step++) await next.click();
  await page.locator('.state-node[data-state-id="checkout.submitting"]').click();
  // The click scrolls the state into view; the picture starts at the page's top, the diagram and its panels below it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ROOT, 'docs', 'flow-studio.png') });
  console.log('wrote docs/flow-studio.png');
} finally {
  await browser.close();
  await studio.close();
}
