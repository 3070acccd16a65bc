/**
 * Measure 2b: what a shopper feels, per page, in Debian's Chromium driven by Playwright with the web-vitals
 * library in the page: LCP, FCP, CLS and INP as web-vitals reports them, TBT from the page's long tasks, on a
 * 4× slowed CPU and Lighthouse's mobile network (150 ms RTT, 1.6 Mbps) applied by Chromium's DevTools.
 * Lighthouse's navigation mode cannot type or tap, so INP is measured here; the pages are interleaved with
 * the floor app round by round, as Lighthouse's runs are.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EARLY_INPUT_GLOBAL } from '../../src/domain/page-scripts';
import { CHROME_ARGS } from '../../tests/e2e/support/chromium';
import type { BrowserCookie } from './lighthouse';
import { chromePath } from './lib/machine';
import { median, medianOfDifferences } from './lib/stats';
import { resolveBundleFrames, summariseProfile, type CpuProfile, type ProfileSummary } from './start';

export const CPU_SLOWDOWN = 4;
/** Lighthouse's mobile network (its simulated throttling's figures), applied for real by Chromium's DevTools. */
export const NETWORK = { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 750 };
/** Lighthouse's mobile screen (Moto G Power). */
const MOBILE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** A long task blocks the page for what it lasts beyond this (the definition of TBT). */
const BLOCKING_MS = 50;
/** The page is taken as settled once no long task has begun for this long (its start-up work done). */
const QUIET_MS = 1000;
const SETTLE_LIMIT_MS = 15_000;
const WEB_VITALS = fileURLToPath(new URL('../../node_modules/web-vitals/dist/web-vitals.attribution.iife.js', import.meta.url));

/** What a shopper does on a page once it has settled, measured as INP; pages without one are only loaded. */
export type Interaction = (page: Page) => Promise<void>;

/** The index's scripted interaction: choose the second plan, toggle the first add-on, type an e-mail. */
export const chooseAndType: Interaction = async (page) => {
  await page.locator('input[name="plan"]').nth(1).click();
  await page.getByRole('switch').first().click();
  await page.locator('input[name="email"]').pressSequentially('shopper@example.com', { delay: 40 });
};

export interface ShopperPage {
  label: string;
  url: string;
  cookies?: BrowserCookie[];
  interaction?: Interaction;
  /** What the interaction is, for the report. */
  interactionText?: string;
}

export interface ShopperRun {
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** null when the page had no interaction, or none reached the Event Timing API's 16 ms floor. */
  inpMs: number | null;
  inpTarget: string;
  /** Where the INP interaction's time went (web-vitals' attribution): its kind, and the wait, the handlers and the paint after them. */
  inpPhases: InpPhases | null;
  /** The element of the largest paint, as web-vitals' attribution names it. */
  lcpTarget: string;
  longTasks: number;
}

export interface ShopperSummary {
  url: string;
  interactionText: string;
  runs: ShopperRun[];
  median: { fcpMs: number; lcpMs: number; cls: number; tbtMs: number; inpMs: number | null };
  lcpMinusFcpMs: number;
}

export interface InpPhases {
  type: string;
  inputDelayMs: number;
  processingMs: number;
  presentationMs: number;
}

interface PageVitals {
  fcp: number | null;
  lcp: number | null;
  lcpTarget: string;
  cls: number;
  inp: number | null;
  inpTarget: string;
  inpPhases: InpPhases | null;
  longTasks: { start: number; duration: number }[];
}

/**
 * Runs in the page before its own scripts: web-vitals' callbacks and the long tasks go into one object.
 * A string, not a function: tsx's compiled functions call helpers that do not exist in the page.
 */
