import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { frameOwner, resolveBundleFrames, startFigure, summariseProfile } from './start';

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
      { phase: 'parsing YAML (the catalogue file; yaml)', ms: 2 },
    ]);
    expect(summary.byOwner[0]).toEqual({ owner: '(idle)', selfMs: 5 });
    expect(summary.topFunctions.find((entry) => entry.name === 'parse')?.selfMs).toBe(2);
  });

  it('points the frames of a bundle back at the package each was bundled from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tvc-bundle-frames-'));
    try {
      mkdirSync(join(dir, 'node_modules/greeter'), { recursive: true });
      writeFileSync(join(dir, 'node_modules/greeter/index.js'), 'export function greet(name) {\n  return `hello ${name}`;\n}\n');
      writeFileSync(join(dir, 'main.js'), "import { greet } from 'greeter';\nconsole.log(greet('you'));\n");
      const bundle = join(dir, 'out.mjs');
      await build({ entryPoints: [join(dir, 'main.js')], bundle: true, format: 'esm', platform: 'node', sourcemap: true, outfile: bundle, logLevel: 'silent' });
      const lines = readFileSync(bundle, 'utf8').split('\n');
      const line = lines.findIndex((text) => text.includes('function greet'));
      const url = pathToFileURL(bundle).href;
      const profile = {
        nodes: [
          { id: 1, callFrame: { functionName: 'greet', url, lineNumber: line, columnNumber: lines[line]!.indexOf('function greet') } },
          { id: 2, callFrame: { functionName: 'elsewhere', url: 'node:internal/main', lineNumber: 3, columnNumber: 0 } },
        ],
        samples: [1], timeDeltas: [1000], startTime: 0, endTime: 1000,
      };
      const resolved = resolveBundleFrames(profile, bundle);
      expect(resolved.nodes[0]?.callFrame.url).toBe(pathToFileURL(join(dir, 'node_modules/greeter/index.js')).href);
      expect(frameOwner(resolved.nodes[0]!.callFrame.url, 'greet')).toBe('greeter');
      expect(resolved.nodes[1]).toEqual(profile.nodes[1]);
      rmSync(`${bundle}.map`);
      expect(resolveBundleFrames(profile, bundle)).toBe(profile);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('start figure', () => {
  it('shows the median with the fastest and slowest run', () => {
    expect(startFigure([912.4, 870, 1204.6, 880.2, 899])).toBe('899 ms (870–1205)');
    expect(startFigure([])).toBe('n/a');
  });
});
