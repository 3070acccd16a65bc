import { defineConfig } from 'vitest/config';
import root from './vitest.config';

/**
 * The vitest `unit` project alone, for `npm run mutate` (Stryker's vitest runner takes one config file
 * and runs every project in it). Read from vitest.config.ts so the two never drift apart.
 */
type InlineProject = { test?: { name?: string } & Record<string, unknown> };
const unit = (root.test?.projects as InlineProject[] | undefined)?.find((project) => project.test?.name === 'unit');
if (!unit?.test) throw new Error('vitest.config.ts has no project named unit.');

export default defineConfig({ test: { ...unit.test, name: 'unit' } });
