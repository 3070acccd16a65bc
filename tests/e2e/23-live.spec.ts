/**
 * The live view (issue 18 item 5): the checkout built with INSPECT=on and the flow studio's server,
 * both on this machine; a click in the app highlights the machine's state in the studio and the
 * studio's log shows the event — and nothing the shopper typed. Then the server's own API reference
 * (/checkout/api/docs, demo mode) renders every operation under its page's CSP (Redoc's telemetry built off).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort } from '../../scripts/lib/free-port';
import { startStudioServer, type StudioServer } from '../../scripts/studio/serve';
import { INSPECTION_MARKER } from '../../src/app/inspect/live-protocol';
import { buildSpaIfStale, startServer, stop, type Started } from './support/global-setup';
import { expect, test, uniqueEmail } from './support/fixtures';
import { contractOperationIds, listedOperations } from './support/api-reference';

const ROOT = resolve(import.meta.dirname, '../..');
const LIVE_DIST = join(ROOT, 'build', 'e2e-live-dist');

let studio: StudioServer;
let app: Started;
let work: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  work = mkdtempSync(join(tmpdir(), 'tvc-live-'));
  const studioPort = await freePort();
  // The app built to talk to a studio on that port (the live URL is a build-time constant).
  buildSpaIfStale(LIVE_DIST, { INSPECT: 'on', STUDIO_PORT: String(studioPort) });
  const built = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import('./scripts/studio/build.ts').then((m) => m.buildStudio(${JSON.stringify(join(work, 'studio'))}))`], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, `studio build failed:\n${built.stdout}\n${built.stderr}`).toBe(0);
  studio = await startStudioServer({ root: join(work, 'studio'), port: studioPort });
  app = await startServer(join(work, 'data'), join(work, 'server.log'), { DIST_DIR: LIVE_DIST });
});

test.afterAll(async () => {
  if (app) await stop(app.child);
  await studio?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the INSPECT=on build carries the inspection hook and names the studio it talks to', () => {
  expect(JSON.parse(readFileSync(join(LIVE_DIST, 'inspect.json'), 'utf8'))).toEqual({ mode: 'on', live: `ws://localhost:${new URL(studio.url).port}/live` });
  const chunks = readdirSync(join(LIVE_DIST, 'assets')).filter((file) => file.endsWith('.js'));
  expect(chunks.filter((file) => readFileSync(join(LIVE_DIST, 'assets', file), 'utf8').includes(INSPECTION_MARKER))).toHaveLength(1);
});

test('a click in the app highlights the checkout state in the studio and logs the event, with no personal data', async ({ browser }) => {
  // Both pages closed at the end: an open live socket would keep the studio's server from closing.
  const studioContext = await browser.newContext();
  const shopperContext = await browser.newContext({ baseURL: app.baseUrl, locale: 'en-US' });
  try {
    const studioPage = await studioContext.newPage();
    await studioPage.goto(`${studio.url}#/machine/checkout`);
    const diagram = studioPage.locator('svg[data-machine="checkout"]');
    await expect(diagram.locator('.state-node').first()).toBeVisible();
    const log = studioPage.locator('.live-log');

    const shopper = await shopperContext.newPage();
    await shopper.goto('/checkout/');
    const plans = shopper.getByRole('radio');
    await expect(plans.first()).toBeVisible();
    // The running checkout is shown as soon as it starts.
    await expect(diagram.locator('[data-state-id].live').first()).toBeAttached();
    await expect(log).not.toContainText('plan.select');

    const email = uniqueEmail('live');
    await shopper.getByRole('textbox', { name: 'E-mail' }).fill(email);
    const count = await plans.count();
    let other = 0;
    while (other < count && (await plans.nth(other).isChecked())) other++;
    await plans.nth(other).check();
    await expect(log).toContainText('checkout ← plan.select');
    await expect(log).toContainText('checkout: plan.select →');
    await expect(diagram.locator('[data-state-id="checkout.ready"].live')).toBeAttached();
    // Event types and states only: the address typed never reaches the studio.
    await expect(log).toContainText('email.change');
    expect(await studioPage.locator('body').innerText()).not.toContain(email);
    expect(await studioPage.locator('body').innerText()).not.toContain(email.split('@')[0]!);
  } finally {
    await studioContext.close();
    await shopperContext.close();
  }
});

test('the server\'s API reference (/checkout/api/docs, demo) renders every operation under its own CSP', async ({ page }) => {
  const docs = join(ROOT, 'build', 'api-docs.html');
  // As npm run build writes it (package.json build:api-docs), when it is missing or older than the contract.
  if (!existsSync(docs) || statSync(docs).mtimeMs < statSync(join(ROOT, 'openapi.yaml')).mtimeMs || !readFileSync(docs, 'utf8').includes('"disableTelemetry":true')) {
    const build = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['build-docs', 'openapi.yaml', '--inlineBundle', '-o', docs], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
    expect(build.status, build.stderr).toBe(0);
  }
  const refused = watchCsp(page);
  await page.goto(`${app.baseUrl}/checkout/api/docs`);
  expect(await listedOperations(page)).toEqual(contractOperationIds());
  // Every script, style, font and worker of the page runs, and it sends nothing out (telemetry built off); the one
  // thing its CSP refuses is Redoc's "powered by" logo from a CDN (img-src).
  expect(refused.filter((text) => /(script|style|font|worker|connect)-src/.test(text))).toEqual([]);
});

/** Console reports of anything the page's Content Security Policy refused. */
function watchCsp(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}
