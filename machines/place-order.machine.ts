/**
 * Placing one order, for the form and for the automatic order alike: identify the guest (a known
 * user is not identified again), create the order, let the shopper confirm or refuse a total the
 * server priced differently (409 price_changed), and hand over the payment link or the waiting step.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../src/api/schema';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import type { OrderDraft } from '../src/domain/order-draft';
import type { UserId } from '../src/domain/user-id';
import { isUserId } from '../src/domain/user-id';
import type { ProductWords } from './product-words';

type Schemas = components['schemas'];

/** The body of POST /api/order without its key: what the shopper chose and the total shown (src/domain/order-draft.ts). */
export type { OrderDraft };

/** The user an order is placed for: a signed-in client's id or a guest's handle, with the e-mail. */
export interface OrderUser {
  userid: UserId;
  email: Schemas['GuestAuthResponse']['email'];
}

/** What the identifyGuest actor returns: POST /api/authMiddleware's answer. */
export type IdentifiedGuest = Schemas['GuestAuthResponse'] | OrderUser;

/** What the createOrder actor sends: the body, the Idempotency-Key, and whom it is for. */
export type CreateOrderRequest = OrderDraft & { idempotencyKey: string; email: string; userid: UserId };

/** What the createOrder actor returns: the parts of POST /api/order's answer the checkout uses. */
export type CreatedOrder = Pick<Schemas['OrderResponse'], 'orderid' | 'invoiceid' | 'serviceids' | 'fraud' | 'link'>;

/** The server's own total of a refused order (409 price_changed: the error's amount and currency). */
export type ServerPrice = { amount: Schemas['Money']; currency: Schemas['Currency'] };

/**
 * How createOrder rejects for a price change: any error carrying the server's price (the app's
 * ApiFailure has `serverPrice`); every other rejection is a failure with its message.
 */
export interface PriceChangeError {
  message: string;
  serverPrice: ServerPrice;
}

/** The created order as the checkout keeps it. */
export interface PlacedOrder {
  orderid: number;
  invoiceid: number;
  serviceid: number | null;
  fraud: boolean;
}

/** The payment link for the chosen gateway and its deadline (ISO date-time, one day ahead). */
export interface OrderPayment {
  gateway: string;
  link: string;
  deadline: string;
}

/** A total the server priced differently: what was sent and what the server asks. */
export interface PriceChange {
  previous: number;
  amount: number;
  currency: Schemas['Currency'];
}

export interface PlaceOrderInput {
  /** The order request without its key, built by the one builder (src/domain orderDraftOf). */
  request: OrderDraft;
  /** The known user; null for a guest, who is identified by `email` first. */
  user: OrderUser | null;
  /** The guest's e-mail (ignored for a known user). */
  email: string;
  now: () => number;
}

export interface PlaceOrderContext extends PlaceOrderInput {
  idempotencyKey: string | null;
  priceChange: PriceChange | null;
  order: PlacedOrder | null;
  payment: OrderPayment | null;
  /** The server's message (an `api.<code>` key in the app), or 'request.failed' when no user id came back. */
  error: string | null;
}

export type PlaceOrderEvent = { type: 'price.confirm' } | { type: 'price.cancel' };

/** How the placement ended, and what the checkout needs of it. */
export type PlaceOrderOutput =
  | { outcome: 'payment'; user: OrderUser | null; order: PlacedOrder; payment: OrderPayment; total: number }
  | { outcome: 'waiting'; user: OrderUser | null; order: PlacedOrder; payment: null; total: number }
  | { outcome: 'failed'; user: OrderUser | null; error: string }
  | { outcome: 'cancelled'; user: OrderUser | null };

type GuardArgs = { context: PlaceOrderContext; event: unknown };

