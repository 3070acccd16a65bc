/**
 * `npm run demo:traffic -- --shoppers N --seed S [--url http://localhost:3000]`: simulated shoppers walk the running
 * demo in Chromium along weighted paths (some pay, some leave at the form, some on the waiting page), so the flow
 * studio's traffic layer and funnel have true traffic to show offline. Two shoppers at a time.
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { assertChromium, CHROME_ARGS, CHROME_PATH } from '../../tests/e2e/support/chromium';
import { seededRandom, shopperContext, shopperOf, walkShopper, type ShopperPath } from './shoppers';

const { values } = parseArgs({
  options: {
    shoppers: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: process.env.PUBLIC_URL ?? 'http://localhost:3000' },
  },
});
const count = Number(values.shoppers);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 1 || count > 10_000) throw new Error(`--shoppers must be a whole number from 1 to 10000, got ${values.shoppers}`);
if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number, got ${values.seed}`);

const health = await fetch(new URL('/checkout/api/health', values.url)).catch(() => null);
if (!health?.ok) {
  console.error(`No shop answers at ${values.url}: start it with npm start (or pass --url).`);
  process.exit(1);
}
assertChromium();

const random = seededRandom(seed);
const shoppers = Array.from({ length: count }, (_, index) => shopperOf(random, index));
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS });
const walked: Record<ShopperPath, number> = { pays: 0, 'leaves-on-waiting': 0, 'leaves-at-form': 0 };
let failed = 0;
let next = 0;
const started = performance.now();
await Promise.all(
  [0, 1].map(async () => {
    while (next < shoppers.length) {
      const shopper = shoppers[next++]!;
      const context = await shopperContext(browser, values.url, shopper);
      try {
        await walkShopper(context, shopper);
        walked[shopper.path] += 1;
        // The browser stays a moment after the page is left, as a person's does, so the page's last beacon goes out.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      } catch (error) {
        failed += 1;
        console.error(`a shopper (${shopper.path}, ${shopper.locale}) could not finish: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      } finally {
        await context.close();
      }
    }
  }),
);
await browser.close();
console.log(
  `${count - failed} of ${count} shoppers walked ${values.url} in ${((performance.now() - started) / 1000).toFixed(0)} s: ` +
    `${walked.pays} paid, ${walked['leaves-on-waiting']} left on the waiting page, ${walked['leaves-at-form']} left at the form.`,
);
process.exit(failed ? 1 : 0);
