/**
 * The seeded random walks in `npm test`: a fixed seed and budget, one property per promise a product
 * owner reads (nothing bad happens, and something good does). `npm run walks -- --runs N --seed S` runs
 * the same properties longer.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { WALK_RUNS, WALK_SEED, walkSpecs } from './specs';
import { walkPromises } from './harness';

describe.each(walkSpecs.map((spec) => [spec.machine, spec] as const))('%s: seeded random walks', (_machine, spec) => {
  it.each(walkPromises(spec).map((promise) => [promise.sentence, promise] as const))('%s', async (_sentence, promise) => {
    // On failure fast-check prints the seed, the path to replay and the shrunk walk; the error names the sentence and the steps.
    await fc.assert(promise.property, { seed: WALK_SEED, numRuns: WALK_RUNS });
    // 200 walks take 0.5 to 3.5 s alone; beside another test file on the 2-core machine they passed vitest's 5 s.
  }, 30_000);
});
