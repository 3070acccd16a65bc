import type { Locator, Page } from '@playwright/test';
import { expect, onSandboxPage, reachSuccess, test, uniqueEmail } from './support/fixtures';
import { copyPasswordShowsCopiedForTwoAndAHalfSeconds, downloadsThePlaylist } from './support/success';

/**
 * Presses Tab until `target` has the focus (as a keyboard user moves through the page), then checks
 * that the focus shows: the browser's :focus-visible matches and draws an outline.
 */
async function tabTo(page: Page, target: Locator, { max = 40 } = {}): Promise<void> {
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) {
      const ring = await target.evaluate((element) => {
        const style = getComputedStyle(element);
        return { visible: element.matches(':focus-visible'), outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
      });
      expect(ring, 'the focus is visible').toEqual({ visible: true, outline: true });
      return;
    }
  }
  throw new Error(`${target} never took the focus after ${max} presses of Tab`);
}

test('journey 1 with the keyboard alone: plan, add-on, promo, e-mail, payment, copy, download and device address', async ({ page }) => {
  await page.goto('/checkout/');
  await expect(page.getByRole('radio', { name: /^1 Month/ })).toBeChecked();

  // The first stop is the skip link, shown when focused.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeInViewport();

  // A radio group is one Tab stop; the arrow keys move the choice within it (the standard radio pattern).
  await tabTo(page, page.getByRole('radio', { name: /^1 Month/ }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /^6 Months/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /^6 Months/ })).toBeFocused();

  await tabTo(page, page.getByRole('switch', { name: /Extra connection/ }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('switch', { name: /Extra connection/ })).toBeChecked();

  // Enter in the discount field applies the code (it does not submit the order).
  await tabTo(page, page.getByRole('textbox', { name: 'Discount code' }));
  await page.keyboard.type('WELCOME10');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Code WELCOME10 applied.')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByRole('region', { name: 'Your order' }).getByRole('status')).toHaveText('€71.99');

  await tabTo(page, page.getByRole('textbox', { name: 'E-mail' }));
  await page.keyboard.type(uniqueEmail('keyboard'));

  await tabTo(page, page.getByRole('button', { name: 'Validate and pay' }));
  await page.keyboard.press('Enter');

  // The sandbox page puts the focus on the card number; Tab goes on to the expiry, the code, and Pay.
  await onSandboxPage(page);
  await expect(page.getByRole('textbox', { name: 'Card number' })).toBeFocused();
  await page.keyboard.type('4242 4242 4242 4242');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Expiry date' })).toBeFocused();
  await page.keyboard.type('12 / 34');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Security code' })).toBeFocused();
  await page.keyboard.type('123');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Pay €71.99' })).toBeFocused();
  await page.keyboard.press('Enter');
  await reachSuccess(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeFocused();

  await copyPasswordShowsCopiedForTwoAndAHalfSeconds(page, async () => {
    await tabTo(page, page.getByRole('button', { name: 'Copy Password' }));
    await page.keyboard.press('Enter');
  });

  await downloadsThePlaylist(page, async () => {
    await tabTo(page, page.getByRole('button', { name: 'Download playlist' }));
    await page.keyboard.press('Space');
  });

  await tabTo(page, page.getByRole('textbox', { name: 'Device address (MAC)' }));
  await page.keyboard.type('00:1A:79:12:34:56');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Device address saved.')).toBeVisible();
});
