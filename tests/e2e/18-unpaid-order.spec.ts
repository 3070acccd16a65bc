/**
 * Issue 16 items 4 and 5: an order left unpaid is offered again on the index (continue to its payment, or
 * cancel it), and the form's details: the empty e-mail said, an applied promo removed, a stale error gone.
 */
import type { Page } from '@playwright/test';
import { DEMO_CLIENT, apiPay, expect, guestOrder, onSandboxPage, openCheckout, test, uniqueEmail } from './support/fixtures';

/** A guest's order up to the sandbox page; its order number, as POST /api/order answered it. */
async function orderToPaymentPage(page: Page, label: string): Promise<number> {
  let orderid = 0;
  // The answer is read as it passes: the app leaves for the payment page right after it.
  await page.route('**/checkout/api/order', async (route) => {
    const response = await route.fetch();
    orderid = ((await response.json()) as { orderid: number }).orderid;
    await route.fulfill({ response });
  });
  await guestOrder(page, { email: uniqueEmail(label) });
  await page.unroute('**/checkout/api/order');
  expect(orderid).toBeGreaterThan(0);
  return orderid;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Unpaid order' });

test('back from the payment page, the index offers the unpaid order; continue reaches its payment', async ({ page }) => {
  const orderid = await orderToPaymentPage(page, 'unpaid-continue');
  await page.goBack();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(banner(page)).toContainText(`You have an unpaid order #${orderid}.`);
  // Above the form, and the form stays usable.
  await expect(page.getByRole('button', { name: 'Validate and pay' })).toBeVisible();
  const bannerBox = (await banner(page).boundingBox())!;
  const planBox = (await page.getByRole('group', { name: 'Plan' }).boundingBox())!;
  expect(bannerBox.y).toBeLessThan(planBox.y);

  await banner(page).getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/waiting$/);
  await expect(page.getByText(`#${orderid}`, { exact: true }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Go to the payment page' }).click();
  await onSandboxPage(page);
});

test('in a new tab the unpaid order is offered too; cancel asks once, then cancels it on the server and the banner goes for good', async ({ page, context }) => {
  const orderid = await orderToPaymentPage(page, 'unpaid-cancel');
  const tab = await context.newPage();
  await openCheckout(tab);
  await expect(banner(tab)).toContainText(`You have an unpaid order #${orderid}.`);
  await banner(tab).getByRole('button', { name: 'Cancel it' }).click();
  // Asked once: keeping it cancels nothing and gives the focus back; only the confirmation cancels.
  const question = `Cancel order #${orderid}? You will not be able to pay for it afterwards.`;
  await expect(tab.getByText(question)).toBeFocused();
  await banner(tab).getByRole('button', { name: 'Keep my order' }).click();
  await expect(banner(tab).getByRole('button', { name: 'Cancel it' })).toBeFocused();
  const kept = await tab.request.get(`/checkout/api/orderStatus?orderid=${orderid}`);
  expect(((await kept.json()) as { status: string }).status).toBe('Pending');
  await banner(tab).getByRole('button', { name: 'Cancel it' }).click();
  await banner(tab).getByRole('button', { name: 'Cancel order' }).click();
  await expect(banner(tab)).toHaveCount(0);
  await expect(tab.getByRole('status').filter({ hasText: `Order #${orderid} is cancelled.` })).toBeFocused();

  // The server holds it cancelled.
  const status = await tab.request.get(`/checkout/api/orderStatus?orderid=${orderid}`);
  expect(((await status.json()) as { status: string }).status).toBe('Cancelled');
  // Nothing is offered any more, here or after a reload; the form orders as usual.
  await tab.reload();
  await expect(tab.getByRole('radio').first()).toBeVisible();
  await expect(banner(tab)).toHaveCount(0);
});

test('an order paid meanwhile (in another window) is not offered, and its stale saved payment is forgotten', async ({ page, context }) => {
  const orderid = await orderToPaymentPage(page, 'unpaid-paid');
  // The payment page's own form post, as if paid in another window: this browser still holds the saved payment.
  await apiPay(context.request, page.url());
  const tab = await context.newPage();
  await openCheckout(tab);
  await expect(tab.getByRole('button', { name: 'Validate and pay' })).toBeVisible();
  await expect(banner(tab)).toHaveCount(0);
  await expect(tab.getByText(`#${orderid}`)).toHaveCount(0);
  // Forgotten: the waiting page has nothing to resume.
  await tab.goto('/checkout/waiting');
  await expect(tab.getByText('There is no payment waiting.')).toBeVisible();
});

test('a submit without an e-mail says "Please enter a Valid Email." on the field', async ({ page }) => {
  await openCheckout(page);
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  const email = page.getByRole('textbox', { name: 'E-mail' });
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/Please enter a Valid Email\./);
  await expect(page.getByRole('alert')).toHaveText('Please enter a Valid Email.');
  await email.fill('shopper@example.com');
  await expect(page.getByText('Please enter a Valid Email.')).toBeHidden();
});

test('an applied promo can be removed by keyboard: the total goes back and the removal is announced', async ({ page }) => {
  await openCheckout(page);
  const total = page.getByRole('region', { name: 'Your order' }).getByRole('status');
  await expect(total).toHaveText('€12.99');
  await page.getByRole('textbox', { name: 'Discount code' }).fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Code WELCOME10 applied.')).toBeVisible();
  await expect(total).toHaveText('€11.69');

  const remove = page.getByRole('button', { name: 'Remove code WELCOME10' });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(total).toHaveText('€12.99');
  await expect(page.getByRole('status').filter({ hasText: 'Code WELCOME10 removed.' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Discount code' })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'Discount code' })).toBeFocused();
  await expect(remove).toHaveCount(0);
});

test('"Email or Password Invalid" goes as soon as the password is changed', async ({ page }) => {
  await openCheckout(page);
  await page.getByText('Already a client? Log in').click();
  const login = page.getByRole('form', { name: 'Log in' });
  await login.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_CLIENT.email);
  await login.getByLabel('Password').fill('wrong-password');
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(login.getByRole('alert')).toHaveText('Email or Password Invalid');
  await login.getByLabel('Password').fill('wrong-passwor');
  await expect(login.getByRole('alert')).toHaveCount(0);
});
