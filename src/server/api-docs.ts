/**
 * The API reference at /checkout/api/docs, demo mode only (production answers 404 like any unknown
 * path): the Redoc page `npm run build` renders from openapi.yaml (build/api-docs.html, everything
 * inline, no CDN). Its inline scripts are allowed for this page alone, by their hashes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from './project-root';

export const API_DOCS_PATH = '/checkout/api/docs';
export const DEFAULT_API_DOCS_FILE = join(projectRoot, 'build', 'api-docs.html');

/** The CSP of the page: the app's own, with its inline scripts allowed by hash (no 'unsafe-inline'). */
export function apiDocsPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body ?? '').digest('base64')}'`,
  );
  return [
    "default-src 'self'", `script-src 'self' ${hashes.join(' ')}`, "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
    "font-src 'self' data:", "connect-src 'self'", "worker-src 'self' blob:", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'",
  ].join('; ');
}

/** The server openapi.yaml names (its examples' links too): the page names the server it is served from instead. */
const CONTRACT_SERVER = 'http://localhost:3000';
/** Redoc's "API docs by" mark is fetched from Redocly's CDN: the page asks for nothing beyond this server (an empty local image instead). */
const REDOC_CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

/** The built page as this server serves it: its own origin as the API's server, and no request to another site. */
export function servedApiDocs(built: string, publicUrl: string): string {
  return built.replaceAll(CONTRACT_SERVER, publicUrl.replace(/\/+$/, '')).replace(REDOC_CDN_LOGO, EMPTY_IMAGE);
}

export async function apiDocsPage(app: FastifyInstance, { demo, publicUrl, file = DEFAULT_API_DOCS_FILE }: { demo: boolean; publicUrl: string; file?: string | undefined }): Promise<void> {
  if (!demo) return;
  let cached: { mtimeMs: number; html: string; policy: string } | null = null;
  app.get(API_DOCS_PATH, async (_request, reply) => {
    if (!existsSync(file)) {
      return reply.code(503).send({ error: { code: 'docs_not_built', message: 'The API reference is not built: run npm run build (it writes build/api-docs.html).' } });
    }
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs !== mtimeMs) {
      const html = servedApiDocs(readFileSync(file, 'utf8'), publicUrl);
      cached = { mtimeMs, html, policy: apiDocsPolicy(html) };
    }
    return reply.type('text/html; charset=utf-8').header('content-security-policy', cached.policy).header('cache-control', 'no-cache').send(cached.html);
  });
}
