import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config';
import { inspectLiveOrigin, refuseInspectBuild } from './inspect-build';

const root = mkdtempSync(join(tmpdir(), 'tvc-inspect-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dist = (name: string, inspect?: object) => {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (inspect) {
    writeFileSync(join(dir, 'inspect.json'), JSON.stringify(inspect));
  }
  return dir;
};

describe('a SPA built with INSPECT', () => {
  it('INSPECT=on: the page may connect to the studio on localhost (its origin), nothing for other builds', () => {
    expect(inspectLiveOrigin(dist('live', { mode: 'on', live: 'ws://localhost:3001/live' }))).toBe('ws://localhost:3001');
    expect(inspectLiveOrigin(dist('record', { mode: 'record', live: null }))).toBeNull();
    expect(inspectLiveOrigin(dist('plain'))).toBeNull();
    // Only a studio on this machine: a build pointing elsewhere gets no exception in the CSP.
    expect(inspectLiveOrigin(dist('elsewhere', { mode: 'on', live: 'ws://studio.example.com:3001/live' }))).toBeNull();
  });

  it('production refuses to serve it; demo serves it', () => {
    const built = dist('refused', { mode: 'record', live: null });
    expect(() => refuseInspectBuild({ mode: 'production', distDir: built })).toThrow(ConfigError);
    expect(() => refuseInspectBuild({ mode: 'production', distDir: built })).toThrow(/built with INSPECT/);
    expect(() => refuseInspectBuild({ mode: 'demo', distDir: built })).not.toThrow();
    expect(() => refuseInspectBuild({ mode: 'production', distDir: dist('clean') })).not.toThrow();
  });
});
