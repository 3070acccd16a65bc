import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { apiGuestOrder, apiPay, expect, payOnSandbox, test, uniqueEmail } from './support/fixtures';
import { downloadsThePlaylist } from './support/success';

/** A guest's paid 1 Month service, placed and paid through the API in this page's own session. */
async function paidServicePage(page: Page): Promise<{ serviceid: number; username: string; password: string; host: string }> {
  const order = await apiGuestOrder(page.request, { email: uniqueEmail('player') });
  await apiPay(page.request, order.link ?? '');
  const serviceid = order.serviceids[0] ?? 0;
  await page.goto(`/checkout/success?serviceid=${serviceid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  const credentials = page.locator('dl.credentials');
  const value = (name: string) => credentials.getByRole('definition').filter({ has: page.getByRole('button', { name: `Copy ${name}` }) }).locator('code').textContent();
  const [username, password, host] = [await value('Username'), await value('Password'), await value('Server host')];
  expect(username).toMatch(/^TV-\d{8}$/);
  expect(password).toMatch(/^\d{12}$/);
  // The demo's configured streaming host (README: SERVER_HOSTNAME).
  expect(host).toBe('stream.tvcheckout.test');
  return { serviceid, username: username ?? '', password: password ?? '', host: host ?? '' };
}

/** The values a player's steps ask for, in order, and the QR code beside them. */
async function guideOf(page: Page, player: RegExp): Promise<{ values: string[]; qr: Locator }> {
  await page.getByRole('radio', { name: player }).check();
  const steps = page.locator('.player-steps');
  await expect(steps.getByRole('heading', { level: 3 })).toBeVisible();
  return { values: await steps.locator('.player-login code').allTextContents(), qr: steps.getByRole('img') };
}

test('the playlist downloads from the checkout while the page stays, with the credentials still shown', async ({ page }) => {
  await paidServicePage(page);
  const url = page.url();
  await downloadsThePlaylist(page, () => page.getByRole('button', { name: 'Download playlist' }).click());
  expect(page.url()).toBe(url);
  await expect(page.getByRole('button', { name: 'Copy Password' })).toBeVisible();
});

test('the player guide shows the steps of the picked player, in the panel conventions, with a QR code of what the TV needs', async ({ page }) => {
  const { username, password, host } = await paidServicePage(page);
  await expect(page.locator('.player-steps')).toHaveCount(0);

  // An Xtream app: the server's address, the username and the password; the code holds the server's address.
  const xtream = await guideOf(page, /^TiviMate /);
  await expect(page.getByRole('heading', { level: 3, name: 'Set up TiviMate' })).toBeVisible();
  expect(xtream.values).toEqual([`http://${host}`, username, password]);
  await expect(xtream.qr).toHaveAccessibleName(`QR code of http://${host}`);
  expect(await xtream.qr.evaluate((svg) => svg.tagName)).toBe('svg');

  // A playlist app: the M3U URL, shown for typing, but never a link.
  const m3u = await guideOf(page, /^VLC /);
  const playlist = `http://${host}/get.php?username=${username}&password=${password}&type=m3u_plus&output=ts`;
  expect(m3u.values).toEqual([playlist]);
  await expect(m3u.qr).toHaveAccessibleName(`QR code of ${playlist}`);
  expect(await page.locator(`a[href*="${password}"]`).count()).toBe(0);

  // A MAG box: the portal and the device address, which the steps show once added below.
  const mag = await guideOf(page, /^MAG /);
  expect(mag.values).toEqual([`http://${host}/c/`, 'Not added yet']);
  await expect(mag.qr).toHaveAccessibleName(`QR code of http://${host}/c/`);
  await page.getByRole('textbox', { name: 'Device address (MAC)' }).fill('00:1a:79:12:34:56');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Device address saved.')).toBeVisible();
  await expect(page.locator('.player-steps .player-login code')).toHaveText([`http://${host}/c/`, '00:1A:79:12:34:56']);

  // The QR code is drawn with dark modules on white, the quiet zone around it.
  const drawn = await mag.qr.evaluate((svg) => ({ background: svg.querySelector('rect')?.getAttribute('fill'), modules: svg.querySelector('path')?.getAttribute('fill') }));
  expect(drawn).toEqual({ background: '#fff', modules: '#000' });
  await expectNoAxeViolations(page);
});

/** axe's default rules (WCAG 2.x A and AA, best practices) in the light scheme, its colour rules in the dark one. */
async function expectNoAxeViolations(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const builder = new AxeBuilder({ page });
    if (scheme === 'dark') builder.withRules(['color-contrast', 'link-in-text-block']);
    const { violations } = await builder.analyze();
    expect(violations.map(({ id, nodes }) => `${scheme} ${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
}

test('the player guide in German', async ({ page }) => {
  const order = await apiGuestOrder(page.request, { email: uniqueEmail('spieler') });
  await apiPay(page.request, order.link ?? '');
  await page.goto(`/checkout/de-de/success?serviceid=${order.serviceids[0]}`);
  await page.getByRole('radio', { name: /^Kodi / }).check();
  await expect(page.getByRole('heading', { level: 3, name: 'Kodi einrichten' })).toBeVisible();
  await expect(page.locator('.player-steps').getByRole('img')).toHaveAccessibleName(/^QR-Code von http:\/\/stream\.tvcheckout\.test\/get\.php\?/);
});

test('a new reseller reaches the reseller success page with the panel address, the login and the credits', async ({ page }) => {
  await page.goto('/checkout/resellers');
  await expect(page.getByRole('radio', { name: /^Reseller 120 credits/ })).toBeChecked();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('panel'));
  await page.getByLabel('Password', { exact: true }).fill('a-long-password-1');
  await page.getByLabel('Confirm password').fill('a-long-password-1');
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await expect(page.getByRole('button', { name: 'Pay €349.00' })).toBeVisible();
  await payOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/resellers\/success\?serviceid=\d+&invoiceid=\d+$/, { timeout: 20_000 });
  const panel = page.getByRole('region', { name: 'Your panel login' });
  // The demo's panel address, the login of the new panel, and the 120 credits just bought.
  await expect(panel.getByRole('link', { name: 'https://panel.tvcheckout.test/' })).toHaveAttribute('href', 'https://panel.tvcheckout.test/');
  await expect(panel.getByRole('definition').filter({ has: page.locator('code') }).first()).toHaveText(/^TV-\d{8}$/);
  await expect(panel.getByRole('definition').filter({ has: page.locator('code') }).nth(1)).toHaveText(/^\d{12}$/);
  await expect(panel.locator('strong')).toHaveText('120');
  await expectNoAxeViolations(page);
});
