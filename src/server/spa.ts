import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_BASE, isAppPage } from '../domain/app-routes';
import { DEFAULT_LOCALE, isLocale, LANGUAGE_COOKIE, LOCALES, pickLocale, type Locale } from '../domain/locale';
import { recordNewAffiliateClick } from './affiliate-click';
import { DEMO_BANNER_TEXTS, withDemoBanner } from './demo-banner';
import { escapeHtml } from './escape-html';
import { carriesCredentials, cleanPath, isPageRequest } from './page-paths';
import { contractOperations, shareableInRender } from './operations';
import { NO_METRICS, type ShopMetrics } from './ops/metrics';
import { acceptedLanguages, createServerRenderer, type RenderedPage, type ServerRenderer } from './server-render';

export { acceptedLanguages };

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

function readPage(file: string): Page {
  const variant = (suffix: string) => (existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : null);
  return { html: readFileSync(file), br: variant('.br'), gzip: variant('.gz') };
}

/** The starting shell of each locale (vite.config.ts): sent when a page cannot be rendered on the server. */
type StartingPages = Record<Locale, Page>;

function readStartingPages(distDir: string, demoBanner: boolean): StartingPages | null {
  const dir = join(distDir, 'pages');
  if (!existsSync(dir)) return null;
  const read = (locale: Locale) => {
    const page = readPage(join(dir, `starting.${locale}.html`));
    return demoBanner ? bannered(page, locale) : page;
  };
  return Object.fromEntries(LOCALES.map((locale) => [locale, read(locale)])) as StartingPages;
}

/** What a path must hold to be spelled other than cleanly: a doubled slash, a dot segment (also encoded) or a backslash. */
const UNCLEAN_PATH = /\/\/|\/(?:\.|%2e)|\\|%5c/i;

/** Where the build's error page has its status (src/app/prerender.tsx SERVER_ERROR_STATUS_MARKER). */
const STATUS_MARKER = '__STATUS__';

/** An error page in every locale (the build's, else a plain one): sent when a page cannot be answered as asked. */
type ErrorPages = Record<Locale, string>;

function readErrorPages(distDir: string): ErrorPages {
  const plain = (locale: Locale) => `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>TV Checkout</title></head><body><main><h1>Error ${STATUS_MARKER}</h1><p><a href="${APP_BASE}/">TV Checkout</a></p></main></body></html>`;
  const read = (locale: Locale) => {
    const file = join(distDir, 'pages', `error.${locale}.html`);
    return existsSync(file) ? readFileSync(file, 'utf8') : plain(locale);
  };
  return Object.fromEntries(LOCALES.map((locale) => [locale, read(locale)])) as ErrorPages;
}

/**
 * The locale of a path: a prefix names it (as in the app, the default locale has none); an unprefixed
 * path gets the locale the app will pick from the language cookie and the browser's languages.
 */
export function localeOf(request: FastifyRequest, path: string): Locale {
  const prefix = path.slice('/checkout'.length).split('/').filter(Boolean)[0] ?? '';
  if (isLocale(prefix) && prefix !== DEFAULT_LOCALE) return prefix;
  return pickLocale({ cookie: request.cookies?.[LANGUAGE_COOKIE], browserLanguages: acceptedLanguages(request.headers['accept-language']) });
}

const brotliFast = (html: Buffer) => brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length } });

/** A rendered page's body in the encoding the browser takes: its request's data block makes each one its own, compressed once. */
async function encodedPage(page: RenderedPage, accepted: string): Promise<[string | null, Buffer]> {
  const html = Buffer.from(`${page.before}${page.requestBlock}${page.after}`);
  if (/\bbr\b/.test(accepted)) return ['br', await brotliFast(html)];
  if (/\bgzip\b/.test(accepted)) return ['gzip', await gzipAsync(html, { level: 6 })];
  return [null, html];
}

/**
 * Serves the built SPA under /checkout/ with history fallback: the app's pages (APP_ROUTES) answer 200, any
 * other path under /checkout/ 404 with the app's shell, which shows the translated 404 page; unknown API
 * paths answer a 404 error body; `/` redirects to /checkout/. With `demoBanner` (demo mode) every page
 * carries the demo banner in its locale.
 */
