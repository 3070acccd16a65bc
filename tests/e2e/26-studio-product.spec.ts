/**
 * The flow studio read by a product owner (issue 29, item 5): at "fit" on a 1280 × 800 window every label of every part
 * of every machine's product view reads at 12 px or more and names no guard or action; the overview fits 1280 px; a
 * scenario's step names the regions of its states; a diagram downloads as a standalone SVG and prints.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { StudioServer } from '../../scripts/studio/serve';
import { buildAndServeStudio, identifiersOf, studioIndex, studioMachine } from './support/studio';

let studio: StudioServer;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  studio = await buildAndServeStudio();
});

test.afterAll(async () => {
  await studio?.close();
});

interface Label {
  text: string;
  px: number;
}

/** Each text of the diagram with its size on screen: its computed font size times the scale the SVG draws it at. */
const screenLabels = (page: Page) =>
  page.locator('svg.diagram-svg text').evaluateAll((texts) =>
    texts.map((text) => {
      const ctm = (text as SVGTextElement).getScreenCTM()!;
      return { text: text.textContent ?? '', px: Number.parseFloat(getComputedStyle(text).fontSize) * Math.hypot(ctm.a, ctm.b) };
    }),
  );

/** Whether the drawing lies wholly inside the diagram's frame. */
const drawnWhole = (page: Page) =>
  page.locator('svg.diagram-svg').evaluate((svg) => {
    const frame = svg.getBoundingClientRect();
    const drawing = svg.querySelector('.machine-root rect')!.getBoundingClientRect();
    return drawing.left >= frame.left - 1 && drawing.top >= frame.top - 1 && drawing.right <= frame.right + 1 && drawing.bottom <= frame.bottom + 1;
  });

test('every part of every machine, product view at fit on 1280 × 800: labels of 12 px or more, no guard or action named, the part drawn whole', async ({ page }) => {
  test.setTimeout(180_000);
  for (const { name } of studioIndex().machines) {
    const data = studioMachine(name);
    const identifiers = identifiersOf(data);
    expect(identifiers.length, `${name} has guards or actions to hide`).toBeGreaterThan(0);
    for (const view of data.views) {
      await page.goto(`${studio.url}#/machine/${name}?part=${encodeURIComponent(view.id)}`);
      await expect(page.getByRole('button', { name: 'Product view' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.locator('svg.diagram-svg .state-node')).toHaveCount(view.nodes.length);
      await page.getByRole('button', { name: 'Fit' }).click();
      const labels: Label[] = await screenLabels(page);
      expect(labels.length).toBeGreaterThan(view.nodes.length);
      const small = labels.filter((label) => label.px < 12).map((label) => `${label.text} (${label.px.toFixed(1)} px)`);
      expect(small, `${name} › ${view.id}: labels under 12 px`).toEqual([]);
      const named = labels.filter((label) => identifiers.some((identifier) => new RegExp(`\\b${identifier}\\b`).test(label.text))).map((label) => label.text);
      expect(named, `${name} › ${view.id}: labels naming a guard or an action`).toEqual([]);
      expect(await drawnWhole(page), `${name} › ${view.id} drawn whole at fit`).toBe(true);
    }
  }
});

test('the checkout is drawn region by region: the email region is a part of its own, a shut box opens it from the keyboard', async ({ page }) => {
  await page.goto(`${studio.url}#/machine/checkout`);
  const parts = page.getByRole('navigation', { name: 'Parts of the diagram' });
  await expect(parts.getByRole('button', { name: /email/ })).toBeVisible();
  // The ready state holds the regions (plan, add-ons, promo, e-mail, gateway): shut in the whole flow.
  const ready = page.locator('svg.diagram-svg [data-state-id="checkout.ready"]');
  await expect(ready).toHaveClass(/state-collapsed/);
  await ready.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/part=checkout\.ready$/);
  await expect(page.locator('svg.diagram-svg [data-state-id="checkout.ready.email"]')).toBeVisible();
  await parts.getByRole('button', { name: /email/ }).click();
  for (const state of ['empty', 'invalid', 'valid']) await expect(page.locator(`svg.diagram-svg [data-state-id="checkout.ready.email.${state}"]`)).toBeVisible();
  // The engineer view keeps every state and the identifiers.
  await page.getByRole('button', { name: 'Engineer view' }).click();
  await expect(page).toHaveURL(/view=engineer/);
  await expect(page.locator('svg.diagram-svg .state-node')).toHaveCount(48);
});

test('the overview fits a 1280 px window without sideways scrolling', async ({ page }) => {
  await page.goto(`${studio.url}#/`);
  await expect(page.locator('table.figures tbody tr')).toHaveCount(studioIndex().machines.length);
  await expect(page.getByText('…')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
});

test('a scenario step names the region of each state: the checkout shows its e-mail region by name', async ({ page }) => {
  const data = studioMachine('checkout');
  const scenario = data.scenarios.find((candidate) => candidate.steps.some((step) => step.active.includes('checkout.ready.email')))!;
  const step = scenario.steps.findIndex((candidate) => candidate.active.includes('checkout.ready.email'));
  await page.goto(`${studio.url}#/machine/checkout/scenario/${scenario.number}`);
  for (let press = 0; press < step; press++) await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.locator('.stepper').getByText(/^In:/)).toContainText(/\bemail: (deciding|empty|required|invalid|valid)\b/);
});

test('a shut box is the current step when a state inside it is: the waiting page\'s watching state', async ({ page }) => {
  const data = studioMachine('waiting');
  const watching = data.states.find((state) => state.key === 'watching')!;
  const scenario = data.scenarios.find((candidate) => candidate.steps[0]!.active.includes(watching.id))!;
  await page.goto(`${studio.url}#/machine/waiting/scenario/${scenario.number}`);
  const box = page.locator(`svg.diagram-svg [data-state-id="${watching.id}"]`);
  await expect(box).toHaveClass(/state-collapsed/);
  await expect(box).toHaveClass(/\bactive\b/);
});

test('a diagram downloads as a standalone SVG with its styles inline and its states named; print shows the diagram and its words only', async ({ page }) => {
  await page.goto(`${studio.url}#/machine/placeOrder?view=engineer`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
  expect(download.suggestedFilename()).toBe('placeOrder-engineer.svg');
  const svg = readFileSync((await download.path())!, 'utf8');
  const parsed = await page.evaluate((text) => {
    const document = new DOMParser().parseFromString(text, 'image/svg+xml');
    const texts = [...document.querySelectorAll('text')];
    return {
      errors: document.getElementsByTagName('parsererror').length,
      root: document.documentElement.localName,
      namespace: document.documentElement.namespaceURI,
      texts: texts.map((text) => text.textContent),
      styled: texts.every((text) => /font-size:\s*\d/.test(text.getAttribute('style') ?? '')),
      classes: document.querySelectorAll('[class]').length,
    };
  }, svg);
  expect(parsed).toMatchObject({ errors: 0, root: 'svg', namespace: 'http://www.w3.org/2000/svg', styled: true, classes: 0 });
  for (const state of studioMachine('placeOrder').states.filter((candidate) => candidate.parent !== null)) expect(parsed.texts).toContain(state.key);

  await page.goto(`${studio.url}#/machine/checkout?part=checkout.ready.email`);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Studio' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  const printed = page.locator('svg.print-diagram');
  await expect(printed).toBeVisible();
  expect((await printed.boundingBox())!.width).toBeGreaterThan(1000);
  await expect(page.getByRole('heading', { name: 'In words: email' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(printed).toBeHidden();
});
