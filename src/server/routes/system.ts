import type { FastifyRequest } from 'fastify';
import type { BillingPort, SettleOutcome } from '../billing/port';
import { HttpError, badRequest, notFound } from '../http-error';
import type { ShopMetrics, WebhookResult } from '../ops/metrics';
import type { Confirmation, GatewayEvent, WebhookRefusal } from '../payments/port';
import { visitorOf } from '../visitor';
import type { Handlers, RouteDeps } from './types';

/** A load balancer's readiness probe is answered within this, whatever the store does. */
const READINESS_TIMEOUT_MS = 2_000;

const WEBHOOK_REFUSALS: Record<WebhookRefusal, string> = {
  invalid_signature: 'The webhook signature does not match.',
  stale_timestamp: 'The webhook timestamp is outside the allowed window.',
  bad_request: 'The webhook body is not an event of this gateway.',
};

/** What became of an event, as the operator counts it: every outcome but a repeat and an exception was applied. */
const WEBHOOK_RESULTS: Partial<Record<SettleOutcome, WebhookResult>> = { duplicate: 'duplicate', already_applied: 'duplicate', exception: 'exception' };

/** Applies one verified event, counts it and logs what it did; never the payment id (a bearer token) nor anything about the shopper. */
async function settleEvent(billing: BillingPort, metrics: ShopMetrics, request: FastifyRequest, gateway: string, event: GatewayEvent) {
  const { providerRef: _providerRef, ...paymentEvent } = event;
  const { outcome, reason, invoiceId, activated } = await billing.settlePayment(gateway, paymentEvent);
  metrics.webhook(gateway, WEBHOOK_RESULTS[outcome] ?? 'applied');
  if (outcome === 'exception') metrics.paymentException(reason ?? 'unknown');
  if (activated !== undefined) metrics.orderPaid(activated);
  const facts = { invoice: invoiceId, gateway, event: event.id, type: event.type, amount: event.amountCents / 100, currency: event.currency };
  if (outcome === 'exception') request.log.warn({ ...facts, reason }, 'payment exception: a payment the provider reports could not be applied (npm run payments:exceptions)');
  else request.log.info({ ...facts, outcome, ...(reason ? { reason } : {}) }, 'payment webhook');
  return outcome;
}

/** Fraud check, affiliate clicks, payment webhooks and health. */
export function systemRoutes({ billing, gateways, fraud, config, storeEngine, pingStore, metrics }: RouteDeps): Handlers<'checkFraud' | 'newAffiliateClick' | 'paymentWebhook' | 'health'> {
  const settle = (request: FastifyRequest, gateway: string, event: GatewayEvent) => settleEvent(billing, metrics, request, gateway, event);
  return {
    async checkFraud(request) {
      const verdict = await fraud.assess(visitorOf(request, config));
      return { valid: verdict.valid };
    },

    async newAffiliateClick(request) {
      await billing.recordAffiliateClick({ affId: request.body.aff_id, referer: request.body.referer, ip: visitorOf(request, config).ip });
      return { recorded: true as const };
    },

    async paymentWebhook(request, reply) {
      const gateway = gateways.find((candidate) => candidate.module === request.params.gateway);
      if (!gateway) throw notFound('No such payment gateway.');
      const rawBody = (request as { rawBody?: string }).rawBody ?? '';
      const verdict = gateway.verifyWebhook({ headers: request.headers, rawBody, now: Math.floor(Date.now() / 1000) });
      if (!verdict.ok) {
        metrics.webhook(gateway.module, verdict.reason);
        throw badRequest(verdict.message ?? WEBHOOK_REFUSALS[verdict.reason], verdict.reason);
      }
      if (verdict.events.length === 0) request.log.info({ gateway: gateway.module }, 'payment webhook: a verified notification with nothing to apply');
      let duplicate = verdict.events.length > 0;
      for (const verified of verdict.events) {
        let event = verified;
        if (gateway.confirm) {
          let confirmation: Confirmation;
          try {
            confirmation = await gateway.confirm(verified);
          } catch (error) {
            // Nothing is recorded: the provider retries, and the re-read is tried again then.
            request.log.warn({ err: error, gateway: gateway.module, event: verified.id }, 'payment webhook: the provider could not be re-read');
            reply.header('retry-after', '60');
            throw new HttpError(503, 'gateway_unavailable', 'The payment provider could not be reached to confirm this event; retry later.');
          }
          if (confirmation.status === 'skip') {
            request.log.info({ gateway: gateway.module, event: verified.id, type: verified.type, reason: confirmation.reason }, 'payment webhook: nothing to apply');
            duplicate = false;
            continue;
          }
          if (confirmation.status === 'confirming') {
            await settle(request, gateway.module, confirmation.event);
            reply.header('retry-after', '60');
            // Money seen but not final: the provider delivers this event again, and it settles once final.
            throw new HttpError(503, 'payment_confirming', 'The payment is not final yet at the provider; retry later.');
          }
          event = confirmation.event;
        }
        const outcome = await settle(request, gateway.module, event);
        if (outcome !== 'duplicate') duplicate = false;
      }
      // 200 in every case, so the provider stops retrying: what could not be applied is recorded, not refused.
      return { received: true as const, duplicate };
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
