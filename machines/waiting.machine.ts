/**
 * The waiting step: counts down to the payment deadline, polls the order status until the payment
 * settles, tells a declined, confirming or late payment apart from one still awaited, and lets the
 * shopper get a new link on the same gateway, change the gateway or cancel the order (asked once).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ORDER_POLL_INTERVAL_MS, ORDER_POLL_MAX_BACKOFF_MS, PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { failureMessage } from '../src/domain/failure-message';
import { statusTone, type StatusTone } from '../src/domain/order-status';
import type { Gateway, GatewayPaymentResponse, OrderStatus, OrderStatusChange, OrderStatusResponse, PaymentProgress, Receipt } from '../src/api/client';

/** The countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1_000;

/** The order being paid, as the order step stored it. */
export interface WaitingOrder {
  orderid: number | null;
  invoiceid: number | null;
  serviceid: number | null;
  fraud: boolean;
}

/** A payment gateway as the gateway list gives it (what the waiting page shows of it). */
export type WaitingGateway = Pick<Gateway, 'module' | 'displayname' | 'type'>;

/** The latest payment link's state as the server reports it; null until the first status answer. */
export type WaitingPaymentStatus = NonNullable<PaymentProgress>['status'];

/** What the invoice bills, for the receipt block (the status answer's receipt, amount and currency). */
export type WaitingReceipt = Receipt & Pick<OrderStatusResponse, 'amount' | 'currency'>;

/** What the waiting step starts from: the order, its payment link and the persisted deadline. */
export interface WaitingInput {
  order: WaitingOrder;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds (persisted as the waiting store's lastDate). */
  lastDate: number;
  /** Milliseconds the countdown spans, for the progress fraction (persisted). */
  duration: number;
  gateways: WaitingGateway[];
  /** Module of the gateway the link was made for. */
  selectedGateway: string;
  /** The clock reading when the step starts, epoch milliseconds. */
  now: number;
}

/** What the waiting page shows and the machine remembers. */
export interface WaitingContext {
  order: WaitingOrder;
  paymentLink: string | null;
  lastDate: number;
  duration: number;
  /** Last clock reading, epoch milliseconds. */
  now: number;
  /** Milliseconds left until the deadline, never below 0. */
  remainingMs: number;
  /** remainingMs / duration, from 1 (just created) to 0 (deadline reached). */
  progress: number;
  gateways: WaitingGateway[];
  selectedGateway: string;
  /** Module picked in the gateway-change view, while its link is being made. */
  pendingGateway: string | null;
  /** Last known order status: Active, Cancelled, Fraud or Pending. */
  status: OrderStatus;
  /** How the status is shown: success (green), muted (grey), warning (amber). */
  statusTone: StatusTone;
  /** Pause before the next status poll; doubles after each failed poll. */
  pollDelayMs: number;
  /** Server message (or message key) of the last failed cancel or gateway change. */
  error: string | null;
  /** The latest payment link's state from the last status answer (null before the first). */
  payment: WaitingPaymentStatus | null;
  /** A payment arrived after the link expired or the order closed (a payment exception). */
  latePayment: boolean;
  /** What was bought and the amount, from the last status answer (null before the first). */
  receipt: WaitingReceipt | null;
}

/** What the shopper does on the waiting page. */
export type WaitingEvent =
  | { type: 'payment.renew' }
  | { type: 'gateway.change' }
  | { type: 'gateway.select'; gateway: string }
  | { type: 'gateway.dismiss' }
  | { type: 'order.cancel' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.keep' };

/** The order status read (getOrderStatus), the payment reduced to its state and the receipt with its amount. */
export type OrderStatusResult = Pick<OrderStatusResponse, 'orderid' | 'status' | 'fraud' | 'serviceids' | 'latePayment'> & {
  payment: WaitingPaymentStatus | null;
  receipt: WaitingReceipt;
};

/** An upsell has an invoice but no order id: the app reads the status by whichever it has. */
export interface FetchOrderStatusInput {
  orderid: number | null;
  invoiceid: number | null;
}

/** cancelOrder's body. */
export interface CancelOrderInput {
  orderid: number | null;
}

/** cancelOrder's answer. */
export type CancelOrderOutput = OrderStatusChange;

/** The invoice to pay and the gateway to pay it on (offshore or coinbase by gateway type; null when the list does not know it). */
export interface CreatePaymentLinkInput {
  invoiceid: number | null;
  gateway: Pick<WaitingGateway, 'module'> & { type: WaitingGateway['type'] | null };
}

/** The new payment link. */
export type CreatePaymentLinkOutput = Pick<GatewayPaymentResponse, 'link'>;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** Milliseconds left and the progress fraction for a clock reading. */
export function countdownAt(now: number, lastDate: number, duration: number): { remainingMs: number; progress: number } {
  const remainingMs = Math.max(0, lastDate - now);
  const progress = duration > 0 ? Math.min(1, remainingMs / duration) : 0;
  return { remainingMs, progress };
}

/** The next poll delay after a failed poll: doubled, at most ORDER_POLL_MAX_BACKOFF_MS. */
export function backedOffDelay(delayMs: number): number {
  return Math.min(delayMs * 2, ORDER_POLL_MAX_BACKOFF_MS);
}

/** The gateway picked in the gateway-change view, as the gateway list describes it. */
function pendingGatewayOf(context: WaitingContext): CreatePaymentLinkInput['gateway'] {
  const module = context.pendingGateway ?? context.selectedGateway;
  return { module, type: context.gateways.find((gateway) => gateway.module === module)?.type ?? null };
}

interface GuardArgs {
  context: WaitingContext;
}

/** The API error code a failed call carries (an ApiFailure's `code`, or the body's `error.code`); null when none. */
export function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, error: body } = error as { code?: unknown; error?: unknown };
  if (typeof code === 'string') return code;
  const inner = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof inner === 'string' ? inner : null;
}

