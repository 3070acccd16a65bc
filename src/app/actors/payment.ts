import { PAYMENT_DEADLINE_MS } from '../../domain/constants';
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
