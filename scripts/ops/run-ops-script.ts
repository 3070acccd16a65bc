/** An operator listing run as an operator runs it (tsx, its own process), on a data directory of the test's own. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');

/** Runs scripts/ops/<script>.ts with DATA_DIR (and `env`) set and nothing else of the caller's environment; rejects on a non-zero exit. */
export const runOpsScript = (script: string, dataDir: string, args: string[] = [], env: Record<string, string> = {}) =>
  run(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, `scripts/ops/${script}.ts`), ...args], {
    cwd: ROOT, env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env }, timeout: 60_000,
  });
