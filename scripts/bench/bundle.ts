/** Measure 1: builds the checkout and the floor app, and sizes every JS and CSS chunk and the first screen. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bytesByOwner, chunkNames, gzipSize, htmlEntryKey, htmlReferences, ownerOf, ownFileOf, staticClosure, type Manifest } from './lib/chunks';
import { ROOT, runCommand, tail } from './lib/proc';
import { INSPECTION_MARKER } from '../../src/app/inspect/live-protocol';

export interface Chunk {
  file: string;
  name: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  /** The size of the build's own .br beside the file, when it writes them (what a browser is sent). */
  brotli: number | null;
  firstScreen: boolean;
}

export interface BuildAnalysis {
  outDir: string;
  buildMs: number;
  chunks: Chunk[];
  firstScreen: { js: string[]; css: string[]; jsGzip: number; cssGzip: number; jsRaw: number; jsBrotli: number | null };
  /** Where the first screen's JS lists come from. */
  source: 'manifest' | 'index.html';
  /** Differences between the manifest's static closure and index.html's preloads, if any. */
  notes: string[];
  /** gzip bytes of the first screen's JS by package or folder, apportioned by source-map bytes. */
  owners: { owner: string; raw: number; gzip: number }[];
  /** The same for each file of our own (src/…, machines/…), packages together as '(packages)'. */
  ownFiles: { owner: string; raw: number; gzip: number }[];
  /** JS files carrying the statechart inspection hook (src/app/inspect): none in a build made without INSPECT. */
  inspection: string[];
}

/** The files of a build whose text contains the marker of the statechart inspection hook. */
export function filesWithInspection(outDir: string): string[] {
  return walk(outDir)
    .filter((path) => /\.(m?js|html)$/.test(path) && readFileSync(path, 'utf8').includes(INSPECTION_MARKER))
    .map((path) => relative(outDir, path).replace(/\\/g, '/'));
}

/** Runs `vite build` with a manifest and hidden source maps into `outDir`. */
export async function viteBuild(options: { outDir: string; logFile: string; config?: string; env?: NodeJS.ProcessEnv }): Promise<number> {
  const args = [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', options.outDir, '--emptyOutDir', '--manifest', '--sourcemap', 'hidden'];
  if (options.config) args.push('--config', options.config);
  const result = await runCommand(process.execPath, args, { logFile: options.logFile, env: options.env });
  if (result.code !== 0) throw new Error(`vite build${options.config ? ` --config ${options.config}` : ''} failed (exit ${result.code}):\n${tail(options.logFile, 25)}`);
  return result.ms;
}

const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});

