/**
 * Simulated shoppers: each walks the real app in its own browser context along one path and leaves the way a
 * person does (the page is left, so the app sends its flow traffic on pagehide). Used by `npm run demo:traffic`
 * and by the flow-traffic journey.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { LOCALES, DEFAULT_LOCALE, type Locale } from '../../src/domain/locale';

export const SHOPPER_PATHS = ['pays', 'leaves-on-waiting', 'leaves-at-form'] as const;
export type ShopperPath = (typeof SHOPPER_PATHS)[number];

/** How often each path is taken in the demo's traffic: most shoppers leave before paying. */
export const PATH_WEIGHTS: Record<ShopperPath, number> = { pays: 3, 'leaves-on-waiting': 2, 'leaves-at-form': 5 };

export interface Shopper {
  path: ShopperPath;
  locale: Locale;
  /** Which of the plans on the page (0 = the first). */
  plan: number;
  extraConnection: boolean;
  email: string;
}

/** A small seeded generator (mulberry32), so `--seed` gives the same shoppers every time. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, weighted: [T, number][]): T {
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  let point = random() * total;
  for (const [value, weight] of weighted) {
    point -= weight;
    if (point < 0) return value;
  }
  return weighted.at(-1)![0];
}

/** The i-th shopper of a seeded crowd. */
export function shopperOf(random: () => number, index: number): Shopper {
  return {
    path: pick(random, SHOPPER_PATHS.map((path) => [path, PATH_WEIGHTS[path]])),
    locale: pick(random, LOCALES.map((locale) => [locale, locale === DEFAULT_LOCALE ? 4 : 1])),
    plan: Math.floor(random() * 4),
    extraConnection: random() < 0.3,
    email: `shopper-${index}-${Math.floor(random() * 1e9).toString(36)}@example.com`,
  };
}

const shopPath = (locale: Locale) => (locale === DEFAULT_LOCALE ? '/checkout/' : `/checkout/${locale}/`);

/** The checkout form, hydrated: its pay button takes clicks. */
async function openShop(page: Page, locale: Locale): Promise<void> {
  await page.goto(shopPath(locale));
  await page.locator('form.checkout-form button[type="submit"]:enabled').waitFor();
}

/** Leaves the page as a person closing the tab does, once the app runs there (its flow sender is loaded after hydration): pagehide fires, and the page's last batch goes out. */
async function leave(page: Page): Promise<void> {
  await page
    .waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/sender-[\w-]+\.js$/.test(entry.name)), undefined, { timeout: 15_000 })
    .catch(() => {});
  await page.goto('about:blank');
}

/** A browser context of the shopper's own, in the shopper's language. */
export function shopperContext(browser: Browser, baseUrl: string, shopper: Shopper): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl, locale: shopper.locale });
}

/**
 * Walks one shopper through the shop in their context; resolves when the shopper has left the shop. The context stays
 * open: closing a browser at once can cancel the beacon the page sent as it was left, so the caller closes it later.
 */
export async function walkShopper(context: BrowserContext, shopper: Shopper): Promise<void> {
  const page = await context.newPage();
  await openShop(page, shopper.locale);
  const plans = page.locator('form.checkout-form input[type="radio"][name="plan"]');
  const plan = plans.nth(shopper.plan % Math.max(1, await plans.count()));
  if (await plan.count()) await plan.check();
  if (shopper.extraConnection) await page.locator('form.checkout-form [role="switch"]').first().check();
  const email = page.locator('form.checkout-form input[type="email"]');
  if (shopper.path === 'leaves-at-form') {
    await email.fill(shopper.email.slice(0, 6));
    return await leave(page);
  }
  await email.fill(shopper.email);
  await page.locator('form.checkout-form button[type="submit"]').click();
  await page.waitForURL(/\/checkout\/sandbox\/pay\//);
  if (shopper.path === 'leaves-on-waiting') {
    // Back from the provider's page without paying (its return address): the waiting page counts down, and the shopper goes.
    await page.goto(`${shopPath(shopper.locale)}waiting`);
    await page.locator('[role="progressbar"], progress').first().waitFor();
    return await leave(page);
  }
  await payOnSandbox(page);
  await page.waitForURL(/\/checkout\/(.*\/)?success/, { timeout: 30_000 });
  await page.getByText(/^TV-\d{8}$/).waitFor({ timeout: 30_000 });
  await leave(page);
}

/** The sandbox's documented test cards (README, "Sandbox"). */
export const TEST_CARD = { pays: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', secondStep: '4000 0025 0000 3155' } as const;

/** Types a test card into the sandbox's card form, with any future expiry and any 3 digits, and presses Pay. */
export async function payWithTestCard(page: Page, number: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Card number' }).fill(number);
  await page.getByRole('textbox', { name: 'Expiry date' }).fill('12 / 34');
  await page.getByRole('textbox', { name: 'Security code' }).fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** The sandbox provider's page: its paying test card on a card gateway, the wallet's Pay on a crypto one. */
export async function payOnSandbox(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Pay / }).waitFor();
  if (await page.getByRole('textbox', { name: 'Card number' }).count()) await payWithTestCard(page, TEST_CARD.pays);
  else await page.getByRole('button', { name: /^Pay / }).click();
}
