import { expect, openCheckout, test } from './support/fixtures';
import type { Page } from '@playwright/test';

async function applyCode(page: Page, code: string) {
  const field = page.getByRole('textbox', { name: 'Discount code' });
  await field.fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  return field;
}

test.describe('the checkout refuses what it cannot take, and says why', () => {
  test('an invalid e-mail shows "Please enter a Valid Email." and no order is placed', async ({ page }) => {
    let orders = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/checkout/api/order')) orders += 1;
    });
    await openCheckout(page);
    const email = page.getByRole('textbox', { name: 'E-mail' });
    await email.fill('not-an-email@nowhere');
    await email.blur();
    await expect(page.getByRole('alert')).toHaveText('Please enter a Valid Email.');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/Please enter a Valid Email\./);

    await page.getByRole('button', { name: 'Validate and pay' }).click();
    await expect(email).toBeFocused();
    await expect(page).toHaveURL(/\/checkout\/$/);

    await email.fill('shopper@example.com');
    await expect(page.getByText('Please enter a Valid Email.')).toBeHidden();
    expect(orders).toBe(0);
  });

  test('a promo code of another product shows "This Coupon is not available for this product."', async ({ page }) => {
    await openCheckout(page);
    await expect(page.getByRole('radio', { name: /^1 Month/ })).toBeChecked();
    await applyCode(page, 'HALFYEAR20');
    await expect(page.getByRole('alert')).toHaveText('This Coupon is not available for this product.');
    await expect(page.getByRole('region', { name: 'Your order' }).getByRole('status')).toHaveText('€12.99');

    // Choosing the code's own product checks the code again, and it applies.
    await page.getByRole('radio', { name: /^6 Months/ }).check();
    await expect(page.getByText('Code HALFYEAR20 applied.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your order' }).getByRole('status')).toHaveText('€47.99');
  });

  test('expired, not yet started and used-up promo codes are refused with their reason', async ({ page }) => {
    await openCheckout(page);
    const total = page.getByRole('region', { name: 'Your order' }).getByRole('status');
    for (const [code, reason] of [
      ['EXPIRED15', 'This Coupon has expired.'],
      ['FUTURE25', 'This Coupon is not valid yet.'],
      ['USEDUP50', 'This Coupon has been used up.'],
    ] as const) {
      await applyCode(page, code);
      await expect(page.getByRole('alert')).toHaveText(reason);
      await expect(total).toHaveText('€12.99');
    }
  });

  test('an unknown promo code shows the server’s message', async ({ page }) => {
    await openCheckout(page);
    // What the server answers for this code, and what the shopper reads in English.
    // A refused code is an answer, not a missing resource: 422, like the other refusals (no 404 in the console).
    const answer = await page.request.get('/checkout/api/getPromotion?code=NOSUCHCODE42');
    expect(answer.status()).toBe(422);
    const { error } = (await answer.json()) as { error: { code: string } };
    expect(error.code).toBe('promotion_not_found');

    await applyCode(page, 'NOSUCHCODE42');
    await expect(page.getByRole('alert')).toHaveText('This Coupon does not exist.');
    await expect(page.getByRole('region', { name: 'Your order' }).getByRole('status')).toHaveText('€12.99');

    // A valid code after a refused one applies.
    await applyCode(page, 'SAVE5');
    await expect(page.getByText('Code SAVE5 applied.')).toBeVisible();
    await expect(page.getByRole('alert')).toBeHidden();
    await expect(page.getByRole('region', { name: 'Your order' }).getByRole('status')).toHaveText('€7.99');
  });
});