/** True when a rejection of createOrder is a 409 price_changed carrying a total the contract allows (Money: 0 or more). */
export function isPriceChangeError(error: unknown): error is PriceChangeError {
  if (typeof error !== 'object' || error === null || !('serverPrice' in error)) return false;
  const price = (error as { serverPrice: unknown }).serverPrice;
  if (typeof price !== 'object' || price === null) return false;
  const { amount, currency } = price as ServerPrice;
  return typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 && typeof currency === 'string';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** Every guard of the placeOrder machine, exported for unit tests. */
export const placeOrderGuards = {
  isKnownUser: ({ context }: GuardArgs) => context.user !== null,
  hasUserId: (_args: GuardArgs, params: { user: IdentifiedGuest }) => isUserId(params.user.userid),
  hasPaymentLink: (_args: GuardArgs, params: { link: string | null }) => typeof params.link === 'string' && params.link !== '',
  isPriceChange: (_args: GuardArgs, params: { error: unknown }) => isPriceChangeError(params.error),
};

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

/** Documentation of every actor, action and guard; printed in docs/statecharts/placeOrder.md. */
export const placeOrderMachineDocs = {
  actors: {
    identifyGuest: { input: '{ email: string }', output: 'GuestAuthResponse { userid, email } (POST /api/authMiddleware)', description: 'Identifies a guest by e-mail so the order has a user id.' },
    createOrder: {
      input: 'CreateOrderRequest (POST /api/order body + Idempotency-Key)',
      output: 'CreatedOrder { orderid, invoiceid, serviceids, fraud, link }; rejects with the error (409 price_changed carries serverPrice { amount, currency })',
      description: 'Creates the order and its payment link for the chosen gateway.',
    },
  },
  actions: {
    newIdempotencyKey: {
      input: 'none (provided: the app draws a random key, tests a known one)',
      output: 'idempotencyKey',
      description:
        'One key per attempt: a confirmed new total is a new request body, and the server refuses a key reused with another body (the refused attempt created nothing, so a new key cannot make a second order).',
    },
  },
  guards: {
    isKnownUser: { description: 'The user is known (signed in, or identified before): no identification.' },
    hasUserId: { description: "The identification returned a user: a guest's opaque handle (or a positive client id)." },
    hasPaymentLink: { description: 'The created order came back with a payment link (not a flagged order).' },
    isPriceChange: { description: "The server refused the total (409 price_changed) and said its own amount and currency." },
  },
} as const;

/** Stores the created order and its payment link (deadline one day ahead) for the request's gateway. */
function storeOrder(context: PlaceOrderContext, created: CreatedOrder): Partial<PlaceOrderContext> {
  const order: PlacedOrder = { orderid: created.orderid, invoiceid: created.invoiceid, serviceid: created.serviceids[0] ?? null, fraud: created.fraud };
  const payment: OrderPayment | null = created.link
    ? { gateway: context.request.paymentmethod, link: created.link, deadline: new Date(context.now() + PAYMENT_DEADLINE_MS).toISOString() }
    : null;
  return { order, payment, error: null };
}

export const placeOrderMachine = setup({
  types: {
    meta: {} as ProductWords,
    context: {} as PlaceOrderContext,
    events: {} as PlaceOrderEvent,
    input: {} as PlaceOrderInput,
    output: {} as PlaceOrderOutput,
  },
  actors: {
    identifyGuest: fromPromise<IdentifiedGuest, { email: string }>(notProvided('identifyGuest')),
    createOrder: fromPromise<CreatedOrder, CreateOrderRequest>(notProvided('createOrder')),
  },
  actions: {
    // A key is drawn at random, so the chart only declares it: the app provides the drawing, and without it no order is sent.
    newIdempotencyKey: assign({
      idempotencyKey: (): string => {
        throw new Error('newIdempotencyKey not provided');
      },
    }),
  },
  guards: placeOrderGuards,
}).createMachine({
  id: 'placeOrder',
  description: 'One order: identify the guest, create the order, confirm a changed price, hand over.',
  meta: { product: 'Placing one order: recognise a guest, create the order, confirm a changed price, then pay.' },
  context: ({ input }) => ({ ...input, idempotencyKey: null, priceChange: null, order: null, payment: null, error: null }),
  // The context tells the end apart: an order (with or without link), an error, or neither (refused new total).
  output: ({ context }): PlaceOrderOutput => {
    const { user, order, payment, error } = context;
    if (order && payment) return { outcome: 'payment', user, order, payment, total: context.request.amount };
    if (order) return { outcome: 'waiting', user, order, payment: null, total: context.request.amount };
    if (error !== null) return { outcome: 'failed', user, error };
    return { outcome: 'cancelled', user };
  },
  initial: 'starting',
  states: {
    starting: {
      description: 'A known user orders at once; a guest is identified first.',
      meta: { product: 'A signed-in shopper orders at once; a guest is recognised by e-mail first.' },
      always: [
        { guard: 'isKnownUser', target: 'creatingOrder', description: 'The user is known: create the order.', meta: { product: 'The shopper is known, so the order is created straight away.' } },
        { target: 'identifyingGuest', description: 'A guest: identify by e-mail first.', meta: { product: 'The shopper is a guest, so they are recognised by e-mail first.' } },
      ],
    },
    identifyingGuest: {
      description: 'Identifying the guest by e-mail.',
      meta: { product: 'The shopper waits a moment while we recognise them by their e-mail.' },
      invoke: {
        id: 'identifyGuest',
        src: 'identifyGuest',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: [
          {
            guard: { type: 'hasUserId', params: ({ event }) => ({ user: event.output }) },
            target: 'creatingOrder',
            description: 'The guest has a user id: create the order.',
            meta: { product: 'The guest is recognised: the order is created.' },
            actions: assign({ user: ({ event }) => ({ userid: event.output.userid, email: event.output.email }) }),
          },
          { target: 'failed', description: 'No user id came back.', meta: { product: 'The guest could not be recognised, so the order is not placed.' }, actions: assign({ error: 'request.failed' }) },
        ],
        onError: { target: 'failed', description: "Identification failed: the server's message.", meta: { product: 'Recognising the guest failed; the shopper sees the reason.' }, actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    creatingOrder: {
      description: 'Creating the order with a new Idempotency-Key; a second submit cannot reach here.',
      meta: { product: 'The order is being created; it is created only once, however often the shopper presses.' },
      entry: 'newIdempotencyKey',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => ({ ...context.request, email: context.user!.email, userid: context.user!.userid, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'hasPaymentLink', params: ({ event }) => ({ link: event.output.link }) },
            target: 'toPayment',
            description: 'Order created: hand over the payment link.',
            meta: { product: 'The order is created with a payment link: the shopper goes on to pay.' },
            actions: assign(({ context, event }) => storeOrder(context, event.output)),
          },
          {
            target: 'toWaiting',
            description: 'Order created without a payment link (flagged): hand over to the waiting step.',
            meta: { product: 'The order is created but held for a check, so the shopper goes to the waiting page.' },
            actions: assign(({ context, event }) => storeOrder(context, event.output)),
          },
        ],
        onError: [
          {
            guard: { type: 'isPriceChange', params: ({ event }) => ({ error: event.error }) },
            target: 'priceChanged',
            description: "409 price_changed: show the server's total.",
            meta: { product: 'The price changed meanwhile: the shopper sees the new total to accept or refuse.' },
            actions: assign({
              priceChange: ({ context, event }) => {
                const { serverPrice } = event.error as PriceChangeError;
                return { previous: context.request.amount, amount: serverPrice.amount, currency: serverPrice.currency };
              },
            }),
          },
          { target: 'failed', description: "Order refused: the server's message.", meta: { product: 'The order was refused; the shopper sees the reason.' }, actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
        ],
      },
    },
    priceChanged: {
      description: "The server priced the order differently: its total is shown, to confirm or refuse.",
      meta: { product: 'The price changed: the shopper sees the new total and accepts or refuses it.' },
      on: {
        'price.confirm': {
          target: 'creatingOrder',
          description: "Confirm the server's total: create the order again with that amount (and a new key).",
          meta: { product: 'The shopper accepts the new total and the order is created at that price.' },
          actions: assign(({ context }) => ({
            request: { ...context.request, amount: context.priceChange!.amount, currency: context.priceChange!.currency },
            priceChange: null,
          })),
        },
        'price.cancel': { target: 'cancelled', description: 'Refuse the new total: back to the form.', meta: { product: 'The shopper refuses the new total and goes back to the form.' }, actions: assign({ priceChange: null }) },
      },
    },
    toPayment: { type: 'final', description: 'Created with a payment link: the checkout opens the payment page.', meta: { product: 'The order is made and the payment page opens.' } },
    toWaiting: { type: 'final', description: 'Created without a payment link (flagged): the checkout opens the waiting step.', meta: { product: 'The order is made but held for a check, so the waiting page opens.' } },
    failed: { type: 'final', description: "Not created: the checkout shows the server's message.", meta: { product: 'The order was not made; the shopper sees the reason.' } },
    cancelled: { type: 'final', description: 'The shopper refused the new total: the checkout shows the form.', meta: { product: 'The shopper refused the new total and is back on the form.' } },
  },
});
