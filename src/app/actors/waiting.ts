/** The waiting machine with the app's actors (status polling, cancel, new payment link) and navigation. */
import { assign, fromPromise } from 'xstate';
import type {
  CancelOrderInput,
  CancelOrderOutput,
  CreatePaymentLinkInput,
  CreatePaymentLinkOutput,
  FetchOrderStatusInput,
  OrderStatusResult,
} from '../../../machines/waiting.context';
import { waitingMachine } from '../../../machines/waiting.machine';
import { ApiFailure, unwrap } from '../api';
import type { AppServices } from '../services';
import { requestPaymentLink } from './payment';
import type { components } from '../../api/schema';

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

const missing = (what: string) => new ApiFailure('request.failed', 0, `no_${what}`);

export function waitingLogic(app: AppServices, hooks: { goToSuccess: (serviceid: number | null, invoiceid: number | null) => void; goHome: () => void }) {
  const { client } = app;
  const invoiceStatus = (invoiceid: number) => unwrap(client.GET('/checkout/api/invoiceStatus', { params: { query: { invoiceid: String(invoiceid), locale: app.catalogueLocale() } } }));
  return waitingMachine.provide({
    actors: {
      fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(async ({ input }) => {
        if (input.orderid !== null) {
          const order = await unwrap(client.GET('/checkout/api/orderStatus', { params: { query: { orderid: String(input.orderid), locale: app.catalogueLocale() } } }));
          return { orderid: order.orderid, status: order.status, fraud: order.fraud, serviceids: order.serviceids, ...progressOf(order) };
        }
        if (input.invoiceid === null) throw missing('order');
        const invoice = await invoiceStatus(input.invoiceid);
        return {
          orderid: invoice.orderid ?? 0, status: INVOICE_AS_ORDER_STATUS[invoice.status], fraud: false, serviceids: invoice.serviceid ? [invoice.serviceid] : [], ...progressOf(invoice),
        };
      }),
      cancelOrder: fromPromise<CancelOrderOutput, CancelOrderInput>(({ input }) => {
        if (input.orderid === null) return Promise.reject(missing('order'));
        return unwrap(client.POST('/checkout/api/cancelOrder', { body: { orderid: input.orderid } }));
      }),
      createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(async ({ input }) => {
        if (input.invoiceid === null) throw missing('invoice');
        // The same invoice on the new gateway, for the amount the server holds.
        const { amount, currency } = await invoiceStatus(input.invoiceid);
        const { link } = await requestPaymentLink(app, { invoiceid: input.invoiceid, paymentmethod: input.gateway.module, amount, currency }, input.gateway.type);
        return { link };
      }),
    },
    actions: {
      readClock: assign({ now: () => app.now() }),
      openPaymentLink: (_, { link }) => app.leave(link),
      goToSuccess: (_, { serviceid, invoiceid }) => hooks.goToSuccess(serviceid, invoiceid),
      goHome: () => hooks.goHome(),
    },
  });
}
