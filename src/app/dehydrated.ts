/**
 * The API answers a server-rendered page was rendered with, embedded in it as JSON data blocks
 * (`<script type="application/json">`: data, which the CSP does not run). The browser's typed client
 * answers each matching GET from them once, so the router's first load and the charts get the very
 * data the server rendered, with no round trip.
 */

/** The block of answers every visitor of a page shares (catalogue, gateways, merchant): cached with the page. */
export const SHARED_DATA_ID = 'tvc-shared';
/** The block of this request's own answers (session, currency, fraud check, saved order): never cached. */
export const REQUEST_DATA_ID = 'tvc-request';

/** One GET the server render made, by its path and query as the typed client builds it. */
export interface RecordedAnswer {
  url: string;
  status: number;
  body: unknown;
}

export interface DehydratedData {
  answers: RecordedAnswer[];
  /** Epoch ms the server rendered at (the waiting page's countdown starts from it). */
  renderedAt?: number;
  /** The server's word on flow traffic for this page (request block only): the shop reports it and the request did not opt out. */
  flowReport?: boolean;
  /** The page locale's translations (shared block): the app hydrates with them, so no render waits for them or shows a key. */
  translations?: PageTranslations;
}

/** One locale's translations as the page carries them. */
export interface PageTranslations {
  locale: string;
  resources: unknown;
}

/** A data block: `<` escaped, so no text in it can end the element. */
export function dataBlock(id: string, data: DehydratedData): string {
  return `<script type="application/json" id="${id}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/** The path and query of a request, the key its answer is recorded under. */
export function answerKey(url: string): string {
  const parsed = new URL(url, 'http://page.invalid');
  return `${parsed.pathname}${parsed.search}`;
}

/** The page's data blocks, read once (empty on a page that has none). */
export function readDehydrated(doc: Pick<Document, 'getElementById'>): DehydratedData {
  const blocks = [SHARED_DATA_ID, REQUEST_DATA_ID].map((id) => {
    try {
      return JSON.parse(doc.getElementById(id)?.textContent ?? 'null') as DehydratedData | null;
    } catch {
      return null;
    }
  });
  const translations = blocks[0]?.translations;
  return {
    answers: blocks.flatMap((block) => block?.answers ?? []),
    renderedAt: blocks.find((block) => block?.renderedAt !== undefined)?.renderedAt,
    flowReport: blocks[1]?.flowReport === true,
    ...(translations ? { translations } : {}),
  };
}

/** A fetch that answers each recorded GET once from the page, and everything else over the network. */
export function answeringFetch(answers: readonly RecordedAnswer[], network: typeof fetch): typeof fetch {
  const unused = [...answers];
  return (input, init) => {
    const request = input instanceof Request ? input : null;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    if (method === 'GET' && unused.length > 0) {
      const key = answerKey(request ? request.url : String(input));
      const at = unused.findIndex((answer) => answer.url === key);
      if (at !== -1) {
        const [answer] = unused.splice(at, 1);
        return Promise.resolve(new Response(JSON.stringify(answer!.body), { status: answer!.status, headers: { 'content-type': 'application/json' } }));
      }
    }
    return network(input, init);
  };
}
