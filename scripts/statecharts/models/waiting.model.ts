import { assign, fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import type {
  CancelOrderInput,
  CancelOrderOutput,
  CreatePaymentLinkInput,
  CreatePaymentLinkOutput,
  FetchOrderStatusInput,
  OrderStatusResult,
  WaitingContext,
  WaitingInput,
  WaitingPaymentStatus,
  WaitingReceipt,
} from '../../../machines/waiting.context';
import { waitingMachineDocs } from '../../../machines/waiting.docs';
import { COUNTDOWN_TICK_MS, waitingMachine } from '../../../machines/waiting.machine';
import type { MachineModel } from '../graph';

const START = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Resumed after a reload half-way through a short countdown, so the deadline is two ticks away. */
export const waitingModelInput: WaitingInput = {
  order: { orderid: 101, invoiceid: 201, serviceid: 301, fraud: false },
  paymentLink: 'https://pay.example/card/201',
  lastDate: START + COUNTDOWN_TICK_MS,
  duration: 2 * COUNTDOWN_TICK_MS,
  gateways: [
    { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard' },
    { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin' },
  ],
  selectedGateway: 'sandbox_card',
  now: START,
};

/** The resumed order, a fraud-flagged order resumed, and an order resumed after its deadline. */
export const waitingModelInputs: { name: string; input: WaitingInput }[] = [
  { name: 'resumed', input: waitingModelInput },
  { name: 'flagged order resumed', input: { ...waitingModelInput, order: { ...waitingModelInput.order, fraud: true }, paymentLink: null } },
  { name: 'resumed after the deadline', input: { ...waitingModelInput, now: waitingModelInput.lastDate } },
];

/** 1 Month with an extra connection and WELCOME10 in EUR: (12.99 + 4) - 10 % = 15.29 (the demo catalogue). */
export const waitingModelReceipt: WaitingReceipt = {
  lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: false }],
  promocode: 'WELCOME10',
  // 10 % of 16.99, to the cent half up (tests/facts/prices.ts).
  discount: 1.7,
  date: '2026-01-01T11:00:00.000Z',
  datepaid: null,
  paymentmethod: { module: 'sandbox_card', displayname: 'Card' },
  amount: 15.29,
  currency: 'EUR',
};

/** The link a new-link request gives, per gateway. */
export const newLinkFor = (gateway: string) => (gateway === 'sandbox_crypto' ? 'https://pay.example/crypto/201' : 'https://pay.example/card/201-renewed');

const TICK = `xstate.after.${COUNTDOWN_TICK_MS}.waitingCountdown`;
const POLL = 'xstate.after.pollDelay.waitingPoll';
const never = () => new Promise<never>(() => {});

/** The real machine with actors that never settle and a clock that moves one tick per reading. */
const machine = waitingMachine.provide({
  actors: {
    fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(never),
    cancelOrder: fromPromise<CancelOrderOutput, CancelOrderInput>(never),
    createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(never),
  },
  actions: {
    readClock: assign({ now: ({ context }) => context.now + COUNTDOWN_TICK_MS }),
  },
});

const statusResult = (status: OrderStatusResult['status'], { fraud = false, payment = 'Open', latePayment = false }: { fraud?: boolean; payment?: WaitingPaymentStatus | null; latePayment?: boolean } = {}) => ({
  type: 'xstate.done.actor.fetchOrderStatus',
  output: { orderid: 101, status, fraud, serviceids: [301], payment, latePayment, receipt: waitingModelReceipt } satisfies OrderStatusResult,
});

function events(snapshot: AnyMachineSnapshot): Array<EventObject & Record<string, unknown>> {
  const context = snapshot.context as WaitingContext;
  // After a new link the walk stops: the same states repeat with a one-day countdown.
  if (context.paymentLink !== waitingModelInput.paymentLink) return [];
  const list: Array<EventObject & Record<string, unknown>> = [];
  const onInfo = snapshot.matches({ watching: { page: 'info' } });
  if (onInfo && snapshot.matches({ watching: { status: 'scheduled' } }) && context.pollDelayMs === 5_000 && context.error === null) {
    list.push({ type: TICK });
  }
  if (onInfo && context.pollDelayMs <= 10_000) list.push({ type: POLL });
  list.push(
    statusResult('Pending'),
    statusResult('Pending', { payment: 'Declined' }),
    statusResult('Pending', { payment: 'Confirming' }),
    statusResult('Pending', { payment: 'Expired', latePayment: true }),
    // The provider expired the link first (Coinbase checkout.payment.expired), no money came.
    statusResult('Pending', { payment: 'Expired' }),
    statusResult('Active', { payment: 'Paid' }),
    statusResult('Fraud', { fraud: true, payment: null }),
    statusResult('Cancelled'),
    { type: 'xstate.error.actor.fetchOrderStatus', error: new Error('Network error') },
    { type: 'payment.renew' },
    { type: 'gateway.change' },
    { type: 'order.cancel' },
    { type: 'cancel.confirm' },
    { type: 'cancel.keep' },
    { type: 'gateway.select', gateway: 'sandbox_card' },
    { type: 'gateway.select', gateway: 'sandbox_crypto' },
    { type: 'gateway.dismiss' },
    { type: 'xstate.done.actor.createPaymentLink', output: { link: newLinkFor(context.pendingGateway ?? context.selectedGateway) } },
    { type: 'xstate.error.actor.createPaymentLink', error: { error: { code: 'invoice_paid', message: 'Invoice already paid' } } },
    { type: 'xstate.error.actor.createPaymentLink', error: { error: { code: 'paid_after_close', message: 'A payment arrived after it closed' } } },
    { type: 'xstate.done.actor.cancelOrder', output: { orderid: 101, status: 'Cancelled' } },
    { type: 'xstate.error.actor.cancelOrder', error: { error: { code: 'order_not_pending', message: 'Order is not pending' } } },
  );
  return list;
}

function describeEvent(event: EventObject): string {
  const payload = event as EventObject & { gateway?: string; output?: { status?: string } };
  switch (event.type) {
    case TICK: return 'a second passes';
    case POLL: return 'poll the order status';
    case 'xstate.done.actor.fetchOrderStatus': {
      const output = (event as EventObject & { output?: OrderStatusResult }).output;
      const payment = output?.latePayment ? ', a payment came late' : output?.payment && output.payment !== 'Open' ? `, payment ${output.payment}` : '';
      return `order is ${output?.status ?? '?'}${payment}`;
    }
    case 'xstate.error.actor.fetchOrderStatus': return 'status poll fails';
    case 'payment.renew': return 'get a new link on the same gateway';
    case 'gateway.change': return 'open change gateway';
    case 'gateway.select': return `pick gateway ${payload.gateway ?? '?'}`;
    case 'gateway.dismiss': return 'keep the current gateway';
    case 'order.cancel': return 'ask to cancel the order';
    case 'cancel.confirm': return 'confirm the cancel';
    case 'cancel.keep': return 'keep the order';
    case 'xstate.done.actor.createPaymentLink': return 'new payment link arrives';
    case 'xstate.error.actor.createPaymentLink': {
      const refused = event as EventObject & { error?: { error?: { code?: string } } };
      return refused.error?.error?.code === 'paid_after_close' ? 'new link refused: paid after the order closed' : 'new link refused';
    }
    case 'xstate.done.actor.cancelOrder': return 'order cancelled';
    case 'xstate.error.actor.cancelOrder': return 'cancel refused';
    default: return event.type;
  }
}

/** The waiting step walked from a resumed order two ticks before its deadline. */
export const waitingModel: MachineModel = {
  name: 'waiting',
  machine,
  inputs: waitingModelInputs,
  events,
  describeEvent,
  expectedPaths: 48,
  expectedPairs: { walked: 52, total: 267 },
  docs: waitingMachineDocs,
};
