/** Measure 2: Lighthouse (mobile defaults, simulated throttling) in Debian's Chromium, median of N runs. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import WebSocket from 'ws';
import { CHROME_ARGS } from '../../tests/e2e/support/chromium';
import { chromePath } from './lib/machine';
import { median, medianOfDifferences } from './lib/stats';

/** The flags Chromium needs on this machine (closed network, root, no GPU); chrome-launcher adds its own defaults. */
export const CHROME_FLAGS = ['--headless', ...CHROME_ARGS];

/** The installed lighthouse package's version. */
export const lighthouseVersion = (): string =>
  (JSON.parse(readFileSync(fileURLToPath(new URL('../../node_modules/lighthouse/package.json', import.meta.url)), 'utf8')) as { version: string }).version;

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  speedIndexMs: number;
}

export interface LighthouseSummary {
  url: string;
  runs: LighthouseFigures[];
  /** Each figure is the median of that figure over the runs. */
  median: LighthouseFigures;
  /** The median of each run's own LCP − FCP (not the difference of the two medians). */
  lcpMinusFcpMs: number;
  benchmarkIndex: number;
  /** Runs taken again after Lighthouse gave up on them. */
  retried: number;
  /** From the run whose performance score is the median one. */
  findings: { category: string; id: string; title: string; display: string; savingsMs: number }[];
  scripts: { url: string; transferSize: number; resourceSize: number }[];
  /** The page's fetch requests in the median run (path and query, status), e.g. the API calls it made. */
  fetches: { path: string; status: number }[];
  lcpElement: string;
  reportFile: string;
}

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type Audit = Result['audits'][string];

const figuresOf = (lhr: Result): LighthouseFigures => ({
  performance: lhr.categories.performance?.score ?? Number.NaN,
  accessibility: lhr.categories.accessibility?.score ?? Number.NaN,
  bestPractices: lhr.categories['best-practices']?.score ?? Number.NaN,
  lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
  cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
  speedIndexMs: lhr.audits['speed-index']?.numericValue ?? Number.NaN,
});

const savingsOf = (audit: Audit): number => {
  const details = audit.details as { overallSavingsMs?: number } | undefined;
  const metric = audit.metricSavings as Record<string, number | undefined> | undefined;
  return Math.max(details?.overallSavingsMs ?? 0, metric?.LCP ?? 0, metric?.FCP ?? 0, metric?.TBT ?? 0);
};

/** What a run says could be better: failing audits of each category, the performance ones by savings. */
function findingsOf(lhr: Result): LighthouseSummary['findings'] {
  const findings: LighthouseSummary['findings'] = [];
  for (const [category, entry] of Object.entries(lhr.categories)) {
    for (const ref of entry.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.group === 'metrics' || audit.score === null || audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'manual') continue;
      const savingsMs = savingsOf(audit);
      // Performance audits count when Lighthouse estimates a saving; the others when they fail.
      if (category === 'performance' ? savingsMs === 0 : audit.score >= 1) continue;
      findings.push({ category, id: audit.id, title: audit.title, display: audit.displayValue ?? '', savingsMs });
    }
  }
  return findings.sort((a, b) => b.savingsMs - a.savingsMs);
}

/** A cookie Chromium holds before Lighthouse navigates (as a browser that had been there would). */
export interface BrowserCookie {
  name: string;
  /** As it goes into the Cookie header (already encoded). */
  value: string;
  /** The page's origin and path the cookie belongs to, e.g. http://127.0.0.1:3000/checkout/ */
  url: string;
  path: string;
  httpOnly?: boolean;
}

/** Sets cookies in a running Chromium through its DevTools protocol (the browser target's Storage.setCookies). */
async function setCookies(port: number, cookies: readonly BrowserCookie[]): Promise<void> {
  const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json() as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const answer = await new Promise<{ error?: { message: string } }>((resolve, reject) => {
      socket.once('message', (data: WebSocket.RawData) => resolve(JSON.parse(String(data)) as { error?: { message: string } }));
      socket.once('error', reject);
      socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies: cookies.map(({ name, value, url, path, httpOnly }) => ({ name, value, url, path, httpOnly: httpOnly ?? false })) } }));
    });
    if (answer.error) throw new Error(`Storage.setCookies: ${answer.error.message}`);
  } finally {
    socket.close();
  }
}

