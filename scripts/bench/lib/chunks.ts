/**
 * Reading a Vite build: which chunks the first screen loads (from the manifest, or from index.html when
 * there is none), gzip sizes, and which packages the bytes of a chunk come from (from its source map).
 * Pure functions over strings and objects, so they have tests of their own.
 */
import { gzipSync } from 'node:zlib';

/** One entry of Vite's `.vite/manifest.json`. */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** gzip size with zlib's default level (6), the level most servers compress on the fly with. */
export const gzipSize = (content: Buffer | string): number => gzipSync(content).length;

/**
 * The files an entry loads before anything else: its own file, the files of its static imports (followed
 * recursively, as Vite's modulepreload links do) and the CSS of all of them. Dynamic imports are left out.
 */
export function staticClosure(manifest: Manifest, entryKey: string): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    if (chunk.file.endsWith('.js') || chunk.file.endsWith('.mjs')) js.push(chunk.file);
    else if (chunk.file.endsWith('.css')) css.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return { js, css: [...css] };
}

/** The key of the HTML entry in a manifest (index.html for a Vite app). */
export function htmlEntryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.isEntry && candidate.endsWith('index.html'))
    ?? Object.keys(manifest).find((candidate) => manifest[candidate]?.isEntry);
  if (!key) throw new Error('the manifest has no entry');
  return key;
}

/** What a built index.html makes the browser fetch for its first screen: module scripts (its loader's too), modulepreloads and stylesheets. */
export function htmlReferences(html: string, base: string): { js: string[]; css: string[] } {
  const strip = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url.replace(/^\.?\//, ''));
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    if (/^<script/i.test(tag)) {
      const src = attribute(tag, 'src');
      if (src && /type\s*=\s*["']module["']/i.test(tag)) js.push(strip(src));
      // The page's inline loader (src/domain/page-scripts.ts) requests the module it names after the first paint.
      const loads = attribute(tag, 'data-src');
      if (loads) js.push(strip(loads));
    } else {
      const rel = attribute(tag, 'rel');
      const href = attribute(tag, 'href');
      if (!href) continue;
      if (rel === 'modulepreload') js.push(strip(href));
      else if (rel === 'stylesheet') css.push(strip(href));
    }
  }
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

/** A human name for a built file: the manifest's source path or chunk name, else the file name. */
export function chunkNames(manifest: Manifest): Map<string, string> {
  const names = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const name = chunk.src ?? (key.startsWith('_') ? chunk.name ?? key : key);
    if (!names.has(chunk.file)) names.set(chunk.file, name);
    for (const css of chunk.css ?? []) if (!names.has(css)) names.set(css, `${name} (css)`);
  }
  return names;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** Decodes one line's segments of a source map's `mappings` (base64 VLQ); each segment's fields are relative. */
export function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`bad VLQ character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** The package a source path of a map belongs to: `react-dom`, `@tanstack/router-core`, or our own folder. */
export function ownerOf(source: string): string {
  const normalised = source.replace(/\\/g, '/');
  const at = normalised.lastIndexOf('node_modules/');
  if (at >= 0) {
    const parts = normalised.slice(at + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : parts[0] ?? source;
  }
  if (normalised.includes('\0') || normalised.startsWith('vite/') || normalised.includes('vite/preload-helper') || normalised.includes('modulepreload-polyfill')) return '(vite runtime)';
  const own = /(?:^|\/)(src\/[^/]+|machines|scripts\/bench\/floor)\//.exec(normalised);
  return own ? (own[1] as string) : `(other) ${normalised.split('/').slice(-2).join('/')}`;
}

/** A source of our own as its path in the repository (src/app/router.tsx); every package's source is '(packages)'. */
export function ownFileOf(source: string): string {
  const owner = ownerOf(source);
  if (!/^(src\/|machines$|scripts\/bench\/floor$)/.test(owner)) return owner.startsWith('(') ? owner : '(packages)';
  const normalised = source.replace(/\\/g, '/');
  return normalised.slice(normalised.lastIndexOf(owner === 'machines' ? 'machines/' : `${owner}/`));
}

/**
 * Bytes of generated code per owner (package or folder of ours), read from a source map: each mapped
 * segment runs to the next one on its line; unmapped bytes and line breaks go to '(unmapped)'.
 */
export function bytesByOwner(code: string, map: { sources: string[]; mappings: string }, owning: (source: string) => string = ownerOf): Map<string, number> {
  const totals = new Map<string, number>();
  const add = (owner: string, bytes: number) => totals.set(owner, (totals.get(owner) ?? 0) + bytes);
  const owners = map.sources.map(owning);
  const codeLines = code.split('\n');
  const mapLines = map.mappings.split(';');
  let sourceIndex = 0;
  codeLines.forEach((line, lineNumber) => {
    const lineBytes = Buffer.byteLength(line, 'utf8');
    const segments: { column: number; owner: string }[] = [];
    let column = 0;
    for (const segment of (mapLines[lineNumber] ?? '').split(',')) {
      if (!segment) continue;
      const fields = decodeVlq(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        sourceIndex += fields[1] ?? 0;
        segments.push({ column, owner: owners[sourceIndex] ?? '(unmapped)' });
      } else {
        segments.push({ column, owner: '(unmapped)' });
      }
    }
    // Columns count UTF-16 units; minified output is nearly all ASCII, so they stand for bytes here.
    if (segments.length === 0) add('(unmapped)', lineBytes);
    else {
      add('(unmapped)', Math.min(segments[0]?.column ?? 0, lineBytes));
      segments.forEach((segment, index) => {
        const end = index + 1 < segments.length ? (segments[index + 1]?.column ?? line.length) : line.length;
        add(segment.owner, Math.max(0, end - segment.column));
      });
    }
    if (lineNumber < codeLines.length - 1) add('(unmapped)', 1);
  });
  return totals;
}
