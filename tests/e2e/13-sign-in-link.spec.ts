import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, guestOrder, newShopper, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

const SIGN_IN_LINK = /https?:\/\/[^\s"<>]+\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43}/;

/** A guest buys with the sandbox card and reaches the credentials: the service page's path and the username shown. */
async function buyAndSeeCredentials(page: Page, email: string): Promise<{ serviceUrl: string; username: string }> {
  await guestOrder(page, { email });
  await payOnSandbox(page);
  await reachSuccess(page);
  const username = (await page.getByText(/^TV-\d{8}$/).textContent()) ?? '';
  const serviceid = await page.evaluate(() => new URLSearchParams(window.location.search).get('serviceid'));
  // The waiting page may land on /success without the id; the page reads it from the saved order then.
  const serviceUrl = serviceid ? `/checkout/success?serviceid=${serviceid}` : '';
  expect(serviceUrl, 'the success page names its service').not.toBe('');
  return { serviceUrl, username };
}

test('a guest on another device asks for a sign-in link, follows it from the mail and sees the credentials', async ({ browser, page }) => {
  const email = uniqueEmail('link');

  const { serviceUrl, username } = await test.step('a guest buys and pays in the first browser', () => buyAndSeeCredentials(page, email));

  const { context, page: other } = await newShopper(browser);
  await test.step('another browser, without cookies, is asked to log in on that service page', async () => {
    expect(await context.cookies()).toEqual([]);
    await other.goto(serviceUrl);
    await expect(other.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
    await expect(other.getByRole('alert')).toHaveText('Please log in.');
    await expect(other.getByText(username, { exact: true })).toHaveCount(0);
  });

  await test.step("it asks for a sign-in link with the order's e-mail", async () => {
    const panel = other.getByRole('form', { name: 'Log in to see your service' });
    await panel.getByRole('textbox', { name: 'E-mail' }).fill(email);
    const answer = other.waitForResponse((response) => response.url().endsWith('/checkout/api/signInLink'));
    await panel.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    expect((await answer).status()).toBe(202);
    await expect(panel.getByRole('status')).toHaveText('If an account exists for this address, we have sent it a sign-in link. It works once, for 15 minutes.');
  });

  let link = '';
  await test.step('the mail is in the demo outbox, with the link', async () => {
    await other.goto('/checkout/demo/outbox');
    await expect(other.getByRole('heading', { level: 1, name: 'Demo outbox' })).toBeVisible();
    const row = other.getByRole('row').filter({ hasText: email }).filter({ hasText: 'Your sign-in link for TV Checkout' });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: 'Your sign-in link for TV Checkout' }).click();
    await expect(other.getByRole('heading', { level: 1, name: 'Your sign-in link for TV Checkout' })).toBeVisible();
    link = (await other.locator('pre').textContent())?.match(SIGN_IN_LINK)?.[0] ?? '';
    expect(link, 'the text part holds a sign-in link').not.toBe('');
  });

  await test.step('following the link signs that browser in on the service page, with the credentials', async () => {
    await other.goto(link);
    // Opening the link uses nothing up (mail scanners open links too): the shopper presses the one button.
    await expect(other.getByRole('heading', { level: 1, name: 'Continue signing in' })).toBeVisible();
    await other.getByRole('button', { name: 'Continue signing in' }).click();
    await expect(other).toHaveURL(new RegExp(`${serviceUrl.replace(/[?]/g, '\\?')}$`));
    await expect(other.getByText(username, { exact: true })).toBeVisible();
    await expect(other.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(other.getByRole('alert')).toHaveCount(0);
  });

  await test.step('the link works once', async () => {
    const again = await context.request.get(link, { maxRedirects: 0 });
    expect(again.status()).toBe(410);
  });
  await context.close();
});

/** The newest mail of the demo outbox to an address with a subject, opened: the sign-in link of its text part. */
async function linkFromOutbox(page: Page, email: string, subject: string): Promise<string> {
  await page.goto('/checkout/demo/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Demo outbox' })).toBeVisible();
  const rows = page.getByRole('row').filter({ hasText: email }).filter({ hasText: subject });
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  return (await page.locator('pre').textContent())?.match(SIGN_IN_LINK)?.[0] ?? '';
}

test('a guest buys, signs out, asks for a link on "Please log in.", follows it from the mail and sees the credentials again', async ({ page, request }) => {
  const email = uniqueEmail('back');

  const { serviceUrl, username } = await test.step('a guest buys with the sandbox card and sees the credentials', () => buyAndSeeCredentials(page, email));

  await test.step('it signs out: the service page then asks it to log in and shows no credentials', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await page.goto(serviceUrl);
    await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Please log in.');
    await expect(page.getByText(username, { exact: true })).toHaveCount(0);
    // The session is gone on the server too, not only forgotten by the page.
    const session = await page.evaluate(async () => (await fetch('/checkout/api/session')).json());
    expect(session).toEqual({ loggedIn: false, guest: false, userid: null, email: null });
  });

  await test.step('it asks for a sign-in link right there', async () => {
    const panel = page.getByRole('form', { name: 'Log in to see your service' });
    await panel.getByRole('textbox', { name: 'E-mail' }).fill(email);
    const answer = page.waitForResponse((response) => response.url().endsWith('/checkout/api/signInLink'));
    await panel.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    expect((await answer).status()).toBe(202);
    await expect(panel.getByRole('status')).toHaveText('If an account exists for this address, we have sent it a sign-in link. It works once, for 15 minutes.');
  });

  let link = '';
  await test.step('the mail arrives with the link', async () => {
    link = await linkFromOutbox(page, email, 'Your sign-in link for TV Checkout');
    expect(link, 'the text part holds a sign-in link').not.toBe('');
  });

  await test.step('a mail scanner opening the link first uses nothing up', async () => {
    const scanned = await request.get(link, { maxRedirects: 0 });
    expect(scanned.status()).toBe(200);
    expect(await scanned.text()).toContain('Continue signing in');
  });

  await test.step('following the link and pressing the button lands on the service page with the credentials', async () => {
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Continue signing in' })).toBeVisible();
    // The button is focused, so Enter signs in; axe-core finds nothing serious on the page.
    await expect(page.getByRole('button', { name: 'Continue signing in' })).toBeFocused();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter(({ impact }) => impact === 'serious' || impact === 'critical').map(({ id }) => id)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${serviceUrl.replace(/[?]/g, '\\?')}$`));
    await expect(page.getByText(username, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
