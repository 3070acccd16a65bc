import { isRecord, type SavedPayment, type SavedStateStore } from './persistence';

const isId = (id: unknown) => id === null || (Number.isInteger(id) && (id as number) > 0);

/** The saved payment, if well formed (only the waiting and success pages read it). */
export function readPayment(store: SavedStateStore): SavedPayment | undefined {
  const { payment } = store.read();
  if (!isRecord(payment) || !isRecord(payment.order)) return undefined;
  const { flow, order, link, gateway, lastDate, duration } = payment;
  const valid =
    (flow === 'order' || flow === 'upsell' || flow === 'reseller' || flow === 'renewal') &&
    isId(order.orderid) &&
    isId(order.invoiceid) &&
    isId(order.serviceid) &&
    typeof order.fraud === 'boolean' &&
    // The browser follows the link: only http(s) links are kept.
    (link === null || (typeof link === 'string' && /^https?:\/\//i.test(link))) &&
    typeof gateway === 'string' &&
    Number.isFinite(lastDate) &&
    Number.isFinite(duration);
  return valid ? (payment as unknown as SavedPayment) : undefined;
}
