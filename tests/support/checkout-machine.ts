/** The checkout machine under unit test: fake actors answering at once, spies on its effects, and waits for it to settle. */
import { expect, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor, type ActorRefFrom, type AnyMachineSnapshot, type InspectionEvent } from 'xstate';
import type { PromotionLookup } from '../../src/domain/promotion';
import { CHECKOUT_MODEL_NOW, modelGateways, modelGuest, modelProducts, modelPromotionLookup } from '../../scripts/statecharts/models/checkout.model';
import { placeOrderModelOrder as modelOrder } from '../../scripts/statecharts/models/place-order.model';
import { checkoutMachine, type CheckoutGateway, type CheckoutInput, type CheckoutProduct, type CheckoutUser, type SavedOrderStatus } from '../../machines/checkout.machine';
import { placeOrderMachine, type CreatedOrder, type CreateOrderRequest as OrderRequest } from '../../machines/place-order.machine';

export interface Fakes {
  products?: CheckoutProduct[] | Error;
  gateways?: { gateways: CheckoutGateway[]; defaultGateway: string };
  country?: string;
  lookup?: PromotionLookup | Error;
  guest?: CheckoutUser | Error;
  product?: CheckoutProduct | null | Error;
  createOrder?: (request: OrderRequest) => Promise<CreatedOrder>;
  savedOrderStatus?: SavedOrderStatus | Error;
  cancel?: Error;
}

const settle = <T,>(value: T | Error) => (value instanceof Error ? Promise.reject(value) : Promise.resolve(value));

/** A running checkout with fake actors answering at once and spies on the effects. */
export function startCheckout(input: CheckoutInput, fakes: Fakes = {}, inspect?: (event: InspectionEvent) => void) {
  const createOrder = vi.fn(fakes.createOrder ?? (async () => modelOrder));
  const redirectToPayment = vi.fn();
  const goToWaiting = vi.fn();
  const clearClientProduct = vi.fn();
  const forgetSavedOrder = vi.fn();
  const resumeUnpaidOrder = vi.fn();
  const checkSavedOrder = vi.fn(() => settle(fakes.savedOrderStatus ?? new Error('not asked')));
  const cancelUnpaidOrder = vi.fn(({ input: request }: { input: { orderid: number } }) => settle(fakes.cancel ?? { orderid: request.orderid, status: 'Cancelled' }));
  const identifyGuest = vi.fn(({ input: request }: { input: { email: string } }) => settle(fakes.guest ?? { ...modelGuest, email: request.email }));
  let keys = 0;
  const placeOrder = placeOrderMachine.provide({
    actors: { identifyGuest: fromPromise(identifyGuest), createOrder: fromPromise(({ input: request }: { input: OrderRequest }) => createOrder(request)) },
    actions: { newIdempotencyKey: assign({ idempotencyKey: () => `key-${++keys}` }) },
  });
  const machine = checkoutMachine.provide({
    actors: {
      placeOrder,
      loadProducts: fromPromise(() => settle(fakes.products ?? modelProducts)),
      loadGateways: fromPromise(async () => fakes.gateways ?? ({ gateways: modelGateways, defaultGateway: 'sandbox' })),
      loadCurrency: fromPromise(async () => ({ country: fakes.country ?? 'NL' })),
      checkFraud: fromPromise(async (): Promise<{ valid: boolean }> => ({ valid: true })),
      lookupPromotion: fromPromise(() => settle(fakes.lookup ?? modelPromotionLookup)),
      loadProduct: fromPromise(() => settle(fakes.product === undefined ? modelProducts[1]! : fakes.product)),
      checkSavedOrder: fromPromise(checkSavedOrder),
      cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(cancelUnpaidOrder),
    },
    actions: {
      redirectToPayment: (_args, params) => redirectToPayment(params),
      goToWaiting: (_args, params) => goToWaiting(params),
      clearClientProduct: () => clearClientProduct(),
      forgetSavedOrder: (_args, params) => forgetSavedOrder(params),
      resumeUnpaidOrder: (_args, params) => resumeUnpaidOrder(params),
    },
  });
  const actor = createActor(machine, { input: { now: () => CHECKOUT_MODEL_NOW, ...input }, inspect }).start();
  return { actor, createOrder, identifyGuest, redirectToPayment, goToWaiting, clearClientProduct, checkSavedOrder, cancelUnpaidOrder, forgetSavedOrder, resumeUnpaidOrder };
}

export const settled = (actor: ReturnType<typeof startCheckout>['actor']) =>
  waitFor(actor, (snapshot) => !snapshot.matches('loading') && !snapshot.hasTag('busy') && !isBusy(snapshot));

/** Waits until the checkout's placeOrder child is in the state. */
export const placeOrderIn = (actor: ReturnType<typeof startCheckout>['actor'], state: string) =>
  vi.waitFor(() => expect((actor.getSnapshot().children.placeOrder as ActorRefFrom<typeof placeOrderMachine> | undefined)?.getSnapshot().value).toBe(state));

function isBusy(snapshot: AnyMachineSnapshot): boolean {
  return (
    snapshot.matches('autoOrder') ||
    snapshot.matches('submitting') ||
    snapshot.matches('checkingSavedOrder') ||
    snapshot.matches({ ready: { promo: 'checking' } }) ||
    snapshot.matches({ ready: { unpaidOrder: 'cancelling' } })
  );
}
