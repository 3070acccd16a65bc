/** The renewal machine with the app's actors and the hand-over to the payment page. */
import { fromPromise } from 'xstate';
import { openInvoice, renewalMachine, type CreateRenewalLinkInput, type CreateRenewalLinkOutput, type LoadRenewalInput, type ServiceRenewal } from '../../../machines/renewal.machine';
import { unwrap } from '../api';
import type { AppServices } from '../services';
import { requestPaymentLink, savePayment } from './payment';

export function renewalLogic(app: AppServices) {
  const { client } = app;
  return renewalMachine.provide({
    actors: {
      loadRenewal: fromPromise<ServiceRenewal, LoadRenewalInput>(({ input }) =>
        unwrap(client.GET('/checkout/api/renewal', { params: { query: { serviceid: String(input.serviceid), locale: app.catalogueLocale() } } })),
      ),
      createPaymentLink: fromPromise<CreateRenewalLinkOutput, CreateRenewalLinkInput>(({ input: { gatewayType, ...body } }) => requestPaymentLink(app, body, gatewayType)),
    },
    actions: {
      redirectToPayment: ({ context }, { link }) => {
        // The waiting page polls the invoice (no order) and, once it is paid, shows the service.
        savePayment(app, 'renewal', {
          order: { orderid: null, invoiceid: openInvoice(context.renewal)?.invoiceid ?? null, serviceid: context.serviceid, fraud: false },
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
