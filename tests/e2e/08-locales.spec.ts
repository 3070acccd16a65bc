import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, newShopper, openCheckout, payOnSandbox, test, uniqueEmail } from './support/fixtures';

interface Texts {
  checkout: { title: string; submit: string; plans: string; email: string };
  errors: { notFound: string };
  app: { backHome: string; languages: string };
  waiting: { title: string };
  success: { title: string };
  receipt: { title: string; thankYou: string; datePaid: string };
}
const texts = (locale: string): Texts => JSON.parse(readFileSync(new URL(`../../src/i18n/locales/${locale}.json`, import.meta.url), 'utf8')) as Texts;

/** Each locale: its URL prefix, document language, language link, and the 1 Month plan's price as written there. */
const LOCALES = [
  { locale: 'en-en', prefix: '', lang: 'en', name: 'English', price: /^€12\.99$/ },
  { locale: 'de-de', prefix: 'de-de/', lang: 'de-DE', name: 'Deutsch', price: /^12,99\s€$/ },
  { locale: 'en-gb', prefix: 'en-gb/', lang: 'en-GB', name: 'English (UK)', price: /^£10\.99$/ },
  { locale: 'es-es', prefix: 'es-es/', lang: 'es-ES', name: 'Español', price: /^12,99\s€$/ },
  { locale: 'nl-nl', prefix: 'nl-nl/', lang: 'nl-NL', name: 'Nederlands', price: /^€\s12,99$/ },
  { locale: 'pt-pt', prefix: 'pt-pt/', lang: 'pt-PT', name: 'Português', price: /^12,99\s€$/ },
];

const english = texts('en-en');

/** No translation key shows as such (e.g. 'errors.notFound' for a locale that did not load). */
async function noRawKeys(page: Page) {
  expect(await page.locator('body').innerText()).not.toMatch(/\b(app|checkout|login|waiting|success|errors|messages|reseller|upsell|creatingOrder|cycle|status|gateway)\.[a-zA-Z]+/);
}

for (const { locale, prefix, lang, name, price } of LOCALES) {
  test(`/${prefix || '(no prefix)'} shows the checkout in ${name} with ${locale === 'en-gb' ? 'pounds' : 'euros'} written the local way, and its 404 links home`, async ({ page }) => {
    const t = texts(locale);
    if (locale !== 'en-en' && locale !== 'en-gb') expect(t.checkout.title).not.toBe(english.checkout.title);

    await page.goto(`/checkout/${prefix}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.title);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('button', { name: t.checkout.submit })).toBeVisible();
    const plans = page.getByRole('group', { name: t.checkout.plans });
    await expect(plans.getByRole('radio').first()).toBeChecked();
    await expect(plans.locator('strong').first()).toHaveText(price);
    await noRawKeys(page);
    await expect(page.getByRole('navigation', { name: t.app.languages }).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', /^(page|true)$/);

    await page.goto(`/checkout/${prefix}no-such-page`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.errors.notFound);
    await expect(page.getByText('404')).toBeVisible();
    await noRawKeys(page);
    await page.getByRole('link', { name: t.app.backHome }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/${prefix.replace(/\/$/, '')}/?$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.title);
  });
}

test('the language links switch the page and keep the choice; an unknown prefix is a 404', async ({ page, browser }) => {
  await openCheckout(page);
  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/checkout\/de-de\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts('de-de').checkout.title);
  // Coming back without a prefix, the remembered language wins.
  await page.goto('/checkout/');
  await expect(page).toHaveURL(/\/checkout\/de-de\/?$/);

  await page.goto('/checkout/xx-yy/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts('de-de').errors.notFound);

  // A visitor whose browser speaks German, on an unknown page: the 404 in German, linking to the German home.
  const { context, page: german } = await newShopper(browser, { locale: 'de-DE' });
  await german.goto('/checkout/nope');
  await expect(german.getByRole('heading', { level: 1 })).toHaveText(texts('de-de').errors.notFound);
  await german.getByRole('link', { name: texts('de-de').app.backHome }).click();
  await expect(german).toHaveURL(/\/checkout\/de-de\/?$/);
  await expect(german.getByRole('heading', { level: 1 })).toHaveText(texts('de-de').checkout.title);
  await context.close();
});

test('a shopper on /es-es pays and comes back to the waiting and success pages in Spanish', async ({ page }) => {
  const t = texts('es-es');
  // Hydrated first: what is typed into the server's page before the app takes it over is not kept.
  await openCheckout(page, '/checkout/es-es/');
  await page.getByRole('textbox', { name: t.checkout.email }).fill(uniqueEmail('spanish'));
  await page.getByRole('button', { name: t.checkout.submit }).click();
  // The payment page sends everyone back to /checkout/waiting: the remembered language takes them to theirs.
  await payOnSandbox(page);
  await expect(page).toHaveURL(/\/checkout\/es-es\/(waiting|success)/);
  await expect(page).toHaveURL(/\/checkout\/es-es\/success\?serviceid=\d+&invoiceid=\d+$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.success.title);
  await expect(page.getByText(/^TV-\d{8}$/)).toBeVisible();
  // The receipt and its thanks, in Spanish, the total written the Spanish way.
  const receipt = page.getByRole('region', { name: t.receipt.title });
  await expect(receipt.getByText(t.receipt.thankYou)).toBeVisible();
  await expect(receipt.getByText(t.receipt.datePaid)).toBeVisible();
  await expect(receipt.getByText('12,99 €')).toBeVisible();
  // The plan and the payment method as the catalogue file names them in Spanish (demo.yaml).
  await expect(receipt).toContainText('1 mes');
  await expect(receipt).toContainText('Tarjeta');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-ES');
  await noRawKeys(page);
});
