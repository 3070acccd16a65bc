/** BENCHMARKS.md as `npm run bench` (scripts/bench/run.ts) writes it: the budgets, every figure row, and the details of the builds, pages and starts. */
import os from 'node:os';
import type { BuildAnalysis } from './bundle';
import type { LighthouseSummary } from './lighthouse';
import { budgetSummary } from './lib/budgets';
import type { Machine } from './lib/machine';
import { markdownTable, rowsToMarkdown, type Row } from './lib/report';
import { kB, ms } from './lib/stats';
import type { StartResult } from './start';

/** What a run measured, and how it ran. */
export interface BenchRun {
  quick: boolean;
  machine: Machine;
  /** The 1-minute load average as the run began. */
  loadAtStart: number;
  rows: Row[];
  /** What holds for every row of a section, said once above its table. */
  notes: Record<string, string[]>;
  /** The measures that could not be taken, one line each. */
  failures: string[];
  /** Where the run's logs and reports are. */
  workDir: string;
  overloadTable: string | null;
  app: BuildAnalysis | null;
  floor: BuildAnalysis | null;
  pages: { label: string; summary: LighthouseSummary }[];
  start: StartResult | null;
}

export function benchmarksMarkdown({ quick, machine, loadAtStart, rows, notes, failures, workDir, overloadTable, app, floor, pages, start }: BenchRun): string {
  const details: string[] = [];
  if (overloadTable) details.push(`### Overload by store and level\n\n${overloadTable}`);
  if (app) {
    details.push(`### Chunks of the checkout\n\n${markdownTable(['file', 'from', 'raw', 'gzip', 'brotli (.br)', 'first screen'], app.chunks.map((chunk) => [chunk.file, chunk.name, kB(chunk.raw), kB(chunk.gzip), chunk.brotli === null ? '' : kB(chunk.brotli), chunk.firstScreen ? 'yes' : '']))}${app.notes.length ? `\n\n${app.notes.join('\n\n')}` : ''}`);
  }
  if (app || floor) {
    const owners = [...new Set([...(app?.owners ?? []), ...(floor?.owners ?? [])].map((entry) => entry.owner))];
    const gzipOf = (analysis: BuildAnalysis | null, owner: string) => analysis?.owners.find((entry) => entry.owner === owner)?.gzip ?? 0;
    owners.sort((a, b) => gzipOf(app, b) - gzipOf(app, a) || gzipOf(floor, b) - gzipOf(floor, a));
    details.push(`### First screen JS by package\n\nEach first-screen chunk's gzip size shared out in proportion to the bytes its source map gives each package or folder (approximate).\n\n${markdownTable(
      ['package or folder', 'ours', 'floor'],
      owners.filter((owner) => gzipOf(app, owner) >= 100 || gzipOf(floor, owner) >= 100).map((owner) => [owner, app ? kB(gzipOf(app, owner)) : '', floor ? kB(gzipOf(floor, owner)) : '']),
    )}`);
  }
  if (app?.ownFiles.length) {
    const own = app.ownFiles.filter((entry) => !entry.owner.startsWith('('));
    details.push(`### First screen JS of our own, by file

The same sharing out, by each of our files the first screen carries (${kB(own.reduce((sum, entry) => sum + entry.gzip, 0))} in ${own.length} files; those under 0.1 kB not listed).

${markdownTable(
      ['file', 'raw', 'gzip'], own.filter((entry) => entry.gzip >= 100).map((entry) => [entry.owner, kB(entry.raw), kB(entry.gzip)]),
    )}`);
  }
  for (const { label, summary } of pages) {
    const findings = summary.findings.slice(0, 10).map((finding) => [finding.category, finding.title, finding.display, finding.savingsMs ? ms(finding.savingsMs) : '']);
    details.push(`### Lighthouse findings: ${label} (median run)\n\nReport: \`${summary.reportFile}\`. Scripts fetched: ${summary.scripts.map((script) => `${new URL(script.url).pathname} (${kB(script.transferSize)} transferred)`).join(', ') || 'none'}.\n\n${findings.length ? markdownTable(['category', 'audit', 'value', 'est. savings'], findings) : 'No failing audits.'}`);
  }
  if (start) {
    for (const profile of start.profiles) {
      details.push(`### Server start on an existing data directory: CPU profile, ${profile.thread}\n\n\`node --cpu-prof\` of one start, ${ms(profile.totalMs)} profiled (\`${profile.file}\`). Time by what the stack was doing (a sample goes to the first of these any of its frames belongs to):\n\n${markdownTable(['phase', 'time'], profile.byPhase.map((entry) => [entry.phase, ms(entry.ms)]))}\n\nSelf time by package or folder:\n\n${markdownTable(['where', 'self time'], profile.byOwner.slice(0, 12).map((entry) => [entry.owner, ms(entry.selfMs)]))}\n\nFunctions with the most self time:\n\n${markdownTable(['function', 'where', 'self time'], profile.topFunctions.slice(0, 10).map((entry) => [entry.name, entry.where, ms(entry.selfMs)]))}`);
    }
  }

  return `# Benchmarks

Written by \`npm run bench${quick ? ' -- --quick' : ''}\` (scripts/bench) on ${machine.date}. Budgets are DESIGN.md section 9's; a measure without one says '—'.${quick ? ' **--quick**: one run per page and start, 3 s loads, no `npm test`: rough figures, for trying the bench.' : ''}

Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, ${machine.os}; Node ${machine.node}; ${machine.chromium}; commit ${machine.commit}. Load average (1 min) ${loadAtStart.toFixed(2)} when the run began and ${(os.loadavg()[0] ?? 0).toFixed(2)} when it ended: on a 2-core machine anything else running (another test suite, a build) shows in every timing here.

## Budgets

Each budget of issue 17 (DESIGN.md section 9) with its figure from this run; the figure's row under Figures says how it was taken.

${markdownTable(['budget', 'figure', 'limit', 'within budget'], budgetSummary(rows))}

${failures.length ? `## Measures that could not be taken\n\n${failures.map((failure) => `- ${failure}`).join('\n')}\n\n` : ''}## Figures

${rowsToMarkdown(rows, notes)}

## Details

${details.join('\n\n')}

Logs and reports of this run: \`${workDir}\`.
`;
}
