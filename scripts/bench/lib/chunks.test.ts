import { describe, expect, it } from 'vitest';
import { bytesByOwner, chunkNames, decodeVlq, htmlEntryKey, htmlReferences, ownerOf, ownFileOf, staticClosure, type Manifest } from './chunks';

const manifest: Manifest = {
  'index.html': { file: 'assets/index-a.js', src: 'index.html', isEntry: true, imports: ['_vendor-b.js'], dynamicImports: ['src/app/views/Waiting.tsx'], css: ['assets/index-c.css'] },
  '_vendor-b.js': { file: 'assets/vendor-b.js', name: 'vendor', imports: ['_shared-d.js'] },
  '_shared-d.js': { file: 'assets/shared-d.js', name: 'shared', imports: ['_vendor-b.js'], css: ['assets/shared-e.css'] },
  'src/app/views/Waiting.tsx': { file: 'assets/Waiting-f.js', src: 'src/app/views/Waiting.tsx', isDynamicEntry: true, imports: ['_shared-d.js'] },
};

describe('first screen of a Vite build', () => {
  it('follows static imports recursively, once each, and leaves dynamic imports out', () => {
    expect(htmlEntryKey(manifest)).toBe('index.html');
    expect(staticClosure(manifest, 'index.html')).toEqual({
      js: ['assets/index-a.js', 'assets/vendor-b.js', 'assets/shared-d.js'],
      css: ['assets/index-c.css', 'assets/shared-e.css'],
    });
  });

  it('reads what a built index.html loads up front', () => {
    const html = `<script type="module" crossorigin src="/checkout/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/checkout/assets/vendor-b.js">
      <link rel="stylesheet" crossorigin href="/checkout/assets/index-c.css"><link rel="icon" href="/checkout/favicon.svg">`;
    expect(htmlReferences(html, '/checkout/')).toEqual({ js: ['assets/index-a.js', 'assets/vendor-b.js'], css: ['assets/index-c.css'] });
  });

  it("counts the module a page's inline loader requests after the first paint", () => {
    const html = '<script>(function(){})()</script><div id="root"></div><script data-src="/checkout/assets/index-a.js">(function(){})()</script>';
    expect(htmlReferences(html, '/checkout/')).toEqual({ js: ['assets/index-a.js'], css: [] });
  });

  it('names chunks by their source or chunk name', () => {
    const names = chunkNames(manifest);
    expect(names.get('assets/vendor-b.js')).toBe('vendor');
    expect(names.get('assets/Waiting-f.js')).toBe('src/app/views/Waiting.tsx');
    expect(names.get('assets/index-c.css')).toBe('index.html (css)');
  });
});

describe('source-map attribution', () => {
  it('decodes base64 VLQ', () => {
    expect(decodeVlq('AAAA')).toEqual([0, 0, 0, 0]);
    expect(decodeVlq('CAAC')).toEqual([1, 0, 0, 1]);
    expect(decodeVlq('D')).toEqual([-1]);
    expect(decodeVlq('gBAAA')).toEqual([16, 0, 0, 0]);
  });

  it('names the owner of a source path', () => {
    expect(ownerOf('../../node_modules/react-dom/cjs/react-dom.production.js')).toBe('react-dom');
    expect(ownerOf('../../node_modules/@tanstack/router-core/dist/esm/router.js')).toBe('@tanstack/router-core');
    expect(ownerOf('../../node_modules/a/node_modules/b/index.js')).toBe('b');
    expect(ownerOf('../../src/app/views/Home.tsx')).toBe('src/app');
    expect(ownerOf('../../machines/checkout.machine.ts')).toBe('machines');
    expect(ownerOf('\0vite/preload-helper.js')).toBe('(vite runtime)');
  });

  it('names each file of our own by its path in the repository, and every package as one', () => {
    expect(ownFileOf('../../../../work/wt/src/app/views/CheckoutView.tsx')).toBe('src/app/views/CheckoutView.tsx');
    expect(ownFileOf('../../machines/checkout.form.ts')).toBe('machines/checkout.form.ts');
    expect(ownFileOf('../../node_modules/react-dom/cjs/react-dom.production.js')).toBe('(packages)');
    expect(ownFileOf('\0vite/preload-helper.js')).toBe('(vite runtime)');
  });

  it('gives each mapped segment the bytes up to the next one', () => {
    // Line 1: "abcdef" with segments at column 0 (source 0) and column 4 (source 1); line 2: "gh" unmapped.
    const owners = bytesByOwner('abcdef\ngh', { sources: ['node_modules/x/a.js', 'src/app/b.ts'], mappings: 'AAAA,ICAA;' });
    expect(Object.fromEntries(owners)).toEqual({ x: 4, 'src/app': 2, '(unmapped)': 3 });
  });
});
