import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { APP_ROUTES } from '../../src/domain/app-routes';
import { LOCALES } from '../../src/domain/locale';
import type { Translations } from '../../src/i18n';
import { SEEDED_PLANS } from '../facts/catalogue';
import { expect, hydrated, onSandboxPage, test, uniqueEmail, type ApiOrder } from './support/fixtures';

// Issue 30: nothing a shopper does before the app hydrates is lost, no translation key ever shows, and the page paints before the app's module is asked for.
const en = JSON.parse(readFileSync(new URL('../../src/i18n/locales/en-en.json', import.meta.url), 'utf8')) as Translations;
const SIX_MONTHS = SEEDED_PLANS.find((plan) => plan.pid === 2)!;

/** Every key of the translations, as i18next would show a missing one (`checkout.email`). */
function translationKeys(tree: unknown, prefix = ''): string[] {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? translationKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}
const KEYS = new Set(translationKeys(en));

/** The translation keys a text shows, and any interpolation left unfilled. */
function keysShown(text: string): string[] {
  return [...(text.match(/[A-Za-z_]\w*(?:\.\w+)+/g) ?? []).filter((token) => KEYS.has(token)), ...(text.match(/\{\{\w+\}\}/g) ?? [])];
}

/** A browser on a 4× slowed CPU whose app module is held back until `release` is called; `requested` resolves when the page asks for it. */
async function heldBack(page: Page): Promise<{ moduleUrl: () => string; requested: Promise<void>; release: () => void }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen = () => {};
  const requested = new Promise<void>((resolve) => (seen = resolve));
  let url = '';
  // The module is the loader's data-src; its first request waits for the test.
  await page.route(/\/checkout\/assets\/index-[^/]+\.js$/, async (route) => {
    url = route.request().url();
    seen();
    await released;
    await route.continue();
  });
  return { moduleUrl: () => url, requested, release };
}

test('on a slow phone, a plan, an add-on, an e-mail and pay, all done before the app runs, place one order with exactly those choices', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('before-hydration');
  const held = await heldBack(page);
  const troubles: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') troubles.push(message.text());
  });
  // Each order the page places, with the server's answer (read before the page moves on to the provider).
  const orders: ApiOrder[] = [];
  await page.route('**/checkout/api/order', async (route) => {
    const response = await route.fetch();
    orders.push((await response.json()) as ApiOrder);
    await route.fulfill({ response });
  });
  await page.goto('/checkout/', { waitUntil: 'domcontentloaded' });
  await held.requested;

  // The server's page, the app's module held back: the shopper chooses, types and pays.
  await page.getByRole('radio', { name: new RegExp(`^${SIX_MONTHS.name}`) }).check();
  await page.getByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) }).check();
  await page.getByRole('textbox', { name: en.checkout.email }).fill(email);
  await page.getByRole('button', { name: en.checkout.submit }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  expect(orders).toHaveLength(0);

  held.release();
  await onSandboxPage(page);
  expect(orders).toHaveLength(1);
  const order = orders[0]!;
  // What was done before hydration did not make React give up the server's page and render it again.
  expect(troubles.filter((text) => /hydrat|did not match/i.test(text))).toEqual([]);

  const status = (await (await page.request.get(`/checkout/api/orderStatus?orderid=${order.orderid}`)).json()) as { receipt: { lines: { pid: number; extraConnections: number; proxyProtection: boolean }[] } };
  expect(status.receipt.lines).toEqual([expect.objectContaining({ pid: SIX_MONTHS.pid, extraConnections: 1, proxyProtection: false })]);
  const session = (await (await page.request.get('/checkout/api/session')).json()) as { email: string | null };
  expect(session.email).toBe(email);
});

test('a promo code typed and applied before the app runs is checked once and applied once it runs', async ({ page }) => {
  test.setTimeout(120_000);
  const held = await heldBack(page);
  const lookups: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/checkout/api/getPromotion') lookups.push(request.url());
  });
  await page.goto('/checkout/', { waitUntil: 'domcontentloaded' });
  await held.requested;
  await page.getByRole('textbox', { name: en.checkout.discount }).fill('WELCOME10');
  await page.getByRole('button', { name: en.checkout.applyDiscount }).click();
  held.release();
  await hydrated(page);
  await expect(page.locator('.discount-status [role="status"]')).toHaveText(en.checkout.discountApplied.replace('{{code}}', 'WELCOME10'));
  await page.waitForLoadState('networkidle');
  expect(lookups).toHaveLength(1);
  expect(new URL(lookups[0]!).searchParams.get('code')).toBe('WELCOME10');
});

test('the page paints before the app\'s module is requested, and nothing in it asks for a script before then', async ({ page, request }) => {
  const html = await (await request.get('/checkout/')).text();
  expect(html).not.toContain('modulepreload');
  expect(html).not.toMatch(/<script[^>]*\btype="module"/);
  const held = await heldBack(page);
  await page.goto('/checkout/', { waitUntil: 'domcontentloaded' });
  await held.requested;
  held.release();
  await hydrated(page);
  const [paint, requested] = await page.evaluate((url) => [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null, performance.getEntriesByName(url)[0]?.startTime ?? null], held.moduleUrl());
  expect(paint).not.toBeNull();
  expect(requested).not.toBeNull();
  expect(requested!).toBeGreaterThanOrEqual(paint!);
});

for (const locale of LOCALES) {
  test(`in ${locale}, no page shows a translation key, on the server's page or once the app has hydrated it`, async ({ page }) => {
    test.setTimeout(120_000);
    const prefix = locale === 'en-en' ? '' : `${locale}/`;
    // The index with its module held back on a slow CPU: what the shopper sees while it comes, and after.
    const held = await heldBack(page);
    await page.goto(`/checkout/${prefix}`, { waitUntil: 'domcontentloaded' });
    await held.requested;
    expect(keysShown(await page.locator('body').innerText()), 'before the app').toEqual([]);
    held.release();
    await hydrated(page);
    expect(keysShown(await page.locator('body').innerText()), 'hydrated').toEqual([]);
    await page.unrouteAll({ behavior: 'wait' });
    for (const path of Object.values(APP_ROUTES).filter((route) => route !== '/')) {
      await page.goto(`/checkout/${prefix}${path}`);
      await hydrated(page);
      expect(keysShown(await page.locator('body').innerText()), path).toEqual([]);
    }
  });
}
