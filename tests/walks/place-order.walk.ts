/**
 * Random walks of placeOrder: one order from the form or a deep link, for a guest or a known user, the
 * server identifying or not, creating the order (with or without link), refusing it, or asking another
 * total (409 price_changed, higher or lower) any number of times, the shopper confirming or refusing
 * each new total, checked against what a product owner promises.
 */
import fc from 'fast-check';
import { assign, createActor } from 'xstate';
import { ApiFailure } from '../../src/app/api';
import { placeOrderMachine, type CreatedOrder, type CreateOrderRequest, type OrderDraft, type OrderUser, type PlaceOrderContext, type PlaceOrderOutput } from '../../machines/place-order.machine';
import { userCommand, type AnswerPlan, type AnswerPlans, type Invariant, type Step, type WalkServer, type WalkClock, type WalkSpec } from './harness';

export const PLACE_ORDER_WALK_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** What the walk remembers: what it answered and what the shopper saw and did. */
export interface PlaceOrderWorld {
  /** The total the form showed when the shopper submitted. */
  formTotal: number;
  /** The user known before placing (null: a guest to identify). */
  knownUser: OrderUser | null;
  /** The user the server identified (null before, or when it identified nobody). */
  identified: OrderUser | null;
  /** The step in which the shopper confirmed a new total, and the total on screen then. */
  confirmed: { step: number; total: number } | null;
  /** The last answer to createOrder: a created order's link (null for a flagged order), or undefined before. */
  createdLink: string | null | undefined;
}

type Plan = AnswerPlan<PlaceOrderWorld>;

interface PlaceOrderStart {
  request: OrderDraft;
  user: OrderUser | null;
  email: string;
}

/** What the checkout hands placeOrder: its one request builder's output, for a known user or a guest. */
const starts: fc.Arbitrary<PlaceOrderStart> = fc.record({
  request: fc.record({
    pid: fc.constantFrom(1, 2, 3),
    paymentmethod: fc.constantFrom('sandbox', 'coinbase'),
    amount: fc.constantFrom(12.99, 16.99, 59.99, 0, 199),
    currency: fc.constantFrom('EUR' as const, 'GBP' as const),
    configoptions: fc.constantFrom({ '2': 0 as const, '4': 0 as const }, { '2': 1 as const, '4': 0 as const }),
    remind: fc.boolean(),
  }),
  user: fc.option(fc.constant<OrderUser>({ userid: 42, email: 'client@example.com' }), { nil: null }),
  email: fc.constantFrom('ann@example.com', ' ann@example.com ', ''),
});

/** What the shopper may click: the price-change box's confirm and cancel (also when no box is shown). */
const commands = [
  fc.constant(userCommand<PlaceOrderWorld>({ type: 'price.confirm' }, 'shopper confirms the new total')),
  fc.constant(userCommand<PlaceOrderWorld>({ type: 'price.cancel' }, 'shopper refuses the new total')),
];

const guestHandle = 'g_Walk0Guest0Handle00002';

/** What the server may answer; a new total may come again and again, higher or lower. */
const answers: AnswerPlans<PlaceOrderWorld> = {
  identifyGuest: fc.constantFrom<Plan>(
    {
      label: 'the guest is identified',
      answer: (input: { email: string }, walk) => {
        walk.world.identified = { userid: guestHandle, email: input.email };
        return { output: walk.world.identified };
      },
    },
    { label: 'nobody is identified', answer: () => ({ output: { userid: 0, email: '' } }) },
    { label: 'identification fails', answer: () => ({ error: new ApiFailure('api.rate_limited', 429, 'rate_limited') }) },
  ),
  createOrder: fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom('link', 'flagged').map(
        (kind): Plan => ({
          label: kind === 'link' ? 'order created with a payment link' : 'flagged order created without link',
          answer: (input: CreateOrderRequest, walk) => {
            const link = kind === 'link' ? `https://pay.example/${input.idempotencyKey}` : null;
            walk.world.createdLink = link;
            return { output: { orderid: 501, invoiceid: 601, serviceids: [701], fraud: kind !== 'link', link } satisfies CreatedOrder };
          },
        }),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(1.5, -2, 0.01, 500).map(
        (delta): Plan => ({
          label: `409: the server asks ${delta > 0 ? 'more' : 'less'} (${delta})`,
          answer: (input: CreateOrderRequest) => ({
            error: new ApiFailure('api.price_changed', 409, 'price_changed', { amount: Math.max(0, Math.round((input.amount + delta) * 100) / 100), currency: input.currency }),
          }),
        }),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(new ApiFailure('api.bad_request', 400, 'bad_request'), new ApiFailure('api.network', 0, 'network')).map((error): Plan => ({ label: `fails (${error.code})`, answer: () => ({ error }) })) },
  ),
};

