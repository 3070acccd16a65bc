import { expect, guestOrder, newShopper, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';

const RESUME_LINK = /https?:\/\/[^\s"<>]+\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43}/;

test('an unpaid order is reminded; the mail\'s link resumes it in a new browser, which changes payment method, pays and gets the credentials', async ({ browser, page }) => {
  const email = uniqueEmail('recovery');

  let orderid = '';
  await test.step('a guest orders with "Remind me if I don\'t finish" ticked (the default) and does not pay', async () => {
    await page.goto('/checkout/');
    await expect(page.getByRole('checkbox', { name: "Remind me if I don't finish" })).toBeChecked();
    await guestOrder(page, { email });
    const invoice = (await page.getByText(/^Invoice #\d+$/).textContent()) ?? '';
    expect(invoice).toMatch(/^Invoice #\d+$/);
  });

  let link = '';
  const { context: mailbox, page: outbox } = await newShopper(browser);
  await test.step('the reminder is in the demo outbox (RECOVERY_AFTER_MIN is 0 here), with a resume link and an opt-out', async () => {
    await outbox.goto('/checkout/demo/outbox');
    const row = outbox.getByRole('row').filter({ hasText: email }).filter({ hasText: 'You have not finished your order' });
    await expect(row).toHaveCount(1);
    const subject = (await row.getByRole('link', { name: /^You have not finished your order \d+$/ }).textContent()) ?? '';
    orderid = /(\d+)$/.exec(subject)?.[1] ?? '';
    await row.getByRole('link', { name: subject }).click();
    await expect(outbox.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    const text = (await outbox.locator('pre').textContent()) ?? '';
    expect(text).toContain(`Order: ${orderid}`);
    expect(text).toContain('Total: €12.99');
    expect(text).toMatch(/\/checkout\/recovery\/opt-out\?token=/);
    link = RESUME_LINK.exec(text)?.[0] ?? '';
    expect(link, 'the text part holds a resume link').not.toBe('');
  });
  await mailbox.close();

  const { context, page: other } = await newShopper(browser);
  await test.step('a new browser follows the link and sees that order\'s waiting page: invoice, countdown, gateway', async () => {
    expect(await context.cookies()).toEqual([]);
    await other.goto(link);
    // Opening the link uses nothing up (mail scanners open links too): the shopper presses the one button.
    await other.getByRole('button', { name: 'Continue signing in' }).click();
    await expect(other).toHaveURL(new RegExp(`/checkout/waiting\\?orderid=${orderid}$`));
    await expect(other.getByRole('heading', { level: 1, name: 'Waiting for your payment' })).toBeVisible();
    // The facts list: "Order" #N, then "Invoice" (its own number).
    await expect(other.locator('dl.facts')).toContainText(new RegExp(`^Order#${orderid}Invoice#\\d+Payment method`));
    await expect(other.getByRole('timer')).toHaveText(/^2[34]:\d\d:\d\d$/);
    await expect(other.locator('dl.facts').getByRole('definition').filter({ hasText: /^Card$/ })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Go to the payment page' })).toHaveAttribute('href', /\/checkout\/sandbox\/pay\/pay_/);
  });

  await test.step('it changes payment method to Bitcoin, pays on the sandbox and gets the credentials', async () => {
    await other.getByRole('button', { name: 'Change payment method' }).click();
    await other.getByRole('button', { name: 'Pay with Bitcoin' }).click();
    await expect(other.getByRole('heading', { level: 1, name: 'Bitcoin', exact: true })).toBeVisible();
    await payOnSandbox(other);
    await reachSuccess(other);
  });
  await context.close();
});
