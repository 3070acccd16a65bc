/**
 * The traffic the studio paints: GET /stats/flowStats?… on the studio's own server is passed on to
 * GET <source>/flowStats?… on a shop's operator listener (by default the demo's, 127.0.0.1:9464), with
 * `Authorization: Bearer $OPS_TOKEN` added when the studio's environment has the token. The token stays
 * on this side: the page only ever sees the listener's JSON, or an error saying what to do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromEnvOrFile } from '../../src/server/config';

export const STATS_PATH = '/stats/flowStats';
/** The demo's operator listener (`npm start`), which holds the demo's own traffic. */
export const DEFAULT_STATS_SOURCE = 'http://127.0.0.1:9464';
const UPSTREAM_TIMEOUT_MS = 10_000;

export interface StatsSource {
  /** The operator listener's base URL, e.g. http://127.0.0.1:9464. */
  url: string;
  token?: string;
}

/** Why the studio could not read traffic, as the page shows it: `unreachable`, `refused`, `failed`. */
export interface StatsProblem {
  error: { code: 'unreachable' | 'refused' | 'failed'; message: string; source: string };
}

const HOW_TO_START = 'Start the shop with npm start (its operator listener holds the demo\'s traffic), or point the studio at a running shop with npm run studio -- --stats URL.';

/** `--stats URL` among the command's arguments, else the demo's listener; OPS_TOKEN (or OPS_TOKEN_FILE) from the environment, as the shop reads it. */
export function statsSourceFrom(argv: readonly string[], env: NodeJS.ProcessEnv): StatsSource {
  const at = argv.indexOf('--stats');
  const inline = argv.find((argument) => argument.startsWith('--stats='));
  const url = (at >= 0 ? argv[at + 1] : inline?.slice('--stats='.length)) ?? DEFAULT_STATS_SOURCE;
  if (!/^https?:\/\//.test(url)) throw new Error(`--stats needs the operator listener's URL (http://host:port), not "${url}"`);
  const token = fromEnvOrFile(env, 'OPS_TOKEN');
  return { url: url.replace(/\/+$/, ''), ...(token ? { token } : {}) };
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

function problem(source: StatsSource, code: StatsProblem['error']['code'], message: string): StatsProblem {
  return { error: { code, message, source: source.url } };
}

/** Answers one request for STATS_PATH from the source's /flowStats (the query passed as it came). */
export async function proxyFlowStats(request: IncomingMessage, response: ServerResponse, source: StatsSource): Promise<void> {
  if (request.method !== 'GET') {
    response.writeHead(405, { allow: 'GET' }).end();
    return;
  }
  const query = new URL(request.url ?? '/', 'http://studio').search;
  const target = `${source.url}/flowStats${query}`;
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      headers: { accept: 'application/json', ...(source.token ? { authorization: `Bearer ${source.token}` } : {}) },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
  } catch {
    answer(response, 502, problem(source, 'unreachable', `No shop answers at ${source.url}. ${HOW_TO_START}`));
    return;
  }
  const text = await upstream.text().catch(() => '');
  if (upstream.status === 401 || upstream.status === 403) {
    const hint = source.token ? 'the OPS_TOKEN the studio was started with is not the shop\'s' : 'start the studio with OPS_TOKEN set to the shop\'s token';
    answer(response, 502, problem(source, 'refused', `The shop at ${source.url} refused the studio (HTTP ${upstream.status}): ${hint}.`));
    return;
  }
  if (upstream.status === 404) {
    answer(response, 502, problem(source, 'failed', `${source.url} has no /flowStats: is it a shop's operator listener (OPS_PORT), and is flow traffic on (FLOW_ANALYTICS)? ${HOW_TO_START}`));
    return;
  }
  if (upstream.status === 400) {
    answer(response, 400, problem(source, 'failed', `The shop at ${source.url} refused the question: ${text.slice(0, 300)}`));
    return;
  }
  if (!upstream.ok) {
    answer(response, 502, problem(source, 'failed', `The shop at ${source.url} answered HTTP ${upstream.status} to /flowStats.`));
    return;
  }
  try {
    answer(response, 200, JSON.parse(text));
  } catch {
    answer(response, 502, problem(source, 'failed', `The shop at ${source.url} answered /flowStats with something that is not JSON.`));
  }
}