/** The guards of the waiting machine, exported for their unit tests. */
export const waitingGuards = {
  isFraud: ({ context }: GuardArgs) => context.order.fraud,
  deadlinePassed: ({ context }: GuardArgs) => context.now >= context.lastDate,
  orderActive: (_: unknown, params: { status: OrderStatus }) => params.status === 'Active',
  orderFraud: (_: unknown, params: { status: OrderStatus; fraud: boolean }) => params.status === 'Fraud' || params.fraud,
  orderCancelled: (_: unknown, params: { status: OrderStatus }) => params.status === 'Cancelled',
  hasLatePayment: (_: unknown, params: { latePayment: boolean }) => params.latePayment,
  paymentExpiredEarly: ({ context }: GuardArgs, params: { payment: WaitingPaymentStatus | null }) => params.payment === 'Expired' && context.now < context.lastDate,
  paidAfterClose: (_: unknown, params: { error: unknown }) => errorCode(params.error) === 'paid_after_close',
  paymentDeclined: ({ context }: GuardArgs) => context.payment === 'Declined',
  paymentConfirming: ({ context }: GuardArgs) => context.payment === 'Confirming',
  paymentNotConfirming: ({ context }: GuardArgs) => context.payment !== 'Confirming',
  mayChangeGateway: ({ context }: GuardArgs) =>
    context.payment !== 'Confirming' && context.gateways.some((gateway) => gateway.module !== context.selectedGateway),
  paymentAwaited: ({ context }: GuardArgs) => context.payment !== 'Declined' && context.payment !== 'Confirming',
  mayRenewLink: ({ context }: GuardArgs) => context.payment !== 'Confirming' && (context.payment === 'Declined' || context.now >= context.lastDate),
  renewingSameGateway: ({ context }: GuardArgs) => (context.pendingGateway ?? context.selectedGateway) === context.selectedGateway,
  isOtherGateway: ({ context }: GuardArgs, params: { gateway: string }) =>
    params.gateway !== context.selectedGateway && context.gateways.some((gateway) => gateway.module === params.gateway),
};

