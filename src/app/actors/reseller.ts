/** The reseller machine with the app's actors and its hand-over to the payment page or the reseller waiting step. */
import { fromPromise } from 'xstate';
import type {
  CreateResellerOrderInput,
  CreateResellerOrderOutput,
  LoadResellerProductInput,
  ResellerAuthInput,
  ResellerAuthOutput,
  ResellerContext,
  ResellerProductsOutput,
  ResellerService,
} from '../../../machines/reseller.context';
import { resellerMachine } from '../../../machines/reseller.machine';
import { ApiFailure, unwrap } from '../api';
import type { AppServices } from '../services';
import { savePayment } from './payment';

export interface ResellerHooks {
  /** The reseller products, answered from the route's first load when it has one. */
  loadProducts: () => Promise<ResellerProductsOutput>;
  goToWaiting: () => void;
  goToResellers: () => void;
}

export function resellerLogic(app: AppServices, hooks: ResellerHooks) {
  const { client } = app;
  const handOver = (context: ResellerContext) =>
    savePayment(app, 'reseller', { order: context.order, link: context.paymentLink, gateway: context.selectedGateway, lastDate: context.lastDate, duration: context.duration });
  return resellerMachine.provide({
    actors: {
      loadResellerProducts: fromPromise<ResellerProductsOutput>(() => hooks.loadProducts()),
      resellerAuth: fromPromise<ResellerAuthOutput, ResellerAuthInput>(({ input }) =>
        unwrap(client.POST('/checkout/api/resellerAuth', { body: input })).catch((error: unknown) => {
          // The server's refusal of a sign-up's password reads as the form's own message for it.
          if (error instanceof ApiFailure && error.code === 'password_is_email') throw new ApiFailure('reseller.passwordIsEmail', error.status, error.code);
          throw error;
        }),
      ),
      createOrder: fromPromise<CreateResellerOrderOutput, CreateResellerOrderInput>(({ input }) =>
        unwrap(client.POST('/checkout/api/order', { params: { header: { 'Idempotency-Key': crypto.randomUUID() } }, body: input })),
      ),
      loadResellerProduct: fromPromise<ResellerService, LoadResellerProductInput>(({ input }) => {
        if (input.serviceid === null) return Promise.reject(new ApiFailure('api.not_found', 404, 'not_found'));
        return unwrap(client.GET('/checkout/api/getResellerProducts', { params: { query: { serviceid: String(input.serviceid), locale: app.catalogueLocale() } } }));
      }),
    },
    actions: {
      redirectToPayment: ({ context }, { link }) => {
        handOver(context);
        app.leave(link);
      },
      goToWaiting: ({ context }) => {
        handOver(context);
        hooks.goToWaiting();
      },
      redirectToResellers: () => hooks.goToResellers(),
    },
  });
}
