import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderStartingScreen, type PrerenderedScreen } from '../app/prerender';
import { LOCALES, type Locale } from '../domain/locale';
import { DEMO_BANNER_TEXT } from '../../tests/support/demo-banner-texts';
import { withDemoBanner } from './demo-banner';
import { bannered, serveSpa } from './spa';

const BANNER_TEXT = DEMO_BANNER_TEXT;
const PREFIX: Record<Locale, string> = { 'en-en': '', 'en-gb': 'en-gb/', 'de-de': 'de-de/', 'es-es': 'es-es/', 'nl-nl': 'nl-nl/', 'pt-pt': 'pt-pt/' };

/** A page as vite.config.ts builds it: the repo's index.html with the app's prerendered first screen in #root. */
function builtPage(screen: PrerenderedScreen): string {
  const template = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
  return template
    .replace(/<html lang="[^"]*">/, `<html lang="${screen.lang}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${screen.title}</title>`)
    .replace('<div id="root"><!--app--></div>', `<div id="root">${screen.html}</div>`);
}

/** A dist with every page of a build, each with its .br and .gz, as the build writes them. */
async function realDist(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'demo-banner-test-'));
  mkdirSync(join(dir, 'pages'), { recursive: true });
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1);\n');
  const write = (file: string, html: string) => {
    writeFileSync(file, html);
    writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  };
  // Without the server's render bundle (ssr/) every page is its locale's starting shell.
  for (const locale of LOCALES) {
    const html = builtPage(renderStartingScreen(locale));
    write(join(dir, 'pages', `starting.${locale}.html`), html);
    if (locale === 'en-en') write(join(dir, 'index.html'), html);
  }
  return dir;
}

async function server(distDir: string, demoBanner: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyCookie, { secret: 'a test secret of enough length for signing' });
  await serveSpa(app, distDir, { demoBanner });
  await app.ready();
  return app;
}

const BANNER = /<aside class="tvc-demo-banner"[^>]*>([^<]*)<\/aside>/;

describe('the demo banner on the prerendered pages', () => {
  let dist: string;
  let demo: FastifyInstance;
  let production: FastifyInstance;
  const get = (app: FastifyInstance, url: string, encoding = 'identity') => app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
  const built = (name: string) => readFileSync(join(dist, 'pages', name), 'utf8');

  beforeAll(async () => {
    dist = await realDist();
    demo = await server(dist, true);
    production = await server(dist, false);
  });
  afterAll(async () => {
    await demo?.close();
    await production?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(LOCALES)('%s: every page carries the translated banner as the first child of <body>, before #root, the page otherwise as built', async (locale) => {
    for (const [url, name] of [[`/checkout/${PREFIX[locale]}`, `starting.${locale}.html`], [`/checkout/${PREFIX[locale]}waiting`, `starting.${locale}.html`]] as const) {
      const answer = await get(demo, url);
      expect(answer.statusCode).toBe(200);
      const html = answer.body;
      expect(BANNER.exec(html)?.[1], url).toBe(BANNER_TEXT[locale]);
      expect(html).toMatch(/<body>\s*<aside class="tvc-demo-banner"/);
      expect(html.indexOf('tvc-demo-banner')).toBeLessThan(html.indexOf('<div id="root">'));
      // Not an alert: nothing announces it on load.
      expect(BANNER.exec(html)?.[0]).not.toMatch(/role="(alert|status)"|aria-live/);
      expect(html.replace(BANNER, '')).toBe(built(name));
    }
  });

  it('index.html itself, asked for by name, carries the banner too', async () => {
    expect(BANNER.exec((await get(demo, '/checkout/index.html')).body)?.[1]).toBe(BANNER_TEXT['en-en']);
  });

  it('the compressed pages decode to the bannered page, made once and kept', async () => {
    for (const locale of LOCALES) {
      const plain = (await get(demo, `/checkout/${PREFIX[locale]}`)).body;
      const br = await get(demo, `/checkout/${PREFIX[locale]}`, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain);
      const gzip = await get(demo, `/checkout/${PREFIX[locale]}`, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain);
      expect(plain).toContain(BANNER_TEXT[locale]);
      // Compressed to about the build's size (the banner adds a few hundred bytes, not a page).
      expect(br.rawPayload.length).toBeLessThan(readFileSync(join(dist, 'pages', `starting.${locale}.html.br`)).length + 400);
    }
    const page = bannered({ html: Buffer.from(built('starting.de-de.html')), br: null, gzip: null }, 'de-de');
    await page.compress?.();
    const first = { br: page.br, gzip: page.gzip };
    await page.compress?.();
    expect(first.br).not.toBeNull();
    expect(page.br).toBe(first.br);
    expect(page.gzip).toBe(first.gzip);
  });

  it('in production nothing is injected: the pages and their compressed forms are the build\'s bytes', async () => {
    for (const locale of LOCALES) {
      const name = `starting.${locale}.html`;
      const plain = await get(production, `/checkout/${PREFIX[locale]}`);
      expect(plain.body).toBe(built(name));
      expect(plain.body).not.toContain('tvc-demo-banner');
      expect(plain.body).not.toContain(BANNER_TEXT[locale]);
      const br = await get(production, `/checkout/${PREFIX[locale]}`, 'br');
      expect(br.rawPayload.equals(readFileSync(join(dist, 'pages', `${name}.br`)))).toBe(true);
    }
  });

  it('costs the start little: the 7 pages are bannered in milliseconds, each compressed on its first request', async () => {
    const started = performance.now();
    const app = await server(dist, true);
    const startMs = performance.now() - started;
    const first = performance.now();
    await get(app, '/checkout/nl-nl/', 'br');
    const firstMs = performance.now() - first;
    const again = performance.now();
    await get(app, '/checkout/nl-nl/', 'br');
    const againMs = performance.now() - again;
    await app.close();
    console.log(`[demo banner] serveSpa with banners ${startMs.toFixed(1)} ms; first bannered br request ${firstMs.toFixed(1)} ms, next ${againMs.toFixed(1)} ms`);
    expect(startMs).toBeLessThan(1000);
  });
});

describe('withDemoBanner', () => {
  it('puts the banner right after <body …>, keeping its attributes, and escapes the text', () => {
    expect(withDemoBanner('<html><body class="x"><div id="root"></div></body></html>', 'A <b> & "c"')).toMatch(
      /^<html><body class="x"><aside class="tvc-demo-banner"[^>]*>A &#60;b&#62; &#38; &#34;c&#34;<\/aside><div id="root"><\/div><\/body><\/html>$/,
    );
  });
});
