import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APP_BASE, isAppPage } from '../domain/app-routes';
import { DEFAULT_LOCALE, isLocale, LANGUAGE_COOKIE, LOCALES, pickLocale, type Locale } from '../domain/locale';
import { DEMO_BANNER_TEXTS, withDemoBanner } from './demo-banner';
import { readSession } from './session';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TV Checkout</title></head>
<body><main><h1>TV Checkout</h1><p>The API is running. The shopper app has not been built yet: run <code>npm run build</code>.</p></main></body></html>`;

/** A page as built, and as the build compressed it (vite.config.ts writes .br and .gz beside it). */
interface Page {
  html: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  /** A page changed at run time (the demo's banner) is compressed on its first request, once; this fills br and gzip. */
  compress?: () => Promise<void>;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The page with the demo banner in its locale. Its compressed forms are made on the first request for
 * it and kept (the build's .br/.gz are of the page without the banner), so the start pays nothing.
 */
export function bannered(page: Page, locale: Locale): Page {
  const html = Buffer.from(withDemoBanner(page.html.toString('utf8'), DEMO_BANNER_TEXTS[locale]));
  let compressed: Promise<void> | null = null;
  const result: Page = {
    html,
    br: null,
    gzip: null,
    compress: () => {
      compressed ??= Promise.all([
        brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length } }),
        gzipAsync(html, { level: 9 }),
      ]).then(([br, gz]) => {
        result.br = br;
        result.gzip = gz;
      });
      return compressed;
    },
  };
  return result;
}

type PageVisitor = 'visitor' | 'guest' | 'client';
const VISITORS: readonly PageVisitor[] = ['visitor', 'guest', 'client'];

/**
 * The pages the build wrote (vite.config.ts, src/app/prerender.tsx): per locale, the index with its
 * first screen for each kind of visitor, and the starting shell of every other route.
 */
interface Pages {
  index: Record<Locale, Record<PageVisitor, Page>>;
  starting: Record<Locale, Page>;
}

function readPage(file: string): Page {
  const variant = (suffix: string) => (existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : null);
  return { html: readFileSync(file), br: variant('.br'), gzip: variant('.gz') };
}

function readPages(distDir: string, demoBanner: boolean): Pages | null {
  const dir = join(distDir, 'pages');
  if (!existsSync(dir)) return null;
  const byLocale = <T>(make: (locale: Locale) => T) => Object.fromEntries(LOCALES.map((locale) => [locale, make(locale)])) as Record<Locale, T>;
  const read = (file: string, locale: Locale) => (demoBanner ? bannered(readPage(join(dir, file)), locale) : readPage(join(dir, file)));
  return {
    index: byLocale((locale) => Object.fromEntries(VISITORS.map((visitor) => [visitor, read(`index.${locale}.${visitor}.html`, locale)])) as Record<PageVisitor, Page>),
    starting: byLocale((locale) => read(`starting.${locale}.html`, locale)),
  };
}

/** The browser's languages, most preferred first (Accept-Language, by quality). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const quality = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: quality === undefined ? 1 : Number(quality), order };
    })
    .filter(({ tag, quality }) => tag !== '' && tag !== '*' && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order)
    .map(({ tag }) => tag);
}

/**
 * Which page a path shows: a locale prefix names the locale (as in the app, the default locale has
 * none); an unprefixed path gets the locale the app will pick from the language cookie and the
 * browser's languages (the app may still move a visitor from Spain to Spanish, as only it knows the
 * country). The index shows the first screen of the session's kind of visitor.
 */
export async function pageOf(pages: Pages, request: FastifyRequest, path: string): Promise<Page> {
  const segments = path.slice('/checkout'.length).split('/').filter(Boolean);
  const prefix = segments[0] ?? '';
  const prefixed = isLocale(prefix) && prefix !== DEFAULT_LOCALE;
  const locale = prefixed ? prefix : pickLocale({ cookie: request.cookies?.[LANGUAGE_COOKIE], browserLanguages: acceptedLanguages(request.headers['accept-language']) });
  const isIndex = segments.length === (prefixed ? 1 : 0);
  if (!isIndex || !isAppPage(path)) return pages.starting[locale];
  const kind = (await readSession(request))?.kind;
  return pages.index[locale][kind === 'login' ? 'client' : kind === 'guest' ? 'guest' : 'visitor'];
}

/**
 * Serves the built SPA under /checkout/ with history fallback: the app's pages (APP_ROUTES) answer 200, any
 * other path under /checkout/ 404 with the app's shell, which shows the translated 404 page; unknown API
 * paths answer a 404 error body; `/` redirects to /checkout/. With `demoBanner` (demo mode) every page
 * carries the demo banner in its locale.
 */
export async function serveSpa(app: FastifyInstance, distDir: string, { demoBanner = false }: { demoBanner?: boolean } = {}): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/checkout/',
      // One route looking files up on request: listing the build into a route per file took a glob and
      // ~300 routes at every start; a path with no file falls through to the handler below.
      wildcard: true,
      index: false,
      // The pages are sent by the history fallback below, each to the visitors it is for; so are folders.
      // In the demo index.html goes through the handler too, which adds the banner.
      allowedPath: (pathName) => !pathName.startsWith('/pages/') && !pathName.endsWith('/') && !(demoBanner && pathName === '/index.html'),
      // The build writes .br and .gz beside each asset (vite.config.ts); they are sent when the browser accepts them.
      preCompressed: true,
      setHeaders: (response, path) => {
        response.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const pages = built ? readPages(distDir, demoBanner) : null;
  const builtIndex: Page = built ? readPage(indexFile) : { html: Buffer.from(PLACEHOLDER), br: null, gzip: null };
  // index.html is the default locale's index (vite.config.ts).
  const indexPage = demoBanner ? bannered(builtIndex, DEFAULT_LOCALE) : builtIndex;
  // The site's root has nothing of its own: a visitor typing the host lands on the checkout (a deep link's query kept).
  app.get('/', async (request, reply) => {
    const queryAt = request.url.indexOf('?');
    return reply.redirect(`${APP_BASE}/${queryAt === -1 ? '' : request.url.slice(queryAt)}`, 302);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path.startsWith('/checkout/api/') || path.startsWith('/checkout/aff/');
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && (path === '/checkout' || path.startsWith('/checkout/')) && !isApi && !path.startsWith('/checkout/assets/');
    if (!isPage) return reply.code(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${path}.` } });
    // A path the app has no page for is a 404 (no soft 404): the shell starts the app, which shows its 404 page.
    if (!isAppPage(path)) reply.code(404);
    const page = pages ? await pageOf(pages, request, path) : indexPage;
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (page.compress && /\b(br|gzip)\b/.test(accepted)) await page.compress();
    const [encoding, body] = page.br && /\bbr\b/.test(accepted) ? ['br', page.br] : page.gzip && /\bgzip\b/.test(accepted) ? ['gzip', page.gzip] : [null, page.html];
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', pages ? 'accept-encoding, accept-language, cookie' : 'accept-encoding')
      .send(body);
  });
}
