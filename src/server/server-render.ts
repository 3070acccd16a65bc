/**
 * Pages rendered per request by the app itself (the build's <dist>/ssr/entry-server.js, made from
 * src/app/entry-server.tsx), with the API answers the render used embedded for the browser to hydrate
 * from. The render's calls go in-process to this Fastify app (inject) with the request's cookie,
 * languages and forwarding headers. The shared part of an index page is cached (bounded, LRU) per
 * locale, kind of visitor, currency, catalogue version and the entry query's plan and add-ons; what is personal never is.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DehydratedData, RecordedAnswer, RenderRequest, RenderResult } from '../app/entry-server';
import { DEFAULT_LOCALE, isLocale, LANGUAGE_COOKIE, pickLocale, visitorCurrency, type Locale } from '../domain/locale';
import { ENTRY_SHAPES, FIRST_SCREEN_ENTRY_KEYS } from '../domain/entry-query';
import { escapeHtml } from './escape-html';

type EntryServer = typeof import('../app/entry-server');

/** A page as sent, before compression: the request's own data block goes between `before` and `after`. */
export interface RenderedPage {
  status: number;
  before: string;
  after: string;
  /** This request's data block (never cached). */
  requestBlock: string;
  /** True when the shared part came from the cache. */
  cached: boolean;
}

export type ServerPage = RenderedPage | { redirect: string };

/** The headers a trusted proxy sets: an in-process call carries them over, so the API sees the same address and scheme. */
export const PROXY_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-real-ip'];
/** Headers an in-process call carries over from the page's request, so the API sees the same visitor. */
const FORWARDED_HEADERS = ['cookie', 'accept-language', 'user-agent', ...PROXY_HEADERS];

/**
 * The cache key's part for an index URL's entry query, or null when the page is rendered for this request only:
 * a promo code (any text a visitor types makes a new one), a pid the catalogue does not sell, a malformed
 * option flag, or a repeated parameter. So the query can add at most plans × 4 × 4 pages per locale and visitor.
 */
export function cachedEntryKey(query: URLSearchParams, catalogue: unknown): string | null {
  if (query.has('promocode')) return null;
  if (FIRST_SCREEN_ENTRY_KEYS.some((key) => query.getAll(key).length > 1)) return null;
  const pid = query.get('pid');
  const sold = (catalogue as { products?: { pid?: unknown }[] } | null)?.products?.map((product) => String(product.pid)) ?? [];
  if (pid !== null && !sold.includes(pid)) return null;
  if (FIRST_SCREEN_ENTRY_KEYS.some((key) => query.has(key) && !ENTRY_SHAPES[key].test(query.get(key) ?? ''))) return null;
  return FIRST_SCREEN_ENTRY_KEYS.filter((key) => query.has(key)).map((key) => `${key}=${query.get(key)}`).join('&');
}
/** The session a cached page is rendered with, per kind of visitor: its user never shows on the first screen (the e-mail shows after hydration). */
export const STAND_IN_EMAIL = 'server-render@example.invalid';
const STAND_IN_SESSIONS = {
  visitor: { loggedIn: false, guest: false, userid: null, email: null },
  guest: { loggedIn: false, guest: true, userid: 'g_StandIn0Guest0Handle01', email: STAND_IN_EMAIL },
  client: { loggedIn: true, guest: false, userid: 1, email: STAND_IN_EMAIL },
} as const;
type PageVisitor = keyof typeof STAND_IN_SESSIONS;

export const PAGE_CACHE_ENTRIES = 500;


/** A bounded map that forgets the least recently used entry first. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }
  get size(): number {
    return this.entries.size;
  }
  values(): IterableIterator<V> {
    return this.entries.values();
  }
}

/** A cached page: its shared markup and the per-request calls its data block needs on every hit. */
interface CachedPage {
  status: number;
  before: string;
  after: string;
  requestUrls: string[];
}

export interface ServerRenderer {
  /** The page of a request, or null when the build has no render bundle (the starting shell is sent instead). */
  page(request: FastifyRequest, path: string): Promise<ServerPage | null>;
  /** The cached pages' shared markup (tests check nothing personal is in it). */
  readonly cache: LruCache<CachedPage>;
  /** Loads the render bundle now (the server calls it once listening), so the first page does not wait for it; a fault waits for that page. */
  preload(): Promise<void>;
}

