import { describe, expect, it } from 'vitest';
import { frameOwner, summariseProfile } from './start';

describe('start profile summary', () => {
  it('names where a frame comes from', () => {
    expect(frameOwner('file:///repo/node_modules/@electric-sql/pglite/dist/index.js', 'create')).toBe('@electric-sql/pglite');
    expect(frameOwner('file:///repo/node_modules/yaml/dist/index.js', 'parse')).toBe('yaml');
    expect(frameOwner('node:internal/modules/esm/hooks', 'makeSyncRequest')).toBe('node (built-in modules)');
    expect(frameOwner('', '(idle)')).toBe('(idle)');
    expect(frameOwner('', 'writev')).toBe('(native)');
  });

  it('shares sampled time out by phase, package and function', () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url, lineNumber: 0 }, children });
    const profile = {
      nodes: [
        frame(1, '(root)', '', [2, 4, 5]),
        frame(2, 'buildApp', 'file:///repo/src/server/app.ts', [3]),
        frame(3, 'parse', 'file:///repo/node_modules/yaml/dist/index.js'),
        frame(4, 'create', 'file:///repo/node_modules/@electric-sql/pglite/dist/index.js'),
        frame(5, '(idle)', ''),
      ],
      samples: [3, 3, 4, 5],
      timeDeltas: [1000, 1000, 3000, 5000],
      startTime: 0,
      endTime: 10_000,
    };
    const summary = summariseProfile(profile, 'x.cpuprofile', 'main thread');
    expect(summary.totalMs).toBe(10);
    expect(summary.byPhase).toEqual([
      { phase: '(idle)', ms: 5 },
      { phase: 'PGlite (its JS and WASM)', ms: 3 },
      { phase: 'parsing openapi.yaml (yaml)', ms: 2 },
    ]);
    expect(summary.byOwner[0]).toEqual({ owner: '(idle)', selfMs: 5 });
    expect(summary.topFunctions.find((entry) => entry.name === 'parse')?.selfMs).toBe(2);
  });
});
