/** The benchmark's table: printed to the terminal and written as Markdown. */
import type { BudgetedFigure } from './budgets';

/** One figure: its measure, value and budget (lib/budgets.ts), under its section, with how it was taken. */
export interface Row extends BudgetedFigure {
  section: string;
  how: string;
}

export const verdict = (row: Row): string => (row.within === null ? '—' : row.within ? 'yes' : '**no**');

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown table. */
export function markdownTable(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.map(cell).join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The rows as Markdown, one table per section, each after what its section's notes say of all its rows. */
export function rowsToMarkdown(rows: Row[], notes: Record<string, string[]> = {}): string {
  const sections = [...new Set(rows.map((row) => row.section))];
  return sections.map((section) => `### ${section}\n\n${(notes[section] ?? []).map((note) => `${note}\n\n`).join('')}${markdownTable(
    ['measure', 'value', 'budget', 'within budget', 'how it was taken'],
    rows.filter((row) => row.section === section).map((row) => [row.measure, row.value, row.budget || '—', verdict(row), row.how]),
  )}`).join('\n\n');
}

/** The rows as a plain-text table for the terminal, a heading per section (the "how" column is left to BENCHMARKS.md). */
export function rowsToText(rows: Row[]): string {
  const body = rows.map((row) => [row.measure, row.value, row.budget || '—', verdict(row).replace(/\*/g, '')]);
  const headers = ['measure', 'value', 'budget', 'ok'];
  const widths = headers.map((header, index) => Math.min(index === 1 ? 64 : 52, Math.max(header.length, ...body.map((row) => (row[index] ?? '').length))));
  const line = (cells: string[]) => cells.map((text, index) => {
    const width = widths[index] ?? 10;
    return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  }).join('  ').trimEnd();
  const out = [line(headers), widths.map((width) => '-'.repeat(width)).join('  ')];
  let section = '';
  rows.forEach((row, index) => {
    if (row.section !== section) {
      section = row.section;
      out.push(section);
    }
    out.push(line(body[index] as string[]));
  });
  return out.join('\n');
}
