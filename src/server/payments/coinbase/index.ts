import { createHash } from 'node:crypto';
import type { Currency } from '../../../domain/currency';
import type { ProvidersConfig } from '../../config';
import { centsToDecimal, decimalToCents } from '../decimal';
import { GatewayUnavailable, type Confirmation, type GatewayEvent, type PaymentGateway, type WebhookVerdict } from '../port';
import { cdpBearer, cdpSigningKey } from './jwt';
import { verifyHook0 } from './signature';

/** What Coinbase Business checkouts take: USDC, or a fiat amount settled in USDC (reference §4). */
export const COINBASE_CURRENCIES = ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] as const;

/** A provider that does not answer within this is unavailable for now (the shopper may retry). */
const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * A checkout as the Checkouts API returns it (only what the checkout uses). A checkout priced in fiat reads
 * back with `amount`/`currency` in USDC and the price asked for in `fiatAmount`/`fiatCurrency`
 * (docs.cdp.coinbase.com/api-reference/business-api/rest-api/checkouts/create-checkout).
 */
export interface CoinbaseCheckout {
  id: string;
  url: string;
  amount: string;
  currency: string;
  fiatAmount?: string;
  fiatCurrency?: string;
  status: string;
  metadata?: Record<string, string>;
  updatedAt?: string;
}

/**
 * The price a checkout was made for, in integer cents: its fiat fields when it has them (a fiat price
 * settled in USDC), else its amount and currency (a USDC price, or an answer without fiat fields).
 */
export function checkoutPrice(checkout: Partial<CoinbaseCheckout>): { amountCents: number; currency: string } | null {
  // The amount is always a decimal string, whatever it is priced in.
  if (decimalToCents(checkout.amount) === null || typeof checkout.currency !== 'string') return null;
  if (checkout.fiatAmount === undefined && checkout.fiatCurrency === undefined) return { amountCents: decimalToCents(checkout.amount) as number, currency: checkout.currency };
  const fiatCents = decimalToCents(checkout.fiatAmount);
  return fiatCents === null || typeof checkout.fiatCurrency !== 'string' ? null : { amountCents: fiatCents, currency: checkout.fiatCurrency };
}

const WEBHOOK_TYPES: Record<string, GatewayEvent['type'] | null> = {
  'checkout.payment.success': 'payment.succeeded',
  'checkout.payment.failed': 'payment.failed',
  // Coinbase closed the checkout unpaid (maybe before our deadline): the link is expired, a new one may be made.
  'checkout.payment.expired': 'payment.expired',
  'checkout.refund.success': null,
  'checkout.refund.failed': null,
};