const contextOf = (step: Step<PlaceOrderWorld>) => step.after.context as PlaceOrderContext;
const requestsNow = (step: Step<PlaceOrderWorld>) => step.server.startedAt('createOrder', step.index).map((call) => call.input as CreateOrderRequest);
const allRequests = (step: Step<PlaceOrderWorld>) => step.server.calls.filter((call) => call.actor === 'createOrder').map((call) => call.input as CreateOrderRequest);

/** The promises a product owner reads; each is its own property. */
const invariants: Invariant<PlaceOrderWorld>[] = [
  {
    sentence: 'the amount sent is the amount shown: the form\'s total, or the new total the shopper confirmed',
    broken: (step) => {
      for (const request of requestsNow(step)) {
        const confirmedNow = step.world.confirmed?.step === step.index;
        const expected = confirmedNow ? step.world.confirmed!.total : step.world.formTotal;
        if (request.amount !== expected) return `${request.amount} was sent, the shopper ${confirmedNow ? 'confirmed' : 'saw on the form'} ${expected}`;
        if (!confirmedNow && allRequests(step).length > 1) return 'a second order was sent without the shopper confirming a new total';
      }
      return null;
    },
  },
  {
    sentence: 'a total is never below zero',
    broken: (step) => {
      const change = contextOf(step).priceChange;
      if (change && change.amount < 0) return `a new total of ${change.amount} is shown`;
      const negative = requestsNow(step).find((request) => request.amount < 0);
      return negative ? `an order for ${negative.amount} was sent` : null;
    },
  },
  {
    sentence: 'one order per Idempotency-Key: every attempt has its own key',
    broken: (step) => {
      const keys = allRequests(step).map((request) => request.idempotencyKey);
      if (keys.some((key) => !key)) return 'an order was sent without a key';
      const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
      return repeated ? `key ${repeated} was sent twice (the second time with ${JSON.stringify(allRequests(step).at(-1))})` : null;
    },
  },
  {
    sentence: 'an order is placed only for a known or identified user',
    broken: (step) => {
      const calls = step.server.calls;
      if (step.world.knownUser && calls.some((call) => call.actor === 'identifyGuest')) return 'a signed-in client was identified again';
      for (const request of requestsNow(step)) {
        const user = step.world.knownUser ?? step.world.identified;
        if (!user) return 'an order was sent before the guest was identified';
        if (request.userid !== user.userid || request.email !== user.email) return `the order is for ${String(request.userid)} <${request.email}>, the user is ${String(user.userid)} <${user.email}>`;
      }
      return null;
    },
  },
  {
    sentence: 'a refused new total creates no order, and the shopper goes to pay only with the link of the order created',
    broken: (step) => {
      if (step.label === 'shopper refuses the new total' && requestsNow(step).length) return 'an order was sent after the shopper refused the new total';
      if (step.after.status !== 'done') return null;
      const output = step.after.output as PlaceOrderOutput;
      if (output.outcome === 'payment' && output.payment.link !== step.world.createdLink) return `the payment page is ${output.payment.link}, the order's link is ${String(step.world.createdLink)}`;
      if (output.outcome === 'waiting' && step.world.createdLink !== null) return 'the order went to the waiting step although it came with a link';
      if ((output.outcome === 'failed' || output.outcome === 'cancelled') && step.world.createdLink !== undefined) return `an order was created but the placement ended ${output.outcome}`;
      return null;
    },
  },
];

export const placeOrderWalks: WalkSpec<PlaceOrderWorld, PlaceOrderStart> = {
  machine: 'placeOrder',
  startTime: PLACE_ORDER_WALK_NOW,
  start: starts,
  begin(start: PlaceOrderStart, server: WalkServer, clock: WalkClock) {
    let keys = 0;
    const world: PlaceOrderWorld = { formTotal: start.request.amount, knownUser: start.user, identified: null, confirmed: null, createdLink: undefined };
    const machine = placeOrderMachine.provide({
      actors: { identifyGuest: server.actor('identifyGuest'), createOrder: server.actor('createOrder') },
      actions: { newIdempotencyKey: assign({ idempotencyKey: () => `key-${++keys}` }) },
    });
    const actor = createActor(machine, { input: { ...start, now: () => clock.now }, clock });
    return {
      actor,
      world,
      observe(step) {
        if (step.label !== 'shopper confirms the new total') return;
        const change = (step.before.context as PlaceOrderContext).priceChange;
        if (step.before.matches('priceChanged') && change) step.world.confirmed = { step: step.index, total: change.amount };
      },
    };
  },
  commands,
  answers,
  invariants,
};
