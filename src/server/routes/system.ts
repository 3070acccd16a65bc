import { HttpError, badRequest, notFound } from '../http-error';
import { verifyWebhook } from '../payments/signature';
import { visitorOf } from '../visitor';
import type { Handlers, RouteDeps } from './types';

/** A load balancer's readiness probe is answered within this, whatever the store does. */
const READINESS_TIMEOUT_MS = 2_000;

/** Fraud check, affiliate clicks, payment webhooks and health. */
export function systemRoutes({ billing, gateways, fraud, config, storeEngine, pingStore }: RouteDeps): Handlers<'checkFraud' | 'newAffiliateClick' | 'paymentWebhook' | 'health'> {
  return {
    async checkFraud(request) {
      const verdict = await fraud.assess(visitorOf(request, config));
      return { valid: verdict.valid };
    },

    async newAffiliateClick(request) {
      await billing.recordAffiliateClick({ affId: request.body.aff_id, referer: request.body.referer, ip: visitorOf(request, config).ip });
      return { recorded: true as const };
    },

    async paymentWebhook(request) {
      const gateway = gateways.find((candidate) => candidate.module === request.params.gateway);
      if (!gateway) throw notFound('No such payment gateway.');
      const rawBody = (request as { rawBody?: string }).rawBody ?? '';
      const check = verifyWebhook(gateway.webhookSecret, rawBody, String(request.headers['webhook-signature'] ?? ''));
      if (!check.ok) {
        throw badRequest(check.reason === 'stale_timestamp' ? 'The webhook timestamp is outside the allowed window.' : 'The webhook signature does not match.', check.reason);
      }
      const event = request.body;
      const amountCents = Math.round(event.data.amount * 100);
      const { outcome, reason, invoiceId } = await billing.settlePayment(gateway.module, {
        id: event.id, type: event.type, paymentId: event.data.paymentId, invoiceId: event.data.invoiceid,
        amountCents, currency: event.data.currency, createdAt: new Date(event.created * 1000),
      });
      // Never the payment id (a payment link is a bearer token) nor anything about the shopper.
      const facts = { invoice: invoiceId, gateway: gateway.module, event: event.id, type: event.type, amount: event.data.amount, currency: event.data.currency };
      if (outcome === 'exception') request.log.warn({ ...facts, reason }, 'payment exception: a payment the provider reports could not be applied (npm run payments:exceptions)');
      else request.log.info({ ...facts, outcome, ...(reason ? { reason } : {}) }, 'payment webhook');
      // 200 in every case, so the provider stops retrying: what could not be applied is recorded, not refused.
      return { received: true as const, duplicate: outcome === 'duplicate' };
    },

    async health(request, reply) {
      if (request.query.ready === '1') {
        try {
          await pingStore(READINESS_TIMEOUT_MS);
        } catch (error) {
          request.log.warn({ err: error }, 'not ready: the store does not answer');
          reply.header('retry-after', '5');
          throw new HttpError(503, 'store_unavailable', 'The store cannot be reached right now.');
        }
      }
      return { status: 'ok' as const, store: storeEngine };
    },
  };
}
