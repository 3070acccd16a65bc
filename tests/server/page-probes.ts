/** The page fuzz's requests (tests/server/page-fuzz.test.ts): seeded, so a run can be repeated exactly. */
import { request as httpRequest, type Agent } from 'node:http';
import { APP_ROUTES } from '../../src/domain/app-routes';

const ANSWER_TIMEOUT_MS = 15_000;


/** mulberry32: a small seeded generator, so a failing run can be repeated exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const LOCALE_PREFIXES = ['', '/de-de', '/en-gb', '/es-es', '/nl-nl', '/pt-pt', '/en-en', '/DE-DE', '/fr-fr', '/%F0%9F%92%A5'];
const PAGES = Object.values(APP_ROUTES).map((route) => (route === '/' ? '/' : `/${route}`));
const UNKNOWN_PATHS = ['/nope', '/waiting/extra', '/./success', '//waiting', '/%5Cevil.example', '/%2e%2e/x', '/..%2f..%2fetc', '/../../etc/passwd', '/%00', '/%', `/${'a'.repeat(3000)}`, '/index.html', '/.env', '/success/.', '/%E2%80%AE'];
const PARAMETERS = ['promocode', 'email', 'pid', 'auto_redirect', 'extraconnect', 'proxyprotect', 'aff_id', 'orderid', 'serviceid', 'invoiceid'];
const VALID: Record<string, string[]> = {
  promocode: ['WELCOME10', 'SUMMER5'],
  email: ['ann%40mail.test', 'client%40example.com'],
  pid: ['1', '2', '3'],
  auto_redirect: ['true', 'false'],
  extraconnect: ['1', 'true', '0'],
  proxyprotect: ['1', 'false'],
  aff_id: ['partner_42', 'p-7'],
  orderid: ['1001', '1'],
  serviceid: ['3001', '1'],
  invoiceid: ['2001'],
};
const HOSTILE = ['', '%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', '%22%3E%3Cimg%20src%3Dx%3E', 'x'.repeat(5000), '%F0%9F%92%A5%E2%80%AE%C3%A9', '%00', '%', '%E0%A4%A', '-1', '1e309', '99999999999999999999', 'NaN', 'true%0D%0ASet-Cookie:%20x=1', '..%2F..%2F', '__proto__', 'constructor', '%7B%22a%22:1%7D', 'javascript:alert(1)', '%2F%2Fevil.example'];

const SAVED = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const COOKIES = [
  '',
  `checkout=${SAVED({ payment: { flow: 'order', order: { orderid: 1001, invoiceid: 2001, serviceid: 3001, fraud: false }, link: 'javascript:alert(1)', gateway: '</script>', lastDate: 1e308, duration: -5 } })}`,
  `checkout=${SAVED({ choices: { pid: '</script>', email: 'x'.repeat(300), promocode: { a: 1 } } })}`,
  `checkout=${SAVED({ payment: { flow: 'reseller', order: { orderid: 'x' } }, choices: [1, 2] })}`,
  'checkout=%7Bnot-json',
  'checkout=%',
  `checkout=${'x'.repeat(3500)}`,
  'browserLang=xx-yy',
  'browserLang=%00',
  'browserLang=de-de',
  'affiliate=%3Cscript%3E',
  'tvc_session=forged-session-id',
  `tvc_session=${'A'.repeat(43)}`,
  'checkout=; checkout=%7B%7D; browserLang=; browserLang=es-es',
];
const ACCEPT_LANGUAGES = [undefined, 'de-DE,de;q=0.9', '*;q=abc', ',,,;;;', 'en;q=2, xx;q=-1', 'x'.repeat(2000), 'es-ES;q=0.8, pt-PT;q=0.9, nl'];
const REFERERS = [undefined, 'https://partner.test/a', 'javascript:alert(1)', 'x'.repeat(5000), '%%%'];

export interface Probe {
  method: 'GET' | 'HEAD';
  path: string;
  headers: Record<string, string>;
}

export function probes(seed: number, count: number): Probe[] {
  const random = generator(seed);
  const value = (name: string) => (random.next() < 0.4 ? random.pick(VALID[name] ?? ['1']) : random.pick(HOSTILE));
  return Array.from({ length: count }, (_, index): Probe => {
    const prefix = random.pick(LOCALE_PREFIXES);
    // Every page in every locale comes round; then unknown and unclean paths.
    const page = index < PAGES.length * 6 ? PAGES[index % PAGES.length]! : random.next() < 0.8 ? random.pick(PAGES) : random.pick(UNKNOWN_PATHS);
    const chosen = PARAMETERS.filter(() => random.next() < 0.3);
    const pairs = chosen.flatMap((name) => {
      const shape = random.next();
      // Repeated, array-like and plain parameters.
      if (shape < 0.1) return [`${name}=${value(name)}`, `${name}=${value(name)}`];
      if (shape < 0.2) return [`${name}[]=${value(name)}`, `${name}[0]=${value(name)}`];
      return [`${name}=${value(name)}`];
    });
    const headers: Record<string, string> = {};
    const cookie = random.pick(COOKIES);
    if (cookie) headers.cookie = cookie;
    const language = random.pick(ACCEPT_LANGUAGES);
    if (language) headers['accept-language'] = language;
    const referer = random.pick(REFERERS);
    if (referer) headers.referer = referer;
    const path = `/checkout${index < PAGES.length * 6 ? LOCALE_PREFIXES[Math.floor(index / PAGES.length)]! : prefix}${page}${pairs.length ? `?${pairs.join('&')}` : ''}`;
    return { method: random.next() < 0.1 ? 'HEAD' : 'GET', path, headers };
  });
}

export interface Answer {
  status: number;
  contentType: string;
  location: string;
  bodyBytes: number;
}

export function send(baseUrl: string, agent: Agent, probe: Probe): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, method: probe.method, path: probe.path, headers: probe.headers, agent }, (response) => {
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => { bodyBytes += chunk.length; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), location: String(response.headers.location ?? ''), bodyBytes }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    // A page that never answers is a failure of its own (a render waiting forever holds a connection).
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    outgoing.end();
  });
}


/** The size of a probe's request head as sent (request line and headers), near enough to compare with the server's limit. */
export function headBytes(probe: Probe): number {
  return Buffer.byteLength(`${probe.method} ${probe.path} HTTP/1.1\r\n${Object.entries(probe.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}`);
}
