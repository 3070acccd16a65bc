/**
 * Each screen and important state of the product in one locale, reached the way a shopper reaches it,
 * with a check run on each: the index with each plan chosen, a promotion applied and an error shown;
 * the sandbox payment page; the waiting page open, under review, expired and confirming; success;
 * upsell; resellers; 404. Names are found by role and the locale's own words, so both locales walk alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { DEMO_CLIENT, TEST_CARD, expect, newShopper, onSandboxPage, payWithCard } from './fixtures';

/** How much of a screen is of interest: all of it, or what the first view shows (where only its top differs from another screen). */
export type Extent = 'page' | 'view';

/** Runs on a screen once it is on display and settled; `changing` is what this screen shows differently from run to run. */
export type ScreenCheck = (screen: string, page: Page, extent: Extent, changing: Locator[]) => Promise<void>;

/** A locale of the walks: its path prefix, the browser's language, and its texts. */
export interface WalkLocale {
  code: 'en-en' | 'de-de';
  prefix: string;
  browserLocale: string;
  text: (key: string) => string;
}

function locale(code: WalkLocale['code'], prefix: string, browserLocale: string): WalkLocale {
  const catalogue = JSON.parse(readFileSync(join(import.meta.dirname, `../../../src/i18n/locales/${code}.json`), 'utf8')) as Record<string, unknown>;
  const text = (key: string) => {
    const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
    if (typeof found !== 'string') throw new Error(`no text ${key} in ${code}`);
    return found;
  };
  return { code, prefix, browserLocale, text };
}

export const WALK_LOCALES = [locale('en-en', '', 'en-US'), locale('de-de', '/de-de', 'de-DE')] as const;

/** Fonts, lazy chunks and the minimum loading state are done. */
async function at(screen: string, page: Page, check: ScreenCheck, extent: Extent = 'page', changing: Locator[] = []): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await check(screen, page, extent, changing);
}

const path = (where: WalkLocale, route: string) => `/checkout${where.prefix}${route}`;

/** The same e-mail on every run, so the pictures show the same address. */
const shopperEmail = (where: WalkLocale) => `screens-${where.code}@example.com`;

async function openIndex(page: Page, where: WalkLocale): Promise<void> {
  await page.goto(path(where, '/'));
  await expect(page.getByRole('heading', { level: 1, name: where.text('checkout.title') })).toBeVisible();
  await expect(page.locator('form.checkout-form button[type="submit"]')).toBeEnabled();
}

/** The index with each plan chosen, a promotion applied, an invalid e-mail refused; the resellers page; a page that does not exist. */
export async function indexScreens(browser: Browser, where: WalkLocale, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser, { locale: where.browserLocale });
  await openIndex(page, where);
  const plans = page.locator('input[name="plan"]');
  await expect(plans).toHaveCount(3);
  for (const [index, plan] of ['plan-1-month', 'plan-6-months', 'plan-lifetime'].entries()) {
    await plans.nth(index).check();
    await expect(plans.nth(index)).toBeChecked();
    // The first plan's screen is seen whole; the others differ from it only in the plans and the total at the top.
    await at(`index-${plan}`, page, check, index === 0 ? 'page' : 'view');
  }

  await plans.first().check();
  await page.getByRole('textbox', { name: where.text('checkout.discount') }).fill('WELCOME10');
  await page.getByRole('button', { name: where.text('checkout.applyDiscount') }).click();
  await expect(page.locator('.discount-status [role="status"]')).not.toBeEmpty();
  await at('index-promo-applied', page, check);

  await page.getByRole('textbox', { name: where.text('checkout.email') }).fill('shopper@');
  await page.getByRole('button', { name: where.text('checkout.submit') }).click();
  await expect(page.getByText(where.text('messages.email.invalid'), { exact: true })).toBeVisible();
  await at('index-error', page, check);

  await page.goto(path(where, '/resellers'));
  await expect(page.getByRole('radio').first()).toBeVisible();
  await at('resellers', page, check);

  await page.goto(path(where, '/no-such-page'));
  await expect(page.getByRole('heading', { level: 1, name: where.text('errors.notFound') })).toBeVisible();
  await at('not-found', page, check);
  await context.close();
}