/** What the views and the app read about each actor, action, guard and delay. */
export const waitingMachineDocs = {
  actors: {
    fetchOrderStatus: {
      description: 'Reads the order status (getOrderStatus; an upsell has only its invoice id).',
      input: '{ orderid, invoiceid }',
      output: '{ orderid, status, fraud, serviceids, payment, latePayment, receipt }',
    },
    cancelOrder: {
      description: 'Cancels the pending order (cancelOrder).',
      input: '{ orderid }',
      output: '{ orderid, status }',
    },
    createPaymentLink: {
      description: 'Makes a payment link for the same invoice on the same or another gateway (offshore for card types, coinbase for crypto).',
      input: '{ invoiceid, gateway: { module, displayname, type } }',
      output: '{ link }',
    },
  },
  actions: {
    readClock: { description: 'Reads the clock into now (the app may supply its own time source).', output: 'now' },
    updateCountdown: { description: 'Recomputes the time left and the progress fraction from now.', output: 'remainingMs, progress' },
    storeStatus: { description: 'Keeps the polled order status and its tone.', input: 'status', output: 'status, statusTone' },
    storeProgress: { description: 'Keeps the latest payment state, the late-payment flag and the receipt of the status answer.', input: 'payment, latePayment, receipt', output: 'payment, latePayment, receipt' },
    pickSameGateway: { description: 'A new link on the current gateway: the pending gateway is the current one.', output: 'pendingGateway' },
    resetBackoff: { description: 'Polls again at the normal interval after a good answer.', output: 'pollDelayMs' },
    backOff: { description: 'Doubles the pause before the next poll after a failed one, up to the maximum.', output: 'pollDelayMs' },
    clearError: { description: 'Hides the last error message.', output: 'error' },
    storeError: { description: 'Keeps the server message of a failed call to show it.', input: 'the actor error', output: 'error' },
    pickGateway: { description: 'Remembers the gateway picked in the gateway-change view.', output: 'pendingGateway' },
    clearPendingGateway: { description: 'Forgets the gateway of a link that could not be made.', output: 'pendingGateway' },
    expireNow: { description: 'The provider closed the link before our deadline: the deadline becomes now, so the link shows expired and a new one may be asked for.', output: 'lastDate, remainingMs, progress' },
    storeLatePayment: { description: 'Keeps that a payment came after the order closed (the server refused a new link for it).', output: 'latePayment' },
    storeNewLink: {
      description: 'Keeps the new link and its gateway, sets the deadline one day ahead; the new link is Open.',
      input: 'link, pendingGateway',
      output: 'paymentLink, selectedGateway, lastDate, duration, remainingMs, progress, payment',
    },
    openPaymentLink: { description: 'Sends the shopper to the new payment page.', input: '{ link }' },
    clearOrderIds: { description: 'Success clears orderid and invoiceid (the service id stays for the success page).', output: 'order' },
    goToSuccess: { description: 'Navigates to the success page of the service, with the invoice its receipt reads.', input: '{ serviceid, invoiceid }' },
    clearOrder: { description: 'Cancel clears the order data and the payment link.', output: 'order, paymentLink' },
    goHome: { description: 'Navigates to the home page.' },
  },
  guards: {
    isFraud: { description: 'The order carries the fraud flag.' },
    deadlinePassed: { description: 'The last clock reading is at or after the payment deadline.' },
    orderActive: { description: 'The polled status is Active: the payment settled.' },
    orderFraud: { description: 'The polled status is Fraud or the order is flagged as fraud.' },
    orderCancelled: { description: 'The polled status is Cancelled.' },
    hasLatePayment: { description: 'A payment arrived after the link expired or the order closed: the operator refunds or applies it.' },
    paymentExpiredEarly: { description: 'The status answer says the link is Expired while our countdown still runs (the provider expired it first).' },
    paidAfterClose: { description: 'A new link was refused with paid_after_close: a payment came after the order closed.' },
    paymentDeclined: { description: 'The latest payment was declined by the provider.' },
    paymentConfirming: { description: 'The provider saw the money and awaits its confirmation.' },
    mayChangeGateway: { description: 'Another gateway is configured and no payment is being confirmed.' },
    paymentAwaited: { description: 'No payment declined or being confirmed: the latest link awaits its payment.' },
    paymentNotConfirming: { description: 'No payment is being confirmed: the shopper may still cancel.' },
    mayRenewLink: { description: 'The link is declined or past its deadline (and no payment is being confirmed): a new one may be asked for.' },
    renewingSameGateway: { description: 'The link being made is for the current gateway (Pay again / Get a new payment link).' },
    isOtherGateway: { description: 'The chosen gateway is in the list and differs from the current one.' },
  },
  delays: {
    pollDelay: { description: `Pause before the next status poll: ${ORDER_POLL_INTERVAL_MS} ms, doubled after each error up to ${ORDER_POLL_MAX_BACKOFF_MS} ms.` },
  },
  events: {
    'payment.renew': { description: 'The shopper asks for a new link on the same gateway (Pay again, Get a new payment link).' },
    'gateway.change': { description: 'The shopper opens the gateway-change view.' },
    'gateway.select': { description: 'The shopper picks another gateway.' },
    'gateway.dismiss': { description: 'The shopper closes the gateway-change view.' },
    'order.cancel': { description: 'The shopper asks to cancel the order (asked once to confirm).' },
    'cancel.confirm': { description: 'The shopper confirms the cancel.' },
    'cancel.keep': { description: 'The shopper keeps the order after all.' },
  },
};

