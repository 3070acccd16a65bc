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
import { unwrap } from '../api';
import { missing, readInvoiceStatus, readOrderStatus } from '../order-status';
import type { AppServices } from '../services';
import { requestPaymentLink } from './payment';

export function waitingLogic(app: AppServices, hooks: { goToSuccess: (serviceid: number | null, invoiceid: number | null) => void; goHome: () => void }) {
  return waitingMachine.provide({
    actors: {
      fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(({ input }) => readOrderStatus(app, input)),
      cancelOrder: fromPromise<CancelOrderOutput, CancelOrderInput>(({ input }) => {
        if (input.orderid === null) return Promise.reject(missing('order'));
        return unwrap(app.client.POST('/checkout/api/cancelOrder', { body: { orderid: input.orderid } }));
      }),
      createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(async ({ input }) => {
        if (input.invoiceid === null) throw missing('invoice');
        // The same invoice on the new gateway, for the amount the server holds.
        const { amount, currency } = await readInvoiceStatus(app, input.invoiceid);
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
