/**
 * The resume entry of the waiting page: a recovery reminder's link signs a browser in to one order and
 * lands on /waiting?orderid=N. A browser with nothing saved (another device, a cleared cookie) asks the
 * server for that order's payment and saves it, so the waiting page shows its invoice, countdown and gateway.
 */
import { unwrap } from './api';
import { savePayment } from './actors/payment';
import { readPayment } from './saved-payment';
import type { AppServices } from './services';

export interface ResumeSearch {
  orderid?: number;
}

const ID = /^[1-9]\d{0,9}$/;

/** Keeps a positive integer `orderid`; anything else is set to undefined (the router keeps unvalidated keys as they came). */
export function resumeSearch(search: Record<string, unknown>): ResumeSearch {
  const value = typeof search.orderid === 'string' || typeof search.orderid === 'number' ? String(search.orderid).trim() : undefined;
  return { orderid: value !== undefined && ID.test(value) ? Number(value) : undefined };
}

/** Saves the order's payment for the waiting page unless this browser already waits on that order. */
export async function resumeOrder(app: AppServices, orderid: number | undefined): Promise<void> {
  if (orderid === undefined || readPayment(app.store)?.order.orderid === orderid) return;
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
