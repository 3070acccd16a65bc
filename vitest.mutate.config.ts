import { existsSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import root from './vitest.config';

/**
 * The vitest `unit` project alone, for `npm run mutate` (Stryker's vitest runner takes one config file
 * and runs every project in it). Read from vitest.config.ts so the two never drift apart.
 */
type InlineProject = { test?: { name?: string } & Record<string, unknown> };
const unit = (root.test?.projects as InlineProject[] | undefined)?.find((project) => project.test?.name === 'unit');
if (!unit?.test) throw new Error('vitest.config.ts has no project named unit.');

// Stryker links node_modules into its sandbox only when it is a real folder; in a git worktree it is a symlink, and
// tests that run node_modules/tsx/dist/cli.mjs by path need it there.
const here = dirname(fileURLToPath(import.meta.url));
const sandboxModules = join(here, 'node_modules');
const outerModules = join(here, '..', '..', 'node_modules');
if (!existsSync(sandboxModules) && existsSync(outerModules)) symlinkSync(realpathSync(outerModules), sandboxModules, 'dir');

// Tests that run the code in a child process (tsx) cannot see a mutant, and this one takes ~20 s per run.
const outOfProcess = ['scripts/ops/payment-exceptions.test.ts'];

export default defineConfig({ test: { ...unit.test, name: 'unit', exclude: [...((unit.test.exclude as string[] | undefined) ?? []), ...outOfProcess] } });
