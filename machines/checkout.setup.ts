/**
 * The checkout's setup: its types, the actors and actions it declares (the app provides the calls and
 * effects with .provide()), and its guards; the chart (checkout.machine.ts) and its form are built on it.
 */
import { assign, fromPromise, setup } from 'xstate';
import { isValidEmail } from '../src/domain/email';
import type { PromotionLookup } from '../src/domain/promotion';
import type { CheckoutContext, CheckoutEvent, CheckoutGateway, CheckoutInput, CheckoutOutput, CheckoutProduct, PlacedEvent, SavedOrder, SavedOrderStatus } from './checkout.context';
import { checkoutGuards } from './checkout.guards';
import { quoteFor } from './checkout.order';
import { placeOrderMachine } from './place-order.machine';
import type { ProductWords } from './product-words';

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

export const checkoutSetup = setup({
  types: {
    meta: {} as ProductWords,
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    output: {} as CheckoutOutput,
  },
  actors: {
    loadProducts: fromPromise<CheckoutProduct[]>(notProvided('loadProducts')),
    loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(notProvided('loadGateways')),
    loadCurrency: fromPromise<{ country: string }>(notProvided('loadCurrency')),
    checkFraud: fromPromise<{ valid: boolean }>(notProvided('checkFraud')),
    lookupPromotion: fromPromise<PromotionLookup, { code: string }>(notProvided('lookupPromotion')),
    loadProduct: fromPromise<CheckoutProduct | null, { pid: number }>(notProvided('loadProduct')),
    checkSavedOrder: fromPromise<SavedOrderStatus, SavedOrder>(notProvided('checkSavedOrder')),
    cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(notProvided('cancelUnpaidOrder')),
    placeOrder: placeOrderMachine,
  },
  actions: {
    storeEmail: assign(({ event }) => {
      if (event.type !== 'email.change') return {};
      const emailValid = isValidEmail(event.email);
      return { email: event.email, emailValid, emailError: emailValid || event.email.trim() === '' ? null : ('email.invalid' as const) };
    }),
    recomputeQuote: assign({ quote: ({ context }) => quoteFor(context) }),
    storeOrder: assign((_args, { output }: PlacedEvent) => (output.outcome === 'payment' || output.outcome === 'waiting' ? { order: output.order, payment: output.payment, submitError: null } : {})),
    keepUser: assign(({ context }, { output }: PlacedEvent) => ({ user: output.user ?? context.user })),
    showPlaceOrderError: assign((_args, { output }: PlacedEvent) => ({ submitError: output.outcome === 'failed' ? output.error : null })),
    clearClientProduct: () => {},
    redirectToPayment: (_args, _params: { link: string }) => {},
    goToWaiting: (_args, _params: { orderid: number }) => {},
    forgetSavedOrder: (_args, _params: { orderid: number }) => {},
    resumeUnpaidOrder: (_args, _params: { orderid: number }) => {},
    requireEmail: assign({ emailError: 'email.invalid' as const }),
    stopAfterPlaceOrder: assign((_args, { output }: PlacedEvent) => ({ autoOrderStop: output.outcome === 'failed' ? ({ reason: 'failed', error: output.error } as const) : null })),
  },
  guards: checkoutGuards,
});
