import { unwrap } from './api';
import { savePayment } from './actors/payment';
import { readPayment } from './saved-payment';
import type { AppServices } from './services';

/** Saves the order's payment for the waiting page unless this browser already waits on that order. */
export async function saveResumedOrder(app: AppServices, orderid: number): Promise<void> {
  if (readPayment(app.store)?.order.orderid === orderid) return;
  // Not the session's order (or the server is away): the page shows what it would without the link.
  const order = await unwrap(app.client.GET('/checkout/api/resumeOrder', { params: { query: { orderid: String(orderid) } } })).catch(() => null);
  if (!order) return;
  savePayment(app, order.flow, {
    order: { orderid: order.orderid, invoiceid: order.invoiceid, serviceid: order.serviceids[0] ?? null, fraud: order.fraud },
    link: order.link,
    gateway: order.paymentmethod ?? '',
    lastDate: order.deadline ? Date.parse(order.deadline) : null,
  });
}