const COLLECT_LONG_TASKS = `(() => {
  const vitals = { fcp: null, lcp: null, lcpTarget: '', cls: 0, inp: null, inpTarget: '', inpPhases: null, longTasks: [] };
  window.benchVitals = vitals;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) vitals.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;
const COLLECT_VITALS = `(() => {
  const vitals = window.benchVitals;
  webVitals.onFCP((metric) => { vitals.fcp = metric.value; });
  webVitals.onLCP((metric) => {
    vitals.lcp = metric.value;
    vitals.lcpTarget = (metric.attribution && metric.attribution.target) || '';
  }, { reportAllChanges: true });
  webVitals.onCLS((metric) => { vitals.cls = metric.value; }, { reportAllChanges: true });
  webVitals.onINP((metric) => {
    vitals.inp = metric.value;
    const attribution = metric.attribution || {};
    vitals.inpTarget = attribution.interactionTarget || '';
    vitals.inpPhases = { type: attribution.interactionType || '', inputDelayMs: attribution.inputDelay, processingMs: attribution.processingDuration, presentationMs: attribution.presentationDelay };
  }, { reportAllChanges: true, durationThreshold: 16 });
})();`;

/**
 * Waits until the app has taken the page over (its early-input capture ended: the module is requested after the first
 * paint, so the load event does not wait for it) and has then begun no long task for QUIET_MS (or SETTLE_LIMIT_MS
 * passed); the time it settled, on the page's clock. Without the first wait, a tap landed mid-hydration and its INP
 * held React's whole hydration, and the start-up's long tasks fell after "settled", out of TBT.
 */
async function settle(page: Page): Promise<number> {
  await page.waitForLoadState('load');
  const startedAt = Date.now();
  await page.waitForFunction((name) => !(name in window), EARLY_INPUT_GLOBAL, { timeout: SETTLE_LIMIT_MS }).catch(() => {});
  for (;;) {
    const { now, lastEnd } = await page.evaluate(() => {
      const tasks = (window as unknown as { benchVitals: PageVitals }).benchVitals.longTasks;
      const last = tasks[tasks.length - 1];
      return { now: performance.now(), lastEnd: last ? last.start + last.duration : 0 };
    });
    if (now - lastEnd >= QUIET_MS || Date.now() - startedAt > SETTLE_LIMIT_MS) return now;
    await page.waitForTimeout(200);
  }
}

/** A fresh context (empty cache and storage) on the mobile screen, with `cookies`, the CPU and network slowed. */
async function openPage(browser: Browser, target: ShopperPage, withVitals = true): Promise<Page> {
  const context = await browser.newContext(MOBILE);
  if (target.cookies?.length) await context.addCookies(target.cookies.map(({ name, value, url, httpOnly }) => ({ name, value, url, httpOnly: httpOnly ?? false })));
  // One script: Playwright runs each in a scope of its own, so the library's global would not reach the next.
  await context.addInitScript(withVitals ? `${COLLECT_LONG_TASKS}\n${readFileSync(WEB_VITALS, 'utf8')}\n${COLLECT_VITALS}` : COLLECT_LONG_TASKS);
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await devtools.send('Network.enable');
  await devtools.send('Network.emulateNetworkConditions', {
    offline: false, latency: NETWORK.latencyMs, downloadThroughput: (NETWORK.downloadKbps * 1024) / 8, uploadThroughput: (NETWORK.uploadKbps * 1024) / 8,
  });
  return page;
}

/** One load of a page (and its interaction, once the page settled). */
async function runOnce(browser: Browser, target: ShopperPage): Promise<ShopperRun> {
  const page = await openPage(browser, target);
  try {
    await page.goto(target.url, { waitUntil: 'commit' });
    const settledAt = await settle(page);
    if (target.interaction) {
      await target.interaction(page);
      // Event Timing reports an interaction after its next paint; web-vitals then calls back.
      await page.waitForTimeout(500);
    }
    const vitals = await page.evaluate(() => (window as unknown as { benchVitals: PageVitals }).benchVitals);
    const fcp = vitals.fcp ?? Number.NaN;
    const blocking = vitals.longTasks.filter((task) => task.start >= fcp && task.start < settledAt);
    return {
      fcpMs: fcp, lcpMs: vitals.lcp ?? Number.NaN, cls: vitals.cls,
      tbtMs: blocking.reduce((sum, task) => sum + Math.max(0, task.duration - BLOCKING_MS), 0),
      inpMs: target.interaction ? vitals.inp : null, inpTarget: vitals.inpTarget, inpPhases: target.interaction ? vitals.inpPhases : null, lcpTarget: vitals.lcpTarget, longTasks: blocking.length,
    };
  } finally {
    await page.context().close();
  }
}

const launch = () => {
  if (!existsSync(chromePath())) throw new Error(`no Chromium at ${chromePath()}: apt-get install -y chromium, or set CHROME_PATH`);
  return chromium.launch({ executablePath: chromePath(), args: CHROME_ARGS, headless: true });
};

/** Each page `runs` times, interleaved round by round (a, b, c, a, b, c, …), each run in a fresh context. */
export async function measureShopperPages(pages: readonly ShopperPage[], runs: number, log: (line: string) => void = () => {}): Promise<Record<string, ShopperSummary>> {
  const browser = await launch();
  const results = new Map<string, ShopperRun[]>(pages.map((page) => [page.label, []]));
  try {
    for (let round = 0; round < runs; round += 1) {
      for (const page of pages) {
        const run = await runOnce(browser, page);
        results.get(page.label)?.push(run);
        log(`  run ${round + 1}/${runs} ${page.label}: LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms${run.inpMs === null ? '' : `, INP ${Math.round(run.inpMs)} ms`}`);
      }
    }
  } finally {
    await browser.close();
  }
  return Object.fromEntries(pages.map((page) => {
    const taken = results.get(page.label) ?? [];
    const inps = taken.map((run) => run.inpMs).filter((value): value is number => value !== null);
    return [page.label, {
      url: page.url,
      interactionText: page.interactionText ?? '',
      runs: taken,
      median: {
        fcpMs: median(taken.map((run) => run.fcpMs)), lcpMs: median(taken.map((run) => run.lcpMs)), cls: median(taken.map((run) => run.cls)),
        tbtMs: median(taken.map((run) => run.tbtMs)), inpMs: page.interaction && inps.length ? median(inps) : null,
      },
      lcpMinusFcpMs: medianOfDifferences(taken.map((run) => run.lcpMs), taken.map((run) => run.fcpMs)),
    } satisfies ShopperSummary];
  }));
}

/**
 * One load of `url` with the CPU and network slowed as above, under V8's sampling profiler (100 µs) from
 * before the navigation until the page settled: where its start-up main-thread work goes, by package or
 * folder and by function, the bundle's frames pointed back at their sources through the build's source maps.
 */
export async function profileLoad(url: string, assetsDir: string, reportDir: string): Promise<ProfileSummary> {
  const browser = await launch();
  try {
    // No web-vitals in this page: the profile holds the page's own work only.
    const page = await openPage(browser, { label: 'profile', url }, false);
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Profiler.enable');
    await devtools.send('Profiler.setSamplingInterval', { interval: 100 });
    await devtools.send('Profiler.start');
    await page.goto(url, { waitUntil: 'commit' });
    await settle(page);
    const { profile } = (await devtools.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    const file = join(reportDir, 'index-load.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const scripts = [...new Set(profile.nodes.map((node) => node.callFrame.url).filter((address) => address.includes('/assets/') && address.endsWith('.js')))];
    const resolved = scripts.reduce((current, address) => resolveBundleFrames(current, join(assetsDir, address.slice(address.lastIndexOf('/') + 1)), address), profile);
    return summariseProfile(resolved, file, 'Chromium main thread');
  } finally {
    await browser.close();
  }
}
