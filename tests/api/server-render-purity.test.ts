/**
 * The server's render runs no browser code: every page, in every locale, with each entry parameter, is
 * rendered by the app's own server entry (src/app/entry-server.tsx) while every browser global is a trap
 * that records who reached for it. Libraries may look (`typeof window`), our code may not touch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../src/app/entry-server';
import { APP_BASE, APP_ROUTES } from '../../src/domain/app-routes';
import { DEFAULT_LOCALE, LOCALES } from '../../src/domain/locale';
import { createTestApp, type TestApp } from './helper';

const BROWSER_GLOBALS = ['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'self', 'matchMedia', 'requestAnimationFrame', 'IntersectionObserver', 'ResizeObserver'];

/** The spec's entry query, each page's own parameters, and a hostile value. */
const ENTRY_PARAMETERS = [
  '',
  '?promocode=WELCOME10',
  '?email=ann%40mail.test',
  '?pid=2',
  '?pid=2&email=ann%40mail.test&auto_redirect=true&extraconnect=1&proxyprotect=true&promocode=WELCOME10',
  '?extraconnect=true&proxyprotect=1',
  '?aff_id=partner_42',
  '?orderid=1001',
  '?serviceid=3001&invoiceid=2001',
  '?pid=%3C%2Fscript%3E&email=%3Cscript%3E&aff_id=%E2%80%AE',
];

const SAVED_PAYMENT = encodeURIComponent(JSON.stringify({ payment: { flow: 'order', order: { orderid: 1001, invoiceid: 2001, serviceid: 3001, fraud: false }, link: 'http://localhost:3000/checkout/sandbox/pay/x', gateway: 'sandbox', lastDate: 4_102_444_800_000, duration: 900_000 } }));

interface Touch {
  name: string;
  caller: string;
}

/** Replaces each browser global with a getter that records the first frame outside this file that read it. */
function trapBrowserGlobals(touches: Touch[]): () => void {
  const scope = globalThis as Record<string, unknown>;
  const saved = BROWSER_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(scope, name)] as const);
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(scope, name, {
      configurable: true,
      get() {
        const frames = (new Error().stack ?? '').split('\n').slice(2);
        touches.push({ name, caller: frames.find((frame) => !frame.includes('server-render-purity')) ?? '' });
        return undefined;
      },
    });
  }
  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(scope, name, descriptor);
      else delete scope[name];
    }
  };
}

const ours = (touch: Touch) => !touch.caller.includes('/node_modules/') && !touch.caller.includes('node:internal');

describe('the server render', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('touches no browser global on any page, in any locale, with any entry parameter or saved state', async () => {
    const pages = Object.values(APP_ROUTES).map((route) => (route === '/' ? '' : route));
    const urls = LOCALES.flatMap((locale) => pages.flatMap((route) => ENTRY_PARAMETERS.map((query) => `${APP_BASE}${locale === DEFAULT_LOCALE ? '' : `/${locale}`}/${route}${query}`)));
    const touches: Touch[] = [];
    const failures: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const restore = trapBrowserGlobals(touches);
    try {
      for (const [index, url] of urls.entries()) {
        const cookie = index % 2 === 0 ? '' : `checkout=${SAVED_PAYMENT}; browserLang=de-de; affiliate=partner_7`;
        const get = async (path: string) => {
          const answer = await t.app.inject({ method: 'GET', url: path, headers: { cookie } });
          return { status: answer.statusCode, body: answer.body === '' ? null : (JSON.parse(answer.body) as unknown) };
        };
        const result = await renderPage({ url, cookie, browserLanguages: ['nl-NL', 'en'], get, now: Date.now() }).catch((error: unknown) => {
          failures.push(`${url}: ${String(error)}`);
          return null;
        });
        if (result?.kind === 'page') expect(result.html.length, url).toBeGreaterThan(0);
      }
      // An effect started by a render and left running would fail after it: give it a turn of the event loop.
      await new Promise((settle) => setTimeout(settle, 50));
    } finally {
      restore();
      process.off('unhandledRejection', onUnhandled);
    }
    expect(urls.length).toBe(LOCALES.length * 9 * ENTRY_PARAMETERS.length);
    expect(failures).toEqual([]);
    expect(unhandled).toEqual([]);
    expect(touches.filter(ours).map((touch) => `${touch.name} read by ${touch.caller.trim()}`)).toEqual([]);
  }, 300_000);
});
