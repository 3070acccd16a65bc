/**
 * The studio's traffic layer and funnel, in Chromium: the studio's own server passes GET /stats/flowStats
 * to a small HTTP server standing in for a shop's operator listener, which answers FlowStats written here by hand.
 * The diagram shows those counts ("fewer than 5" where masked), the funnel the shares of the first step, and each
 * way of not having traffic says what to do.
 */
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { FlowStats } from '../../src/domain/flow-traffic';
import { startStudioServer, type StudioServer } from '../../scripts/studio/serve';
import { buildStudioOnce } from './support/studio';

const ROOT = resolve(import.meta.dirname, '../..');
const STUDIO_ROOT = join(ROOT, 'build', 'studio');
const TOKEN = 'studio-traffic-token';

const CATALOGUE_LOADED = 'checkout.loading → checkout.ready on always [catalogueLoaded]';
const ORDER_SUBMITTED = 'checkout.ready → checkout.submitting on order.submit [canSubmit]';
const CATALOGUE_FAILED = 'checkout.loading → checkout.notFound on xstate.error.actor.loadProducts';
const PLAN_CHOSEN = 'checkout.ready.plan.selected (stays) on plan.select [isOfferedPlan]';
// Transitions the product view draws as one edge: the saved order's four ways back to the form, the link's ways back to it.
const SAVED_ORDER_UNPAID = 'checkout.checkingSavedOrder → checkout.ready on xstate.done.actor.checkSavedOrder [savedOrderUnpaid]';
const SAVED_ORDER_SETTLED = 'checkout.checkingSavedOrder → checkout.ready on xstate.done.actor.checkSavedOrder [savedOrderSettled]';
const LINK_EMAIL_INVALID = 'checkout.autoOrder.checkingLink → checkout.ready on always [linkEmailInvalid]';
const LINK_PLAN_INVALID = 'checkout.autoOrder.checkingLink → checkout.ready on always [linkPidInvalid]';
const LINK_PLAN_GONE = 'checkout.autoOrder.loadingProduct → checkout.ready on xstate.done.actor.loadProduct';

/** A week of a small shop: 30 shoppers saw the shop page, 20 ordered, 10 paid; what is under 5 is masked. */
function handWrittenStats(query: URLSearchParams): FlowStats {
  const week = query.get('by') === 'week';
  const german = query.get('locale') === 'de-de';
  const funnel = (period: string, [index, order, payment, paid, credentials]: FlowStats['funnel']['rows'][number]['count'][]) => [
    { period, step: 'index' as const, count: index! },
    { period, step: 'order' as const, count: order! },
    { period, step: 'payment' as const, count: payment! },
    { period, step: 'paid' as const, count: paid! },
    { period, step: 'credentials' as const, count: credentials! },
  ];
  return {
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    minCount: 5,
    machines: [
      {
        machine: 'checkout',
        visits: 30,
        transitions: [
          { transition: CATALOGUE_LOADED, count: 30 },
          { transition: ORDER_SUBMITTED, count: 20 },
          { transition: PLAN_CHOSEN, count: 12 },
          { transition: CATALOGUE_FAILED, count: { fewerThan: 5 } },
          { transition: SAVED_ORDER_UNPAID, count: 6 },
          { transition: SAVED_ORDER_SETTLED, count: 7 },
          { transition: LINK_EMAIL_INVALID, count: { fewerThan: 5 } },
          { transition: LINK_PLAN_INVALID, count: { fewerThan: 5 } },
          { transition: LINK_PLAN_GONE, count: 8 },
        ],
        states: [
          { state: 'checkout.ready', entries: 30, exits: 25, ended: 5, endedShare: 5 / 30, inpP75: 180, lcpP75: 900, inpSamples: 40, lcpSamples: 30 },
          { state: 'checkout.submitting', entries: 20, exits: 20, ended: { fewerThan: 5 }, endedShare: null, inpP75: 350, lcpP75: null, inpSamples: 20, lcpSamples: 0 },
        ],
      },
    ],
    funnel: {
      by: week ? 'week' : 'day',
      locale: query.get('locale'),
      gateway: query.get('gateway'),
      locales: ['de-de', 'en-en'],
      gateways: ['', 'sandbox'],
      rows: german
        ? funnel('2026-11-27', [12, 6, 6, 6, { fewerThan: 5 }])
        : week
          ? funnel('2026-11-23', [50, 30, 25, 15, 12])
          : [...funnel('2026-11-26', [20, 10, 9, 5, { fewerThan: 5 }]), ...funnel('2026-11-27', [30, 20, 16, 10, { fewerThan: 5 }])],
    },
  };
}

