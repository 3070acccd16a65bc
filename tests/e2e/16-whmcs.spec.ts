/**
 * The journeys with BILLING=whmcs: a second server of the checkout, on its own port and data directory, billing
 * through a fake WHMCS (tests/support/whmcs-fake) that this worker starts. Both start only when this file runs,
 * so the other journeys keep their time. What WHMCS holds is read from the fake's own state, never from our server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { createWhmcsFake, DEFAULT_IDENTIFIER, DEFAULT_SECRET, DEMO_CLIENT, DEMO_RESELLER, DEMO_RESELLER_CLIENT_GROUP, DEMO_RESELLER_GID, DEMO_RETAIL_GID, type WhmcsFake } from '../support/whmcs-fake';
import { guestOrder, logIn, payOnSandbox, reachSuccess, uniqueEmail } from './support/fixtures';
import { startServer, stop } from './support/global-setup';
import { personalDataInLog } from './support/log-privacy';

interface WhmcsCheckout {
  fake: WhmcsFake;
  /** The origin of the checkout server that bills through `fake`. */
  url: string;
}

const test = base.extend<{ whmcsCheckout: WhmcsCheckout }, { whmcsWorker: WhmcsCheckout }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
  whmcsWorker: [async ({}, use) => {
    const fake = await createWhmcsFake();
    const workDir = mkdtempSync(join(tmpdir(), 'tvc-e2e-whmcs-'));
    const logPath = join(workDir, 'server.log');
    const { child, baseUrl } = await startServer(join(workDir, 'data'), logPath, {
      BILLING: 'whmcs', WHMCS_API_URL: fake.url, WHMCS_API_IDENTIFIER: DEFAULT_IDENTIFIER, WHMCS_API_SECRET: DEFAULT_SECRET,
      WHMCS_RETAIL_GID: String(DEMO_RETAIL_GID), WHMCS_RESELLER_GID: String(DEMO_RESELLER_GID), WHMCS_RESELLER_CLIENT_GROUP: String(DEMO_RESELLER_CLIENT_GROUP),
    });
    let findings: string[] = [];
    try {
      await use({ fake, url: baseUrl });
    } finally {
      await stop(child);
      await fake.close();
      findings = personalDataInLog(logPath).findings;
      rmSync(workDir, { recursive: true, force: true });
    }
    // As global-setup.ts checks the main server's log: no e-mail, payment-link id, session cookie or password.
    if (findings.length) throw new Error(`[e2e] the BILLING=whmcs server's log carries personal data:\n${findings.slice(0, 20).join('\n')}`);
  }, { scope: 'worker', timeout: 90_000 }],
  whmcsCheckout: async ({ whmcsWorker }, use) => use(whmcsWorker),
  baseURL: async ({ whmcsWorker }, use) => use(whmcsWorker.url),
});

// One server and one fake for the file: its journeys run one after another in one worker.
test.describe.configure({ mode: 'default' });

/** The value of a service's custom field, by the field's name on its product, as WHMCS holds it. */
function customField(fake: WhmcsFake, serviceId: number, name: RegExp): string | undefined {
  const service = fake.state.services.find((row) => row.id === serviceId);
  const field = fake.state.products.find((product) => product.pid === service?.pid)?.customfields.find((candidate) => name.test(candidate.name));
  return field ? service?.customfields[field.id] : undefined;
}

test('a guest orders, pays on the sandbox page, waits, and reads the credentials WHMCS holds', async ({ page, whmcsCheckout: { fake } }) => {
  const email = uniqueEmail('whmcs-guest');
  await guestOrder(page, { email });
  await payOnSandbox(page);
  await reachSuccess(page);

  const shown = (await page.getByText(/^TV-\d{8}$/).textContent()) ?? '';
  const client = fake.state.clients.find((row) => row.email.toLowerCase() === email.toLowerCase());
  expect(client, 'WHMCS holds the guest as a client').toBeTruthy();
  const [service, ...others] = fake.state.services.filter((row) => row.clientid === client?.id);
  expect(others).toEqual([]);
  expect(service?.status).toBe('Active');
  expect(shown).toBe(customField(fake, service?.id ?? 0, /^user\s*name$/i));
  const password = await page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy Password' }) }).locator('code').textContent();
  expect(password).toBe(customField(fake, service?.id ?? 0, /^password$/i));
  // The receipt names WHMCS's invoice of the order (1 Month, €12.99).
  const invoice = fake.state.invoices.find((row) => row.userid === client?.id);
  const receipt = page.getByRole('region', { name: 'Receipt' });
  await expect(receipt.getByText('Thank you for your order!')).toBeVisible();
  await expect(receipt.getByText('1 Month, per month')).toBeVisible();
  await expect(receipt.getByText('€12.99')).toBeVisible();
  await expect(receipt.getByText(`#${invoice?.id}`, { exact: true })).toBeVisible();
});

