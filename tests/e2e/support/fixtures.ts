/**
 * What every journey shares: the server's address (started by global-setup.ts), a shopper's way
 * through the checkout and the sandbox payment page, and calls to the API as another browser makes them.
 */
import { randomUUID } from 'node:crypto';
import { EARLY_INPUT_GLOBAL } from '../../../src/domain/page-scripts';
import { recordEveryContext, recordStatecharts, statechartErrors, writeWorkerPart } from './statechart-coverage';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { payOnSandbox as payOnSandboxPage, payWithTestCard, TEST_CARD } from '../../../scripts/demo/shoppers';

/** The origin of the server of this run (also its PUBLIC_URL: payment links point to it). */
export function serverUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the journeys with `npx playwright test`, whose global setup starts the server.');
  return url;
}

export const test = base.extend<{ statechartContext: void }, { statechartCoverage: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },
  // The machines' steps in every page of the worker go to coverage/statecharts/browser-journeys (statechart-coverage.ts).
  statechartCoverage: [
    async ({ browser }, use) => {
      recordEveryContext(browser);
      await use();
      writeWorkerPart();
    },
    { scope: 'worker', auto: true },
  ],
  statechartContext: [
    async ({ context }, use) => {
      await recordStatecharts(context);
      await use();
      expect(statechartErrors(context), 'steps of the app\'s actors the statechart engine could not reproduce').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const DEMO_CLIENT = { email: 'demo@tvcheckout.test', password: 'demo-password-1' } as const;
export const DEMO_RESELLER = { email: 'reseller@tvcheckout.test', password: 'reseller-password-1' } as const;

/** An e-mail no other test uses, so every journey starts as a new shopper. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** A second, separate browser: its own cookies, as another person's. */
export async function newShopper(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: serverUrl(), locale: 'en-US', ...options });
  const page = await context.newPage();
  return { context, page };
}

/** The sandbox provider's hosted page: its Pay button (a card form, or a crypto wallet's buttons), whom and what it pays. */
export async function onSandboxPage(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\/sandbox\/pay\/pay_/);
  await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible();
}

export { TEST_CARD };

/** Types a card into the sandbox card form, as a shopper does, and presses Pay. */
export async function payWithCard(page: Page, number: string): Promise<void> {
  await onSandboxPage(page);
  await payWithTestCard(page, number);
}

/** Pays on the sandbox page: the paying test card on a card gateway, the wallet's Pay on a crypto one. */
export async function payOnSandbox(page: Page): Promise<void> {
  await onSandboxPage(page);
  await payOnSandboxPage(page);
}

/** Declines on the sandbox page: the declined test card on a card gateway, the wallet's Decline on a crypto one. */
export async function declineOnSandbox(page: Page): Promise<void> {
  await onSandboxPage(page);
  if (await page.getByRole('textbox', { name: 'Card number' }).count()) await payWithCard(page, TEST_CARD.declined);
  else await page.getByRole('button', { name: 'Decline' }).click();
}

/** Resolves once the app has hydrated the server's page (and replayed what was done before): its capture is then gone. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction((name) => !(name in window), EARLY_INPUT_GLOBAL);
}

/** The checkout form, loaded and hydrated. */
export async function openCheckout(page: Page, path = '/checkout/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('radio').first()).toBeVisible();
  await hydrated(page);
}

/** A guest's order from the checkout form, up to the sandbox payment page. */
export async function guestOrder(page: Page, { email, plan = '1 Month' }: { email: string; plan?: string }): Promise<void> {
  await openCheckout(page);
  await page.getByRole('radio', { name: new RegExp(`^${plan}`) }).check();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await onSandboxPage(page);
}

/** The waiting page after the payment: it polls and moves on to the success page. */
export async function reachSuccess(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\/(.*\/)?success/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  await expect(page.getByText(/^TV-\d{8}$/)).toBeVisible();
}

/** What POST /checkout/api/order answers. */
export interface ApiOrder {
  orderid: number;
  invoiceid: number;
  serviceids: number[];
  fraud: boolean;
  link: string | null;
}

/**
 * A guest's order through the API, as another browser places it: authMiddleware, then the order; the
 * amount is the one the server's 409 price_changed names, so the test never restates the price list.
 */
export async function apiGuestOrder(request: APIRequestContext, { email, pid = 1, paymentmethod = 'sandbox' }: { email: string; pid?: number; paymentmethod?: string }): Promise<ApiOrder> {
  expect((await request.post('/checkout/api/authMiddleware', { data: { email } })).ok()).toBe(true);
  const place = (amount: number) =>
    request.post('/checkout/api/order', { data: { pid, paymentmethod, amount, currency: 'EUR' }, headers: { 'Idempotency-Key': randomUUID() } });
  let answer = await place(0);
  if (answer.status() === 409) {
    const { error } = (await answer.json()) as { error: { code: string; amount: number } };
    expect(error.code).toBe('price_changed');
    answer = await place(error.amount);
  }
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as ApiOrder;
}

/** Pays a sandbox link the way its page does (a form post), without a browser. */
export async function apiPay(request: APIRequestContext, link: string): Promise<void> {
  const answer = await request.post(link, { form: { decision: 'pay' }, maxRedirects: 0 });
  expect(answer.status()).toBe(303);
}

/** Signs a browser context in through the login panel of the checkout page. */
export async function logIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await openCheckout(page);
  await page.getByText('Already a client? Log in').click();
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByRole('textbox', { name: 'E-mail' }).fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
