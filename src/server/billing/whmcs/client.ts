import { HttpError } from '../../http-error';
import { NO_METRICS, type ShopMetrics } from '../../ops/metrics';
import { inSpan } from '../../tracing/span';

/** WHMCS answered and said no (an error result, a warning, a refused credential or IP): 502, its message logged, not shown. */
export class WhmcsRefusal extends HttpError {
  constructor(readonly action: string, readonly whmcsMessage: string) {
    super(502, 'billing_error', 'The billing system refused this request. Please try again later or contact us.');
  }
}

/** WHMCS could not be reached, timed out, or answered with a server error or a page that is not the API: 503. */
export class WhmcsUnavailable extends HttpError {
  constructor(readonly action: string, readonly reason: string) {
    super(503, 'billing_unavailable', 'The billing system cannot be reached right now. Please try again in a moment.');
  }
}

export type WhmcsParam = string | number | boolean | null | undefined | WhmcsParam[] | { [key: string]: WhmcsParam };
export type WhmcsParams = Record<string, WhmcsParam>;
/** A successful answer's top-level fields, as WHMCS sent them (to be coerced by the caller). */
export type WhmcsAnswer = Record<string, unknown>;

export interface WhmcsClientOptions {
  /** The full URL of includes/api.php. */
  url: string;
  identifier: string;
  secret: string;
  accesskey?: string | null;
  /** Per call, head and body alike (the spec's 30 s). */
  timeoutMs?: number;
  /** Extra attempts for a read that found WHMCS unavailable. */
  readRetries?: number;
  retryBackoffMs?: number;
  /** Consecutive unavailable answers that open the breaker, and how long it stays open before one probe. */
  breakerThreshold?: number;
  breakerOpenMs?: number;
  log?: { warn(object: object, message: string): void };
  /** Each call's time by action; an unreachable WHMCS (not a refusal, which is WHMCS answering) counts as an error. */
  metrics?: ShopMetrics;
  now?: () => number;
}

export interface WhmcsClient {
  /** A read: retried on unavailability (twice by default, short back-off). */
  read(action: string, params?: WhmcsParams): Promise<WhmcsAnswer>;
  /** A write: sent once; an unavailable answer leaves its outcome unknown to the caller. */
  write(action: string, params?: WhmcsParams): Promise<WhmcsAnswer>;
  /** How many calls were made per action (for the README's figures and the tests). */
  readonly counts: Record<string, number>;
  close(): Promise<void>;
}

/** Form fields as PHP reads them: arrays in bracket keys (pid[0]=1), booleans as 1/0, null and undefined left out. */
export function encodeForm(params: WhmcsParams): string {
  const form = new URLSearchParams();
  const add = (name: string, value: WhmcsParam) => {
    if (value === null || value === undefined) return;
    if (typeof value === 'boolean') form.append(name, value ? '1' : '0');
    else if (typeof value === 'number') form.append(name, String(value));
    else if (typeof value === 'string') form.append(name, value);
    else if (Array.isArray(value)) value.forEach((item, index) => add(`${name}[${index}]`, item));
    else for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
  };
  for (const [name, value] of Object.entries(params)) add(name, value);
  return form.toString();
}

const RETRYABLE_STATUS = (status: number) => status >= 500;

