/**
 * A fake of Coinbase Business's Checkouts API, built from its public documentation (reference §4,
 * docs.cdp.coinbase.com checkout-apis and api-reference/v2/authentication, webhooks/verify-signatures):
 * - every API call must carry `Authorization: Bearer <JWT>` signed with the CDP key (ES256 or EdDSA),
 *   header kid = key id and a nonce, claims iss "cdp", sub = key id, nbf/exp at most 120 s apart and
 *   `uris` naming this very request ("METHOD host/path"); anything else is refused 401 in the CDP error shape;
 * - POST {base}/api/v1/checkouts checks the body's shape and X-Idempotency-Key (same key and body → same
 *   checkout, same key and another body → 422), GET {base}/api/v1/checkouts/{id} reads one; both answer the
 *   whole checkout (api-reference/business-api/rest-api/checkouts/create-checkout);
 * - a checkout priced in fiat (USD, EUR, SGD, GBP) reads back with `amount`/`currency` in USDC and the price
 *   asked for in `fiatAmount`/`fiatCurrency`; one priced in USDC has no fiat fields;
 * - a hosted page per checkout where a shopper clicks Pay or Fail, then returns to the redirect URL;
 * - webhooks: the checkout itself plus `eventType` as the body (no event id in it), the event id and type in
 *   the `X-Event-Id` and `X-Event-Type` headers, signed with X-Hook0-Signature `t=…,v0=…,h=…,v1=…`
 *   (webhooks/verify-signatures); a test may resend, hold back, reorder or sign them differently.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { signHook0 } from '../../../src/server/payments/coinbase/signature';
import { escape, postJson, readBody, redirect, sendHtml, sendJson } from './http';

export type CheckoutStatus = 'ACTIVE' | 'PROCESSING' | 'COMPLETED' | 'EXPIRED' | 'FAILED' | 'DEACTIVATED' | 'REFUNDED';

export interface FakeCheckout {
  id: string;
  url: string;
  /** USDC, what the shopper pays on chain. */
  amount: string;
  currency: string;
  /** The price asked for, when it was in fiat. */
  fiatAmount?: string;
  fiatCurrency?: string;
  network: string;
  address: string;
  status: CheckoutStatus;
  description: string;
  expiresAt: string;
  successRedirectUrl: string;
  failRedirectUrl: string;
  metadata: Record<string, string>;
  settlement?: { totalAmount: string; feeAmount: string; netAmount: string; currency: string };
  transactionHash?: string;
  createdAt: string;
  updatedAt: string;
}

export type CheckoutEventType = 'checkout.payment.success' | 'checkout.payment.failed' | 'checkout.payment.expired';

/** A webhook as the fake would send it: resend it, send it late or in another order. */
export interface FakeWebhook {
  eventId: string;
  eventType: CheckoutEventType;
  rawBody: string;
}

export interface FakeDelivery {
  eventId: string;
  eventType: string;
  status: number;
  text: string;
}

/** Why the fake refused an API call (what a test asserts on). */
export interface Refusal {
  status: number;
  errorType: string;
  errorMessage: string;
}

export interface CoinbaseFakeOptions {
  keyId: string;
  /** The public half of the CDP key the checkout signs with. */
  publicKey: KeyObject;
  /** Webhook subscription secrets; several sign several v1 (a secret being rolled). */
  webhookSecrets: string[];
  /** Where webhooks go (…/checkout/api/webhooks/coinbase); set later with setWebhookUrl when unknown yet. */
  webhookUrl?: string;
  /** The API's base path on this server, as COINBASE_API_URL ends: "/sandbox" like the real sandbox. */
  basePath?: string;
  port?: number;
  host?: string;
}

const CURRENCIES = new Set(['USDC', 'USD', 'EUR', 'SGD', 'GBP']);
/** USDC per unit of a fiat currency: made-up, fixed rates (what matters is that the USDC amount differs from the price). */
export const FAKE_USDC_RATES: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27, SGD: 0.74 };