let listener: Server;
let listenerUrl: string;
/** What the stand-in listener answers next: the stats, a 401, or a shop with no traffic yet. */
let mode: 'stats' | 'refuse' | 'empty' = 'stats';
const asked: { url: string; authorization: string | undefined }[] = [];
let studio: StudioServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  buildStudioOnce();
  listener = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://listener');
    asked.push({ url: request.url ?? '', authorization: request.headers.authorization });
    if (mode === 'refuse') return void response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthorized","message":"Unauthorized"}}');
    const stats = handWrittenStats(url.searchParams);
    const body = mode === 'empty' ? { ...stats, machines: [], funnel: { ...stats.funnel, rows: [] } } : stats;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((ready) => listener.listen(0, '127.0.0.1', ready));
  listenerUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
  studio = await startStudioServer({ root: STUDIO_ROOT, port: 0, stats: { url: listenerUrl, token: TOKEN } });
});

test.afterAll(async () => {
  await studio?.close();
  await new Promise<void>((done) => (listener ? listener.close(() => done()) : done()));
});

test.beforeEach(() => {
  mode = 'stats';
  asked.length = 0;
});

/** The last `days` UTC days, today included, as the choice "last N days" names them. */
function lastDays(days: number): { from: string; to: string } {
  const today = new Date();
  return { from: new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
}

/** A select by its label (whose name also carries the chosen option). */
const selectNamed = (page: Page, label: string) => page.getByRole('combobox', { name: new RegExp(`^${label}\\b`) });

/** The checkout's page with the traffic shown; the product view unless the engineer view, or another part, is named. */
async function showTraffic(page: Page, choice: 'last 7 days' | 'last 30 days', place = '') {
  await page.goto(`${studio.url}#/machine/checkout${place}`);
  await selectNamed(page, 'Traffic').selectOption({ label: choice });
}

const edge = (page: Page, id: string) => page.locator(`svg[data-machine="checkout"] [data-transition-id="${id}"]`);
const strokeWidth = (page: Page, id: string) => edge(page, id).locator('path').first().evaluate((path) => parseFloat(getComputedStyle(path).strokeWidth));

test('the checkout diagram (engineer view) shows the shop\'s counts over the last 7 days, "fewer than 5" where masked, entries, endings and INP per state', async ({ page }) => {
  await showTraffic(page, 'last 7 days', '?view=engineer');
  await expect(edge(page, CATALOGUE_LOADED).locator('.traffic-count')).toHaveText('30');
  await expect(edge(page, ORDER_SUBMITTED).locator('.traffic-count')).toHaveText('20');
  await expect(edge(page, CATALOGUE_FAILED).locator('.traffic-count')).toHaveText('fewer than 5');
  // A transition no shopper took carries no count.
  await expect(edge(page, 'checkout.loading → checkout.notFound on xstate.done.actor.loadProducts').locator('.traffic-count')).toHaveCount(0);
  // Line weight grows with the count: 30 heavier than 20, 20 heavier than a masked count.
  expect(await strokeWidth(page, CATALOGUE_LOADED)).toBeGreaterThan(await strokeWidth(page, ORDER_SUBMITTED));
  expect(await strokeWidth(page, ORDER_SUBMITTED)).toBeGreaterThan(await strokeWidth(page, CATALOGUE_FAILED));
  // 5 of 30 visits ended at the form: 17 %; INP p75 180 ms is good, 350 ms is not, each with its sign.
  const ready = page.locator('svg[data-machine="checkout"] [data-state-id="checkout.ready"] .traffic-state');
  await expect(ready).toContainText('30 entries · 17 % ended here');
  await expect(ready).toContainText('INP 180 ms ✓ good');
  const submitting = page.locator('svg[data-machine="checkout"] [data-state-id="checkout.submitting"] .traffic-state');
  await expect(submitting).toContainText('20 entries · ended here: fewer than 5');
  await expect(submitting).toContainText('INP 350 ms ▲ slow');
  await expect(page.getByText('▲ slow (over 200 ms)')).toBeVisible();
  // While traffic is shown, coverage colours step aside.
  await expect(page.locator('svg[data-machine="checkout"] [data-transition-id].covered')).toHaveCount(0);

  // The shop was asked for the last 7 UTC days, with the studio's token; the page never held it.
  const { from, to } = lastDays(7);
  expect(asked.map(({ url }) => url)).toEqual([`/flowStats?from=${from}&to=${to}`]);
  expect(asked[0]!.authorization).toBe(`Bearer ${TOKEN}`);
  expect(await page.content()).not.toContain(TOKEN);

  await selectNamed(page, 'Traffic').selectOption({ label: 'last 30 days' });
  await expect.poll(() => asked.at(-1)?.url).toBe(`/flowStats?from=${lastDays(30).from}&to=${lastDays(30).to}`);

  // A state's figures in words beside the diagram.
  await page.locator('svg[data-machine="checkout"] [data-state-id="checkout.ready"]').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('region', { name: 'Traffic at ready' });
  await expect(panel).toContainText('exits: 25');
  await expect(panel).toContainText('LCP p75 900 ms');
});

/** The counts over the drawn edges of the diagram, in a fixed order. */
const drawnCounts = async (page: Page) => (await page.locator('svg[data-machine="checkout"] .edge .traffic-count').allTextContents()).sort();
const edgeCounting = (page: Page, count: string) =>
  page.locator('svg[data-machine="checkout"] .edge', { has: page.locator('.traffic-count', { hasText: new RegExp(`^${count}$`) }) }).locator('path').first();

test('the product view sums an edge\'s transitions, never adding a masked count as a number, and its labels read at 12 px at fit', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await showTraffic(page, 'last 7 days');
  // One edge per pair of boxes: 6 + 7 back to the form from a saved order; the link's 8 and two masked read "at least 8".
  await expect.poll(() => drawnCounts(page)).toEqual(['13', '20', '30', 'at least 8', 'fewer than 5']);
  const weight = (count: string) => edgeCounting(page, count).evaluate((path) => parseFloat(getComputedStyle(path).strokeWidth));
  expect(await weight('30')).toBeGreaterThan(await weight('13'));
  expect(await weight('at least 8')).toBeGreaterThan(await weight('fewer than 5'));
  // The shut form box carries the form's own entries (entering any step inside it enters the form), endings and INP.
  const ready = page.locator('svg[data-machine="checkout"] [data-state-id="checkout.ready"] .traffic-state');
  await expect(ready).toContainText('30 entries · 17 % ended here');
  await expect(ready).toContainText('INP 180 ms ✓ good');
  await expect(page.locator('svg[data-machine="checkout"] .edge.covered')).toHaveCount(0);
  const sizes = await page.locator('svg.diagram-svg :is(.traffic-count, .traffic-state) text').evaluateAll((texts) =>
    texts.map((text) => {
      const ctm = (text as SVGTextElement).getScreenCTM()!;
      return Number.parseFloat(getComputedStyle(text).fontSize) * Math.hypot(ctm.a, ctm.b);
    }),
  );
  expect(sizes.length).toBeGreaterThan(5);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);

  // A state of the view shows its figures in words beside the diagram.
  await page.locator('svg[data-machine="checkout"] [data-state-id="checkout.submitting"]').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Traffic at submitting' })).toContainText('exits: 20');

  // The link's part: two masked counts on one edge stay masked, under the sum of what each may be (4 + 4).
  await page.getByRole('navigation', { name: 'Parts of the diagram' }).getByRole('button', { name: /^auto order/i }).click();
  await expect.poll(() => drawnCounts(page)).toEqual(['8', 'fewer than 9']);
  await expect(selectNamed(page, 'Traffic')).toHaveValue('7');
});

