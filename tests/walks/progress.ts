/**
 * The promises that something good happens, beside the walks' invariants (nothing bad happens): from these
 * starts, with the server answering only well and the shopper clicking anything meanwhile, each walk is
 * finished (every call answered well, the shopper's last move made, time passed) and must then have
 * reached its goal. The goals come from the spec (tests/facts/flows.ts tells the same journeys through the views).
 */
import fc from 'fast-check';
import type { CheckoutInput, CheckoutUser, CreatedOrder, CreateOrderRequest } from '../../machines/checkout.machine';
import type { OrderDraft, OrderUser, PlaceOrderContext, PlaceOrderOutput } from '../../machines/place-order.machine';
import type { OrderStatusResult, WaitingInput } from '../../machines/waiting.context';
import { ApiFailure } from '../../src/app/api';
import { PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { PromotionLookup } from '../../src/domain/promotion';
import { walkCatalogue, type CheckoutWorld } from './checkout.walk';
import { answerWaitingCall, timePasses, type AnswerPlan, type Progress, type Walk } from './harness';
import type { PlaceOrderWorld } from './place-order.walk';
import { WAITING_WALK_NOW, type WaitingWorld } from './waiting.walk';

const createOrderCalls = (walk: Walk<unknown>) => walk.server.calls.filter((call) => call.actor === 'createOrder');
const stateOf = (walk: Walk<unknown>) => JSON.stringify(walk.actor.getSnapshot().value);

type CheckoutStart = { query: NonNullable<CheckoutInput['query']>; user: CheckoutUser | null };

/** The server answering a checkout well: the catalogue, two gateways, the country, a clean check, the asked product, a usable code, an order with its link. */
const goodCheckoutAnswers: Record<string, AnswerPlan<CheckoutWorld>> = {
  loadProducts: {
    label: 'the catalogue',
    answer: (_input, walk) => {
      walk.world.catalogue = new Map(walkCatalogue.map((product) => [product.pid, product]));
      walk.world.offeredPids = walkCatalogue.slice(0, 3).map((product) => product.pid);
      return { output: walkCatalogue };
    },
  },
  loadGateways: {
    label: 'sandbox and coinbase (default sandbox)',
    answer: (_input, walk) => {
      walk.world.gateways = [{ module: 'sandbox', displayname: 'Card', type: 'CreditCard' }, { module: 'coinbase', displayname: 'Crypto', type: 'CreditCard' }];
      return { output: { gateways: walk.world.gateways, defaultGateway: 'sandbox' } };
    },
  },
  loadCurrency: { label: 'visitor is in GB', answer: () => ({ output: { country: 'GB' } }) },
  checkFraud: { label: 'passes', answer: () => ({ output: { valid: true } }) },
  loadProduct: {
    label: 'the asked product',
    answer: (input: { pid: number }, walk) => {
      walk.world.linkedProduct = walkCatalogue.find((product) => product.pid === input.pid) ?? null;
      return { output: walk.world.linkedProduct };
    },
  },
  lookupPromotion: {
    label: '10 % off plans 1 to 3, no end',
    answer: (input: { code: string }, walk) => {
      const lookup: PromotionLookup = { totalresults: 1, promotions: [{ code: input.code, type: 'Percentage', value: 10, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null }] };
      walk.world.lookups.set(input.code, lookup);
      return { output: lookup };
    },
  },
  identifyGuest: { label: 'the guest is identified', answer: (input: { email: string }) => ({ output: { userid: 'g_Walk0Guest0Handle00009', email: input.email } }) },
  createOrder: {
    label: 'order created with a payment link',
    answer: (_input: CreateOrderRequest, walk) => {
      const orderid = 500 + walk.world.createdLinks.length;
      const link = `https://pay.example/${orderid}`;
      walk.world.createdLinks.push(link);
      return { output: { orderid, invoiceid: orderid + 100, serviceids: [orderid + 200], fraud: false, link } satisfies CreatedOrder };
    },
  },
};

/** Spec §5: a signed-in client's link (e-mail, a numeric pid on offer, auto_redirect=true), with or without add-ons and promo. */
const signedInDeepLinks: fc.Arbitrary<CheckoutStart> = fc.record({
  query: fc.record(
    {
      email: fc.constant('client@example.com'),
      pid: fc.constantFrom('1', '2', '3'),
      auto_redirect: fc.constant('true'),
      extraconnect: fc.constantFrom('1', '0'),
      proxyprotect: fc.constantFrom('true', 'false'),
      promocode: fc.constantFrom('SAVE10', ' SAVE10 '),
    },
    { requiredKeys: ['email', 'pid', 'auto_redirect'] },
  ),
  user: fc.constant<CheckoutUser>({ userid: 42, email: 'client@example.com' }),
});

export const checkoutProgress: Progress<CheckoutWorld, CheckoutStart>[] = [
  {
    sentence: "a signed-in client's deep link, answered well, reaches the payment page of its one order without the form",
    start: signedInDeepLinks,
    answers: goodCheckoutAnswers,
    finish: (walk) => answerWaitingCall(walk, goodCheckoutAnswers),
    missing: (walk) => {
      const { redirects, createdLinks, formShown } = walk.world;
      const snapshot = walk.actor.getSnapshot();
      if (!snapshot.matches('redirecting')) return `every answer was good, yet the checkout is in ${stateOf(walk)}, not on the payment page`;
      if (formShown) return 'the form was shown before the payment page';
      if (createOrderCalls(walk).length !== 1) return `${createOrderCalls(walk).length} orders were sent`;
      if (redirects.length !== 1 || redirects[0] !== createdLinks[0]) return `sent to ${JSON.stringify(redirects)}, the order's link is ${createdLinks[0] ?? 'none'}`;
      return null;
    },
  },
];

interface PlaceOrderStart {
  request: OrderDraft;
  user: OrderUser | null;
  email: string;
}

/** The shop refuses the first total with one 1.50 higher (409 price_changed) and creates the next order with its link. */
const goodPlaceOrderAnswers: Record<string, AnswerPlan<PlaceOrderWorld>> = {
  identifyGuest: {
    label: 'the guest is identified',
    answer: (input: { email: string }, walk) => {
      walk.world.identified = { userid: 'g_Walk0Guest0Handle00008', email: input.email };
      return { output: walk.world.identified };
    },
  },
  createOrder: {
    label: 'the first total is refused with one 1.50 higher (409), a later order is created with its link',
    answer: (input: CreateOrderRequest, walk) => {
      if (createOrderCalls(walk as Walk<unknown>).length === 1) {
        return { error: new ApiFailure('api.price_changed', 409, 'price_changed', { amount: Math.round((input.amount + 1.5) * 100) / 100, currency: input.currency }) };
      }
      walk.world.createdLink = `https://pay.example/${input.idempotencyKey}`;
      return { output: { orderid: 501, invoiceid: 601, serviceids: [701], fraud: false, link: walk.world.createdLink } satisfies CreatedOrder };
    },
  },
};

const placeOrderStarts: fc.Arbitrary<PlaceOrderStart> = fc.record({
  request: fc.record({
    pid: fc.constantFrom(1, 2, 3),
    paymentmethod: fc.constant('sandbox'),
    amount: fc.constantFrom(12.99, 16.99, 59.99),
    currency: fc.constantFrom('EUR' as const, 'GBP' as const),
    configoptions: fc.constant({ '2': 1 as const, '4': 0 as const }),
    remind: fc.boolean(),
  }),
  user: fc.option(fc.constant<OrderUser>({ userid: 42, email: 'client@example.com' }), { nil: null }),
  email: fc.constant('ann@example.com'),
});

export const placeOrderProgress: Progress<PlaceOrderWorld, PlaceOrderStart>[] = [
  {
    sentence: 'a confirmed new total ends in one order at that total, and the payment page of that order',
    start: placeOrderStarts,
    answers: goodPlaceOrderAnswers,
    finish: (walk) =>
      answerWaitingCall(walk, goodPlaceOrderAnswers) ??
      (walk.actor.getSnapshot().matches('priceChanged')
        ? { kind: 'user', label: 'shopper confirms the new total', act: () => walk.actor.send({ type: 'price.confirm' }) }
        : null),
    missing: (walk) => {
      const snapshot = walk.actor.getSnapshot();
      const output = snapshot.output as PlaceOrderOutput | undefined;
      const { confirmed } = walk.world;
      // A shopper who refused the new total (the only 409 of the walk) is not this promise's case.
      if (confirmed === null) return output?.outcome === 'cancelled' ? null : `no new total was confirmed and the placement is in ${stateOf(walk)}`;
      const after = createOrderCalls(walk as Walk<unknown>).filter((call) => call.step >= confirmed.step).map((call) => (call.input as CreateOrderRequest).amount);
      if (after.length !== 1 || after[0] !== confirmed.total) return `after the shopper confirmed ${confirmed.total}, orders for ${JSON.stringify(after)} were sent (the placement is in ${stateOf(walk)})`;
      if (output?.outcome !== 'payment') return `the confirmed order ended ${output?.outcome ?? `in ${stateOf(walk)}`}, not on its payment page`;
      if (output.total !== confirmed.total || output.payment.link !== walk.world.createdLink) return `the payment page is ${output.payment.link} for ${output.total}, the order created is ${String(walk.world.createdLink)} for ${confirmed.total}`;
      if ((snapshot.context as PlaceOrderContext).priceChange !== null) return 'the new total is still offered';
      return null;
    },
  },
];

const receipt: OrderStatusResult['receipt'] = {
  lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }], promocode: null, discount: 0,
  date: '2026-01-01T12:00:00.000Z', datepaid: null, paymentmethod: { module: 'sandbox', displayname: 'Card' }, amount: 12.99, currency: 'EUR',
};

