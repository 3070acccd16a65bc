/**
 * Issue 16, item 1: the order always in view. From 960 px the choices are on the left and the order
 * (its lines, the total, the payment method's hint) on the right, in view while the choices scroll, and the
 * pay button follows the last choice (issue 31); on a phone the total and the one pay button are a bar
 * fixed at the bottom. No layout shift on the way.
 */
import type { Locator, Page } from '@playwright/test';
import { DEMO_CLIENT, expect, hydrated, logIn, onSandboxPage, openCheckout, test, uniqueEmail } from './support/fixtures';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The sum of the layout shifts not caused by input since the page started (what CLS adds up). */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; input: boolean; nodes: string[] }[] = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] })[]) {
        const nodes = (entry.sources ?? []).map(({ node }) => (node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : String(node?.nodeName)));
        shifts.push({ value: entry.value, input: entry.hadRecentInput, nodes });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function layoutShifts(page: Page): Promise<{ value: number; nodes: string[] }[]> {
  // Shifts are reported after the frame that made them: let two frames pass.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => (window as unknown as { layoutShifts: { value: number; input: boolean; nodes: string[] }[] }).layoutShifts.filter(({ input }) => !input));
}

/** The part of an element on screen: its top is at or below the top edge and its bottom at or above the bottom edge. */
async function expectInViewport(locator: Locator, height: number, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.y, `${what}'s top is on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what}'s bottom is on screen`).toBeLessThanOrEqual(height);
}

test.describe('desktop, 1280×800', () => {
  test.use({ viewport: DESKTOP });

  test('the order is beside the choices, its total in the first viewport and in view down to the pay button after the last choice', async ({ page }) => {
    await watchLayoutShifts(page);
    await openCheckout(page);
    await page.waitForLoadState('networkidle');
    const summary = page.getByRole('region', { name: 'Your order' });
    const total = summary.getByRole('status');
    const pay = page.getByRole('button', { name: 'Validate and pay' });
    await expect(total).toHaveText('€12.99');
    await expectInViewport(total, DESKTOP.height, 'the total');
    // Two panes: the order to the right of the plans, not under them.
    const plans = (await page.getByRole('group', { name: 'Plan' }).boundingBox())!;
    const order = (await summary.boundingBox())!;
    expect(order.x).toBeGreaterThanOrEqual(plans.x + plans.width);
    // The chosen payment method's page is named under the total; choosing another names that one.
    const methods = page.getByRole('group', { name: 'Payment method' }).getByRole('radio');
    await expect(methods).toHaveCount(2);
    for (const method of [methods.nth(1), methods.nth(0)]) {
      await method.check();
      const name = (await method.evaluate((input) => input.closest('label')!.textContent!)).trim();
      await expect(summary).toContainText(`You will pay by ${name} on the provider's secure page.`);
    }

    // Down to the last choice, and to the bottom of the page: still in view.
    await methods.nth(1).scrollIntoViewIfNeeded();
    await page.getByRole('checkbox', { name: "Remind me if I don't finish" }).scrollIntoViewIfNeeded();
    await expectInViewport(total, DESKTOP.height, 'the total after scrolling to the last choices');
    await pay.scrollIntoViewIfNeeded();
    await expectInViewport(total, DESKTOP.height, 'the total beside the pay button');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await expectInViewport(total, DESKTOP.height, 'the total at the bottom of the page');

    // One pay button, and the bar's copy of the total is not shown on a desktop.
    await expect(page.getByRole('button', { name: /Validate and pay|Creating your order/ })).toHaveCount(1);
    await expect(page.locator('.pay-bar-total')).toBeHidden();
    expect(await layoutShifts(page), 'layout shifts while loading').toEqual([]);

    // Choosing changes the order in place; nothing moves by itself.
    await page.getByRole('radio', { name: /^6 Months/ }).check();
    await page.getByRole('switch', { name: /Extra connection/ }).check();
    await expect(total).toHaveText('€79.99');
    await page.waitForTimeout(600);
    expect(await layoutShifts(page), 'layout shifts after choosing').toEqual([]);
  });

  test('tab order follows reading order: the choices, then the order and its pay button; Enter in the e-mail field places the order', async ({ page }) => {
    await openCheckout(page);
    await page.getByRole('group', { name: 'Payment method' }).getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Validate and pay' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('group', { name: 'Payment method' }).getByRole('radio', { checked: true })).toBeFocused();

    await page.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('layout-enter'));
    await page.getByRole('textbox', { name: 'E-mail' }).press('Enter');
    await onSandboxPage(page);
    await expect(page.getByRole('button', { name: 'Pay €12.99' })).toBeVisible();
  });

  test('when no payment method takes the currency the order says so and the pay button stays disabled with that reason', async ({ page }) => {
    // The server's gateways, as if none of them took EUR.
    await page.route('**/checkout/api/getGateway*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { paymentmethods: { paymentmethod: { currencies?: string[] }[] } };
      for (const gateway of body.paymentmethods.paymentmethod) gateway.currencies = ['USD'];
      await route.fulfill({ response, json: body });
    });
    let orders = 0;
    await page.route('**/checkout/api/order', async (route) => {
      orders += 1;
      await route.continue();
    });
    // The server renders the first screen with its own gateways: the form is reached by a navigation in the app, which asks the API.
    await page.goto('/checkout/resellers');
    await hydrated(page);
    await page.getByRole('link', { name: 'TV Checkout, home' }).click();
    await expect(page.getByRole('radio').first()).toBeVisible();
    const reason = 'No payment method takes payments in EUR, so this order cannot be paid here.';
    await expect(page.getByRole('region', { name: 'Your order' })).toContainText(reason);
    const pay = page.getByRole('button', { name: 'Validate and pay' });
    await expect(pay).toHaveAttribute('aria-disabled', 'true');
    await expect(pay).toHaveAccessibleDescription(reason);
    await expectInViewport(page.getByText(reason), DESKTOP.height, 'the reason');

    await page.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('layout-nogateway'));
    // Playwright waits for an aria-disabled button to become enabled: a shopper's click is forced.
    await pay.click({ force: true });
    await page.getByRole('textbox', { name: 'E-mail' }).press('Enter');
    await page.waitForTimeout(500);
    await expect(page).toHaveURL(/\/checkout\/$/);
    expect(orders).toBe(0);

    // On a phone the reason is below the choices: pressing the bar's blocked button brings it into view.
    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await pay.click({ force: true });
    await expectInViewport(page.getByText(reason), PHONE.height - (await page.locator('.pay-bar').boundingBox())!.height, 'the reason above the bar');
    expect(orders).toBe(0);
  });
});