/** A price in USDC at the fake's rate, as a decimal string with two decimals. */
export function fakeUsdc(amount: string, currency: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const cents = Math.round((Number(whole) * 100 + Number(fraction.padEnd(2, '0'))) * (FAKE_USDC_RATES[currency] ?? 1));
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
const BODY_FIELDS = new Set(['amount', 'currency', 'network', 'description', 'expiresAt', 'successRedirectUrl', 'failRedirectUrl', 'metadata']);

export class CoinbaseFake {
  readonly checkouts = new Map<string, FakeCheckout>();
  readonly deliveries: FakeDelivery[] = [];
  readonly refusals: Refusal[] = [];
  /** Every API call that was let through: method, path, idempotency key. */
  readonly calls: { method: string; path: string; idempotencyKey: string | null }[] = [];
  /** When set, a Pay on the hosted page leaves the checkout PROCESSING (money seen, not final) until complete(). */
  holdPayments = false;
  private readonly idempotency = new Map<string, { body: string; checkoutId: string }>();
  private server: Server | null = null;
  private base = '';

  constructor(private readonly options: CoinbaseFakeOptions) {}

  /** COINBASE_API_URL for the checkout. */
  get apiUrl(): string {
    return `${this.base}${this.options.basePath ?? '/sandbox'}`;
  }

  setWebhookUrl(url: string): void {
    this.options.webhookUrl = url;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: Error) => sendJson(response, 500, { errorType: 'internal_server_error', errorMessage: error.message }));
    });
    await new Promise<void>((resolve) => this.server?.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://${this.options.host ?? '127.0.0.1'}:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The webhook of a checkout's current state, not sent yet. */
  webhook(checkoutId: string, eventType: CheckoutEventType): FakeWebhook {
    const checkout = this.checkout(checkoutId);
    return { eventId: randomUUID(), eventType, rawBody: JSON.stringify({ ...checkout, eventType }) };
  }

  /** Sends a webhook, signed now (or at `t`) with the subscription secrets (or others). */
  async send(webhook: FakeWebhook, signing: { t?: number; secrets?: string[] } = {}): Promise<FakeDelivery> {
    const url = this.options.webhookUrl;
    if (!url) throw new Error('The Coinbase fake has no webhook URL');
    const headers = { 'content-type': 'application/json', 'x-event-id': webhook.eventId, 'x-event-type': webhook.eventType };
    const signature = signHook0(signing.secrets ?? this.options.webhookSecrets, webhook.rawBody, headers, signing.t);
    const answer = await postJson(url, webhook.rawBody, { ...headers, 'x-hook0-signature': signature });
    const delivery = { eventId: webhook.eventId, eventType: webhook.eventType, status: answer.status, text: answer.text };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** The shopper pays: COMPLETED (or PROCESSING while holdPayments), and the success webhook unless held back. */
  async pay(checkoutId: string, { notify = true } = {}): Promise<FakeWebhook> {
    const checkout = this.checkout(checkoutId);
    this.update(checkout, this.holdPayments ? 'PROCESSING' : 'COMPLETED');
    checkout.transactionHash = `0x${randomBytes(32).toString('hex')}`;
    checkout.settlement = { totalAmount: checkout.amount, feeAmount: '0.00', netAmount: checkout.amount, currency: 'USDC' };
    const webhook = this.webhook(checkoutId, 'checkout.payment.success');
    if (notify) await this.send(webhook);
    return webhook;
  }

  /** A PROCESSING payment becomes final. */
  complete(checkoutId: string): void {
    this.update(this.checkout(checkoutId), 'COMPLETED');
  }

  async fail(checkoutId: string, { notify = true } = {}): Promise<FakeWebhook> {
    this.update(this.checkout(checkoutId), 'FAILED');
    const webhook = this.webhook(checkoutId, 'checkout.payment.failed');
    if (notify) await this.send(webhook);
    return webhook;
  }

  async expire(checkoutId: string, { notify = true } = {}): Promise<FakeWebhook> {
    this.update(this.checkout(checkoutId), 'EXPIRED');
    const webhook = this.webhook(checkoutId, 'checkout.payment.expired');
    if (notify) await this.send(webhook);
    return webhook;
  }

  /** The checkout a hosted-page URL names. */
  checkoutOfUrl(url: string): FakeCheckout {
    return this.checkout(new URL(url).pathname.split('/').pop() ?? '');
  }

  private checkout(id: string): FakeCheckout {
    const checkout = this.checkouts.get(id);
    if (!checkout) throw new Error(`No checkout ${id} at the Coinbase fake`);
    return checkout;
  }

  private update(checkout: FakeCheckout, status: CheckoutStatus): void {
    checkout.status = status;
    checkout.updatedAt = new Date().toISOString();
  }

  private refuse(response: ServerResponse, status: number, errorType: string, errorMessage: string): void {
    this.refusals.push({ status, errorType, errorMessage });
    sendJson(response, status, { errorType, errorMessage, correlationId: randomUUID(), errorLink: `https://docs.cdp.coinbase.com/api-reference/v2/errors#${errorType}` });
  }

  /** The CDP JWT check: refusal text or null when it names this request and is signed by the key. */
  private async authError(request: IncomingMessage, path: string): Promise<string | null> {
    const authorization = request.headers.authorization ?? '';
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization)?.[1];
    if (!token) return 'missing Bearer JWT';
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return 'malformed JWT';
    }
    if (header.kid !== this.options.keyId) return 'kid is not the API key id';
    if (typeof header.nonce !== 'string' || header.nonce.length < 16) return 'no nonce in the JWT header';
    try {
      const { payload } = await jwtVerify(token, this.options.publicKey, { algorithms: ['ES256', 'EdDSA'], issuer: 'cdp', subject: this.options.keyId, clockTolerance: 5 });
      if (typeof payload.nbf !== 'number' || typeof payload.exp !== 'number') return 'nbf and exp are required';
      if (payload.exp - payload.nbf > 120) return 'the JWT lives longer than 120 s';
      const uri = `${request.method} ${request.headers.host}${path}`;
      if (!Array.isArray(payload.uris) || !payload.uris.includes(uri)) return `uris does not name ${uri}`;
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.base);
    const api = `${this.options.basePath ?? '/sandbox'}/api/v1/checkouts`;
    if (url.pathname === api || url.pathname.startsWith(`${api}/`)) {
      const refused = await this.authError(request, url.pathname);
      if (refused) return this.refuse(response, 401, 'unauthorized', `Unauthorized: ${refused}`);
      const idempotencyKey = typeof request.headers['x-idempotency-key'] === 'string' ? request.headers['x-idempotency-key'] : null;
      this.calls.push({ method: request.method ?? '', path: url.pathname, idempotencyKey });
      if (request.method === 'POST' && url.pathname === api) return this.create(request, response, idempotencyKey);
      if (request.method === 'GET' && url.pathname !== api) {
        const checkout = this.checkouts.get(url.pathname.slice(api.length + 1));
        return checkout ? sendJson(response, 200, checkout) : this.refuse(response, 404, 'not_found', 'Checkout not found');
      }
      return this.refuse(response, 405, 'method_not_allowed', 'Method not allowed');
    }
    const pay = /^\/pay\/([0-9a-f]{24})$/.exec(url.pathname);
    if (pay) return this.hostedPage(request, response, pay[1] as string);
    sendJson(response, 404, { errorType: 'not_found', errorMessage: 'Not found' });
  }

  private async create(request: IncomingMessage, response: ServerResponse, idempotencyKey: string | null): Promise<void> {
    if (!idempotencyKey || idempotencyKey.length > 255) return this.refuse(response, 400, 'invalid_request', 'X-Idempotency-Key is required');
    const raw = await readBody(request);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.refuse(response, 400, 'invalid_request', 'The body is not JSON');
    }
    const problem = bodyProblem(body);
    if (problem) return this.refuse(response, 400, 'invalid_request', problem);
    const previous = this.idempotency.get(idempotencyKey);
    if (previous) {
      if (previous.body !== canonicalJson(body)) return this.refuse(response, 422, 'idempotency_error', 'The idempotency key was used with other parameters');
      return sendJson(response, 201, this.checkouts.get(previous.checkoutId));
    }
    const id = randomBytes(12).toString('hex');
    const now = new Date().toISOString();
    const checkout: FakeCheckout = {
      id, url: `${this.base}/pay/${id}`, ...priceOf(body.amount as string, body.currency as string), network: (body.network as string) ?? 'base',
      address: `0x${randomBytes(20).toString('hex')}`, status: 'ACTIVE', description: (body.description as string) ?? '', expiresAt: body.expiresAt as string,
      successRedirectUrl: body.successRedirectUrl as string, failRedirectUrl: body.failRedirectUrl as string,
      metadata: (body.metadata as Record<string, string>) ?? {}, createdAt: now, updatedAt: now,
    };
    this.checkouts.set(id, checkout);
    this.idempotency.set(idempotencyKey, { body: canonicalJson(body), checkoutId: id });
    sendJson(response, 201, checkout);
  }

  private async hostedPage(request: IncomingMessage, response: ServerResponse, id: string): Promise<void> {
    const checkout = this.checkouts.get(id);
    if (!checkout) return sendHtml(response, 404, 'Not found', '<h1>Checkout not found</h1>');
    if (request.method === 'POST') {
      const decision = new URLSearchParams(await readBody(request)).get('decision');
      if (checkout.status !== 'ACTIVE') return sendHtml(response, 409, 'Closed', `<h1>This checkout is ${escape(checkout.status.toLowerCase())}</h1>`);
      if (decision === 'pay') {
        await this.pay(id);
        return redirect(response, checkout.successRedirectUrl);
      }
      await this.fail(id);
      return redirect(response, checkout.failRedirectUrl);
    }
    const expired = Date.parse(checkout.expiresAt) < Date.now();
    if (expired && checkout.status === 'ACTIVE') this.update(checkout, 'EXPIRED');
    if (checkout.status !== 'ACTIVE') {
      return sendHtml(response, 410, 'Closed', `<h1>This checkout is ${escape(checkout.status.toLowerCase())}</h1><p><a href="${escape(checkout.failRedirectUrl)}">Back to the merchant</a></p>`);
    }
    const price = checkout.fiatAmount ? `${checkout.fiatAmount} ${checkout.fiatCurrency}` : `${checkout.amount} ${checkout.currency}`;
    sendHtml(response, 200, `Pay ${price}`, `<h1>Coinbase Business (fake)</h1><p>${escape(checkout.description)}</p>
<p>Amount due: <strong>${escape(price)}</strong>, paid as ${escape(checkout.amount)} USDC on ${escape(checkout.network)}</p>
<form method="post"><button name="decision" value="pay">Pay</button> <button name="decision" value="fail">Fail</button></form>`);
  }
}

