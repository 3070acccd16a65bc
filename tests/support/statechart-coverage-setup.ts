/**
 * Setup file (unit and dom projects): after each test file, writes what it walked of the machines
 * as a part of its layer's coverage file (merged by statechart-coverage-global.ts). The machine-tests
 * layer counts only the machine tests' path replays, not the engine's own tests on sample machines.
 */
import { afterAll, expect } from 'vitest';
import { takeRecorded } from '../../scripts/statecharts/coverage-record';
import { writeParts } from '../../scripts/statecharts/coverage-files';

const MACHINE_TEST = /[\\/]machines[\\/][\w-]+\.machine\.test\.ts$/;

afterAll(() => {
  const testPath = expect.getState().testPath ?? '';
  const entries = takeRecorded().filter((entry) => entry.layer !== 'machine-tests' || MACHINE_TEST.test(testPath));
  if (entries.length) writeParts(entries);
});
