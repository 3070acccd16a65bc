/**
 * `npm run paths` prints every generated path of every machine as a readable scenario, then a
 * coverage table; `npm run paths -- --json` prints the same as JSON.
 */
import { pathToFileURL } from 'node:url';
import { getStateNodes } from 'xstate/graph';
import { formatScenario, generatePaths, transitionCoverage, type MachineModel } from './graph';
import { allModels } from './models/index';

/** What the paths script reports for one machine. */
export interface MachinePathsReport {
  machine: string;
  states: number;
  transitions: { walked: number; total: number };
  missing: string[];
  paths: number;
  expectedPaths: number;
  scenarios: string[];
}

/** Walks one model and summarises its paths and coverage. */
export function reportPaths(model: MachineModel): MachinePathsReport {
  const paths = generatePaths(model);
  const coverage = transitionCoverage(model, paths);
  return {
    machine: model.name,
    states: getStateNodes(model.machine.root).length,
    transitions: { walked: coverage.walked, total: coverage.total },
    missing: coverage.missing,
    paths: paths.length,
    expectedPaths: model.expectedPaths,
    scenarios: paths.map((path) => formatScenario(model, path)),
  };
}

/** The human-readable report: scenarios per machine, then the coverage table. */
export function formatReports(reports: MachinePathsReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`## ${report.machine} (${report.paths} paths)`, '');
    report.scenarios.forEach((scenario, index) => lines.push(`${String(index + 1).padStart(3)}. ${scenario}`));
    if (report.missing.length) lines.push('', 'Transitions no path walks:', ...report.missing.map((label) => `  - ${label}`));
    lines.push('');
  }
  const rows = [
    ['machine', 'states', 'transitions walked / in machine (N/M)', 'paths'],
    ...reports.map((report) => [
      report.machine,
      String(report.states),
      `${report.transitions.walked}/${report.transitions.total} (${report.transitions.total ? Math.floor((report.transitions.walked / report.transitions.total) * 100) : 100}%)`,
      report.paths === report.expectedPaths ? String(report.paths) : `${report.paths} (model expects ${report.expectedPaths})`,
    ]),
  ];
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const formatRow = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  lines.push(formatRow(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(formatRow));
  return lines.join('\n');
}

function main(): void {
  const reports = allModels.map(reportPaths);
  console.log(process.argv.includes('--json') ? JSON.stringify(reports, null, 2) : formatReports(reports));
  const incomplete = reports.filter((report) => report.transitions.walked < report.transitions.total);
  if (incomplete.length) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
