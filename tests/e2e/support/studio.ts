/** The flow studio built (npm run studio:build) and served on a free port, for the studio's browser tests. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { startStudioServer, type StudioServer } from '../../../scripts/studio/serve';
import type { MachineData, StudioIndex } from '../../../studio/src/data';

const ROOT = resolve(import.meta.dirname, '../../..');
const DATA_DIR = join(ROOT, 'build', 'studio', 'data');

export async function buildAndServeStudio(): Promise<StudioServer> {
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/studio/build.ts'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, `npm run studio:build failed:\n${build.stdout}\n${build.stderr}`).toBe(0);
  return startStudioServer({ root: join(ROOT, 'build', 'studio'), port: 0 });
}

/** The studio's data as the build wrote it. */
export const studioIndex = () => JSON.parse(readFileSync(join(DATA_DIR, 'index.json'), 'utf8')) as StudioIndex;
export const studioMachine = (name: string) => JSON.parse(readFileSync(join(DATA_DIR, `${name}.json`), 'utf8')) as MachineData;

/** Every guard and action name the machine's definition uses: what the product view must never show. */
export function identifiersOf(data: MachineData): string[] {
  const names = [...data.transitions.flatMap((transition) => [...(transition.guard ? [transition.guard] : []), ...transition.actions]), ...data.states.flatMap((state) => [...state.entry, ...state.exit])];
  return [...new Set(names)];
}
