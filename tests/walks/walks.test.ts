/**
 * The seeded random walks in `npm test`: a fixed seed and budget, one property per promise a product
 * owner reads. `npm run walks -- --runs N --seed S` runs the same properties longer.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { WALK_RUNS, WALK_SEED, walkSpecs } from './specs';
import { walkProperty } from './harness';

describe.each(walkSpecs.map((spec) => [spec.machine, spec] as const))('%s: seeded random walks', (_machine, spec) => {
  it.each(spec.invariants.map((invariant) => [invariant.sentence, invariant] as const))('%s', async (_sentence, invariant) => {
    // On failure fast-check prints the seed, the path to replay and the shrunk walk; the error names the sentence and the steps.
    await fc.assert(walkProperty(spec as never, invariant as never), { seed: WALK_SEED, numRuns: WALK_RUNS });
  });
});