/** The same key for the same invoice and attempt (payment), so a retried create returns the same checkout. */
export function idempotencyKey(invoiceId: number, paymentId: string): string {
  const hex = createHash('sha256').update(`tv-checkout:${invoiceId}:${paymentId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const metadataInvoice = (value: string | undefined) => (value && /^\d{1,15}$/.test(value) ? Number(value) : 0);

/** Coinbase Business: a Checkout per payment (POST /api/v1/checkouts), CDP-JWT per request, X-Hook0-Signature webhooks. */
export function coinbaseGateway(settings: ProvidersConfig['coinbase']): PaymentGateway {
  const { apiKeyId, apiKeySecret, webhookSecret } = settings;
  if (!apiKeyId || !apiKeySecret || !webhookSecret) throw new Error('coinbaseGateway needs COINBASE_API_KEY_ID, COINBASE_API_KEY_SECRET and COINBASE_WEBHOOK_SECRET');
  const signing = cdpSigningKey(apiKeyId, apiKeySecret);
  const endpoint = (path: string) => new URL(`${settings.apiUrl}${path}`);

  const call = async (method: 'GET' | 'POST', url: URL, body?: unknown, headers: Record<string, string> = {}): Promise<CoinbaseCheckout> => {
    let answer;
    try {
      // undici is evaluated at the first call, not at every start (~1 MB of the server bundle).
      const { request } = await import('undici');
      answer = await request(url, {
        method,
        headers: { authorization: `Bearer ${await cdpBearer(signing, method, url)}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
        headersTimeout: PROVIDER_TIMEOUT_MS,
        bodyTimeout: PROVIDER_TIMEOUT_MS,
      });
    } catch (error) {
      throw new GatewayUnavailable('coinbase', `Coinbase did not answer ${method} ${url.pathname}: ${(error as Error).message}`);
    }
    const text = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      throw new GatewayUnavailable('coinbase', `Coinbase answered ${method} ${url.pathname} with ${answer.statusCode}: ${text.slice(0, 300)}`);
    }
    const checkout = JSON.parse(text) as CoinbaseCheckout;
    if (typeof checkout?.id !== 'string' || typeof checkout.url !== 'string') throw new GatewayUnavailable('coinbase', `Coinbase answered ${method} ${url.pathname} without a checkout id and url`);
    return checkout;
  };

  const verifyWebhook: PaymentGateway['verifyWebhook'] = ({ headers, rawBody, now }): WebhookVerdict => {
    const check = verifyHook0(webhookSecret, headers, rawBody, now);
    if (!check.ok) return check;
    let body: Partial<CoinbaseCheckout> & { eventType?: string };
    try {
      body = JSON.parse(rawBody);
    } catch {
      return { ok: false, reason: 'bad_request', message: 'The body is not valid JSON.' };
    }
    if (typeof body?.id !== 'string' || typeof body.eventType !== 'string') return { ok: false, reason: 'bad_request', message: 'The body is not a Coinbase checkout event.' };
    const type = WEBHOOK_TYPES[body.eventType];
    // Expiry, refunds and event types Coinbase may add later apply nothing: acknowledged, so they are not retried.
    if (!type) return { ok: true, events: [] };
    const price = checkoutPrice(body);
    if (!price) return { ok: false, reason: 'bad_request', message: 'The checkout event has no amount as a decimal string, or no currency.' };
    const eventId = headers['x-event-id'];
    const updatedAt = body.updatedAt ? new Date(body.updatedAt) : null;
    return {
      ok: true,
      events: [{
        // The CDP event id is a header; a checkout's status change is unique when it is missing.
        id: typeof eventId === 'string' && eventId ? `coinbase:${eventId}` : `coinbase:${body.id}:${body.eventType}`,
        type, paymentId: body.metadata?.paymentId ?? '', invoiceId: metadataInvoice(body.metadata?.invoiceId),
        amountCents: price.amountCents, currency: price.currency as Currency,
        createdAt: updatedAt && !Number.isNaN(updatedAt.getTime()) ? updatedAt : new Date(now * 1000),
        providerRef: body.id,
      }],
    };
  };

  return {
    module: 'coinbase',
    displayname: 'Crypto (Coinbase)',
    type: 'Cryptocurrency',
    currencies: COINBASE_CURRENCIES,

    async createLink(payment, context) {
      const checkout = await call('POST', endpoint('/api/v1/checkouts'), {
        amount: centsToDecimal(payment.amountCents),
        currency: payment.currency,
        network: 'base',
        description: context.description,
        expiresAt: payment.expiresAt.toISOString(),
        successRedirectUrl: context.returnUrl,
        failRedirectUrl: context.returnUrl,
        metadata: { invoiceId: String(payment.invoiceId), ...(context.orderId ? { orderId: String(context.orderId) } : {}), paymentId: payment.id },
      }, { 'x-idempotency-key': idempotencyKey(payment.invoiceId, payment.id) });
      return { url: checkout.url };
    },

    verifyWebhook,

    async confirm(event): Promise<Confirmation> {
      // A failure moves no money: nothing to re-read (and a failure after a payment changes nothing).
      if (event.type !== 'payment.succeeded' || !event.providerRef) return { status: 'settle', event };
      if (!/^[0-9a-f]{24}$/.test(event.providerRef)) return { status: 'skip', reason: 'not a checkout id' };
      const checkout = await call('GET', endpoint(`/api/v1/checkouts/${event.providerRef}`));
      if (checkout.metadata?.paymentId !== event.paymentId) return { status: 'skip', reason: 'the checkout names another payment' };
      const price = checkoutPrice(checkout);
      if (!price) return { status: 'skip', reason: 'the checkout has no amount as a decimal string' };
      // What Coinbase says now is what is applied: its price (the fiat one when priced in fiat) is compared with the invoice's.
      const now = { ...event, amountCents: price.amountCents, currency: price.currency as Currency };
      if (checkout.status === 'COMPLETED') return { status: 'settle', event: now };
      if (checkout.status === 'PROCESSING') return { status: 'confirming', event: { ...now, id: `${event.id}:confirming`, type: 'payment.confirming' } };
      return { status: 'skip', reason: `the checkout is ${checkout.status}, not COMPLETED` };
    },
  };
}
