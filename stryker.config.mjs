// @ts-check
/**
 * The mutation score of src/domain and machines (issue 13 item 7): a measure, not a gate (no thresholds.break,
 * not in npm test). `npm run mutate`; reports in reports/mutation/ (index.html, mutation.json).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // The unit project alone (machine and domain tests); related mode runs only the tests that import a mutated file.
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  mutate: ['src/domain/**/*.ts', '!src/domain/**/*.test.ts', 'machines/*.ts', '!machines/*.test.ts'],
  coverageAnalysis: 'perTest',
  // The machine has two cores, shared with other work.
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Nothing the unit tests read: not copied into the sandbox.
  ignorePatterns: ['/.stryker-tmp-*', '/tests/api', '/tests/e2e', '/tests/model', '/tests/routes', '/tests/server', '/build', '/dist', '/.data', '/test-results', '/coverage'],
  thresholds: { high: 80, low: 60, break: null },
  cleanTempDir: 'always',
};
