/**
 * The shopper measure in the bench's run (scripts/bench/run.ts): the servers, the orders the waiting and
 * success pages need, the interleaved runs, the index's load profile, and the report's rows and notes.
 */
import { join } from 'node:path';
import type { BuildAnalysis } from './bundle';
import { budgetText, type BudgetId } from './lib/budgets';
import { request, startServer, type ServerHandle } from './lib/proc';
import { markdownTable, type Row } from './lib/report';
import { ms } from './lib/stats';
import { orderForWaitingPage } from './saved-payment';
import { chooseAndType, CPU_SLOWDOWN, measureShopperPages, NETWORK, profileLoad, type InpPhases, type ShopperPage, type ShopperRun, type ShopperSummary } from './shopper';
import type { ProfileSummary } from './start';

export const SHOPPER = '2b. What a shopper feels (Playwright, web-vitals, 4× CPU)';
/** TBT may be at most this many times the floor app's in the same rounds. */
const TBT_FLOOR_FACTOR = 1.5;

export interface ShopperResult {
  summaries: Record<string, ShopperSummary>;
  profile: ProfileSummary | null;
  orders: string;
}

/** Pays an order's sandbox link as the shopper would on the provider's page; its webhook makes the service active. */
async function payOnSandbox(base: string, link: string): Promise<void> {
  const path = `${base}${new URL(link).pathname}`;
  const page = await request(path);
  if (page.status !== 200) throw new Error(`sandbox page answered ${page.status}`);
  const paid = await request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=pay' });
  if (paid.status >= 400) throw new Error(`sandbox pay answered ${paid.status}`);
}

export async function measureShopper(options: {
  app: BuildAnalysis | null; floor: BuildAnalysis | null; entry: string[]; dataRoot: string; workDir: string; runs: number; log: (line: string) => void;
}): Promise<ShopperResult> {
  const { app, floor, entry, dataRoot, workDir, runs, log } = options;
  const servers: ServerHandle[] = [];
  try {
    const pages: ShopperPage[] = [];
    let orders = '';
    let appBase: string | null = null;
    if (app) {
      const server = await startServer({ entry, dataDir: join(dataRoot, 'shopper-app'), logFile: join(workDir, 'shopper-app-server.log'), distDir: app.outDir });
      servers.push(server);
      appBase = server.base;
      pages.push({ label: 'index', url: `${server.base}/checkout/`, interaction: chooseAndType, interactionText: 'choose the second plan, toggle the first add-on, type an e-mail (19 keys, 40 ms apart)' });
    }
    if (floor) {
      const server = await startServer({ entry, dataDir: join(dataRoot, 'shopper-floor'), logFile: join(workDir, 'shopper-floor-server.log'), distDir: floor.outDir });
      servers.push(server);
      pages.push({ label: 'floor', url: `${server.base}/checkout/` });
    }
    if (appBase) {
      const waiting = await orderForWaitingPage(appBase);
      pages.push({ label: 'waiting', url: `${appBase}/checkout/waiting`, cookies: waiting.cookies });
      const paid = await orderForWaitingPage(appBase, Date.now() + 1);
      if (!paid.order.link) throw new Error('the order for the success page has no payment link');
      await payOnSandbox(appBase, paid.order.link);
      const serviceid = paid.order.serviceids[0];
      pages.push({ label: 'success', url: `${appBase}/checkout/success?serviceid=${serviceid}`, cookies: paid.cookies });
      orders = `waiting: order ${waiting.order.orderid} placed, unpaid, its saved payment in the \`checkout\` cookie; success: order ${paid.order.orderid} placed and paid on the sandbox page (service ${serviceid} active), opened by its owner's session`;
    }
    const summaries = await measureShopperPages(pages, runs, log);
    const profile = app && appBase ? await profileLoad(`${appBase}/checkout/`, join(app.outDir, 'assets'), workDir) : null;
    return { summaries, profile, orders };
  } finally {
    for (const server of servers) await server.stop();
  }
}

const budget = (id: BudgetId, within: boolean): Pick<Row, 'budget' | 'within' | 'budgetId'> => ({ budget: budgetText(id), within, budgetId: id });
const none = { budget: '', within: null };
const LCP_BUDGET: Record<string, { id: BudgetId; limitMs: number }> = {
  index: { id: 'shopperIndexLcp', limitMs: 800 }, waiting: { id: 'shopperWaitingLcp', limitMs: 1000 }, success: { id: 'shopperSuccessLcp', limitMs: 1000 },
};

/** Where each run's INP went, as web-vitals attributes it: the interaction, then input delay + handlers + presentation, in ms. */
function inpPhasesText(taken: readonly ShopperRun[]): string {
  const phases = taken.map((run) => run.inpPhases).filter((phases): phases is InpPhases => phases !== null);
  if (!phases.length) return 'no attribution';
  const each = phases.map((phase) => `${phase.type} ${Math.round(phase.inputDelayMs)} + ${Math.round(phase.processingMs)} + ${Math.round(phase.presentationMs)}`);
  return `each run's INP as input delay + event handlers + presentation (ms): ${each.join(', ')}`;
}

