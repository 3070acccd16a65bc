/** The flow studio built (npm run studio:build) and served on a free port, for the studio's browser tests. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { startStudioServer, type StudioServer } from '../../../scripts/studio/serve';
import type { MachineData, StudioIndex } from '../../../studio/src/data';

const ROOT = resolve(import.meta.dirname, '../../..');
const DATA_DIR = join(ROOT, 'build', 'studio', 'data');

export const STUDIO_ROOT = join(ROOT, 'build', 'studio');

/**
 * Builds the studio into build/studio once per run of the suite: the studio's specs share it, and two builds at once
 * would race on one folder. The first worker builds under a lock; the others wait for its mark.
 */
export function buildStudioOnce(): void {
  const run = process.env.E2E_RUN_ID;
  const built = join(tmpdir(), `tvc-studio-built-${run}`);
  const lock = join(tmpdir(), `tvc-studio-building-${run}`);
  if (run && existsSync(built)) return;
  let mine = !run;
  if (run) {
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      const deadline = Date.now() + 150_000;
      while (!existsSync(built) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      expect(existsSync(built), 'another worker was building the studio and did not finish within 150 s').toBe(true);
      return;
    }
  }
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/studio/build.ts'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, `npm run studio:build failed:\n${build.stdout}\n${build.stderr}`).toBe(0);
  if (mine && run) writeFileSync(built, new Date().toISOString());
}

export async function buildAndServeStudio(options: Omit<Parameters<typeof startStudioServer>[0] & object, 'root' | 'port'> = {}): Promise<StudioServer> {
  buildStudioOnce();
  return startStudioServer({ ...options, root: STUDIO_ROOT, port: 0 });
}

/** The studio's data as the build wrote it. */
export const studioIndex = () => JSON.parse(readFileSync(join(DATA_DIR, 'index.json'), 'utf8')) as StudioIndex;
export const studioMachine = (name: string) => JSON.parse(readFileSync(join(DATA_DIR, `${name}.json`), 'utf8')) as MachineData;

/** Every guard and action name the machine's definition uses: what the product view must never show. */
export function identifiersOf(data: MachineData): string[] {
  const names = [...data.transitions.flatMap((transition) => [...(transition.guard ? [transition.guard] : []), ...transition.actions]), ...data.states.flatMap((state) => [...state.entry, ...state.exit])];
  return [...new Set(names)];
}
