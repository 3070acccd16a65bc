/**
 * GATEWAYS=coinbase-hostedlink against the provider fakes (tests/support/providers): a server of its own,
 * started for this file beside the suite's sandbox server, so the rest of the suite is unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort } from '../../scripts/lib/free-port';
import { startProviderFakes, type ProviderFakes } from '../support/providers';
import { expect, reachSuccess, test, uniqueEmail } from './support/fixtures';
import { startServer, stop, type Started } from './support/global-setup';
import { personalDataInLog } from './support/log-privacy';

let fakes: ProviderFakes;
let server: Started;
let workDir: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  workDir = mkdtempSync(join(tmpdir(), 'tvc-e2e-providers-'));
  const port = await freePort();
  fakes = await startProviderFakes({ checkoutUrl: `http://127.0.0.1:${port}` });
  server = await startServer(join(workDir, 'data'), join(workDir, 'server.log'), fakes.env, port);
});

test.afterAll(async () => {
  if (server) await stop(server.child);
  await fakes?.stop();
  const privacy = workDir ? personalDataInLog(join(workDir, 'server.log')) : { findings: [] };
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  // What the provider calls and webhooks log carries no e-mail, payment-link id, session or password either.
  expect(privacy.findings).toEqual([]);
});

/** A new shopper on the checkout of this file's server, ordering 1 Month (€12.99) with the gateway named. */
async function orderWith(page: Page, gateway: string, email: string) {
  await page.goto(`${server.baseUrl}/checkout/`);
  await page.getByRole('radio', { name: /^1 Month/ }).check();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('radio', { name: gateway }).check();
  await page.getByRole('button', { name: 'Validate and pay' }).click();
}

test('a shopper pays with Coinbase Business: hosted checkout, back to the waiting page, then the credentials', async ({ page }) => {
  await orderWith(page, 'Crypto (Coinbase)', uniqueEmail('coinbase'));
  await expect(page).toHaveURL(new RegExp(`^${fakes.coinbase.apiUrl.replace('/sandbox', '')}/pay/[0-9a-f]{24}$`));
  await expect(page.getByText('12.99 EUR')).toBeVisible();
  const backOnWaiting = page.waitForURL(`${server.baseUrl}/checkout/waiting`);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await backOnWaiting;
  await reachSuccess(page);
  // Settled from the webhook after the checkout was read back from the API, never from the redirect.
  expect(fakes.coinbase.deliveries.map((delivery) => [delivery.eventType, delivery.status])).toEqual([['checkout.payment.success', 200]]);
  expect(fakes.coinbase.calls.map((call) => call.method)).toEqual(['POST', 'GET']);
});

test('a shopper pays on the hosted-link card page: signed link, Pay, back to the waiting page, then the credentials', async ({ page }) => {
  await orderWith(page, 'Card (hosted link)', uniqueEmail('hostedlink'));
  await expect(page).toHaveURL(new RegExp(`^${fakes.hostedlink.payUrl}\\?invoice=\\d+&`));
  await expect(page.getByText('12.99 EUR')).toBeVisible();
  const backOnWaiting = page.waitForURL(`${server.baseUrl}/checkout/waiting`);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await backOnWaiting;
  await reachSuccess(page);
  expect(fakes.hostedlink.deliveries.map((delivery) => [delivery.callback.status, delivery.status])).toEqual([['paid', 200]]);
});