/** The request's headers of these names (those sent once, as text). */
export function headersOf(request: FastifyRequest, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => {
    const value = request.headers[name];
    return typeof value === 'string' ? [[name, value]] : [];
  }));
}

/** In-process GETs with the request's headers, each made once per request. */
function inProcessGet(app: FastifyInstance, request: FastifyRequest, forwardedHeaders: readonly string[]) {
  const headers = headersOf(request, forwardedHeaders);
  const made = new Map<string, Promise<{ status: number; body: unknown }>>();
  return (url: string) => {
    let answer = made.get(url);
    if (!answer) {
      answer = app
        .inject({ method: 'GET', url, headers, remoteAddress: request.socket?.remoteAddress ?? request.ip })
        .then((response) => ({ status: response.statusCode, body: response.body === '' ? null : (JSON.parse(response.body) as unknown) }));
      made.set(url, answer);
    }
    return answer;
  };
}

function cookieHeader(request: FastifyRequest): string {
  const cookie = request.headers.cookie;
  return typeof cookie === 'string' ? cookie : '';
}

/** The page's data blocks: the shop's answers (cached with the page) and this request's own. */
function splitAnswers(answers: RecordedAnswer[], shareable: ReadonlySet<string>) {
  const isShareable = (answer: RecordedAnswer) => shareable.has(answer.url.split('?')[0] ?? '');
  return { shared: answers.filter(isShareable), personal: answers.filter((answer) => !isShareable(answer)) };
}

/**
 * `shareable`: the API paths whose answers are the shop's, the same for all (x-shareable-in-render in openapi.yaml): anything
 * else a render reads is one visitor's, never in a cached page. `countryHeader`: the header a trusted proxy names the
 * visitor's country in (COUNTRY_HEADER), carried over like the proxy's others.
 */
