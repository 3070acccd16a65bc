/**
 * `npm run paths` prints every generated path of every machine as a readable scenario, then a
 * table per machine: states, transitions, guard outcomes, transition pairs and paths;
 * `npm run paths -- --json` prints the figures as JSON. Exit code 1 when a transition or guard
 * outcome is neither walked nor listed unreachable, or a model's path count changed.
 */
import { pathToFileURL } from 'node:url';
import { getStateNodes } from 'xstate/graph';
import { formatScenario, generatePaths, transitionCoverage, type MachineModel, type ModelPath } from './graph';
import type { MachinePathsFigures } from '../../src/statecharts/paths-figures';
import { allModels } from './models/index';

/** What the paths script reports for one machine: the figures, plus what the text report prints. */
export interface MachinePathsReport {
  figures: MachinePathsFigures;
  /** Transitions and guard outcomes neither walked nor listed unreachable. */
  missing: string[];
  expectedPaths: number;
  scenarios: string[];
}

/** Walks one model (or takes its paths, already generated) and summarises its paths and coverage. */
export function reportPaths(model: MachineModel, paths: ModelPath[] = generatePaths(model)): MachinePathsReport {
  const coverage = transitionCoverage(model, paths);
  return {
    figures: {
      machine: model.name,
      states: getStateNodes(model.machine.root).length,
      paths: paths.length,
      transitions: { walked: coverage.transitions.walked, total: coverage.transitions.total },
      guardOutcomes: { walked: coverage.guardOutcomes.walked, total: coverage.guardOutcomes.total },
      transitionPairs: coverage.transitionPairs,
      unreachable: coverage.unreachable,
    },
    missing: [...coverage.transitions.missing, ...coverage.guardOutcomes.missing],
    expectedPaths: model.expectedPaths,
    scenarios: paths.map((path) => formatScenario(model, path)),
  };
}

const ratio = ({ walked, total }: { walked: number; total: number }) => `${walked}/${total} (${total ? Math.floor((walked / total) * 100) : 100}%)`;

/** The human-readable report: scenarios per machine, then the table. */
export function formatReports(reports: MachinePathsReport[]): string {
  const lines: string[] = [];
  for (const { figures, scenarios, missing } of reports) {
    lines.push(`## ${figures.machine} (${figures.paths} paths)`, '');
    scenarios.forEach((scenario, index) => lines.push(`${String(index + 1).padStart(3)}. ${scenario}`));
    if (figures.unreachable.length) lines.push('', 'Unreachable with the model (listed with a reason):', ...figures.unreachable.map(({ transition, reason }) => `  - ${transition}: ${reason}`));
    if (missing.length) lines.push('', 'MISSING: neither walked nor listed unreachable:', ...missing.map((label) => `  - ${label}`));
    lines.push('');
  }
  const rows = [
    ['machine', 'states', 'transitions walked/total', 'guard outcomes walked/total', 'pairs walked/reachable', 'unreachable', 'paths'],
    ...reports.map(({ figures, expectedPaths }) => [
      figures.machine,
      String(figures.states),
      ratio(figures.transitions),
      ratio(figures.guardOutcomes),
      ratio(figures.transitionPairs),
      String(figures.unreachable.length),
      figures.paths === expectedPaths ? String(figures.paths) : `${figures.paths} (model expects ${expectedPaths})`,
    ]),
  ];
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const formatRow = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  lines.push(formatRow(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(formatRow));
  return lines.join('\n');
}

/** 1 when a transition or guard outcome is neither walked nor listed unreachable, or a path count changed. */
export function exitCodeOf(reports: MachinePathsReport[]): 0 | 1 {
  return reports.some((report) => report.missing.length || report.figures.paths !== report.expectedPaths) ? 1 : 0;
}

function main(): void {
  const reports = allModels.map((model) => reportPaths(model));
  console.log(process.argv.includes('--json') ? JSON.stringify(reports.map((report) => report.figures), null, 2) : formatReports(reports));
  process.exitCode = exitCodeOf(reports);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