/** Why a create body is refused, or null: the documented fields, amount as a decimal string, a future expiresAt. */
function bodyProblem(body: Record<string, unknown>): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be an object';
  const unknown = Object.keys(body).filter((name) => !BODY_FIELDS.has(name));
  if (unknown.length) return `Unknown fields: ${unknown.join(', ')}`;
  if (typeof body.amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(body.amount)) return 'amount must be a decimal string with up to 2 decimals';
  if (typeof body.currency !== 'string' || !CURRENCIES.has(body.currency)) return 'currency must be USDC, USD, EUR, SGD or GBP';
  if (body.network !== undefined && body.network !== 'base') return 'network must be base';
  if (body.description !== undefined && typeof body.description !== 'string') return 'description must be a string';
  if (typeof body.expiresAt !== 'string' || Number.isNaN(Date.parse(body.expiresAt)) || Date.parse(body.expiresAt) <= Date.now()) return 'expiresAt must be a future RFC 3339 time';
  for (const name of ['successRedirectUrl', 'failRedirectUrl'] as const) {
    if (body[name] !== undefined && (typeof body[name] !== 'string' || !/^https?:\/\//.test(body[name] as string))) return `${name} must be a URL`;
  }
  const metadata = body.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Object.values(metadata).some((value) => typeof value !== 'string'))) return 'metadata values must be strings';
  return null;
}

/** What a checkout reads back for the price asked: USDC as is; a fiat price in USDC with the price in the fiat fields. */
function priceOf(amount: string, currency: string): Pick<FakeCheckout, 'amount' | 'currency' | 'fiatAmount' | 'fiatCurrency'> {
  return currency === 'USDC' ? { amount, currency } : { amount: fakeUsdc(amount, currency), currency: 'USDC', fiatAmount: amount, fiatCurrency: currency };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  return JSON.stringify(value);
}