export function createServerRenderer(
  app: FastifyInstance,
  distDir: string,
  { shareable, banner, countryHeader = null, flowAnalytics = false }: { shareable: ReadonlySet<string>; banner?: (html: string, locale: Locale) => string; countryHeader?: string | null; flowAnalytics?: boolean },
): ServerRenderer {
  const forwardedHeaders = countryHeader ? [...FORWARDED_HEADERS, countryHeader] : FORWARDED_HEADERS;
  const bundle = join(distDir, 'ssr', 'entry-server.js');
  const templateFile = join(distDir, 'pages', 'template.html');
  const available = existsSync(bundle) && existsSync(templateFile);
  const cache = new LruCache<CachedPage>(PAGE_CACHE_ENTRIES);
  // Read once the server listens (preload) or on the first page request, whichever comes first; not before listening: the start stays short.
  let loaded: Promise<{ entry: EntryServer; template: string }> | null = null;
  const load = () => (loaded ??= import(pathToFileURL(bundle).href).then((entry: EntryServer) => ({ entry, template: readFileSync(templateFile, 'utf8') })));

  /**
   * The page around a render: language, title, the markup's own hints, #root's markup, the shared data block with the
   * page's translations; split where the request's block goes. Nothing here asks for a script: the page's loader
   * requests the app's module after the first paint.
   */
  const assemble = (template: string, result: Extract<RenderResult, { kind: 'page' }>, locale: Locale, shared: DehydratedData, entry: EntryServer) => {
    const marker = '<!--request-data-->';
    let html = template
      .replace(/<html lang="[^"]*">/, `<html lang="${result.lang}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(result.title)}</title>`)
      .replace(/(\s*)<\/head>/, (closing: string, space: string) => (result.head ? `${space}  ${result.head}${closing}` : closing))
      .replace('<div id="root"><!--app--></div>', () => `<div id="root" data-server-rendered="">${result.html}</div>${entry.dataBlock(entry.SHARED_DATA_ID, { ...shared, translations: result.translations })}${marker}`);
    if (banner) html = banner(html, locale);
    const at = html.indexOf(marker);
    return { before: html.slice(0, at), after: html.slice(at + marker.length) };
  };

  async function page(request: FastifyRequest, path: string): Promise<ServerPage | null> {
    if (!available) return null;
    const { entry, template } = await load();
    const queryAt = request.url.indexOf('?');
    const query = new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1));
    const segments = path.slice('/checkout'.length).split('/').filter(Boolean);
    const prefix = segments[0] ?? '';
    const prefixed = isLocale(prefix) && prefix !== DEFAULT_LOCALE;
    const isIndex = segments.length === (prefixed ? 1 : 0);
    const get = inProcessGet(app, request, forwardedHeaders);
    const now = Date.now();
    // In the request's own block, never in a cached page: each visitor's Sec-GPC / DNT is their own.
    const flowReport = flowAnalytics && flowReportAllowedBy(request);
    const browserLanguages = acceptedLanguages(request.headers['accept-language']);
    const renderRequest = (answer: RenderRequest['get']): RenderRequest => ({
      url: request.url,
      cookie: cookieHeader(request),
      browserLanguages,
      get: answer,
      now,
    });
    const [session, currency] = await Promise.all([get('/checkout/api/session'), get('/checkout/api/currency')]);
    const country = (currency.body as { country?: string } | null)?.country ?? null;
    const locale: Locale = prefixed ? prefix : pickLocale({ cookie: request.cookies?.[LANGUAGE_COOKIE], country, browserLanguages });
    // Personal: a saved form or payment (the `checkout` cookie), an automatic login or order. The app would move an unprefixed URL to another locale: the render says where.
    const personal = request.cookies?.checkout !== undefined || query.has('email') || query.has('auto_redirect');
    const cacheable = isIndex && !personal && (prefixed || locale === DEFAULT_LOCALE);
    const catalogue = cacheable ? await Promise.all([`/checkout/api/getProducts?locale=${locale}`, `/checkout/api/getGateway?locale=${locale}`, '/checkout/api/merchant'].map((url) => get(url))) : [];
    const entryQuery = cacheable ? cachedEntryKey(query, catalogue[0]?.body) : null;

    if (entryQuery !== null) {
      const sessionBody = session.body as { loggedIn?: boolean; guest?: boolean } | null;
      const kind: PageVisitor = sessionBody?.loggedIn ? 'client' : sessionBody?.guest ? 'guest' : 'visitor';
      const version = createHash('sha256').update(JSON.stringify(catalogue)).digest('base64url').slice(0, 16);
      const key = [locale, kind, visitorCurrency(locale, country), version, entryQuery, path].join('|');
      let cached = cache.get(key);
      const hit = cached !== undefined;
      if (!cached) {
        // The stand-in session of the kind: the cached markup holds no one's details.
        const standIn = (url: string) => (url === '/checkout/api/session' ? Promise.resolve({ status: 200, body: STAND_IN_SESSIONS[kind] }) : get(url));
        const result = await entry.renderPage(renderRequest(standIn));
        if (result.kind === 'redirect') return { redirect: result.location };
        const { shared, personal: perRequest } = splitAnswers(result.answers, shareable);
        cached = { status: result.status, ...assemble(template, result, locale, { answers: shared }, entry), requestUrls: perRequest.map((answer) => answer.url) };
        cache.set(key, cached);
      }
      const answers = await Promise.all(cached.requestUrls.map(async (url) => ({ url, ...(await get(url)) })));
      return { status: cached.status, before: cached.before, after: cached.after, requestBlock: entry.dataBlock(entry.REQUEST_DATA_ID, { answers, renderedAt: now, flowReport }), cached: hit };
    }

    const result = await entry.renderPage(renderRequest(get));
    if (result.kind === 'redirect') return { redirect: result.location };
    const { shared, personal: perRequest } = splitAnswers(result.answers, shareable);
    const { before, after } = assemble(template, result, locale, { answers: shared }, entry);
    return { status: result.status, before, after, requestBlock: entry.dataBlock(entry.REQUEST_DATA_ID, { answers: perRequest, renderedAt: now, flowReport }), cached: false };
  }

  const preload = async () => {
    if (!available) return;
    // A fault here is the first page's to report (it awaits the same promise), with its request.
    await load().then(() => undefined, () => { loaded = null; });
  };

  return { page, cache, preload };
}

/** False when the page's request asks not to be tracked: `Sec-GPC: 1` (Global Privacy Control) or `DNT: 1`. */
export function flowReportAllowedBy(request: Pick<FastifyRequest, 'headers'>): boolean {
  return request.headers['sec-gpc'] !== '1' && request.headers.dnt !== '1';
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
