/**
 * A renewal from its e-mail: a server of its own, which issues renewal invoices 40 days before the due date
 * (RENEWAL_INVOICE_DAYS=40, so a 1 Month plan is invoiced at its first tick after payment) and ticks every second.
 * The notice is read in the demo outbox; its link is opened in a fresh browser, which pays and sees the new due date.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, newShopper, payOnSandbox, reachSuccess, test, uniqueEmail } from './support/fixtures';
import { startServer, stop, type Started } from './support/global-setup';
import { personalDataInLog } from './support/log-privacy';

const SIGN_IN_LINK = /https?:\/\/[^\s"<>]+\/checkout\/api\/signIn\?token=[A-Za-z0-9_-]{43}/;

let server: Started;
let workDir: string;

test.beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'tvc-e2e-renewal-'));
  server = await startServer(join(workDir, 'data'), join(workDir, 'server.log'), { RENEWAL_INVOICE_DAYS: '40', RENEWAL_TICK_MS: '1000' });
});

test.afterAll(async () => {
  if (server) await stop(server.child);
  const privacy = workDir ? personalDataInLog(join(workDir, 'server.log')) : { findings: [] };
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  expect(privacy.findings).toEqual([]);
});

/** The UTC day `months` calendar months from today, on the same day of the month or that month's last day. */
function monthsFromToday(months: number): Date {
  const today = new Date();
  const target = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(today.getUTCDate(), lastDay)));
}

/** A day as the English pages write it, e.g. "Dec 27, 2026". */
const written = (day: Date) => `${day.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;

test('a renewal notice\'s link, opened in a fresh browser, pays the renewal and the service renews a month later with the same login', async ({ browser }) => {
  const email = uniqueEmail('renewal');
  const due = monthsFromToday(1);
  const renewed = monthsFromToday(2);

  let username = '';
  await test.step('a guest buys 1 Month and pays: the success page says when it renews', async () => {
    const { context, page } = await newShopper(browser, { baseURL: server.baseUrl });
    await page.goto('/checkout/');
    await page.getByRole('radio', { name: /^1 Month/ }).check();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('button', { name: 'Validate and pay' }).click();
    await payOnSandbox(page);
    await reachSuccess(page);
    username = (await page.getByText(/^TV-\d{8}$/).textContent()) ?? '';
    await expect(page.getByText(`Renews on ${written(due)}`)).toBeVisible();
    await context.close();
  });

  let link = '';
  await test.step('the renewal notice is in the outbox: the plan, the total, a one-time link and an opt-out', async () => {
    const { context, page } = await newShopper(browser, { baseURL: server.baseUrl });
    await page.goto('/checkout/demo/outbox');
    const subject = 'Your 1 Month plan is due for renewal on';
    // The scheduler ticks every second: the notice is queued at its first tick after the payment.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('row').filter({ hasText: email }).filter({ hasText: subject })).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole('row').filter({ hasText: email }).getByRole('link', { name: new RegExp(`^${subject}`) }).click();
    const text = (await page.locator('pre').textContent()) ?? '';
    expect(text).toContain('Total: €12.99');
    expect(text).toMatch(/\/checkout\/renewals\/opt-out\?token=/);
    link = SIGN_IN_LINK.exec(text)?.[0] ?? '';
    expect(link, 'the text part holds the renewal link').not.toBe('');
    await context.close();
  });

  await test.step('a fresh browser follows the link: signed in on the renewal page, it pays €12.99 on the sandbox', async () => {
    const { context, page } = await newShopper(browser, { baseURL: server.baseUrl });
    expect(await context.cookies()).toEqual([]);
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await expect(page).toHaveURL(/\/checkout\/renew\?serviceid=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Renew your service' })).toBeVisible();
    await expect(page.getByText(`Due on ${written(due)}.`)).toBeVisible();
    await expect(page.getByText(`Paying extends your service to ${written(renewed)}.`)).toBeVisible();
    await page.getByRole('button', { name: 'Pay €12.99' }).click();
    await payOnSandbox(page);
    await reachSuccess(page);
    await expect(page.getByText(username, { exact: true })).toBeVisible();
    await expect(page.getByText(`Renews on ${written(renewed)}`)).toBeVisible();
    await context.close();
  });
});
