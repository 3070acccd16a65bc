/**
 * The API reference a newcomer opens on the demo server (/checkout/api/docs): it names this server, its search
 * finds an operation, and the page asks nothing of any other site (it works offline).
 */
import { API_DOCS_TARGET, buildIfStale } from '../../scripts/lib/build-if-stale';
import { expect, serverUrl, test } from './support/fixtures';

// The server reads build/api-docs.html on each request: built here when the run has not (npm run build makes it).
test.beforeAll(() => {
  buildIfStale({ targets: [API_DOCS_TARGET], prefix: '[e2e] ' });
});

test('the API reference names this server, searches offline and fetches nothing from elsewhere', async ({ page }) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(serverUrl()) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
  });
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refused.push(message.text());
  });
  await page.goto('/checkout/api/docs');
  await expect(page.getByRole('heading', { level: 1, name: /TV Checkout API/ })).toBeVisible();
  await expect(page.getByText(serverUrl(), { exact: true }).first()).toBeVisible();
  await expect(page.getByText('http://localhost:3000')).toHaveCount(0);

  await page.getByText('Search', { exact: false }).first().click();
  await page.keyboard.type('promotion');
  await expect(page.getByText('/checkout/api/getPromotion').first()).toBeVisible();

  expect(elsewhere).toEqual([]);
  expect(refused).toEqual([]);
});
