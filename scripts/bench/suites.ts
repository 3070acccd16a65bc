/** Measure 5: how long the model-based suite and the whole `npm test` take (timed here, asserted nowhere). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCommand } from './lib/proc';

export interface SuiteTiming {
  label: string;
  command: string;
  ms: number;
  code: number | null;
  /** Vitest's closing "Tests" line, when there is one. */
  summary: string;
  logFile: string;
}

const vitestSummary = (logFile: string): string => {
  // eslint-disable-next-line no-control-regex
  const text = readFileSync(logFile, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
  const files = /^\s*Test Files\s+(.+)$/m.exec(text)?.[1]?.trim();
  const tests = /^\s*Tests\s+(.+)$/m.exec(text)?.[1]?.trim();
  return [files && `files ${files}`, tests && `tests ${tests}`].filter(Boolean).join('; ');
};

/** The folders of the model-based suite: the machines' own tests and scripts, and tests/model once it exists. */
export const modelSuiteFilters = (): string[] => ['machines', 'scripts', ...(existsSync(join(ROOT, 'tests/model')) ? ['tests/model'] : [])];

export async function measureSuites(options: { workDir: string; wholeSuite: boolean; log: (line: string) => void }): Promise<SuiteTiming[]> {
  const env = { ...process.env, CI: 'true', FORCE_COLOR: '0' };
  const timings: SuiteTiming[] = [];
  const filters = modelSuiteFilters();
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
  const modelLog = join(options.workDir, 'suite-model.log');
  const model = await runCommand(process.execPath, [vitest, 'run', ...filters], { logFile: modelLog, env });
  timings.push({ label: 'model-based suite', command: `npx vitest run ${filters.join(' ')}`, ms: model.ms, code: model.code, summary: vitestSummary(modelLog), logFile: modelLog });
  options.log(`  npx vitest run ${filters.join(' ')}: ${(model.ms / 1000).toFixed(1)} s, exit ${model.code}`);
  if (options.wholeSuite) {
    const wholeLog = join(options.workDir, 'suite-npm-test.log');
    const whole = await runCommand('npm', ['test'], { logFile: wholeLog, env });
    timings.push({ label: 'npm test', command: 'npm test', ms: whole.ms, code: whole.code, summary: vitestSummary(wholeLog), logFile: wholeLog });
    options.log(`  npm test: ${(whole.ms / 1000).toFixed(1)} s, exit ${whole.code}`);
  }
  return timings;
}
