/**
 * One page's failed render answers that request with the translated error page (500) and a log line with
 * its request id and stack; every other request goes on. The render bundle here is the real one behind a
 * wrapper that fails for URLs naming `render-fault` (as a bug in one page would).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/build-if-stale';
import de from '../../src/i18n/locales/de-de.json';
import nl from '../../src/i18n/locales/nl-nl.json';
import { createTestApp, type TestApp } from './helper';

describe('a page whose render fails', () => {
  let t: TestApp;
  let distDir: string;
  const logLines: string[] = [];
  beforeAll(() => {
    // The real build (the api project's global setup makes it).
    distDir = join(mkdtempSync(join(tmpdir(), 'tvc-render-fault-')), 'dist');
    cpSync(join(ROOT, 'dist'), distDir, { recursive: true });
    const real = pathToFileURL(join(ROOT, 'dist', 'ssr', 'entry-server.js')).href;
    writeFileSync(join(distDir, 'ssr', 'entry-server.js'), [
      `import * as real from ${JSON.stringify(real)};`,
      `export * from ${JSON.stringify(real)};`,
      'export async function renderPage(request) {',
      "  if (request.url.includes('render-fault=sync')) throw new TypeError('a page bug');",
      "  if (request.url.includes('render-fault=later')) { await new Promise((settle) => setTimeout(settle, 5)); throw new RangeError('a later page bug'); }",
      '  return real.renderPage(request);',
      '}',
    ].join('\n'));
  }, 180_000);
  beforeAll(async () => {
    t = await createTestApp({ DIST_DIR: distDir, LOG_LEVEL: 'info' }, { logStream: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(join(distDir, '..'), { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });

  it('answers 500 with the error page in the page\'s locale, logged with its request id and stack', async () => {
    const answer = await get('/checkout/de-de/?render-fault=sync');
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toContain('<html lang="de-DE">');
    expect(answer.body).toContain(`<h1>${de.errors.generic}</h1>`);
    expect(answer.body).toContain(de.errors.status.replace('{{status}}', '500'));
    expect(answer.body).toContain(`href="/checkout/de-de"`);
    // Static: nothing of the app that failed is started again.
    expect(answer.body).not.toMatch(/<script\b/);
    const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; reqId?: string; err?: { stack?: string } }).find((line) => line.msg === 'server render failed');
    expect(logged?.reqId).toMatch(/\S/);
    expect(logged?.err?.stack).toContain('TypeError: a page bug');
  });

  it('fails only the requests it fails: the others, at the same time, get their pages', async () => {
    const urls = Array.from({ length: 24 }, (_, index) => (index % 3 === 0 ? `/checkout/?render-fault=later&n=${index}` : index % 3 === 1 ? `/checkout/en-gb/?n=${index}` : `/checkout/waiting?n=${index}`));
    const answers = await Promise.all(urls.map((url) => get(url)));
    for (const [index, answer] of answers.entries()) expect(answer.statusCode, urls[index]).toBe(index % 3 === 0 ? 500 : 200);
    expect((await get('/checkout/api/health')).statusCode).toBe(200);
  });

  it('says the status it answers with: a page the server cannot read is Error 400 in its locale', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/checkout/nl-nl/%E0%A4%A' });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain(nl.errors.status.replace('{{status}}', '400'));
    expect(answer.body).not.toContain('500');
  });
});
