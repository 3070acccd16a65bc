/**
 * Global setup of the dom project: gives the model walks a directory for their coverage rows and,
 * once every file has run, prints the table `machine | transitions | guard outcomes walked through the views N/M | unreachable | paths`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { mergeLayer, startLayer } from '../../scripts/statecharts/coverage-files';
import { formatCoverageTable, type ViewCoverageRow } from './coverage';

declare module 'vitest' {
  export interface ProvidedContext {
    modelCoverageDir: string;
  }
}

const ORDER = ['checkout', 'placeOrder', 'waiting', 'upsell', 'renewal', 'reseller', 'auth', 'service'];

export default function setup(project: TestProject) {
  const directory = mkdtempSync(join(tmpdir(), 'tv-checkout-model-'));
  project.provide('modelCoverageDir', directory);
  startLayer('view-walks');
  return () => {
    mergeLayer('view-walks');
    const rows = readdirSync(directory)
      .map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as ViewCoverageRow)
      .sort((a, b) => ORDER.indexOf(a.machine) - ORDER.indexOf(b.machine));
    if (rows.length) console.log(`\nMachine paths walked through the views (tests/model)\n${formatCoverageTable(rows)}\n`);
    rmSync(directory, { recursive: true, force: true });
  };
}
