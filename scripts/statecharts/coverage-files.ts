/**
 * The coverage files of `npm test`: each test process writes what it walked as parts under
 * coverage/statecharts/.parts/<layer>/, and the run's global teardown merges them per machine into
 * coverage/statecharts/<layer>/<machine>.json (the flow studio paints them).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CoverageLayer, LayerCoverageFile, WalkedLabels } from './coverage-record';

export const COVERAGE_DIR = resolve(import.meta.dirname, '../../coverage/statecharts');
/** Where the view walks save what the screen showed at each step (tests/model/screens.ts), for the flow studio. */
export const SCREENS_DIR = join(COVERAGE_DIR, 'screens');

const partsDir = (layer: CoverageLayer, root: string) => join(root, '.parts', layer);

/** Forgets the parts a previous (interrupted) run of the layer left behind. */
export function startLayer(layer: CoverageLayer, root = COVERAGE_DIR): void {
  rmSync(partsDir(layer, root), { recursive: true, force: true });
}

/** Writes entries as one part file of their layer (a test file's or a worker's). */
export function writeParts(entries: LayerCoverageFile[], root = COVERAGE_DIR): void {
  for (const layer of new Set(entries.map((entry) => entry.layer))) {
    const directory = partsDir(layer, root);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, `${process.pid}-${randomUUID()}.json`), JSON.stringify(entries.filter((entry) => entry.layer === layer)));
  }
}

const union = (lists: string[][]) => [...new Set(lists.flat())].sort();

/**
 * Merges the layer's parts into one file per machine and removes them; machines this run did not
 * walk keep their file from an earlier run (a run of one test file replaces only its machines'). Returns the files written.
 */
export function mergeLayer(layer: CoverageLayer, root = COVERAGE_DIR): LayerCoverageFile[] {
  const directory = partsDir(layer, root);
  if (!existsSync(directory)) return [];
  const byMachine = new Map<string, WalkedLabels[]>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    for (const entry of JSON.parse(readFileSync(join(directory, file), 'utf8')) as LayerCoverageFile[]) {
      byMachine.set(entry.machine, [...(byMachine.get(entry.machine) ?? []), entry]);
    }
  }
  const merged = [...byMachine].map(([machine, parts]): LayerCoverageFile => ({
    machine,
    layer,
    transitions: union(parts.map((part) => part.transitions)),
    guardOutcomes: union(parts.map((part) => part.guardOutcomes)),
    // The agreed file format writes a pair `<a> → <b>` (the engine's pairKey says `<a> ⇒ <b>`).
    pairs: union(parts.map((part) => part.pairs.map((pair) => pair.replace(' ⇒ ', ' → ')))),
  }));
  mkdirSync(join(root, layer), { recursive: true });
  for (const file of merged) writeFileSync(join(root, layer, `${file.machine}.json`), `${JSON.stringify(file, null, 2)}\n`);
  rmSync(directory, { recursive: true, force: true });
  return merged;
}
