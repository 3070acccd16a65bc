/**
 * Every screen of the product, reached the way a shopper reaches it, with a check run on each one
 * (axe-core for journey 11; the compared pictures of journey 12 walk screen-states.ts). Three walks, one per kind of visitor, so
 * they can run side by side.
 */
import type { Browser, Page } from '@playwright/test';
import { DEMO_CLIENT, DEMO_RESELLER, declineOnSandbox, expect, logIn, newShopper, onSandboxPage, payOnSandbox, reachSuccess, uniqueEmail } from './fixtures';

/** Runs on a screen once it is on display and settled. */
export type ScreenCheck = (screen: string, page: Page) => Promise<void>;

/** Fonts, lazy chunks and the 200 ms minimum loading state are done. */
async function settled(page: Page, idle: boolean): Promise<void> {
  if (idle) await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

async function at(screen: string, page: Page, check: ScreenCheck, { idle = true } = {}): Promise<void> {
  await settled(page, idle);
  await check(screen, page);
}

/** A guest: checkout, login panel (and its sign-in link sent), creating order, sandbox page, waiting, the unpaid-order banner, success, 404. */
export async function shopperScreens(browser: Browser, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser);
  await page.goto('/checkout/');
  await expect(page.getByRole('radio', { name: /^1 Month/ })).toBeChecked();
  await at('checkout', page, check);

  await page.getByText('Already a client? Log in').click();
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  await at('checkout-login-panel', page, check);

  // "E-mail me a sign-in link": the confirmation in the panel's status region (the same for any address).
  const panel = page.getByRole('form', { name: 'Log in' });
  await panel.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('screens-link'));
  await panel.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await expect(panel.getByRole('status')).toHaveText(/^If an account exists for this address/);
  await at('checkout-login-link-sent', page, check);

  // The order-creation notice of an automatic-order link, held on screen until checked.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/checkout/api/order', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/checkout/creatingOrder?pid=2&email=${encodeURIComponent(uniqueEmail('screens'))}&auto_redirect=true`);
  await expect(page.getByRole('heading', { level: 1, name: 'Creating your order' })).toBeVisible();
  // (The order request is held: the network is not idle.)
  await at('creating-order', page, check, { idle: false });
  release();

  await onSandboxPage(page);
  await page.unroute('**/checkout/api/order');
  await at('sandbox-payment-page', page, check);

  await declineOnSandbox(page);
  await expect(page.getByRole('timer')).toBeVisible();
  await at('waiting', page, check);

  // Back on the index with the order unpaid: the banner offers it above the form (issue 16), and leads back.
  await page.goto('/checkout/');
  await expect(page.getByRole('region', { name: 'Unpaid order' })).toBeVisible();
  await at('checkout-unpaid-order', page, check);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('timer')).toBeVisible();

  // Declined: the page's next step is a new link on the same gateway.
  await page.getByRole('button', { name: 'Pay again' }).click();
  await payOnSandbox(page);
  await reachSuccess(page);
  await at('success', page, check);

  await page.goto('/checkout/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'This page could not be found' })).toBeVisible();
  await at('not-found', page, check);
  await context.close();
}

/** A client: the upsell. */
export async function clientScreens(browser: Browser, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser);
  await page.goto('/checkout/upsell');
  await expect(page.getByRole('form', { name: 'Log in to add connections' })).toBeVisible();
  await at('upsell-login', page, check);

  await logIn(page, DEMO_CLIENT);
  await page.getByRole('link', { name: 'Add connections to your service' }).click();
  await expect(page.getByRole('slider', { name: 'Extra connections' })).toBeVisible();
  await at('upsell', page, check);
  await context.close();
}

/** A reseller: the reseller page, its waiting and its success. */
export async function resellerScreens(browser: Browser, check: ScreenCheck): Promise<void> {
  const { context, page } = await newShopper(browser);
  await page.goto('/checkout/resellers');
  await expect(page.getByRole('radio', { name: /^Reseller 120 credits/ })).toBeChecked();
  await at('resellers', page, check);

  await page.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_RESELLER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_RESELLER.password);
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await declineOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/resellers\/waiting$/);
  await expect(page.getByRole('timer')).toBeVisible();
  await at('reseller-waiting', page, check);

  // Declined: the page's next step is a new link on the same gateway.
  await page.getByRole('button', { name: 'Pay again' }).click();
  await payOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/resellers\/success\?serviceid=\d+&invoiceid=\d+$/, { timeout: 20_000 });
  await expect(page.getByText(/^Your reseller panel .*: Active\.$/)).toBeVisible();
  await at('reseller-success', page, check);
  await context.close();
}

export const WALKS = { shopper: shopperScreens, client: clientScreens, reseller: resellerScreens } as const;
