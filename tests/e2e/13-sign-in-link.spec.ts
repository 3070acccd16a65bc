import { expect, guestOrder, newShopper, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

const SIGN_IN_LINK = /https?:\/\/[^\s"<>]+\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43}/;

test('a guest on another device asks for a sign-in link, follows it from the mail and sees the credentials', async ({ browser, page }) => {
  const email = uniqueEmail('link');

  let serviceUrl = '';
  let username = '';
  await test.step('a guest buys and pays in the first browser', async () => {
    await guestOrder(page, { email });
    await payOnSandbox(page);
    await reachSuccess(page);
    username = (await page.getByText(/^TV-\d{8}$/).textContent()) ?? '';
    const serviceid = await page.evaluate(() => new URLSearchParams(window.location.search).get('serviceid'));
    // The waiting page may land on /success without the id; the page reads it from the saved order then.
    serviceUrl = serviceid ? `/checkout/success?serviceid=${serviceid}` : '';
    expect(serviceUrl, 'the success page names its service').not.toBe('');
  });

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
    await expect(other).toHaveURL(new RegExp(`${serviceUrl.replace(/[?]/g, '\\?')}$`));
    await expect(other.getByText(username, { exact: true })).toBeVisible();
    await expect(other.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(other.getByRole('alert')).toHaveCount(0);
  });

  await test.step('the link works once', async () => {
    const again = await context.request.get(link, { maxRedirects: 0 });
    expect(again.status()).not.toBe(303);
  });
  await context.close();
});
