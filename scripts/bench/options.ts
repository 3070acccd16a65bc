/** The command line of `npm run bench` (scripts/bench/run.ts): which measures to take, how long, and where to write. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/proc';

const MEASURES = ['bundle', 'start', 'load', 'overload', 'knee', 'whmcs', 'metrics', 'tracing', 'lighthouse', 'shopper', 'tests'] as const;
export type Measure = (typeof MEASURES)[number];
/** The default run: the ceiling is measured beside getProducts in `load`; the knee's long ramp is asked for by name. */
const DEFAULT_MEASURES: readonly Measure[] = MEASURES.filter((name) => name !== 'knee');

/** Runs, durations and rates of each measure: --quick to try the bench (rough figures), else the full run. */
const QUICK_SETTINGS = { lighthouseRuns: 1, overloadSeconds: 3, loadSeconds: 3, whmcsSeconds: 3, rates: [100, 500], orders: 200, orderConnections: 10, metricsRounds: 1, tracingRounds: 1, startRuns: 1, wholeSuite: false, kneeSeconds: 3, kneeRates: [1000, 2000, 4000, 8000, 12000, 16000, 24000] };
const FULL_SETTINGS: typeof QUICK_SETTINGS = {
  lighthouseRuns: 5, overloadSeconds: 5, loadSeconds: 15, whmcsSeconds: 10, rates: [100, 500], orders: 2000, orderConnections: 10, metricsRounds: 3, tracingRounds: 3, startRuns: 5, wholeSuite: true,
  kneeSeconds: 5, kneeRates: [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 20000, 24000, 32000],
};
export type BenchSettings = typeof QUICK_SETTINGS;

export interface BenchOptions {
  wants: (measure: Measure) => boolean;
  quick: boolean;
  settings: BenchSettings;
  /** Where BENCHMARKS.md is written. */
  outFile: string;
}

/** Reads the command line; --help prints the usage and exits, an unknown measure throws. */
export function benchOptions(): BenchOptions {
  const { values: flags } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (flags.help) {
    console.log('npm run bench [-- --quick] [-- --only=bundle,start,load,overload,knee,whmcs,metrics,tracing,lighthouse,shopper,tests] [-- --out=FILE]  (default: all but knee)');
    process.exit(0);
  }
  const only = new Set((flags.only ?? DEFAULT_MEASURES.join(',')).split(',').map((name) => name.trim()).filter(Boolean));
  for (const name of only) if (!(MEASURES as readonly string[]).includes(name)) throw new Error(`unknown measure ${name}; known: ${MEASURES.join(', ')}`);
  const quick = flags.quick ?? false;
  return {
    wants: (measure) => only.has(measure),
    quick,
    settings: quick ? QUICK_SETTINGS : FULL_SETTINGS,
    outFile: resolve(ROOT, flags.out ?? 'BENCHMARKS.md'),
  };
}