/** The API client: every call POST, form-encoded, responsetype=json, over one keep-alive agent with verified certificates. */
export function createWhmcsClient(options: WhmcsClientOptions): WhmcsClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const readRetries = options.readRetries ?? 2;
  const backoffMs = options.retryBackoffMs ?? 150;
  const threshold = options.breakerThreshold ?? 5;
  const openMs = options.breakerOpenMs ?? 5_000;
  const now = options.now ?? Date.now;
  // Certificates are verified (undici's default); the original turned the checks off. undici is loaded here,
  // with BILLING=whmcs only, so other starts do not evaluate it (~1 MB of the server bundle).
  const http = import('undici').then(({ Agent, request }) => ({
    request,
    agent: new Agent({ keepAliveTimeout: 30_000, connections: 32, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: Math.min(timeoutMs, 10_000) } }),
  }));
  const counts: Record<string, number> = {};

  // The breaker: after `threshold` unavailable answers in a row, calls fail at once until `openMs` has passed; then one probe goes through.
  let failures = 0;
  let openUntil = 0;
  let probing = false;
  const admit = (action: string) => {
    if (failures < threshold) return false;
    if (now() < openUntil || probing) throw new WhmcsUnavailable(action, 'circuit open');
    probing = true;
    return true;
  };
  const succeeded = () => { failures = 0; probing = false; };
  const failed = () => {
    failures += 1;
    probing = false;
    if (failures >= threshold) openUntil = now() + openMs;
  };

  const metrics = options.metrics ?? NO_METRICS;
  async function once(action: string, params: WhmcsParams): Promise<WhmcsAnswer> {
    const started = performance.now();
    try {
      const answer = await call(action, params);
      metrics.upstream('whmcs', action, (performance.now() - started) / 1000, false);
      return answer;
    } catch (error) {
      metrics.upstream('whmcs', action, (performance.now() - started) / 1000, error instanceof WhmcsUnavailable);
      throw error;
    }
  }

  async function call(action: string, params: WhmcsParams): Promise<WhmcsAnswer> {
    admit(action);
    counts[action] = (counts[action] ?? 0) + 1;
    const body = encodeForm({
      ...params, action, identifier: options.identifier, secret: options.secret, accesskey: options.accesskey ?? undefined, responsetype: 'json',
    });
    let status: number;
    let text: string;
    try {
      const { request, agent } = await http;
      const answer = await request(options.url, {
        method: 'POST', dispatcher: agent, body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
        // One deadline for the whole call, connection to last byte.
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      failed();
      throw new WhmcsUnavailable(action, (error as Error).message || String(error));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      // Not the API talking (an HTML error page, a proxy's answer): WHMCS is not there for us right now.
      if (RETRYABLE_STATUS(status) || status < 400) {
        failed();
        throw new WhmcsUnavailable(action, `HTTP ${status}, not JSON`);
      }
      succeeded();
      throw new WhmcsRefusal(action, `HTTP ${status}, not JSON`);
    }
    const fields = parsed as WhmcsAnswer;
    // The body is read before the status: `Invalid IP` comes with 403, business errors with 200.
    if (fields.result === 'success') {
      succeeded();
      if (fields.warning !== undefined) options.log?.warn({ action, warning: fields.warning }, 'WHMCS answered success with a warning');
      return fields;
    }
    if (RETRYABLE_STATUS(status) && fields.result === undefined && fields.status === undefined && fields.message === undefined) {
      failed();
      throw new WhmcsUnavailable(action, `HTTP ${status}`);
    }
    succeeded();
    const message = [fields.message, fields.warning, fields.error].find((value) => typeof value === 'string' && value !== '') as string | undefined;
    const refusal = new WhmcsRefusal(action, message ?? `HTTP ${status}, result ${String(fields.result ?? fields.status ?? 'missing')}`);
    options.log?.warn({ action, whmcs: refusal.whmcsMessage, status }, 'WHMCS refused a call');
    throw refusal;
  }

  // One span per call, named by its action (its parameters and answer stay out: they carry e-mails and passwords).
  const traced = (action: string, kind: 'read' | 'write', call: () => Promise<WhmcsAnswer>) => inSpan(`WHMCS ${action}`, { 'whmcs.action': action, 'whmcs.call': kind }, call);

  return {
    counts,
    read: (action, params = {}) => traced(action, 'read', async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await once(action, params);
        } catch (error) {
          const openCircuit = error instanceof WhmcsUnavailable && error.reason === 'circuit open';
          if (!(error instanceof WhmcsUnavailable) || openCircuit || attempt >= readRetries) throw error;
          await new Promise((resolve) => setTimeout(resolve, backoffMs * (attempt + 1)));
        }
      }
    }),
    write: (action, params = {}) => traced(action, 'write', () => once(action, params)),
    close: async () => (await http).agent.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Coercion of WHMCS's loose types (reference §1 pitfalls).

/** An id sent as a number or a numeric string; null when absent or not an id. */
export function toId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** A required id; a missing one is WHMCS answering something we cannot use. */
export function requireId(value: unknown, action: string, field: string): number {
  const id = toId(value);
  if (id === null) throw new WhmcsRefusal(action, `no usable ${field} in the answer`);
  return id;
}

/** Money as WHMCS writes it ("25.99", "-1.00", 25.99, "1,234.50") in integer cents, parsed as text (no float arithmetic). */
export function toCentsExact(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(2) : '') : typeof value === 'string' ? value.trim().replace(/,/g, '') : '';
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const [, sign, whole = '', fraction = ''] = match;
  const padded = `${fraction}000`;
  let cents = Number(whole || '0') * 100 + Number(padded.slice(0, 2));
  // Half away from zero on the third decimal.
  if (Number(padded[2]) >= 5) cents += 1;
  return sign === '-' ? -cents : cents;
}

/** A collection WHMCS wraps as { products: { product: [...] } }: missing, "" or a single object all read as a list. */
export function collection(parent: unknown, outer: string, inner: string): Record<string, unknown>[] {
  if (!parent || typeof parent !== 'object') return [];
  const wrapper = (parent as Record<string, unknown>)[outer];
  if (!wrapper || typeof wrapper !== 'object') return [];
  const items = (wrapper as Record<string, unknown>)[inner];
  if (Array.isArray(items)) return items.filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object');
  if (items && typeof items === 'object') return [items as Record<string, unknown>];
  return [];
}

/** A WHMCS date; 0000-00-00 (with or without a time) and "" mean no date. */
export function whmcsDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || /^0000-00-00/.test(text)) return null;
  return text;
}

/** A WHMCS calendar day (YYYY-MM-DD: a due date); null for no date or anything else. */
export function whmcsDay(value: unknown): string | null {
  const date = whmcsDate(value);
  return date !== null && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

/** A text field that may come as a number, null or missing. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** A flag as PHP reads it: "" , "0", 0, false, null are false; everything else (even "false") is true. */
export function phpTruthy(value: unknown): boolean {
  return !(value === undefined || value === null || value === false || value === 0 || value === '' || value === '0');
}