/** Sizes a build: every .js and .css file under outDir, and the first screen of index.html. */
export function analyseBuild(outDir: string, buildMs: number, base = '/checkout/'): BuildAnalysis {
  const manifestFile = join(outDir, '.vite/manifest.json');
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const fromHtml = htmlReferences(html, base);
  const notes: string[] = [];
  let manifest: Manifest = {};
  let first = fromHtml;
  let source: BuildAnalysis['source'] = 'index.html';
  if (existsSync(manifestFile)) {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    first = staticClosure(manifest, htmlEntryKey(manifest));
    source = 'manifest';
    const missing = first.js.filter((file) => !fromHtml.js.includes(file));
    const extra = fromHtml.js.filter((file) => !first.js.includes(file));
    if (missing.length) notes.push(`static imports not preloaded by index.html: ${missing.join(', ')}`);
    if (extra.length) notes.push(`index.html also loads: ${extra.join(', ')}`);
    first = { js: [...new Set([...first.js, ...extra])], css: [...new Set([...first.css, ...fromHtml.css])] };
  }
  const names = chunkNames(manifest);
  const chunks: Chunk[] = walk(outDir)
    .map((path) => relative(outDir, path).replace(/\\/g, '/'))
    .filter((file) => /\.(m?js|css)$/.test(file))
    .map((file) => {
      const content = readFileSync(join(outDir, file));
      const kind = file.endsWith('.css') ? 'css' as const : 'js' as const;
      const br = join(outDir, `${file}.br`);
      const brotli = existsSync(br) ? statSync(br).size : null;
      return { file, name: names.get(file) ?? file, kind, raw: content.length, gzip: gzipSize(content), brotli, firstScreen: first.js.includes(file) || first.css.includes(file) };
    })
    .sort((a, b) => Number(b.firstScreen) - Number(a.firstScreen) || b.gzip - a.gzip);
  const sum = (files: string[], field: 'raw' | 'gzip') => files.reduce((total, file) => total + (chunks.find((chunk) => chunk.file === file)?.[field] ?? 0), 0);

  /** The first screen's gzip bytes shared out by `owning` each source of the source maps. */
  const shareOut = (owning: (source: string) => string) => {
    const owners = new Map<string, { raw: number; gzip: number }>();
    for (const file of first.js) {
      const mapFile = join(outDir, `${file}.map`);
      const chunk = chunks.find((candidate) => candidate.file === file);
      if (!chunk || !existsSync(mapFile)) continue;
      const byOwner = bytesByOwner(readFileSync(join(outDir, file), 'utf8'), JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string }, owning);
      for (const [owner, raw] of byOwner) {
        const entry = owners.get(owner) ?? { raw: 0, gzip: 0 };
        entry.raw += raw;
        entry.gzip += (raw / chunk.raw) * chunk.gzip;
        owners.set(owner, entry);
      }
    }
    return [...owners].map(([owner, size]) => ({ owner, ...size })).sort((a, b) => b.gzip - a.gzip);
  };
  return {
    outDir,
    buildMs,
    chunks,
    firstScreen: {
      js: first.js, css: first.css, jsGzip: sum(first.js, 'gzip'), cssGzip: sum(first.css, 'gzip'), jsRaw: sum(first.js, 'raw'),
      jsBrotli: first.js.every((file) => chunks.find((chunk) => chunk.file === file)?.brotli != null)
        ? first.js.reduce((total, file) => total + (chunks.find((chunk) => chunk.file === file)?.brotli ?? 0), 0)
        : null,
    },
    source,
    notes,
    owners: shareOut(ownerOf),
    ownFiles: shareOut(ownFileOf),
    inspection: filesWithInspection(outDir),
  };
}

/** Raw bytes of one source file (path ending) in the first screen's JS by the source maps, and its share of their gzip bytes. */
export function firstScreenShare(analysis: BuildAnalysis, source: string): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const file of analysis.firstScreen.js) {
    const mapFile = join(analysis.outDir, `${file}.map`);
    const chunk = analysis.chunks.find((candidate) => candidate.file === file);
    if (!chunk || !existsSync(mapFile)) continue;
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    // Owners are named by path: the measured source becomes a package of its own, everything else one other owner.
    const sources = map.sources.map((name) => (name.replace(/\\/g, '/').endsWith(source) ? 'node_modules/(measured)/source' : 'node_modules/(rest)/source'));
    const bytes = bytesByOwner(readFileSync(join(analysis.outDir, file), 'utf8'), { sources, mappings: map.mappings }).get('(measured)') ?? 0;
    raw += bytes;
    gzip += (bytes / chunk.raw) * chunk.gzip;
  }
  return { raw, gzip: Math.round(gzip) };
}

/** The gzip size of a URL's file in a build, when the URL points into it (for what Chromium actually fetched). */
export function gzipOfUrl(analysis: BuildAnalysis, url: string, base = '/checkout/'): number | null {
  const path = new URL(url).pathname;
  if (!path.startsWith(base)) return null;
  const chunk = analysis.chunks.find((candidate) => candidate.file === path.slice(base.length));
  return chunk ? chunk.gzip : null;
}

/**
 * Builds the server the way `npm start` runs it: package.json's build:server script, its --outfile moved
 * to build/bench/main.mjs (inside the project, where the server finds its root). Null when there is no
 * such script: the server then runs through tsx from the sources.
 */
export async function buildServerBundle(logFile: string): Promise<{ entry: string[]; label: string } | null> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.['build:server'];
  if (!script) return null;
  const outfile = 'build/bench/main.mjs';
  const command = /--outfile[= ]\S+/.test(script) ? script.replace(/--outfile[= ]\S+/, `--outfile=${outfile}`) : `${script} --outfile=${outfile}`;
  const result = await runCommand('sh', ['-c', command], { logFile, env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}` } });
  if (result.code !== 0) throw new Error(`${command} failed (exit ${result.code}):\n${tail(logFile, 25)}`);
  return { entry: [outfile], label: `node ${outfile} (package.json's build:server, as npm start runs the server)` };
}
