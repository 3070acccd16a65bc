import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INSPECTION_MARKER } from '../../src/app/inspect/live-protocol';
import { filesWithInspection, viteBuild } from './bundle';

const work = mkdtempSync(join(tmpdir(), 'tvc-inspection-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the production bundle has no statechart inspection code', () => {
  it('finds the marker of the inspection hook in a build that has it', () => {
    const outDir = join(work, 'with-hook');
    mkdirSync(join(outDir, 'assets'), { recursive: true });
    writeFileSync(join(outDir, 'assets', 'index.js'), 'console.log("app")');
    writeFileSync(join(outDir, 'assets', 'inspect-x1.js'), `console.info("[${INSPECTION_MARKER}] statechart inspection recording")`);
    expect(filesWithInspection(outDir)).toEqual(['assets/inspect-x1.js']);
  });

  it('a build made without INSPECT (as npm run build makes it) has none', { timeout: 120_000 }, async () => {
    const outDir = join(work, 'production');
    const { INSPECT: _inspect, ...env } = process.env;
    await viteBuild({ outDir, logFile: join(work, 'build.log'), env });
    // The build is there (its entry chunk and the lazy views), and none of its files carries the hook.
    expect(readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js')).length).toBeGreaterThan(3);
    expect(readdirSync(outDir)).not.toContain('inspect.json');
    expect(filesWithInspection(outDir)).toEqual([]);
  });
});
