import type { Currency } from '../../../domain/currency';
import type { WebhookDelivery, WebhookVerdict } from '../port';
import { verifyWebhook } from '../signature';

const EVENT_TYPES = new Set(['payment.succeeded', 'payment.failed', 'payment.confirming']);

type SandboxEvent = { id: string; type: 'payment.succeeded' | 'payment.failed' | 'payment.confirming'; created: number; data: { paymentId: string; invoiceid: number; amount: number; currency: string } };

function isSandboxEvent(body: unknown): body is SandboxEvent {
  const event = body as SandboxEvent | null;
  const data = event?.data;
  return typeof event === 'object' && event !== null && typeof event.id === 'string' && EVENT_TYPES.has(event.type)
    && Number.isInteger(event.created) && typeof data === 'object' && data !== null && typeof data.paymentId === 'string'
    && Number.isInteger(data.invoiceid) && typeof data.amount === 'number' && Number.isFinite(data.amount) && typeof data.currency === 'string';
}

/** The sandbox page's own notification: `Webhook-Signature: t=…,v1=…` over "t.rawBody", the body as openapi.yaml's WebhookEvent. */
export function sandboxEvents(secret: string, { headers, rawBody, now }: WebhookDelivery): WebhookVerdict {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: 'bad_request', message: 'The body is not valid JSON.' };
  }
  if (!isSandboxEvent(body)) return { ok: false, reason: 'bad_request', message: 'The body is not a sandbox payment event.' };
  const check = verifyWebhook(secret, rawBody, String(headers['webhook-signature'] ?? ''), now);
  if (!check.ok) return check;
  return {
    ok: true,
    events: [{
      id: body.id, type: body.type, paymentId: body.data.paymentId, invoiceId: body.data.invoiceid,
      // The sandbox's own contract carries a JSON number with at most two decimals (openapi.yaml Money).
      amountCents: Math.round(body.data.amount * 100), currency: body.data.currency as Currency, createdAt: new Date(body.created * 1000),
    }],
  };
}