/** An order on the card gateway: its sandbox page, the waiting page open, under review and expired, then paid: success; a Bitcoin payment confirming. */
export async function paymentScreens(browser: Browser, where: WalkLocale, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser, { locale: where.browserLocale });
  await openIndex(page, where);
  await page.getByRole('textbox', { name: where.text('checkout.email') }).fill(shopperEmail(where));
  await page.getByRole('button', { name: where.text('checkout.submit') }).click();
  await onSandboxPage(page);
  await at('sandbox', page, check);

  await page.goto(path(where, '/waiting'));
  await expect(page.getByRole('heading', { level: 1, name: where.text('waiting.title') })).toBeVisible();
  await expect(page.getByRole('timer')).toBeVisible();
  await at('waiting-open', page, check);

  // A flagged order: the same answer of the shop, marked as the fraud rules mark it.
  await page.route('**/checkout/api/orderStatus*', async (route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...((await answer.json()) as object), fraud: true } });
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: where.text('waiting.underReview') })).toBeVisible();
  await at('waiting-fraud', page, check);
  await page.unroute('**/checkout/api/orderStatus*');

  // The deadline moved into the past, as a day later (off the app first, so the page cannot save over it).
  await page.goto('about:blank');
  const checkout = (await context.cookies()).find((cookie) => cookie.name === 'checkout')!;
  const state = JSON.parse(decodeURIComponent(checkout.value)) as { payment: { lastDate: number } };
  state.payment.lastDate = Date.now() - 1_000;
  await context.addCookies([{ ...checkout, value: encodeURIComponent(JSON.stringify(state)) }]);
  await page.goto(path(where, '/waiting'));
  await expect(page.getByRole('alert')).toHaveText(where.text('waiting.expired'));
  await at('waiting-expired', page, check);

  await page.getByRole('button', { name: where.text('waiting.newLink') }).click();
  await payWithCard(page, TEST_CARD.pays);
  await expect(page).toHaveURL(/\/checkout\/(.*\/)?success/, { timeout: 20_000 });
  await expect(page.getByText(/^TV-\d{8}$/)).toBeVisible();
  await at('success', page, check);

  await openIndex(page, where);
  await page.getByRole('radio', { name: 'Bitcoin' }).check();
  await page.getByRole('button', { name: where.text('checkout.submit') }).click();
  await onSandboxPage(page);
  await page.getByRole('button', { name: 'Pay, confirm later' }).click();
  await expect(page.getByRole('heading', { level: 1, name: where.text('waiting.confirmingTitle') })).toBeVisible();
  await at('waiting-confirming', page, check);
  await context.close();
}

/** The demo client signed in on the upsell page. */
export async function upsellScreens(browser: Browser, where: WalkLocale, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser, { locale: where.browserLocale });
  await page.goto(path(where, '/upsell'));
  // Typed before the app has taken over the server's page, the address would be lost (a loading matter, not this screen's).
  await page.waitForLoadState('networkidle');
  const form = page.locator('form.login');
  await form.getByRole('textbox', { name: where.text('login.email') }).fill(DEMO_CLIENT.email);
  await form.getByLabel(where.text('login.password')).fill(DEMO_CLIENT.password);
  await form.getByRole('button', { name: where.text('login.submit') }).click();
  await expect(page.getByRole('slider')).toBeVisible();
  // Other journeys of the suite may have added connections to the demo service already.
  const connections = new RegExp(['current_one', 'current_other'].map((key) => where.text(`upsell.${key}`).replace('{{count}}', '\\d+').replace('.', '\\.')).join('|'));
  await at('upsell', page, check, 'page', [page.getByText(connections)]);
  await context.close();
}

export const STATE_WALKS = { index: indexScreens, payment: paymentScreens, upsell: upsellScreens } as const;
