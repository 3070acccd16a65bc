import type { GatewayPaymentRequest, GatewayPaymentResponse } from '../../api/client';
import { PAYMENT_DEADLINE_MS } from '../../domain/constants';
import { isCryptoGateway } from '../../domain/gateway';
import { unwrap } from '../api';
import type { PaymentFlow, SavedPayment } from '../persistence';
import type { AppServices } from '../services';

/** What a machine knows of the payment it hands over to the waiting step. */
export interface Handover {
  order: SavedPayment['order'];
  link: string | null;
  gateway: string;
  /** Payment deadline (epoch ms); null when there is no link yet (the waiting step then offers a new one). */
  lastDate: number | null;
  duration?: number | null;
}

/** Saves the payment the waiting step resumes from, before the shopper leaves for the payment page. */
export function savePayment(app: AppServices, flow: PaymentFlow, handover: Handover): void {
  app.store.update({
    payment: {
      flow,
      order: handover.order,
      link: handover.link,
      gateway: handover.gateway,
      lastDate: handover.lastDate ?? app.now(),
      duration: handover.duration ?? PAYMENT_DEADLINE_MS,
    },
  });
}

/** A new payment link for an invoice on a gateway: coinbase for a crypto gateway, offshore for any other. */
export function requestPaymentLink(app: AppServices, body: GatewayPaymentRequest, gatewayType: string | null): Promise<GatewayPaymentResponse> {
  const { client } = app;
  return unwrap(gatewayType !== null && isCryptoGateway(gatewayType) ? client.POST('/checkout/api/coinbase', { body }) : client.POST('/checkout/api/offshore', { body }));
}
