import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parse } from 'yaml';
import { PAGE_SCRIPTS } from '../../src/domain/page-scripts';
import { API_DOCS_PATH, apiDocsPage } from '../../src/server/api-docs';
import { readConfig } from '../../src/server/config';
import { serveSpa } from '../../src/server/spa';
import { Browser, createTestApp, type TestApp } from './helper';

const ROOT = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'tvc-api-docs-'));
const docsFile = join(work, 'api-docs.html');

/** Every operationId of the contract, read from openapi.yaml itself. */
const spec = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
const operationIds = Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((operation) => (operation && typeof operation === 'object' && operation.operationId ? [operation.operationId] : [])));

let t: TestApp;

beforeAll(() => {
  // The page as `npm run build` renders it (package.json build:api-docs).
  const build = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['build-docs', 'openapi.yaml', '--inlineBundle', '-o', docsFile], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  expect(build.status, build.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('GET /checkout/api/docs', () => {
  it('in demo mode serves the Redoc reference of openapi.yaml, listing every operation, its inline scripts allowed by hash only', async () => {
    t = await createTestApp({}, { apiDocsFile: docsFile });
    const answer = await new Browser(t.app).request({ method: 'GET', url: API_DOCS_PATH, validate: false });
    expect(answer.status).toBe(200);
    expect(String(answer.headers['content-type'])).toMatch(/^text\/html/);
    expect(operationIds.length).toBeGreaterThan(30);
    for (const id of operationIds) expect(answer.text, id).toContain(`"operationId":"${id}"`);
    const policy = String(answer.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    expect(policy.split('; ').find((directive) => directive.startsWith('script-src'))).not.toContain('unsafe');
    // Built with Redoc's telemetry off (REDOCLY_TELEMETRY=off), and no script, style or font from elsewhere: the page works offline.
    expect(answer.text).toContain('"disableTelemetry":true');
    expect(answer.text).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
  });

  it('names the server it is served from (PUBLIC_URL), not the contract\'s localhost:3000, and not Redoc\'s CDN for its mark', async () => {
    const shop = await createTestApp({ PUBLIC_URL: 'https://tv.shop.example' }, { apiDocsFile: docsFile });
    try {
      const answer = await new Browser(shop.app).request({ method: 'GET', url: API_DOCS_PATH, validate: false });
      expect(answer.text).toContain('"servers":[{"url":"https://tv.shop.example"');
      expect(answer.text).not.toContain('localhost:3000');
      // Redoc's "API docs by" mark came from its CDN on every view (tests/e2e/25-api-reference.spec.ts counts the requests in Chromium).
      expect(answer.text).not.toContain('cdn.redoc.ly/redoc/logo');
    } finally {
      await shop.close();
    }
  });

  it('the CSP that allows the inline scripts is the docs page\'s alone: the checkout allows \'self\' and its own two page scripts by hash, nothing inline besides', async () => {
    const answer = await new Browser(t.app).request({ method: 'GET', url: '/checkout/', validate: false });
    const hashes = PAGE_SCRIPTS.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(hashes).toHaveLength(2);
    const scriptSrc = String(answer.headers['content-security-policy']).split(';').find((directive) => directive.startsWith('script-src '));
    expect(scriptSrc).toBe(`script-src 'self' ${hashes.join(' ')}`);
  });

  it('does not exist in production: 404 in the one error shape', async () => {
    const config = readConfig({ NODE_ENV: 'production', DIST_DIR: inject('distDir') });
    expect(config.mode).toBe('production');
    const app = Fastify();
    await app.register(async (scope) => apiDocsPage(scope, { demo: config.mode === 'demo', publicUrl: config.publicUrl, file: docsFile }));
    await serveSpa(app, config.distDir, { demoBanner: false });
    try {
      const answer = await app.inject({ method: 'GET', url: API_DOCS_PATH });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: { code: 'not_found', message: `No route GET ${API_DOCS_PATH}.` } });
    } finally {
      await app.close();
    }
  });
});
