import type { BillingPort, PaymentRecord } from '../billing/port';
import { HttpError, unprocessable } from '../http-error';
import { GatewayUnavailable, takesCurrency, type PaymentGateway } from './port';

/** 422 for an invoice in a currency the gateway does not take: the shopper picks another gateway. */
export function refuseCurrency(gateway: PaymentGateway, currency: string): void {
  if (!takesCurrency(gateway, currency)) {
    throw unprocessable('currency_not_accepted', `${gateway.displayname} does not take payments in ${currency}; choose another payment method.`);
  }
}

/**
 * The hosted page of a payment just created (or replayed under the same Idempotency-Key): the gateway may
 * call its provider, with the same key for the same payment, so a retry gets the same link.
 */
export async function paymentLink(gateway: PaymentGateway, billing: BillingPort, publicUrl: string, paymentOrId: string | PaymentRecord, log?: { warn(facts: object, message: string): void }): Promise<string> {
  // A payment the billing just made and handed back needs no reading back.
  const payment = typeof paymentOrId === 'string' ? await billing.payment(paymentOrId) : paymentOrId;
  if (!payment) throw new Error(`Payment ${String(paymentOrId)} was just created and cannot be read`);
  const { orderId } = payment;
  const description = orderId ? `TV Checkout order #${orderId} (invoice #${payment.invoiceId})` : `TV Checkout invoice #${payment.invoiceId}`;
  try {
    const { url } = await gateway.createLink(payment, { returnUrl: `${publicUrl}${payment.returnPath}`, description, orderId });
    return url;
  } catch (error) {
    if (!(error instanceof GatewayUnavailable)) throw error;
    // What the provider said, for the operator; never a payment-link id (a bearer token), should it echo one.
    log?.warn({ gateway: gateway.module, invoice: payment.invoiceId, reason: error.message.replace(/pay_[A-Za-z0-9_-]+/g, 'pay_…') }, 'payment provider unavailable: no link made');
    // The order and its invoice stand: the same request again (same Idempotency-Key) or a new link retries the provider.
    throw new HttpError(503, 'gateway_unavailable', `${gateway.displayname} cannot be reached right now. Please try again in a moment.`);
  }
}