/** The waiting step: countdown, status polling, payment progress, new link, change of gateway, cancel. */
export const waitingMachine = setup({
  types: {
    input: {} as WaitingInput,
    context: {} as WaitingContext,
    events: {} as WaitingEvent,
  },
  actors: {
    fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(notProvided('fetchOrderStatus')),
    cancelOrder: fromPromise<CancelOrderOutput, CancelOrderInput>(notProvided('cancelOrder')),
    createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(notProvided('createPaymentLink')),
  },
  actions: {
    readClock: assign({ now: () => Date.now() }),
    updateCountdown: assign(({ context }) => countdownAt(context.now, context.lastDate, context.duration)),
    storeStatus: assign((_, params: { status: OrderStatus }) => ({ status: params.status, statusTone: statusTone(params.status) })),
    storeProgress: assign((_, params: OrderStatusResult) => ({ payment: params.payment, latePayment: params.latePayment, receipt: params.receipt })),
    pickSameGateway: assign(({ context }) => ({ pendingGateway: context.selectedGateway })),
    expireNow: assign(({ context }) => ({ lastDate: context.now, ...countdownAt(context.now, context.now, context.duration) })),
    storeLatePayment: assign({ latePayment: true }),
    clearPendingGateway: assign({ pendingGateway: null }),
    resetBackoff: assign({ pollDelayMs: ORDER_POLL_INTERVAL_MS }),
    backOff: assign(({ context }) => ({ pollDelayMs: backedOffDelay(context.pollDelayMs) })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error) })),
    pickGateway: assign((_, params: { gateway: string }) => ({ pendingGateway: params.gateway })),
    storeNewLink: assign(({ context }, params: { link: string }) => ({
      paymentLink: params.link,
      selectedGateway: context.pendingGateway ?? context.selectedGateway,
      pendingGateway: null,
      lastDate: context.now + PAYMENT_DEADLINE_MS,
      duration: PAYMENT_DEADLINE_MS,
      ...countdownAt(context.now, context.now + PAYMENT_DEADLINE_MS, PAYMENT_DEADLINE_MS),
      error: null,
      // A payment already being confirmed stays so: the new link does not undo money on its way.
      payment: context.payment === 'Confirming' ? context.payment : ('Open' as const),
    })),
    openPaymentLink: (_, _params: { link: string }) => {},
    clearOrderIds: assign(({ context }) => ({ order: { ...context.order, orderid: null, invoiceid: null } })),
    goToSuccess: (_, _params: { serviceid: number | null; invoiceid: number | null }) => {},
    clearOrder: assign({ order: { orderid: null, invoiceid: null, serviceid: null, fraud: false }, paymentLink: null }),
    goHome: () => {},
  },
  guards: waitingGuards,
  delays: {
    pollDelay: ({ context }) => context.pollDelayMs,
  },
}).createMachine({
  id: 'waiting',
  description: 'Waits for the payment of an order: countdown, status polling, payment progress, new link, change of gateway, cancel.',
  context: ({ input }) => ({
    order: input.order,
    paymentLink: input.paymentLink,
    lastDate: input.lastDate,
    duration: input.duration,
    now: input.now,
    ...countdownAt(input.now, input.lastDate, input.duration),
    gateways: input.gateways,
    selectedGateway: input.selectedGateway,
    pendingGateway: null,
    status: 'Pending',
    statusTone: statusTone('Pending'),
    pollDelayMs: ORDER_POLL_INTERVAL_MS,
    error: null,
    payment: null,
    latePayment: false,
    receipt: null,
  }),
  initial: 'resuming',
  states: {
    resuming: {
      description: 'Picks up from the persisted order and deadline (also after a reload).',
      always: [
        {
          guard: 'isFraud',
          target: 'fraud',
          actions: { type: 'storeStatus', params: { status: 'Fraud' } },
          description: 'A fraud-flagged order is under review at once (its status is Fraud, never Pending).',
        },
        { guard: 'deadlinePassed', target: '#waitingExpired', description: 'A deadline already passed goes straight to expired.' },
        { target: 'watching', description: 'Otherwise the countdown and the polling start.' },
      ],
    },
    watching: {
      id: 'waitingWatching',
      description: 'The order is pending: the countdown, the status polling and the page run side by side.',
      type: 'parallel',
      states: {
        countdown: {
          description: 'Time left until the payment deadline.',
          initial: 'counting',
          states: {
            counting: {
              id: 'waitingCountdown',
              description: 'Shows the time left and the progress bar.',
              after: {
                [COUNTDOWN_TICK_MS]: [
                  { guard: 'deadlinePassed', target: 'expired', description: 'The deadline is reached: the link has expired.' },
                  {
                    target: 'counting',
                    reenter: true,
                    actions: ['readClock', 'updateCountdown'],
                    description: 'Every second the clock is read and the countdown redrawn.',
                  },
                ],
              },
            },
            expired: {
              id: 'waitingExpired',
              description: 'The deadline passed: the shopper can pick another gateway for a new link, or cancel.',
            },
          },
        },
        status: {
          description: 'The order status, read at once (the shopper may come back already paid), then polled until the payment settles.',
          initial: 'fetching',
          states: {
            scheduled: {
              id: 'waitingPoll',
              description: 'Waits before the next status poll.',
              after: { pollDelay: { target: 'fetching', description: 'Time for the next poll.' } },
            },
            fetching: {
              description: 'Reads the order status.',
              invoke: {
                id: 'fetchOrderStatus',
                src: 'fetchOrderStatus',
                input: ({ context }) => ({ orderid: context.order.orderid, invoiceid: context.order.invoiceid }),
                onDone: [
                  {
                    guard: { type: 'orderActive', params: ({ event }) => ({ status: event.output.status }) },
                    target: '#waitingSuccess',
                    actions: [{ type: 'storeStatus', params: ({ event }) => ({ status: event.output.status }) }, { type: 'storeProgress', params: ({ event }) => event.output }],
                    description: 'The payment settled: the order is Active.',
                  },
                  {
                    guard: { type: 'orderFraud', params: ({ event }) => ({ status: event.output.status, fraud: event.output.fraud }) },
                    target: '#waitingFraud',
                    actions: [{ type: 'storeStatus', params: { status: 'Fraud' } }, { type: 'storeProgress', params: ({ event }) => event.output }],
                    description: 'The order was flagged as fraud: it is under review.',
                  },
                  {
                    guard: { type: 'hasLatePayment', params: ({ event }) => ({ latePayment: event.output.latePayment }) },
                    target: '#waitingLatePayment',
                    actions: [{ type: 'storeStatus', params: ({ event }) => ({ status: event.output.status }) }, { type: 'storeProgress', params: ({ event }) => event.output }],
                    description: 'A payment came after the link expired or the order closed: the shopper is told what happens next.',
                  },
                  {
                    guard: { type: 'orderCancelled', params: ({ event }) => ({ status: event.output.status }) },
                    target: '#waitingCancelled',
                    actions: [{ type: 'storeStatus', params: ({ event }) => ({ status: event.output.status }) }, { type: 'storeProgress', params: ({ event }) => event.output }],
                    description: 'The order was cancelled elsewhere.',
                  },
                  {
                    guard: { type: 'paymentExpiredEarly', params: ({ event }) => ({ payment: event.output.payment }) },
                    target: 'scheduled',
                    actions: [{ type: 'storeStatus', params: ({ event }) => ({ status: event.output.status }) }, { type: 'storeProgress', params: ({ event }) => event.output }, 'resetBackoff', 'expireNow'],
                    description: 'The provider expired the link before our deadline (Coinbase checkout.payment.expired): the deadline is now, so the page offers a new link.',
                  },
                  {
                    target: 'scheduled',
                    actions: [{ type: 'storeStatus', params: ({ event }) => ({ status: event.output.status }) }, { type: 'storeProgress', params: ({ event }) => event.output }, 'resetBackoff'],
                    description: 'Still pending: poll again at the normal interval (the payment region follows the payment state).',
                  },
                ],
                onError: {
                  target: 'scheduled',
                  actions: 'backOff',
                  description: 'The poll failed: wait twice as long before the next one.',
                },
              },
            },
          },
        },
        payment: {
          description: 'What became of the payment on the provider\'s page, as the last status answer says.',
          initial: 'awaiting',
          states: {
            awaiting: {
              id: 'waitingAwaiting',
              description: 'No payment yet: waiting for the shopper to pay.',
              always: [
                { guard: 'paymentDeclined', target: 'declined', description: 'The provider declined the payment.' },
                { guard: 'paymentConfirming', target: 'confirming', description: 'The provider saw the money and awaits its confirmation.' },
              ],
            },
            declined: {
              id: 'waitingDeclined',
              description: 'The payment was declined: the shopper may pay again on the same gateway or choose another.',
              always: [
                { guard: 'paymentConfirming', target: 'confirming', description: 'Paid after all, and now being confirmed.' },
                { guard: 'paymentAwaited', target: 'awaiting', description: 'The latest link is open again (made elsewhere, e.g. in another tab).' },
              ],
            },
            confirming: {
              id: 'waitingConfirming',
              description: 'Payment received, confirming: nothing to do but wait for the confirmation.',
              always: [
                { guard: 'paymentDeclined', target: 'declined', description: 'The provider failed the payment after all.' },
                { guard: 'paymentAwaited', target: 'awaiting', description: 'The latest link is open again (made elsewhere, e.g. in another tab).' },
              ],
            },
          },
        },
        page: {
          description: 'What the shopper does on the waiting page.',
          initial: 'info',
          states: {
            info: {
              description: 'Order info, status, countdown, receipt, new link (when declined or expired), cancel and change-gateway links.',
              on: {
                'payment.renew': {
                  guard: 'mayRenewLink',
                  target: 'creatingLink',
                  actions: ['clearError', 'pickSameGateway'],
                  description: 'Pay again / Get a new payment link: a new link on the same gateway.',
                },
                'gateway.change': { guard: 'mayChangeGateway', target: 'choosingGateway', actions: 'clearError', description: 'Opens the gateway-change view.' },
                'order.cancel': { guard: 'paymentNotConfirming', target: 'confirmingCancel', actions: 'clearError', description: 'Asks once whether to cancel the order.' },
              },
            },
            confirmingCancel: {
              description: 'Cancel order #N? The shopper confirms the cancel or keeps the order; nothing is cancelled yet.',
              always: { guard: 'paymentConfirming', target: 'info', description: 'A payment is being confirmed meanwhile: there is nothing left to cancel.' },
              on: {
                'cancel.confirm': { target: 'cancelling', description: 'Confirmed: the order is cancelled.' },
                'cancel.keep': { target: 'info', description: 'The order is kept.' },
              },
            },
            choosingGateway: {
              description: 'The gateway-change view: the list of gateways.',
              always: { guard: 'paymentConfirming', target: 'info', description: 'A payment is being confirmed: no other gateway is offered.' },
              on: {
                'gateway.select': {
                  guard: { type: 'isOtherGateway', params: ({ event }) => ({ gateway: event.gateway }) },
                  target: 'creatingLink',
                  actions: ['clearError', { type: 'pickGateway', params: ({ event }) => ({ gateway: event.gateway }) }],
                  description: 'Another gateway was picked: ask for a new link.',
                },
                'gateway.dismiss': { target: 'info', actions: 'clearError', description: 'Keeps the current gateway.' },
              },
            },
            creatingLink: {
              description: 'Asks for a new payment link for the same invoice, on the same or the new gateway.',
              invoke: {
                id: 'createPaymentLink',
                src: 'createPaymentLink',
                input: ({ context }) => ({ invoiceid: context.order.invoiceid, gateway: pendingGatewayOf(context) }),
                onDone: {
                  target: '#waitingWatching',
                  reenter: true,
                  actions: [
                    'readClock',
                    { type: 'storeNewLink', params: ({ event }) => ({ link: event.output.link }) },
                    { type: 'openPaymentLink', params: ({ event }) => ({ link: event.output.link }) },
                  ],
                  description: 'New link: a fresh one-day countdown starts and the payment page opens.',
                },
                onError: [
                  {
                    guard: { type: 'paidAfterClose', params: ({ event }) => ({ error: event.error }) },
                    target: '#waitingLatePayment',
                    actions: 'storeLatePayment',
                    description: 'No new link: a payment came after the order closed (409 paid_after_close); the shopper is told what happens next, never asked to pay again.',
                  },
                  {
                    guard: 'renewingSameGateway',
                    target: 'info',
                    actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'clearPendingGateway'],
                    description: 'No new link on the same gateway: the server message is shown on the page.',
                  },
                  {
                    target: 'choosingGateway',
                    actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                    description: 'No new link: the server message is shown in the gateway view.',
                  },
                ],
              },
            },
            cancelling: {
              description: 'Cancels the order.',
              invoke: {
                id: 'cancelOrder',
                src: 'cancelOrder',
                input: ({ context }) => ({ orderid: context.order.orderid }),
                onDone: {
                  target: '#waitingCancelled',
                  actions: ['clearOrder', 'goHome'],
                  description: 'Cancelled: the order data is cleared and the shopper goes home.',
                },
                onError: {
                  target: 'info',
                  actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  description: 'The cancel failed: the server message is shown.',
                },
              },
            },
          },
        },
      },
    },
    success: {
      id: 'waitingSuccess',
      description: 'Paid: the shopper goes to the success page (with the service and its invoice) and the order ids are cleared.',
      type: 'final',
      // The ids go along to the success page before they are cleared: its receipt is the invoice's.
      entry: [{ type: 'goToSuccess', params: ({ context }) => ({ serviceid: context.order.serviceid, invoiceid: context.order.invoiceid }) }, 'clearOrderIds'],
    },
    fraud: {
      id: 'waitingFraud',
      description: 'The order is flagged as fraud: the fraud banner is shown.',
      type: 'final',
    },
    cancelled: {
      id: 'waitingCancelled',
      description: 'The order is cancelled.',
      type: 'final',
    },
    latePayment: {
      id: 'waitingLatePayment',
      description: 'A payment arrived after the link expired or the order closed: it is a payment exception; the shopper is told the shop activates the order or refunds the payment, and to contact support with the invoice number. No new link is offered.',
      type: 'final',
    },
  },
});