const statusAnswer = (status: OrderStatusResult['status'], payment: OrderStatusResult['payment']): AnswerPlan<WaitingWorld> => ({
  label: `order ${status}, payment ${payment}`,
  answer: (_input, walk) => {
    const output: OrderStatusResult = { orderid: 101, serviceids: [301], receipt, status, payment, latePayment: false, fraud: false };
    walk.world.lastStatus = output;
    return { output };
  },
});

/** While the shopper waits the order stays pending; a new link is granted; a cancel comes too late (the order is being paid). */
const pendingWaitingAnswers: Record<string, AnswerPlan<WaitingWorld>> = {
  fetchOrderStatus: statusAnswer('Pending', 'Open'),
  createPaymentLink: {
    label: 'new link granted',
    answer: (_input, walk) => {
      walk.world.newLinkAtStep = walk.server.step;
      walk.world.deadline = walk.clock.now + PAYMENT_DEADLINE_MS;
      return { output: { link: `https://pay.example/card/201-${walk.server.step}` } };
    },
  },
  cancelOrder: { label: 'cancel refused: the order is being paid (409 order_not_pending)', answer: () => ({ error: new ApiFailure('api.order_not_pending', 409, 'order_not_pending') }) },
};
const paidWaitingAnswers = { ...pendingWaitingAnswers, fetchOrderStatus: statusAnswer('Active', 'Paid') };

