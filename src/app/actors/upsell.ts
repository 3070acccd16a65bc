/** The upsell machine with the app's actors and the hand-over to the payment page. */
import { fromPromise } from 'xstate';
import { upsellMachine, type ActiveServicesOutput, type CreateInvoiceInput, type CreateInvoiceOutput } from '../../../machines/upsell.machine';
import { unwrap } from '../api';
import type { AppServices } from '../services';
import { savePayment } from './payment';

export function upsellLogic(app: AppServices) {
  const { client } = app;
  return upsellMachine.provide({
    actors: {
      loadActiveServices: fromPromise<ActiveServicesOutput>(() => unwrap(client.GET('/checkout/api/getActiveProducts', { params: { query: { locale: app.catalogueLocale() } } }))),
      // One key per attempt: the machine ignores a second submit while this one runs.
      createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(({ input }) =>
        unwrap(client.POST('/checkout/api/addInvoice', { params: { header: { 'Idempotency-Key': crypto.randomUUID() } }, body: input })),
      ),
    },
    actions: {
      redirectToPayment: ({ context }, { link }) => {
        savePayment(app, 'upsell', {
          order: { orderid: null, invoiceid: context.invoiceid, serviceid: context.selectedServiceId, fraud: false },
          link,
          gateway: context.selectedGateway,
          lastDate: context.lastDate,
          duration: context.duration,
        });
        app.leave(link);
      },
    },
  });
}
