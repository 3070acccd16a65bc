/**
 * What a test layer walked of each machine, gathered in memory while a test file runs (no file
 * access here: the browser's recorder uses the same shape); coverage-files.ts writes it out.
 */

/** The test layers whose coverage `npm test` writes to coverage/statecharts/<layer>/<machine>.json. */
export const COVERAGE_LAYERS = ['machine-tests', 'view-walks', 'browser-journeys'] as const;
export type CoverageLayer = (typeof COVERAGE_LAYERS)[number];

/** Labels as the engine names them: `machineTransitions` labels, `guardOutcomeLabel`s, `transitionPairs`. */
export interface WalkedLabels {
  transitions: string[];
  guardOutcomes: string[];
  pairs: string[];
}

/** The file format: `{ machine, layer, transitions, guardOutcomes, pairs }`. */
export interface LayerCoverageFile extends WalkedLabels {
  machine: string;
  layer: CoverageLayer;
}

interface WalkedSets {
  transitions: Set<string>;
  guardOutcomes: Set<string>;
  pairs: Set<string>;
}

const recorded = new Map<string, { layer: CoverageLayer; machine: string; walked: WalkedSets }>();

/** Adds what one replay, walk or journey walked of a machine to the layer's record. */
export function recordWalked(layer: CoverageLayer, machine: string, walked: WalkedLabels): void {
  const key = `${layer}\n${machine}`;
  let entry = recorded.get(key);
  if (!entry) {
    entry = { layer, machine, walked: { transitions: new Set(), guardOutcomes: new Set(), pairs: new Set() } };
    recorded.set(key, entry);
  }
  for (const label of walked.transitions) entry.walked.transitions.add(label);
  for (const label of walked.guardOutcomes) entry.walked.guardOutcomes.add(label);
  for (const label of walked.pairs) entry.walked.pairs.add(label);
}

/** Everything recorded since the last call (and forgets it), one entry per layer and machine. */
export function takeRecorded(): LayerCoverageFile[] {
  const entries = [...recorded.values()].map(({ layer, machine, walked }) => ({
    machine,
    layer,
    transitions: [...walked.transitions],
    guardOutcomes: [...walked.guardOutcomes],
    pairs: [...walked.pairs],
  }));
  recorded.clear();
  return entries;
}
