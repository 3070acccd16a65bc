import type { Currency } from '../../../domain/currency';
import type { ProvidersConfig } from '../../config';
import { centsToDecimal, decimalToCents } from '../decimal';
import type { PaymentGateway, WebhookVerdict } from '../port';
import { signLink, verifyCallback, type CallbackFields } from './canonical';

const STATUSES = new Set(['paid', 'declined']);

function callbackOf(body: unknown): CallbackFields | null {
  const value = body as Partial<CallbackFields> | null;
  if (typeof value !== 'object' || value === null) return null;
  const { id, status, invoice, ref, amount, currency, paidAt } = value;
  if (typeof id !== 'string' || !id || !STATUSES.has(status as string) || !Number.isSafeInteger(invoice) || typeof ref !== 'string'
    || typeof amount !== 'string' || typeof currency !== 'string' || !Number.isSafeInteger(paidAt)) return null;
  return { id, status: status as CallbackFields['status'], invoice: invoice as number, ref, amount, currency, paidAt: paidAt as number };
}

/** A card processor's hosted page reached by an HMAC-signed, expiring link; it calls back signed the same way. */
export function hostedlinkGateway(settings: ProvidersConfig['hostedlink']): PaymentGateway {
  const { url, secret } = settings;
  if (!url || !secret) throw new Error('hostedlinkGateway needs HOSTEDLINK_URL and HOSTEDLINK_SECRET');
  const page = new URL(url);

  return {
    module: 'hostedlink',
    displayname: settings.name,
    type: 'CreditCard',
    currencies: settings.currencies,

    async createLink(payment, context) {
      const query = signLink(secret, {
        invoice: payment.invoiceId, ref: payment.id, amount: centsToDecimal(payment.amountCents), currency: payment.currency,
        return: context.returnUrl, expires: Math.floor(payment.expiresAt.getTime() / 1000),
      });
      const link = new URL(page);
      for (const [name, value] of query) link.searchParams.set(name, value);
      return { url: link.toString() };
    },

    verifyWebhook({ headers, rawBody, now }): WebhookVerdict {
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        return { ok: false, reason: 'bad_request', message: 'The body is not valid JSON.' };
      }
      const callback = callbackOf(body);
      const amountCents = callback ? decimalToCents(callback.amount) : null;
      if (!callback || amountCents === null) return { ok: false, reason: 'bad_request', message: 'The body is not a hostedlink callback.' };
      const check = verifyCallback(secret, String(headers['webhook-signature'] ?? ''), callback, now);
      if (!check.ok) return check;
      return {
        ok: true,
        events: [{
          id: callback.id, type: callback.status === 'paid' ? 'payment.succeeded' : 'payment.failed', paymentId: callback.ref, invoiceId: callback.invoice,
          amountCents, currency: callback.currency as Currency, createdAt: new Date(callback.paidAt * 1000),
        }],
      };
    },
  };
}