const gateways = [
  { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard' as const },
  { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin' as const },
];

/** An order not flagged, resumed fresh, near its deadline or past it. */
const waitingStarts: fc.Arbitrary<WaitingInput> = fc.constantFrom(PAYMENT_DEADLINE_MS, 60_000, 1_500, -5_000).map((left) => ({
  order: { orderid: 101, invoiceid: 201, serviceid: 301, fraud: false },
  paymentLink: 'https://pay.example/card/201',
  lastDate: WAITING_WALK_NOW + left,
  duration: PAYMENT_DEADLINE_MS,
  gateways,
  selectedGateway: 'sandbox_card',
  now: WAITING_WALK_NOW,
}));

export const waitingProgress: Progress<WaitingWorld, WaitingInput>[] = [
  {
    sentence: 'once the order is paid the waiting page reaches the credentials, whatever the shopper clicked meanwhile',
    start: waitingStarts,
    answers: pendingWaitingAnswers,
    // The payment settles at the next status read: time passes until the page reads it.
    finish: (walk) => answerWaitingCall(walk, paidWaitingAnswers) ?? timePasses(walk),
    missing: (walk) => {
      if (walk.world.lastStatus?.status !== 'Active') return `the page never read the status again (it is in ${stateOf(walk)})`;
      if (!walk.actor.getSnapshot().matches('success')) return `the order is Active, yet the page is in ${stateOf(walk)}`;
      if (walk.world.successOpenedOn.length !== 1) return `the success page opened ${walk.world.successOpenedOn.length} times`;
      return null;
    },
  },
];
