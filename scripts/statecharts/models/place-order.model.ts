import { assign, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  placeOrderMachine,
  placeOrderMachineDocs,
  type CreatedOrder,
  type CreateOrderRequest,
  type IdentifiedGuest,
  type OrderDraft,
  type PlaceOrderContext,
  type PlaceOrderInput,
} from '../../../machines/place-order.machine';
import type { MachineModel } from '../graph';

/** 15 January 2026, noon UTC: the model's fixed clock. */
export const PLACE_ORDER_MODEL_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Plan 1 (the seeded 1 Month, 12.99 EUR) with the extra connection (4.00): 16.99 EUR as the form shows it (tests/facts). */
export const placeOrderModelRequest: OrderDraft = {
  pid: 1,
  paymentmethod: 'sandbox',
  amount: 16.99,
  currency: 'EUR',
  configoptions: { '2': 1, '4': 0 },
  remind: true,
};

/** What the server asks instead (409 price_changed): 14.50 EUR. */
export const placeOrderModelServerPrice = { amount: 14.5, currency: 'EUR' as const };

export const placeOrderModelGuest: IdentifiedGuest = { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' };
export const placeOrderModelClient = { userid: 42, email: 'client@example.com' };
export const placeOrderModelOrder: CreatedOrder = { orderid: 501, invoiceid: 601, serviceids: [701], fraud: false, link: 'https://pay.example/601' };
export const placeOrderModelFlaggedOrder: CreatedOrder = { orderid: 502, invoiceid: 602, serviceids: [702], fraud: true, link: null };

const base = { request: placeOrderModelRequest, now: () => PLACE_ORDER_MODEL_NOW };

/** A guest ordering from the form, and a signed-in client (not identified again). */
export const placeOrderModelInputs: { name: string; input: PlaceOrderInput }[] = [
  { name: 'guest', input: { ...base, user: null, email: ' ann@example.com ' } },
  { name: 'signed-in client', input: { ...base, user: placeOrderModelClient, email: '' } },
];

/** A 409 price_changed as the typed client rejects with it (ApiFailure carries serverPrice). */
export const priceChangedError = () => Object.assign(new Error('api.price_changed'), { serverPrice: placeOrderModelServerPrice });

const never = () => new Promise<never>(() => {});

/** The real machine with actors that never settle. */
const machine = placeOrderMachine.provide({
  actors: {
    identifyGuest: fromPromise<IdentifiedGuest, { email: string }>(never),
    createOrder: fromPromise<CreatedOrder, CreateOrderRequest>(never),
  },
  // One key for every attempt keeps replays equal to the paths; the unit test counts new keys per attempt.
  actions: { newIdempotencyKey: assign({ idempotencyKey: 'key-1' }) },
});

const done = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, error: Error): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = snapshot.context as PlaceOrderContext;
  if (snapshot.matches('identifyingGuest')) {
    return [done('identifyGuest', placeOrderModelGuest), done('identifyGuest', { userid: 0, email: '' }), failed('identifyGuest', new Error('Bad gateway'))];
  }
  if (snapshot.matches('creatingOrder')) {
    // The server asks its price once: after a confirm the order is created (or refused for another reason).
    const confirmed = context.request.amount === placeOrderModelServerPrice.amount;
    return [
      done('createOrder', placeOrderModelOrder),
      done('createOrder', placeOrderModelFlaggedOrder),
      ...(confirmed ? [] : [failed('createOrder', priceChangedError())]),
      failed('createOrder', new Error('Bad gateway')),
    ];
  }
  if (snapshot.matches('priceChanged')) return [{ type: 'price.confirm' }, { type: 'price.cancel' }];
  return [];
}

function describeEvent(event: AnyEventObject): string {
  switch (event.type) {
    case 'price.confirm':
      return "confirm the server's total";
    case 'price.cancel':
      return 'refuse the new total';
    case 'xstate.done.actor.identifyGuest':
      return (event.output as IdentifiedGuest).userid ? 'guest identified' : 'guest identified without user id';
    case 'xstate.error.actor.identifyGuest':
      return `identifyGuest fails ("${(event.error as Error).message}")`;
    case 'xstate.done.actor.createOrder':
      return (event.output as CreatedOrder).link ? 'order created with payment link' : 'order created without link (flagged)';
    case 'xstate.error.actor.createOrder':
      return 'serverPrice' in (event.error as object) ? 'createOrder refused: price changed (409)' : `createOrder fails ("${(event.error as Error).message}")`;
    default:
      return event.type;
  }
}

export const placeOrderModel: MachineModel = {
  name: 'placeOrder',
  machine,
  inputs: placeOrderModelInputs,
  events,
  describeEvent,
  expectedPaths: 8,
  expectedPairs: { walked: 9, total: 16 },
  docs: placeOrderMachineDocs,
};
