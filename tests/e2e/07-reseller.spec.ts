import type { Page } from '@playwright/test';
import { DEMO_RESELLER, expect, openCheckout, payOnSandbox, test, uniqueEmail } from './support/fixtures';

async function openResellers(page: Page) {
  // The index hydrated first: a click while the app hydrates the server's page can be lost.
  await openCheckout(page);
  await page.getByRole('link', { name: 'Reseller plans' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reseller plans' })).toBeVisible();
  // The second plan is selected by default.
  await expect(page.getByRole('radio', { name: /^Reseller 120 credits/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Validate and pay' })).toBeVisible();
}

/** Pays on the sandbox page, waits, and lands on the reseller success page with an Active panel. */
async function payAndReachResellerSuccess(page: Page, amount: string, plan: string) {
  await expect(page.getByRole('button', { name: `Pay ${amount}` })).toBeVisible();
  const backOnWaiting = page.waitForURL(/\/checkout\/resellers\/waiting$/);
  await payOnSandbox(page);
  await backOnWaiting;
  await expect(page).toHaveURL(/\/checkout\/resellers\/success\?serviceid=\d+&invoiceid=\d+$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your reseller account' })).toBeVisible();
  await expect(page.getByText(`Your reseller panel ${plan}: Active.`)).toBeVisible();
}

test('a new reseller is told the passwords differ, then signs up, pays and reaches reseller success', async ({ page }) => {
  await openResellers(page);
  await expect(page.getByRole('radio', { name: 'No, I am new' })).toBeChecked();
  await expect(page.getByText('New resellers also get their reseller panel activated (€49.00).')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '€' })).toHaveText('€349.00');

  await page.getByRole('textbox', { name: 'E-mail' }).fill(uniqueEmail('reseller'));
  await page.getByLabel('Password', { exact: true }).fill('a-long-password-1');
  const confirmation = page.getByLabel('Confirm password');
  await confirmation.fill('a-long-password-2');
  await confirmation.blur();
  await expect(page.getByRole('alert')).toHaveText('Not the same password');
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await expect(page).toHaveURL(/\/checkout\/resellers$/);
  await expect(page.getByRole('alert')).toHaveText('Not the same password');

  await confirmation.fill('a-long-password-1');
  await expect(page.getByText('Not the same password')).toBeHidden();
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await payAndReachResellerSuccess(page, '€349.00', 'Reseller 120 credits');
});

test('an existing reseller signs in on the reseller page, pays and reaches reseller success', async ({ page }) => {
  await openResellers(page);
  await page.getByRole('radio', { name: 'Yes' }).check();
  await expect(page.getByLabel('Confirm password')).toBeHidden();
  await page.getByRole('radio', { name: /^Reseller 50 credits/ }).check();
  await expect(page.getByRole('status').filter({ hasText: '€' })).toHaveText('€150.00');

  await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_RESELLER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_RESELLER.password);
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await payAndReachResellerSuccess(page, '€150.00', 'Reseller 50 credits');
});

test('an existing reseller with a wrong password is refused', async ({ page }) => {
  await openResellers(page);
  await page.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_RESELLER.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email or Password Invalid');
  await expect(page).toHaveURL(/\/checkout\/resellers$/);
});

test('a new reseller\'s password needs 10 characters and must not be the e-mail: said under the field, in the page\'s language, before anything is sent', async ({ page }) => {
  let signUps = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/checkout/api/resellerAuth')) signUps += 1;
  });
  await openResellers(page);
  const email = uniqueEmail('reseller');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  const password = page.getByLabel('Password', { exact: true });
  await expect(page.getByText('At least 10 characters, not your e-mail address.')).toBeVisible();
  await password.fill('123456789');
  await password.blur();
  await expect(page.getByRole('alert')).toHaveText('Choose a password of at least 10 characters.');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Confirm password').fill('123456789');
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await expect(page).toHaveURL(/\/checkout\/resellers$/);
  await expect(page.getByRole('alert')).toHaveText('Choose a password of at least 10 characters.');

  await password.fill(email.toUpperCase());
  await page.getByLabel('Confirm password').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Validate and pay' }).click();
  await expect(page.getByRole('alert')).toHaveText('Choose a password that is not your e-mail address.');
  await expect(page).toHaveURL(/\/checkout\/resellers$/);

  await password.fill('1234567890');
  await page.getByLabel('Confirm password').fill('1234567890');
  await expect(page.getByRole('alert')).toBeHidden();
  await expect(password).not.toHaveAttribute('aria-invalid', 'true');
  expect(signUps).toBe(0);

  await page.goto('/checkout/de-de/resellers');
  const passwort = page.getByLabel('Passwort', { exact: true });
  await expect(page.getByText('Mindestens 10 Zeichen, nicht Ihre E-Mail-Adresse.')).toBeVisible();
  await passwort.fill('kurz');
  await passwort.blur();
  await expect(page.getByRole('alert')).toHaveText('Wählen Sie ein Passwort mit mindestens 10 Zeichen.');
  expect(signUps).toBe(0);
});
