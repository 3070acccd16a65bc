import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_TARGETS, buildIfStale, staleness } from './build-if-stale';

/** A project of its own: every source and output the targets name, and build scripts that write their output and count runs. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'tvc-build-if-stale-'));
  // A folder's time counts too (a file added or removed changes it): each is set as old as its file.
  const write = (path: string, text: string, at: number) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    for (let part = path; part !== '.'; part = dirname(part)) utimesSync(join(root, part), at, at);
  };
  const scripts = Object.fromEntries(BUILD_TARGETS.map((target) => [
    target.script,
    `node -e "require('fs').mkdirSync(require('path').dirname('${target.output}'),{recursive:true});require('fs').writeFileSync('${target.output}','built');require('fs').appendFileSync('runs.log','${target.name}\\n')"`,
  ]));
  const sources = new Set(BUILD_TARGETS.flatMap((target) => target.sources));
  for (const source of sources) write(source.includes('.') ? source : `${source}/index.ts`, '//', 1_000);
  write('package.json', JSON.stringify({ name: 'fixture', private: true, scripts }), 1_000);
  writeFileSync(join(root, 'runs.log'), '');
  return root;
}

const runs = (root: string) => readFileSync(join(root, 'runs.log'), 'utf8').split('\n').filter(Boolean);
const touch = (root: string, path: string, at: number) => utimesSync(join(root, path), at, at);
const builtAt = (root: string, at: number) => BUILD_TARGETS.forEach((target) => utimesSync(join(root, target.output), at, at));

// Each build is a real npm run, slow on a loaded machine.
describe('buildIfStale', { timeout: 60_000 }, () => {
  let root: string;
  beforeEach(() => {
    root = project();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds both on a fresh clone, then nothing while no source changes', () => {
    expect(BUILD_TARGETS.map((target) => staleness(target, root))).toEqual(['missing', 'missing']);
    expect(buildIfStale({ root, log: () => {} })).toEqual(['SPA', 'server']);
    expect(BUILD_TARGETS.map((target) => staleness(target, root))).toEqual([null, null]);
    expect(buildIfStale({ root, log: () => {} })).toEqual([]);
    expect(runs(root)).toEqual(['SPA', 'server']);
  });

  it("quiet (npm start's first step): one line per step built, the build's own output kept back unless it fails", () => {
    const noisy = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const [name, command] of Object.entries(noisy.scripts)) noisy.scripts[name] = `echo BUILD-TOOL-BANNER && ${command}`;
    writeFileSync(join(root, 'package.json'), JSON.stringify(noisy));
    // In a process of its own, so what the builds print to the terminal is what is read here.
    const start = (quiet: boolean) => spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { buildIfStale } from ${JSON.stringify(join(import.meta.dirname, 'build-if-stale.ts'))}; buildIfStale({ root: ${JSON.stringify(root)}, quiet: ${quiet} });`], { encoding: 'utf8' });
    const quiet = start(true);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout.trim().split('\n').map((line) => line.replace(/\d+\.\d s/, 'N s'))).toEqual(['Built the SPA in N s (no dist/index.html)', 'Built the server in N s (no build/server/main.mjs)']);
    // The same builds not quiet show the tool's own output: the check above can see it.
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    expect(start(false).stdout).toContain('BUILD-TOOL-BANNER');
    // A failing build shows what it printed.
    noisy.scripts[BUILD_TARGETS[0]!.script] = 'echo BUILD-TOOL-BANNER && exit 3';
    writeFileSync(join(root, 'package.json'), JSON.stringify(noisy));
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    const failed = start(true);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain('BUILD-TOOL-BANNER');
  });

  it('rebuilds only what a changed source is part of', () => {
    buildIfStale({ root, log: () => {} });
    builtAt(root, 2_000);
    touch(root, 'src/app/index.ts', 2_500);
    expect(buildIfStale({ root, log: () => {} })).toEqual(['SPA']);
    builtAt(root, 3_000);
    touch(root, 'src/server/index.ts', 3_500);
    expect(buildIfStale({ root, log: () => {} })).toEqual(['server']);
    builtAt(root, 4_000);
    // Shared code is in both bundles.
    touch(root, 'src/domain/index.ts', 4_500);
    const said: string[] = [];
    expect(buildIfStale({ root, log: (line) => said.push(line) })).toEqual(['SPA', 'server']);
    expect(said).toEqual(['dist/index.html is older than its sources: building the SPA', 'build/server/main.mjs is older than its sources: building the server']);
    expect(runs(root)).toEqual(['SPA', 'server', 'SPA', 'server', 'SPA', 'server']);
  });

  it('builds only the targets asked for', () => {
    expect(buildIfStale({ root, log: () => {}, only: ['SPA'] })).toEqual(['SPA']);
    expect(staleness(BUILD_TARGETS[1]!, root)).toBe('missing');
  });

  it('throws when a build fails', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { 'build:spa': 'node -e "process.exit(3)"' } }));
    expect(() => buildIfStale({ root, log: () => {}, only: ['SPA'] })).toThrow('npm run build:spa failed (exit 3)');
  });
});

describe('buildIfStale and INSPECT', () => {
  it('rebuilds the SPA built with another INSPECT than the environment asks (INSPECT=on npm start after npm start)', () => {
    const root = mkdtempSync(join(tmpdir(), 'tvc-build-inspect-'));
    const previous = process.env.INSPECT;
    try {
      const spa = BUILD_TARGETS.find((target) => target.name === 'SPA')!;
      mkdirSync(join(root, 'dist'), { recursive: true });
      writeFileSync(join(root, 'dist', 'index.html'), 'built');
      delete process.env.INSPECT;
      expect(staleness(spa, root)).toBeNull();
      process.env.INSPECT = 'on';
      expect(staleness(spa, root)).toBe('inspect');
      writeFileSync(join(root, 'dist', 'inspect.json'), JSON.stringify({ mode: 'on', live: 'ws://localhost:3001/live' }));
      expect(staleness(spa, root)).toBeNull();
      delete process.env.INSPECT;
      expect(staleness(spa, root)).toBe('inspect');
    } finally {
      if (previous === undefined) delete process.env.INSPECT;
      else process.env.INSPECT = previous;
      rmSync(root, { recursive: true, force: true });
    }
  });
});
