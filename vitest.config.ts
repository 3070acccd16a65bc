import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // This machine has 2 cores, and every API test file holds a PGlite (~750 MB): two workers at most.
    maxWorkers: 2,
    projects: [
      {
        // The benchmark's own helpers (npm run test:bench; npm test runs them too).
        test: { name: 'bench', include: ['scripts/bench/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'machines/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/support/**/*.test.ts', 'tests/walks/**/*.test.ts', 'tests/ops/**/*.test.ts'],
          exclude: ['scripts/bench/**'],
          environment: 'node',
          // The machine tests' path replays write coverage/statecharts/machine-tests/<machine>.json (the flow studio paints it).
          setupFiles: ['tests/support/statechart-coverage-setup.ts'],
          globalSetup: ['tests/support/statechart-coverage-global.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The real server as a process: the data-directory lock, PostgreSQL stopped and started under it
        // (a throwaway cluster of its own), load shedding. Files run one at a time: each spawns servers.
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The SPA rendered in happy-dom: routes, translations and (tests/model) the machine paths walked through the views.
        test: {
          name: 'dom',
          include: ['tests/routes/**/*.test.tsx', 'tests/model/**/*.test.tsx', 'src/app/**/*.test.tsx'],
          environment: 'happy-dom',
          // The page lives under /checkout, so the app's cookies (Path=/checkout) are visible to it.
          environmentOptions: { happyDOM: { url: 'http://localhost/checkout/' } },
          setupFiles: ['tests/support/dom-setup.ts', 'tests/support/statechart-coverage-setup.ts'],
          // Prints the coverage of every machine's transitions through the views once the model walks ran,
          // and writes coverage/statecharts/view-walks/<machine>.json.
          globalSetup: ['tests/model/coverage-report.ts'],
          // A whole app renders per test; leave room for a machine busy with other work.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
