/**
 * `npm run walks -- --runs N --seed S [--machine checkout] [--only "sentence words"]` runs the seeded
 * random walks of tests/walks longer than `npm test` does (same properties), printing runs, seed and
 * time per promise; a broken one prints its shrunk walk, fast-check's seed and path, and exits 1.
 * Without --seed a new seed is drawn (and printed), so each run explores other walks; the same --seed
 * and --runs find and shrink a failure again (walks are deterministic: the clock and server are the walk's).
 */
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { walkPromises } from '../../tests/walks/harness';
import { WALK_RUNS, walkSpecs } from '../../tests/walks/specs';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, seed: { type: 'string' }, machine: { type: 'string' }, only: { type: 'string' } },
});
const runs = values.runs ? Number(values.runs) : WALK_RUNS * 10;
const seed = values.seed ? Number(values.seed) : Date.now() % 2 ** 31;
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('Usage: npm run walks -- [--runs N] [--seed S] [--machine NAME] [--only "words of a sentence"]');
  process.exit(2);
}

console.log(`Random walks: ${runs} runs per promise, seed ${seed}`);
let broken = 0;
const started = performance.now();
for (const spec of walkSpecs.filter((candidate) => !values.machine || candidate.machine === values.machine)) {
  for (const promise of walkPromises(spec).filter((candidate) => !values.only || candidate.sentence.includes(values.only))) {
    const begun = performance.now();
    const result = await fc.check(promise.property, { seed, numRuns: runs });
    const seconds = ((performance.now() - begun) / 1000).toFixed(1);
    console.log(`${result.failed ? 'BROKEN' : 'ok    '}  ${spec.machine}: ${promise.sentence}  (${result.numRuns} runs, ${seconds} s)`);
    if (result.failed) {
      broken += 1;
      // fast-check's report gives the seed, the path to replay and the shrunk walk; the error gives the promise and its exact steps.
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      console.log(`${fc.defaultReportMessage(result)}\n${error}\n`);
    }
  }
}
console.log(`${broken ? `${broken} promise(s) broken` : 'Every promise held'}; seed ${seed}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(broken ? 1 : 0);