export async function serveSpa(
  app: FastifyInstance,
  distDir: string,
  {
    demoBanner = false,
    countryHeader = null,
    shareable = shareableInRender(contractOperations()),
    metrics = NO_METRICS,
    flowAnalytics = false,
  }: { demoBanner?: boolean; countryHeader?: string | null; shareable?: ReadonlySet<string>; metrics?: ShopMetrics; flowAnalytics?: boolean } = {},
): Promise<void> {
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
      allowedPath: (pathName) => !pathName.startsWith('/pages/') && !pathName.startsWith('/ssr/') && !pathName.endsWith('/') && !pathName.includes('\\') && !(demoBanner && pathName === '/index.html'),
      // The build writes .br and .gz beside each asset (vite.config.ts); they are sent when the browser accepts them.
      preCompressed: true,
      setHeaders: (response, path) => {
        response.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const starting = built ? readStartingPages(distDir, demoBanner) : null;
  const renderer: ServerRenderer = createServerRenderer(app, distDir, { shareable, banner: demoBanner ? (html, locale) => withDemoBanner(html, DEMO_BANNER_TEXTS[locale]) : undefined, countryHeader, flowAnalytics });
  // The page cache, for the tests that check what it holds.
  app.decorate('serverRenderer', renderer);
  // Once listening, the render bundle loads in the background (~0.1 s of import) instead of on the first page request.
  app.addHook('onListen', (done) => {
    setImmediate(() => void renderer.preload());
    done();
  });
  const builtIndex: Page = built ? readPage(indexFile) : { html: Buffer.from(PLACEHOLDER), br: null, gzip: null };
  // index.html is the default locale's index (vite.config.ts).
  const indexPage = demoBanner ? bannered(builtIndex, DEFAULT_LOCALE) : builtIndex;
  // The site's root has nothing of its own: a visitor typing the host lands on the checkout (a deep link's query kept).
  app.get('/', async (request, reply) => {
    const queryAt = request.url.indexOf('?');
    return reply.redirect(`${APP_BASE}/${queryAt === -1 ? '' : request.url.slice(queryAt)}`, 302);
  });
  const errorPages = readErrorPages(distDir);
  // A page the server failed to answer (its render threw, or the request could not be read): the translated error page with its status.
  app.decorate('sendErrorPage', (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const path = request.url.split('?')[0] ?? '';
    const html = errorPages[localeOf(request, path)].replace(STATUS_MARKER, escapeHtml(String(status)));
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
  // One spelling per page: dot segments and doubled slashes go to the clean path (the static files' handler would refuse them with 403).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    // Every API call passes here: only a path that could be unclean is walked.
    if (!UNCLEAN_PATH.test(path) || (!path.startsWith(APP_BASE) && !path.startsWith(`/${APP_BASE}`))) return undefined;
    const clean = cleanPath(path);
    // A backslash names no page (the static files' handler would refuse it with 403): the app's 404 page answers.
    if (clean === path) return /\\|%5c/i.test(path) ? reply.callNotFound() : undefined;
    if (!isPageRequest(request.method, clean)) return app.sendErrorPage(request, reply, 404);
    return reply.redirect(`${clean}${queryAt === -1 ? '' : request.url.slice(queryAt)}`, 301);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!isPageRequest(request.method, path)) return reply.code(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${path}.` } });
    // A path the app has no page for is a 404 (no soft 404): the shell starts the app, which shows its 404 page.
    if (!isAppPage(path)) reply.code(404);
    const accepted = String(request.headers['accept-encoding'] ?? '');
    reply.type('text/html; charset=utf-8').header('cache-control', carriesCredentials(path) ? 'no-store' : 'no-cache').header('vary', starting ? 'accept-encoding, accept-language, cookie' : 'accept-encoding');
    if (starting) {
      // A lost click must not cost the shopper the page.
      await recordNewAffiliateClick(app, request, reply).catch((error: unknown) => request.log.warn({ err: error }, 'affiliate click not recorded'));
      const rendered = await renderer.page(request, path).catch((error: unknown) => {
        request.log.error({ err: error, path }, 'server render failed');
        return 'failed' as const;
      });
      if (rendered === 'failed') return app.sendErrorPage(request, reply, 500);
      if (rendered && 'redirect' in rendered) return reply.code(302).header('location', rendered.redirect).send();
      if (rendered) {
        metrics.render(rendered.cached ? 'hit' : 'miss');
        const [encoding, body] = await encodedPage(rendered, accepted);
        if (encoding) reply.header('content-encoding', encoding);
        return reply.code(isAppPage(path) ? rendered.status : 404).send(body);
      }
    }
    const page = starting ? starting[localeOf(request, path)] : indexPage;
    if (page.compress && /\b(br|gzip)\b/.test(accepted)) await page.compress();
    const [encoding, body] = page.br && /\bbr\b/.test(accepted) ? ['br', page.br] : page.gzip && /\bgzip\b/.test(accepted) ? ['gzip', page.gzip] : [null, page.html];
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    serverRenderer: ServerRenderer;
    /** Answers a page request with the translated error page and this status. */
    sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply;
  }
}