test('a client logs in with the password WHMCS holds and buys an extra connection, which WHMCS then shows on the service', async ({ page, whmcsCheckout: { fake } }) => {
  const serviceOf = () => fake.state.services.find((row) => row.clientid === DEMO_CLIENT.clientId && row.status === 'Active');
  const before = serviceOf()?.configoptions[2]?.qty ?? 0;
  const invoicesBefore = Math.max(0, ...fake.state.invoices.map((row) => row.id));
  await logIn(page, DEMO_CLIENT);
  // The password was checked by WHMCS (the checkout's store holds none for this client).
  expect(fake.callsOf('ValidateLogin').map((call) => call.params.email)).toContain(DEMO_CLIENT.email);
  await page.getByRole('link', { name: 'Add connections to your service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add connections' })).toBeVisible();
  const serviceid = await page.getByRole('combobox', { name: 'Service' }).inputValue();
  expect(Number(serviceid)).toBe(serviceOf()?.id);
  await expect(page.getByRole('slider', { name: 'Extra connections' })).toHaveValue('1');
  await page.getByRole('button', { name: /^Pay €/ }).click();

  const backOnWaiting = page.waitForURL(/\/checkout\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await expect(page).toHaveURL(new RegExp(`/checkout/success\\?serviceid=${serviceid}&invoiceid=\\d+$`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your service' })).toBeVisible();
  expect(serviceOf()?.configoptions[2]?.qty).toBe(before + 1);
  // The upsell's invoice (CreateInvoice's, the client's newest) is paid in WHMCS, by one AddInvoicePayment.
  const upsellInvoice = fake.state.invoices.filter((row) => row.userid === DEMO_CLIENT.clientId).at(-1);
  expect(upsellInvoice?.id).toBeGreaterThan(invoicesBefore);
  expect(upsellInvoice?.status).toBe('Paid');
  expect(fake.callsOf('AddInvoicePayment').filter((call) => call.params.invoiceid === String(upsellInvoice?.id))).toHaveLength(1);
});

test('a reseller signs in on the reseller page, orders, and reaches the waiting page with the payment link', async ({ page, whmcsCheckout: { fake } }) => {
  const ordersBefore = fake.state.orders.filter((row) => row.userid === DEMO_RESELLER.clientId).length;
  await page.goto('/checkout/resellers');
  await expect(page.getByRole('heading', { level: 1, name: 'Reseller plans' })).toBeVisible();
  await page.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_RESELLER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_RESELLER.password);
  await page.getByRole('button', { name: 'Validate and pay' }).click();

  // The sandbox page of the payment link; left unpaid, the reseller's waiting page offers the same link.
  await expect(page).toHaveURL(/\/checkout\/sandbox\/pay\/pay_/);
  const link = page.url();
  await page.goto('/checkout/resellers/waiting');
  await expect(page.getByRole('timer')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the payment page' })).toHaveAttribute('href', link);

  const orders = fake.state.orders.filter((row) => row.userid === DEMO_RESELLER.clientId);
  expect(orders).toHaveLength(ordersBefore + 1);
  const order = orders.at(-1);
  expect(order?.status).toBe('Pending');
  const pids = fake.state.services.filter((row) => order?.serviceIds.includes(row.id)).map((row) => row.pid);
  expect(pids.every((pid) => fake.state.products.find((product) => product.pid === pid)?.gid === DEMO_RESELLER_GID)).toBe(true);
});