test('the funnel shows each step as a share of the shop page, by day or week and by locale; masked steps give no share', async ({ page }) => {
  await page.goto(`${studio.url}#/funnel`);
  const day = page.locator('tr[data-period="2026-11-27"]');
  await expect(day.locator('td[data-step="index"]')).toHaveText('30');
  await expect(day.locator('td[data-step="order"]')).toHaveText('20 of 30 (67 %)');
  await expect(day.locator('td[data-step="payment"]')).toHaveText('16 of 30 (53 %)');
  await expect(day.locator('td[data-step="paid"]')).toHaveText('10 of 30 (33 %)');
  await expect(day.locator('td[data-step="credentials"]')).toHaveText('fewer than 5');
  await expect(page.locator('tr[data-period="2026-11-26"] td[data-step="paid"]')).toHaveText('5 of 20 (25 %)');
  await expect(page.getByRole('columnheader', { name: 'Paid', exact: true })).toBeVisible();

  await selectNamed(page, 'By').selectOption('week');
  await expect(page.locator('tr[data-period="2026-11-23"] td[data-step="credentials"]')).toHaveText('12 of 50 (24 %)');
  await expect(page.locator('tr[data-period]')).toHaveCount(1);

  // The locales and gateways the shop's traffic has are the choices.
  await expect(selectNamed(page, 'Gateway').locator('option')).toHaveText(['all gateways', 'none chosen yet', 'sandbox']);
  await selectNamed(page, 'Locale').selectOption('de-de');
  await expect(page.locator('tr[data-period="2026-11-27"] td[data-step="paid"]')).toHaveText('6 of 12 (50 %)');
  const { from, to } = lastDays(7);
  expect(asked.at(-1)!.url).toBe(`/flowStats?from=${from}&to=${to}&by=week&locale=de-de`);
  await selectNamed(page, 'Gateway').selectOption({ label: 'none chosen yet' });
  await expect.poll(() => asked.at(-1)!.url).toBe(`/flowStats?from=${from}&to=${to}&by=week&locale=de-de&gateway=`);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${scheme}: ${id} at ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});

