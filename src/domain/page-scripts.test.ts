import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CAPTURE_SCRIPT, LOADER_SCRIPT, PAGE_SCRIPTS } from './page-scripts';

// Issue 30: the capture script is inline in every page's head, well under 1 kB; so is the loader.
describe("the page's inline scripts", () => {
  it.each([
    ['capture', CAPTURE_SCRIPT],
    ['loader', LOADER_SCRIPT],
  ])('the %s script is under 1 kB as written, and parses as a classic script', (_name, script) => {
    expect(Buffer.byteLength(script)).toBeLessThan(1000);
    expect(gzipSync(script).length).toBeLessThan(500);
    expect(() => new Function(script)).not.toThrow();
  });

  it('holds no "</script" that would end its element early', () => {
    for (const script of PAGE_SCRIPTS) expect(script.toLowerCase()).not.toContain('</script');
  });
});
