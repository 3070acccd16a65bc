/**
 * The flow studio (issue 18), built and served as static files on a free port, opened with no
 * network beyond localhost: every machine's diagram has one node per state, its edges are painted
 * as `npm run paths -- --json` counts them, a scenario steps through on the diagram, and the API
 * reference lists every operation of openapi.yaml.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SCREENS_DIR } from '../../scripts/statecharts/coverage-files';
import { startStudioServer, type StudioServer } from '../../scripts/studio/serve';
import { buildStudioOnce } from './support/studio';
import { contractOperationIds, listedOperations } from './support/api-reference';

const ROOT = resolve(import.meta.dirname, '../..');

interface Figures {
  machine: string;
  states: number;
  transitions: { walked: number; total: number };
}

let studio: StudioServer;
let figures: Figures[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  buildStudioOnce();
  const paths = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/statecharts/paths.ts', '--json'], { cwd: ROOT, encoding: 'utf8' });
  figures = JSON.parse(paths.stdout) as Figures[];
  expect(figures.length).toBeGreaterThan(0);
  studio = await startStudioServer({ root: join(ROOT, 'build', 'studio'), port: 0 });
});

test.afterAll(async () => {
  await studio?.close();
});

/** Every request the page makes; the test fails on any that leaves localhost. */
function watchRequests(page: Page): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') outside.push(request.url());
  });
  return outside;
}

test('each machine: one state node per state, edges painted walked as npm run paths counts them', async ({ page }) => {
  const outside = watchRequests(page);
  for (const machine of figures) {
    await page.goto(`${studio.url}#/machine/${machine.machine}?view=engineer`);
    const diagram = page.locator(`svg[data-machine="${machine.machine}"]`);
    await expect(diagram.locator('.state-node')).toHaveCount(machine.states);
    await expect(page.getByLabel('Coverage layer')).toHaveValue('machine-tests');
    await expect(diagram.locator('[data-transition-id]')).toHaveCount(machine.transitions.total);
    await expect(diagram.locator('[data-transition-id].covered')).toHaveCount(machine.transitions.walked);
    await expect(diagram.locator('[data-transition-id].not-covered')).toHaveCount(machine.transitions.total - machine.transitions.walked);
  }
  expect(outside).toEqual([]);
});

test('a scenario found by its state steps through on the diagram: Next and Previous move the current states', async ({ page }) => {
  const outside = watchRequests(page);
  // "Every path that shows credentials": the waiting chart's success state.
  await page.goto(`${studio.url}#/scenarios`);
  await page.getByLabel('Machine').selectOption('waiting');
  await page.getByLabel('Passes through state').selectOption('success');
  const results = page.locator('.scenario-results a');
  await expect(results.first()).toBeVisible();
  await results.first().click();
  await expect(page).toHaveURL(/#\/machine\/waiting\/scenario\/\d+$/);

  const diagram = page.locator('svg[data-machine="waiting"]');
  const activeIds = () => diagram.locator('.state-node.active').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state-id')).sort().join(' '));
  await expect(diagram.locator('.state-node.active').first()).toBeAttached();
  const atStart = await activeIds();
  await expect(page.getByText(/^Step 0 of \d+/)).toBeVisible();

  const next = page.getByRole('button', { name: 'Next', exact: true });
  await next.click();
  await expect(page.getByText(/^Step 1 of \d+/)).toBeVisible();
  // What the app showed at that step, as the view walk saved it (npm test runs the walks before the journeys).
  const scenario = Number(/scenario\/(\d+)$/.exec(page.url())![1]);
  if (existsSync(join(SCREENS_DIR, 'waiting', String(scenario), '1.html'))) {
    const screen = page.frameLocator('iframe[title="What the screen showed at step 1"]');
    await expect(screen.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(screen.getByRole('link', { name: 'TV Checkout, home' })).toBeVisible();
  } else {
    await expect(page.getByText('No screen saved for this step (the view walks save none for it).')).toBeVisible();
  }
  const afterOne = await activeIds();
  expect(afterOne).not.toBe(atStart);
  // On to the success state the path was chosen for.
  const success = diagram.locator('[data-state-id="waitingSuccess"]');
  while (!(await success.evaluate((node) => node.classList.contains('active'))) && (await next.isEnabled())) await next.click();
  await expect(success).toHaveClass(/\bactive\b/);
  await expect(page.locator('.context-table tr').first()).toBeVisible();

  // The keys step too: p goes back one.
  const atEnd = await activeIds();
  await page.locator('body').press('p');
  await expect.poll(activeIds).not.toBe(atEnd);
  expect(outside).toEqual([]);
});

test('the diagram zooms and pans by wheel, drag and keys; the keyboard reaches a state and Enter shows its transitions', async ({ page }) => {
  await page.goto(`${studio.url}#/machine/placeOrder?view=engineer`);
  const view = page.locator('svg[data-machine="placeOrder"] > g');
  const transform = async () => {
    const [, x, y, k] = /translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)/.exec((await view.getAttribute('transform')) ?? '')!;
    return { x: Number(x), y: Number(y), k: Number(k) };
  };
  const start = await transform();
  await page.locator('.diagram-viewport').focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await transform()).x).toBeGreaterThan(start.x);
  await page.keyboard.press('+');
  await expect.poll(async () => (await transform()).k).toBeGreaterThan(start.k);
  const zoomed = await transform();
  const box = (await page.locator('svg[data-machine="placeOrder"]').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 200);
  await expect.poll(async () => (await transform()).k).toBeLessThan(zoomed.k);
  const wheeled = await transform();
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 30, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await transform()).x).toBeCloseTo(wheeled.x + 80, 0);
  await page.getByRole('button', { name: 'Fit' }).click();

  const first = page.locator('svg[data-machine="placeOrder"] .state-node[tabindex="0"]');
  await expect(first).toHaveCount(1);
  await first.focus();
  await page.keyboard.press('ArrowDown');
  const second = page.locator('svg[data-machine="placeOrder"] .state-node[tabindex="0"]');
  const id = await second.getAttribute('data-state-id');
  await expect(second).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: `State ${id}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Transitions out/ })).toBeVisible();
});

test('the API reference lists every operation of openapi.yaml, offline', async ({ page }) => {
  const outside = watchRequests(page);
  await page.goto(studio.url);
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/api\.html/);
  await expect(page.getByRole('heading', { level: 1, name: /TV Checkout API/ })).toBeVisible();
  // Each tag of the menu opens to its operations (one tag open at a time); each operation's link ends in its operationId.
  expect(await listedOperations(page)).toEqual(contractOperationIds());
  expect(outside).toEqual([]);
});

test('axe-core finds no violation on the studio\'s pages, light and dark; the Live panel says how to see the app live', async ({ page }) => {
  for (const screen of ['#/', '#/machine/waiting/scenario/14', '#/scenarios', '#/live']) {
    await page.goto(`${studio.url}${screen}`);
    await expect(page.getByRole('navigation', { name: 'Studio' })).toBeVisible();
    if (screen.includes('machine')) {
      await page.locator('.state-node[tabindex="0"]').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: /^Transitions out/ })).toBeVisible();
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map(({ id, nodes }) => `${scheme} ${screen}: ${id} at ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await expect(page.getByText('Start the app with INSPECT=on to see it live')).toBeVisible();
});
