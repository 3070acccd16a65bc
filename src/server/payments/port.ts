import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentEvent, PaymentRecord } from '../billing/port';

/** A currency a gateway may take: the catalogue's, and what providers settle in (USDC). */
export type GatewayCurrency = string;

/** What a link needs besides the payment: where the shopper comes back to, what was bought. */
export interface PaymentLinkContext {
  /** Absolute URL of the waiting page the provider sends the shopper back to. */
  returnUrl: string;
  /** What the shopper pays for, as the provider's page shows it. */
  description: string;
  /** The order the invoice belongs to (null for an upsell invoice). */
  orderId: number | null;
}

/** A verified event of a provider, as the checkout applies it; `providerRef` names the provider's object (a Coinbase checkout id). */
export interface GatewayEvent extends PaymentEvent {
  providerRef?: string;
}

export type WebhookRefusal = 'invalid_signature' | 'stale_timestamp' | 'bad_request';

export type WebhookVerdict = { ok: true; events: GatewayEvent[] } | { ok: false; reason: WebhookRefusal; message?: string };

export interface WebhookDelivery {
  /** Lower-case header names, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The exact bytes the provider signed. */
  rawBody: string;
  /** Unix seconds. */
  now: number;
}

/**
 * What re-reading the provider says of a verified event: `settle` (final; apply this event, built from what
 * the provider says now), `confirming` (money seen, not final: record the confirming event, ask for a retry),
 * `skip` (nothing to apply, e.g. the provider does not report it paid).
 */
export type Confirmation =
  | { status: 'settle'; event: GatewayEvent }
  | { status: 'confirming'; event: GatewayEvent }
  | { status: 'skip'; reason: string };

/** A payment gateway as the checkout sees it: a hosted payment page, and signed notifications of what happened there. */
export interface PaymentGateway {
  module: string;
  displayname: string;
  /** Gateway type as the billing system names it (CreditCard, Bitcoin, …); decides card or coin. */
  type: 'CreditCard' | 'highriskshop' | 'laucharge' | 'mercuryo' | 'Bitcoin' | 'Cryptocurrency';
  /** The currencies it takes: an invoice in another one cannot be paid on it. */
  currencies: readonly GatewayCurrency[];
  /** The hosted page where the shopper pays this payment; may call the provider; idempotent per invoice and attempt. */
  createLink(payment: PaymentRecord, context: PaymentLinkContext): Promise<{ url: string }>;
  /** Checks a notification's signature on the raw body and turns it into the checkout's events (amounts in integer cents). */
  verifyWebhook(delivery: WebhookDelivery): WebhookVerdict;
  /** Re-reads the provider before a payment is applied; absent where the signed notification is the provider's last word. */
  confirm?(event: GatewayEvent): Promise<Confirmation>;
}

/** A gateway whose provider could not be reached or refused our call: the shopper may retry. */
export class GatewayUnavailable extends Error {
  constructor(readonly gateway: string, message: string) {
    super(message);
    this.name = 'GatewayUnavailable';
  }
}

/** True when the gateway takes invoices in this currency (the app's rule, in the domain). */
export { takesCurrency } from '../../domain/gateway';
