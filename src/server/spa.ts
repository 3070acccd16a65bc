import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TV Checkout</title></head>
<body><main><h1>TV Checkout</h1><p>The API is running. The shopper app has not been built yet: run <code>npm run build</code>.</p></main></body></html>`;

/** Serves the built SPA under /checkout/ with history fallback; unknown API paths answer a 404 error body. */
export async function serveSpa(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/checkout/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); they are sent when the browser accepts them.
      preCompressed: true,
      setHeaders: (response, path) => {
        response.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const indexHtml = built ? readFileSync(indexFile, 'utf8') : PLACEHOLDER;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path.startsWith('/checkout/api/') || path.startsWith('/checkout/aff/');
    const isPage = request.method === 'GET' && (path === '/checkout' || path.startsWith('/checkout/')) && !isApi && !path.startsWith('/checkout/assets/');
    if (isPage) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    return reply.code(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${path}.` } });
  });
}
