/** The coverage rows of the view walks and the table printed at the end of the run. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** Coverage of one machine through the views, as printed at the end of the run. */
export interface ViewCoverageRow {
  machine: string;
  /** Transitions walked through the views / in the machine. */
  walked: number;
  total: number;
  guardOutcomes: { walked: number; total: number };
  /** How many transitions and guard outcomes the model lists unreachable (with reasons). */
  unreachable: number;
  /** Guard outcomes (or transitions) walked only by inputs no view offers, sent to the app's actor. */
  offView: number;
  paths: number;
  expectedPaths: number;
  /** Transitions covered only by events sent to the actor directly (no view sends them). */
  direct: { event: string; reason: string }[];
  missing: string[];
  notes: string[];
}

/** Writes the row where the run's global teardown prints the table, and prints it here too when run alone. */
export function reportCoverage(row: ViewCoverageRow): void {
  const directory = inject('modelCoverageDir');
  if (directory) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, `${row.machine}.json`), JSON.stringify(row));
  } else {
    console.log(formatCoverageTable([row]));
  }
}

const percent = (walked: number, total: number) => `${walked}/${total} (${total ? Math.floor((walked / total) * 100) : 100}%)`;

/** `machine | transitions | guard outcomes walked through the views N/M | unreachable | paths`, then the notes and reported defects. */
export function formatCoverageTable(rows: ViewCoverageRow[]): string {
  const table = [
    ['machine', 'transitions walked through the views N/M', 'guard outcomes N/M', 'sent to the actor (no view offers the input)', 'unreachable', 'paths'],
    ...rows.map((row) => [
      row.machine,
      `${percent(row.walked, row.total)}${row.direct.length ? ` + sent to the actor: no UI for ${row.direct.map((entry) => entry.event).join(', ')}` : ''}`,
      percent(row.guardOutcomes.walked, row.guardOutcomes.total),
      String(row.offView),
      String(row.unreachable),
      row.paths === row.expectedPaths ? String(row.paths) : `${row.paths} (model expects ${row.expectedPaths})`,
    ]),
  ];
  const widths = table[0]!.map((_cell, column) => Math.max(...table.map((line) => line[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  const out = [line(table[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...table.slice(1).map(line)];
  for (const row of rows) {
    for (const entry of row.direct) out.push(`  ${row.machine}: DEFECT, no view sends ${entry.event}: ${entry.reason}`);
    for (const label of row.missing) out.push(`  ${row.machine}: not walked: ${label}`);
    for (const note of row.notes) out.push(`  ${row.machine}: ${note}`);
  }
  return out.join('\n');
}