test('no traffic yet, a shop that refuses the studio, no shop at all, and a static copy each say so plainly', async ({ page }) => {
  mode = 'empty';
  await showTraffic(page, 'last 7 days');
  await expect(page.getByText(/^No traffic yet for this machine between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d\.$/)).toBeVisible();
  await page.goto(`${studio.url}#/funnel`);
  await expect(page.getByText(/^No traffic yet between/)).toBeVisible();

  mode = 'refuse';
  await showTraffic(page, 'last 30 days');
  await expect(page.getByRole('alert')).toContainText(`The shop at ${listenerUrl} refused the studio (HTTP 401)`);
  await expect(page.getByRole('alert')).toContainText('OPS_TOKEN');

  // A port that was free a moment ago: nothing listens there now.
  const gone = createServer();
  await new Promise<void>((ready) => gone.listen(0, '127.0.0.1', ready));
  const goneUrl = `http://127.0.0.1:${(gone.address() as { port: number }).port}`;
  await new Promise<void>((done) => gone.close(() => done()));
  const nowhere = await startStudioServer({ root: STUDIO_ROOT, port: 0, stats: { url: goneUrl } });
  const staticCopy = await startStudioServer({ root: STUDIO_ROOT, port: 0, stats: null });
  try {
    await page.goto(`${nowhere.url}#/machine/checkout`);
    await selectNamed(page, 'Traffic').selectOption({ label: 'last 7 days' });
    await expect(page.getByRole('alert')).toContainText(`No shop answers at ${goneUrl}. Start the shop with npm start`);
    await expect(page.getByRole('alert')).toContainText('npm run studio -- --stats URL');
    await page.goto(`${staticCopy.url}#/funnel`);
    await expect(page.getByRole('alert')).toHaveText("Traffic needs the studio's own server: run npm run studio (a static copy of the studio cannot ask a shop for its traffic).");
  } finally {
    await nowhere.close();
    await staticCopy.close();
  }
});

test('axe-core finds no violation on a machine with its traffic painted, light and dark', async ({ page }) => {
  await showTraffic(page, 'last 7 days');
  await expect(page.locator('svg[data-machine="checkout"] .traffic-count').first()).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${scheme}: ${id} at ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});