/** One Lighthouse run in a fresh Chromium with a new, empty profile (holding only `cookies`). */
async function runOnce(url: string, cookies: readonly BrowserCookie[] = []): Promise<Result> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const chrome = await chromeLauncher.launch({ chromePath: chromePath(), chromeFlags: CHROME_FLAGS, userDataDir, logLevel: 'silent' });
  try {
    // Lighthouse's storage reset leaves cookies alone (its clearStorageTypes do not include them).
    if (cookies.length) await setCookies(chrome.port, cookies);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** A run Lighthouse itself gives up on (NO_NAVSTART, NO_FCP and the like, more often on a busy machine) is taken again, twice at most. */
async function runWithRetries(page: PageToMeasure): Promise<{ lhr: Result; retried: number }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { lhr: await runOnce(page.url, page.cookies), retried: attempt - 1 };
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

export interface PageToMeasure {
  label: string;
  url: string;
  cookies?: BrowserCookie[];
}

/**
 * Runs Lighthouse `runs` times on each page, interleaved (a, b, c, a, b, c, …) so that the noise of a shared
 * machine falls on every page alike; writes each page's median run as JSON into `reportDir`.
 */
export async function measurePages(pages: readonly PageToMeasure[], runs: number, reportDir: string, log: (line: string) => void = () => {}): Promise<Record<string, LighthouseSummary>> {
  if (!existsSync(chromePath())) throw new Error(`no Chromium at ${chromePath()}: apt-get install -y chromium, or set CHROME_PATH`);
  const results = new Map<string, Result[]>(pages.map((page) => [page.label, []]));
  const retried = new Map<string, number>(pages.map((page) => [page.label, 0]));
  for (let run = 0; run < runs; run += 1) {
    for (const page of pages) {
      const taken = await runWithRetries(page);
      results.get(page.label)?.push(taken.lhr);
      retried.set(page.label, (retried.get(page.label) ?? 0) + taken.retried);
      log(`  run ${run + 1}/${runs} ${page.label}: performance ${taken.lhr.categories.performance?.score}, LCP ${Math.round(taken.lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN)} ms`);
    }
  }
  return Object.fromEntries(pages.map((page) => [page.label, summarise(page, results.get(page.label) ?? [], retried.get(page.label) ?? 0, reportDir)]));
}

function summarise(page: PageToMeasure, results: Result[], retried: number, reportDir: string): LighthouseSummary {
  const { url, label } = page;
  const figures = results.map(figuresOf);
  const med: LighthouseFigures = {
    performance: median(figures.map((f) => f.performance)),
    accessibility: median(figures.map((f) => f.accessibility)),
    bestPractices: median(figures.map((f) => f.bestPractices)),
    lcpMs: median(figures.map((f) => f.lcpMs)),
    cls: median(figures.map((f) => f.cls)),
    tbtMs: median(figures.map((f) => f.tbtMs)),
    fcpMs: median(figures.map((f) => f.fcpMs)),
    speedIndexMs: median(figures.map((f) => f.speedIndexMs)),
  };
  const lcpMinusFcpMs = medianOfDifferences(figures.map((f) => f.lcpMs), figures.map((f) => f.fcpMs));
  const byScore = results.map((lhr, index) => ({ lhr, score: figures[index]?.performance ?? 0 })).sort((a, b) => a.score - b.score);
  const medianRun = (byScore[Math.floor(byScore.length / 2)] as { lhr: Result }).lhr;
  const reportFile = join(reportDir, `lighthouse-${label}.json`);
  writeFileSync(reportFile, JSON.stringify(medianRun));
  const requests = ((medianRun.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number; resourceSize?: number; statusCode?: number }[] } | undefined)?.items ?? []);
  const lcpItems = (medianRun.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] } | undefined)?.items;
  const lcpNode = lcpItems?.[0]?.items?.[0]?.node;
  return {
    url,
    runs: figures,
    median: med,
    lcpMinusFcpMs,
    benchmarkIndex: median(results.map((lhr) => lhr.environment.benchmarkIndex)),
    retried,
    findings: findingsOf(medianRun),
    scripts: requests.filter((item) => item.resourceType === 'Script').map((item) => ({ url: item.url, transferSize: item.transferSize ?? 0, resourceSize: item.resourceSize ?? 0 })),
    fetches: requests.filter((item) => item.resourceType === 'Fetch' || item.resourceType === 'XHR').map((item) => {
      const address = new URL(item.url);
      return { path: `${address.pathname}${address.search}`, status: item.statusCode ?? 0 };
    }),
    lcpElement: lcpNode ? `${lcpNode.nodeLabel ?? ''} ${lcpNode.snippet ?? ''}`.trim() : 'none found',
    reportFile,
  };
}
