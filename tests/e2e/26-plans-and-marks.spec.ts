/**
 * The page a shopper would choose: plan cards that sell (price a month, saving, the popular plan, what
 * lifetime means), the pay button after the choices on a desktop, the login details before the receipt,
 * and the payment marks of what each gateway takes, drawn from local files.
 *
 * The demo catalogue's prices, worked by hand:
 * - 1 Month: €12.99 / £10.99 a month (the plan the others are compared with).
 * - 6 Months: €59.99 ÷ 6 = €9.99833… → "€10.00 / month"; 1 − 9.99833 ÷ 12.99 = 0.2303 → "save 23 %".
 *             £49.99 ÷ 6 = £8.33166… → "£8.33 / month"; 1 − 8.33166 ÷ 10.99 = 0.2419 → "save 24 %".
 * - Lifetime: €199 once, no price a month.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, guestOrder, openCheckout, payOnSandbox, reachSuccess, serverUrl, test, uniqueEmail } from './support/fixtures';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const planCard = (page: Page, name: RegExp) => page.locator('label.plan').filter({ has: page.getByRole('radio', { name }) });

async function expectNoSeriousAxeViolation(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter(({ impact }) => impact === 'serious' || impact === 'critical').map(({ id, nodes }) => `${scheme} ${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function top(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!.y;
}

test.describe('plan cards', () => {
  test('the longer plan shows its price a month and its saving, the popular plan its badge, lifetime what it is; axe clean', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await openCheckout(page);
    const sixMonths = planCard(page, /^6 Months/);
    await expect(sixMonths).toContainText('€59.99 every 6 months');
    await expect(sixMonths).toContainText('€10.00 / month · save 23 %');
    await expect(sixMonths).toContainText('Most popular');
    const lifetime = planCard(page, /^Lifetime/);
    await expect(lifetime).toContainText('One payment, no renewal');
    await expect(lifetime).not.toContainText('/ month');
    await expect(planCard(page, /^1 Month/)).not.toContainText('/ month');
    await expect(page.getByText('Most popular')).toHaveCount(1);
    await expectNoSeriousAxeViolation(page);
  });

  test('the server\'s page already carries them, in the locale\'s currency and words', async ({ browser }) => {
    // Without JavaScript the page is the server's render alone.
    const context = await browser.newContext({ baseURL: serverUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/checkout/en-gb/');
    const sixMonths = planCard(page, /^6 Months/);
    await expect(sixMonths).toContainText('£8.33 / month · save 24 %');
    await expect(sixMonths).toContainText('Most popular');
    await page.goto('/checkout/de-de/');
    const sechsMonate = planCard(page, /^6 Monate/);
    await expect(sechsMonate).toHaveText(/10,00\s€ \/ Monat · 23 % sparen/);
    await expect(sechsMonate).toContainText('Am beliebtesten');
    await expect(planCard(page, /^Lebenslang/)).toContainText('Einmalige Zahlung, keine Verlängerung');
    await context.close();
  });
});

test.describe('payment marks', () => {
  test('each gateway shows the marks of what it takes, named, from this site only, within the CSP', async ({ page }) => {
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(serverUrl()) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await openCheckout(page);
    const card = page.getByRole('radio', { name: 'Card', exact: true });
    const bitcoin = page.getByRole('radio', { name: 'Bitcoin', exact: true });
    await expect(card).toHaveAccessibleDescription('Visa Mastercard Apple Pay Google Pay');
    await expect(bitcoin).toHaveAccessibleDescription('Bitcoin USDC');
    for (const name of ['Visa', 'Mastercard', 'Apple Pay', 'Google Pay', 'USDC']) {
      const mark = page.getByRole('img', { name, exact: true });
      await expect(mark).toBeVisible();
      // Drawn by an SVG the page carries itself: inline, or a file of this site.
      const image = await mark.evaluate((element) => getComputedStyle(element).backgroundImage);
      expect(image, name).toMatch(new RegExp(`^url\\("(data:image/svg\\+xml|${serverUrl().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/)`));
    }
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });
});

test.describe('the order of work', () => {
  test('on a desktop the summary holds the total and the plan lines beside the choices; the pay button follows the e-mail and gateway', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await openCheckout(page);
    const summary = page.getByRole('region', { name: 'Your order' });
    const pay = page.getByRole('button', { name: 'Validate and pay' });
    await expect(summary).toContainText('1 Month');
    await expect(summary.getByRole('status')).toHaveText('€12.99');
    await expect(summary.getByRole('button')).toHaveCount(0);
    const gateways = page.getByRole('group', { name: 'Payment method' });
    const email = page.getByRole('textbox', { name: 'E-mail' });
    expect(await top(pay)).toBeGreaterThan(await top(gateways));
    expect(await top(gateways)).toBeGreaterThan(await top(email));
    const payBox = (await pay.boundingBox())!;
    expect(payBox.x + payBox.width).toBeLessThanOrEqual((await summary.boundingBox())!.x);
    // The total stays in view while the shopper scrolls down to the button.
    await pay.scrollIntoViewIfNeeded();
    const total = (await summary.getByRole('status').boundingBox())!;
    expect(total.y).toBeGreaterThanOrEqual(0);
    expect(total.y + total.height).toBeLessThanOrEqual(DESKTOP.height);
  });

  test('on a phone the total and the pay button stay in the bar at the bottom', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await openCheckout(page);
    const pay = page.getByRole('button', { name: 'Validate and pay' });
    const box = (await pay.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(box.y).toBeGreaterThan(PHONE.height / 2);
    await expect(page.locator('.pay-bar-total')).toContainText('€12.99');
    await expectNoSeriousAxeViolation(page);
  });
});

test('the success page leads with the login details and the player guide; the receipt follows', async ({ page }) => {
  await guestOrder(page, { email: uniqueEmail('login-first') });
  await payOnSandbox(page);
  await reachSuccess(page);
  const receipt = page.getByRole('heading', { level: 2, name: 'Receipt' });
  await expect(receipt).toBeVisible();
  const receiptTop = await top(receipt);
  const term = (name: string) => page.getByRole('term').filter({ hasText: new RegExp(`^${name}$`) });
  for (const first of [term('Username'), term('Password'), term('Server host'), page.getByRole('heading', { level: 2, name: 'Apps to watch on' })]) {
    expect(await top(first)).toBeLessThan(receiptTop);
  }
  await expectNoSeriousAxeViolation(page);
});
