/**
 * The waiting page's read of an order's status (orderStatus, or invoiceStatus for an upsell's invoice),
 * shared by the waiting chart's poll and the server's first render of the page. Kept apart from the
 * chart so the route that renders the first paint does not carry the machine.
 */
import type { FetchOrderStatusInput, OrderStatusResult } from '../../machines/waiting.context';
import { ApiFailure, settle, unwrap } from './api';
import { readPayment } from './saved-payment';
import type { AppServices } from './services';
import type { components } from '../api/schema';

/** An upsell has no order: its paid invoice counts as an Active order. */
// A refunded upsell is over for the shopper, as a cancelled one is.
const INVOICE_AS_ORDER_STATUS = { Paid: 'Active', Unpaid: 'Pending', Cancelled: 'Cancelled', Refunded: 'Cancelled' } as const;

type StatusAnswer = components['schemas']['OrderStatusResponse'] | components['schemas']['InvoiceStatusResponse'];

/** The payment state, late payment and receipt of a status answer, as the waiting machine keeps them. */
const progressOf = ({ payment, latePayment, receipt, amount, currency }: StatusAnswer): Pick<OrderStatusResult, 'payment' | 'latePayment' | 'receipt'> => ({
  payment: payment?.status ?? null,
  latePayment,
  receipt: { ...receipt, amount, currency },
});

export const missing = (what: string) => new ApiFailure('request.failed', 0, `no_${what}`);

/** The invoice's status answer as the API gives it. */
export function readInvoiceStatus(app: AppServices, invoiceid: number) {
  return unwrap(app.client.GET('/checkout/api/invoiceStatus', { params: { query: { invoiceid: String(invoiceid), locale: app.catalogueLocale() } } }));
}

/** The status of the order (or the upsell's invoice) being paid, as the waiting machine keeps it. */
export async function readOrderStatus(app: AppServices, input: FetchOrderStatusInput): Promise<OrderStatusResult> {
  if (input.orderid !== null) {
    const order = await unwrap(app.client.GET('/checkout/api/orderStatus', { params: { query: { orderid: String(input.orderid), locale: app.catalogueLocale() } } }));
    return { orderid: order.orderid, status: order.status, fraud: order.fraud, serviceids: order.serviceids, ...progressOf(order) };
  }
  if (input.invoiceid === null) throw missing('order');
  const invoice = await readInvoiceStatus(app, input.invoiceid);
  return {
    orderid: invoice.orderid ?? 0, status: INVOICE_AS_ORDER_STATUS[invoice.status], fraud: false, serviceids: invoice.serviceid ? [invoice.serviceid] : [], ...progressOf(invoice),
  };
}

/**
 * The saved payment's status for the server's first paint of the waiting page (and the browser's hydration of it,
 * from the same answer in the page): null on any later visit, where the chart reads it itself, or when there is none.
 */
export async function firstPaintStatus(app: AppServices): Promise<OrderStatusResult | null> {
  if (app.renderedAt === undefined) return null;
  const saved = readPayment(app.store);
  if (!saved || (saved.order.orderid === null && saved.order.invoiceid === null)) return null;
  const read = await settle(readOrderStatus(app, saved.order));
  return read.ok ? read.value : null;
}
