import { expect, test } from './support/fixtures';

// Issue 16 item 11: an unknown page is a real 404, and it reads in the visitor's language.
test.describe('unknown pages', () => {
  for (const [path, heading, home] of [
    ['/checkout/nope', 'This page could not be found', 'Back to home'],
    ['/checkout/xx-yy/', 'This page could not be found', 'Back to home'],
    ['/checkout/de-de/nope', 'Diese Seite wurde nicht gefunden', 'Zur Startseite'],
  ] as const) {
    test(`${path} answers 404 and shows the translated 404 page with a way home`, async ({ page }) => {
      const answer = await page.goto(path);
      expect(answer?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.getByRole('link', { name: home }).click();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(heading);
      await expect(page).toHaveURL(/\/checkout\/(de-de)?$/);
    });
  }

  test('the site\'s root leads to the checkout, and a page the app has answers 200', async ({ page }) => {
    const root = await page.goto('/');
    expect(root?.status()).toBe(200);
    expect(root?.request().redirectedFrom()?.url()).toMatch(/\/$/);
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('This page could not be found');
    expect((await page.goto('/checkout/nl-nl/resellers'))?.status()).toBe(200);
  });
});
