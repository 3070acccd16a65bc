/**
 * What shoppers do, read back as an operator and a product owner read it. A server of its own with FLOW_MIN_COUNT=1
 * and its operator listener on a known port; three shoppers walk it in Chromium — one pays, one leaves on the waiting
 * page, one leaves at the form. GET /flowStats and the studio (its traffic layer and funnel, reading that listener)
 * show those counts; the same store served with the default threshold (5) reads "fewer than 5".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { checkoutMachine } from '../../machines/checkout.machine';
import { shopperContext, walkShopper, type Shopper, type ShopperPath } from '../../scripts/demo/shoppers';
import { freePort } from '../../scripts/lib/free-port';
import type { FlowStats, FunnelStep } from '../../src/domain/flow-traffic';
import { machineTransitions } from '../../src/statecharts/transitions';
import { expect, test } from './support/fixtures';
import { startServer, stop, type Started } from './support/global-setup';
import { buildAndServeStudio } from './support/studio';

test.describe.configure({ mode: 'serial' });

let workDir: string;
let server: Started | null = null;
let opsPort: number;

async function serve(minCount: string | null): Promise<void> {
  if (server) await stop(server.child);
  server = await startServer(join(workDir, 'data'), join(workDir, `server-${minCount ?? 'default'}.log`), {
    OPS_PORT: String(opsPort),
    ...(minCount ? { FLOW_MIN_COUNT: minCount } : {}),
  });
}

async function flowStats(): Promise<FlowStats> {
  const response = await fetch(`http://127.0.0.1:${opsPort}/flowStats`);
  expect(response.status).toBe(200);
  return (await response.json()) as FlowStats;
}

const funnelCount = (stats: FlowStats, step: FunnelStep) => stats.funnel.rows.find((row) => row.step === step)?.count;
const machineStats = (stats: FlowStats, machine: string) => stats.machines.find((entry) => entry.machine === machine);
const transitionCount = (stats: FlowStats, machine: string, label: string) => machineStats(stats, machine)?.transitions.find((entry) => entry.transition === label)?.count;

// The plan choice as the checkout's definition labels it (machines/checkout.form.ts: the plan region's plan.select).
const PLAN_CHOSEN = machineTransitions(checkoutMachine).find((transition) => transition.source === 'checkout.ready.plan.selected' && transition.eventType === 'plan.select')!.label;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  workDir = mkdtempSync(join(tmpdir(), 'tvc-e2e-flow-'));
  opsPort = await freePort();
  await serve('1');
});

test.afterAll(async () => {
  if (server) await stop(server.child);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('three shoppers — one pays, one leaves on the waiting page, one at the form — read back in /flowStats and the studio; with the default threshold, "fewer than 5"', async ({ browser }) => {
  test.setTimeout(240_000);
  const shoppers: Shopper[] = (['pays', 'leaves-on-waiting', 'leaves-at-form'] as ShopperPath[]).map((path, index) => ({
    path,
    locale: 'en-en',
    // The second plan on the page (6 Months): a choice away from the preselected first one, so each shopper takes the plan transition once.
    plan: 1,
    extraConnection: false,
    email: `flow-${index}-${Date.now()}@example.com`,
  }));
  const contexts: BrowserContext[] = [];
  await test.step('the three shoppers walk the shop', async () => {
    for (const shopper of shoppers) {
      const context = await shopperContext(browser, server!.baseUrl, shopper);
      contexts.push(context);
      await walkShopper(context, shopper);
    }
  });

  await test.step('the operator listener counts them: three saw the shop, two ordered, one paid and saw the login details', async () => {
    // The last beacons arrive as the pages are left: read until the third visit is in.
    await expect.poll(async () => funnelCount(await flowStats(), 'index'), { timeout: 20_000 }).toBe(3);
    const stats = await flowStats();
    expect(stats.minCount).toBe(1);
    expect(Object.fromEntries(stats.funnel.rows.map((row) => [row.step, row.count]))).toEqual({ index: 3, order: 2, payment: 2, paid: 1, credentials: 1 });
    expect(machineStats(stats, 'checkout')?.visits).toBe(3);
    expect(machineStats(stats, 'waiting')?.visits).toBe(2);
    expect(transitionCount(stats, 'checkout', PLAN_CHOSEN)).toBe(3);
    // The one who left on the waiting page left with the payment still awaited (machines/waiting.machine.ts: waitingAwaiting).
    expect(machineStats(stats, 'waiting')?.states.find((state) => state.state === 'waitingAwaiting')?.ended).toBe(1);
  });
  for (const context of contexts) await context.close();

  const studio = await buildAndServeStudio({ stats: { url: `http://127.0.0.1:${opsPort}` } });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await test.step("the studio's funnel: one paid of three", async () => {
      await page.goto(`${studio.url}#/funnel`);
      const table = page.getByRole('table');
      await expect(table).toContainText('1 of 3 (33 %)');
      await expect(table).toContainText('2 of 3 (67 %)');
    });
    await test.step("the studio's traffic layer on the checkout: the plan chosen three times", async () => {
      await showTraffic(page, studio.url);
      await expect(page.locator(`svg[data-machine="checkout"] [data-transition-id="${PLAN_CHOSEN}"] .traffic-count`)).toHaveText('3');
    });

    await test.step('the same store with the default threshold (5) reads "fewer than 5" everywhere', async () => {
      await serve(null);
      const stats = await flowStats();
      expect(stats.minCount).toBe(5);
      for (const row of stats.funnel.rows) expect(row.count).toEqual({ fewerThan: 5 });
      expect(transitionCount(stats, 'checkout', PLAN_CHOSEN)).toEqual({ fewerThan: 5 });
      await page.goto(`${studio.url}#/funnel`);
      await expect(page.getByRole('table')).toContainText('fewer than 5');
      await expect(page.getByRole('table')).not.toContainText(' of 3');
      await showTraffic(page, studio.url);
      await expect(page.locator(`svg[data-machine="checkout"] [data-transition-id="${PLAN_CHOSEN}"] .traffic-count`)).toHaveText('fewer than 5');
    });
    await page.close();
  } finally {
    await studio.close();
  }
});

/** The checkout's engineer view (each transition drawn on its own) with the last 7 days of traffic. */
async function showTraffic(page: Page, studioUrl: string): Promise<void> {
  await page.goto(`${studioUrl}#/machine/checkout?view=engineer`);
  await page.getByRole('combobox', { name: /^Traffic\b/ }).selectOption({ label: 'last 7 days' });
}