/** The report's rows of the shopper measure, and the notes above them (how it was taken, the index's load profile). */
export function shopperReport({ summaries, profile, orders }: ShopperResult): { rows: Row[]; notes: string[] } {
  const rows: Row[] = [];
  const floor = summaries.floor;
  const notes = [
    `Playwright drives Debian's Chromium; the web-vitals library (its attribution build) is in each page before the page's own scripts and reports FCP, LCP, CLS and INP as Chrome's own field data does. Each run is a fresh browser context (empty cache and storage) on Lighthouse's mobile screen (412×823, DPR 1.75, touch), with the CPU slowed ${CPU_SLOWDOWN}× (Emulation.setCPUThrottlingRate) and the network slowed by Chromium's DevTools to Lighthouse's mobile figures (${NETWORK.latencyMs} ms per request, ${NETWORK.downloadKbps / 1024} Mbps down). Lighthouse's navigation mode cannot tap or type, so INP is taken here. A run loads the page, waits until the app has taken it over (its early-input capture ended) and then no long task has begun for 1 s (its start-up done), then does the page's interaction; TBT is the long tasks (PerformanceObserver 'longtask') from FCP until then, each counted beyond 50 ms. The pages are interleaved round by round with the floor app; each figure is the median over the runs, LCP − FCP the median of each run's own difference. ${orders}.`,
  ];
  for (const [label, summary] of Object.entries(summaries)) {
    const runs = (read: (run: ShopperSummary['runs'][number]) => number | null) => summary.runs.map((run) => { const value = read(run); return value === null ? '—' : String(Math.round(value)); }).join(', ');
    const page = `${label} ${new URL(summary.url).pathname}`;
    const lcp = LCP_BUDGET[label];
    const beside = (text: string) => (label !== 'floor' && floor ? `; floor app in the same rounds: ${text}` : '');
    rows.push({ section: SHOPPER, measure: `${page}: LCP`, value: ms(summary.median.lcpMs), ...(lcp ? budget(lcp.id, summary.median.lcpMs <= lcp.limitMs) : none), how: `runs: ${runs((run) => run.lcpMs)} ms; FCP ${ms(summary.median.fcpMs)}; largest paint: ${[...new Set(summary.runs.map((run) => run.lcpTarget).filter(Boolean))].join(' or ') || 'none'}${beside(ms(floor?.median.lcpMs ?? Number.NaN))}` });
    rows.push({ section: SHOPPER, measure: `${page}: LCP − FCP`, value: ms(summary.lcpMinusFcpMs), ...(lcp ? budget('shopperLcpMinusFcp', summary.lcpMinusFcpMs <= 100) : none), how: `runs: ${runs((run) => run.lcpMs - run.fcpMs)} ms${beside(ms(floor?.lcpMinusFcpMs ?? Number.NaN))}` });
    const withinFloor = !floor || label === 'floor' || summary.median.tbtMs <= TBT_FLOOR_FACTOR * floor.median.tbtMs;
    rows.push({
      section: SHOPPER, measure: `${page}: TBT`, value: ms(summary.median.tbtMs), ...(lcp ? budget('shopperTbt', summary.median.tbtMs <= 50 && withinFloor) : none),
      how: `runs: ${runs((run) => run.tbtMs)} ms (long tasks: ${runs((run) => run.longTasks)})${beside(`${ms(floor?.median.tbtMs ?? Number.NaN)}, so ${floor && floor.median.tbtMs > 0 ? (summary.median.tbtMs / floor.median.tbtMs).toFixed(2) : 'n/a'}× the floor's (≤ ${TBT_FLOOR_FACTOR}×)`)}`,
    });
    rows.push({ section: SHOPPER, measure: `${page}: CLS`, value: summary.median.cls.toFixed(3), ...(lcp ? budget('shopperCls', Number(summary.median.cls.toFixed(3)) === 0) : none), how: `runs: ${summary.runs.map((run) => run.cls.toFixed(3)).join(', ')}` });
    if (summary.interactionText) {
      const inp = summary.median.inpMs;
      rows.push({
        section: SHOPPER, measure: `${page}: INP`, value: inp === null ? 'under 16 ms' : ms(inp), ...budget('shopperInp', inp === null || inp <= 100),
        how: `${summary.interactionText}, once the page settled; runs: ${runs((run) => run.inpMs)} ms ('—': no interaction reached the Event Timing API's 16 ms floor); slowest target: ${summary.runs.map((run) => run.inpTarget).filter(Boolean)[0] ?? 'none'}; ${inpPhasesText(summary.runs)}`,
      });
    }
  }
  if (profile) {
    notes.push(`Where the index's start-up main-thread work goes: V8's sampling profiler (100 µs) in Chromium over one more load of the index under the same slowdowns, from before the navigation until it settled (${ms(profile.totalMs)} profiled; \`${profile.file}\`), the bundle's frames pointed back at their sources through the build's source maps. Self time by package or folder:\n\n${markdownTable(['where', 'self time'], profile.byOwner.slice(0, 14).map((entry) => [entry.owner, ms(entry.selfMs)]))}\n\nFunctions with the most self time:\n\n${markdownTable(['function', 'where', 'self time'], profile.topFunctions.slice(0, 12).map((entry) => [entry.name, entry.where.replace(/^http:\/\/[^/]+/, ''), ms(entry.selfMs)]))}`);
  }
  return { rows, notes };
}