test.describe('the upsell', () => {
  test('has the same order pane on a desktop and the same bar on a phone', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await logIn(page, DEMO_CLIENT);
    await page.goto('/checkout/upsell');
    const summary = page.getByRole('region', { name: 'Your order' });
    // One connection on the demo client's monthly service: €4.00.
    await expect(summary.getByRole('status')).toHaveText('€4.00 per month');
    const pay = page.getByRole('button', { name: 'Pay €4.00' });
    await expectInViewport(summary.getByRole('status'), DESKTOP.height, 'the price');
    await expectInViewport(pay, DESKTOP.height, 'the pay button');
    const service = (await page.getByRole('combobox', { name: 'Service' }).boundingBox())!;
    expect((await summary.boundingBox())!.x).toBeGreaterThanOrEqual(service.x + service.width);
    await expect(summary).toContainText(/You will pay by .+ on the provider's secure page\./);

    await page.setViewportSize(PHONE);
    const bar = page.locator('.pay-bar');
    expect(await bar.evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    await expect(bar).toContainText('€4.00');
    await expectInViewport(pay, PHONE.height, 'the pay button on a phone');
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(1);
  });
});

test.describe('phone, 390×844', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the total and the one pay button are a bar fixed at the bottom that nothing hides behind, and it places the order', async ({ page }) => {
    await watchLayoutShifts(page);
    await openCheckout(page);
    await page.waitForLoadState('networkidle');
    const pay = page.getByRole('button', { name: 'Validate and pay' });
    await expect(pay).toHaveCount(1);
    const bar = page.locator('.pay-bar');
    await expect(bar).toContainText('€12.99');
    await expect(bar).toContainText('per month');
    expect(await bar.evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    const atBottom = async (what: string) => {
      const box = (await bar.boundingBox())!;
      expect(Math.round(box.y + box.height), `${what}: the bar ends at the bottom edge`).toBe(PHONE.height);
      await expectInViewport(pay, PHONE.height, `${what}: the pay button`);
    };
    await atBottom('at the top of the page');

    await page.getByRole('radio', { name: /^6 Months/ }).check();
    await page.getByRole('switch', { name: /Extra connection/ }).check();
    await expect(bar).toContainText('€79.99');
    await expect(bar).toContainText('every 6 months');
    await page.getByRole('checkbox', { name: "Remind me if I don't finish" }).scrollIntoViewIfNeeded();
    await atBottom('half-way down');

    // At the very bottom the page's last part (its footer) ends above the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await atBottom('at the bottom of the page');
    const footer = (await page.getByRole('contentinfo').last().boundingBox())!;
    const barTop = (await bar.boundingBox())!.y;
    expect(footer.y + footer.height).toBeLessThanOrEqual(barTop);
    // The summary's lines are in the page above the bar.
    const summary = page.getByRole('region', { name: 'Your order' });
    const summaryBox = (await summary.boundingBox())!;
    expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(barTop);
    await expect(summary.getByRole('status')).toHaveText('€79.99');
    expect(await layoutShifts(page), 'layout shifts').toEqual([]);

    await page.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('layout-phone'));
    await pay.tap();
    await onSandboxPage(page);
    await expect(page.getByRole('button', { name: 'Pay €79.99' })).toBeVisible();
  });
});
