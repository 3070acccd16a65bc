/**
 * The waiting step: counts down to the payment deadline, polls the order status until the payment
 * settles, tells a declined, confirming or late payment apart from one still awaited, and lets the
 * shopper get a new link on the same gateway, change the gateway or cancel the order (asked once).
 * Its types and first context are in waiting.context.ts, its guards in waiting.guards.ts, what the
 * diagrams say of it in waiting.docs.ts.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ORDER_POLL_INTERVAL_MS, PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { failureMessage } from '../src/domain/failure-message';
import { statusTone } from '../src/domain/order-status';
import type { OrderStatus } from '../src/api/client';
import {
  backedOffDelay,
  countdownAt,
  initialWaitingContext,
  pendingGatewayOf,
  type CancelOrderInput,
  type CancelOrderOutput,
  type CreatePaymentLinkInput,
  type CreatePaymentLinkOutput,
  type FetchOrderStatusInput,
  type OrderStatusResult,
  type WaitingContext,
  type WaitingEvent,
  type WaitingInput,
} from './waiting.context';
import { waitingGuards } from './waiting.guards';
import type { ProductWords } from './product-words';

/** The countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1_000;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** What the status poll's answer hands to the actions that keep it. */
interface StatusAnswered {
  event: { output: OrderStatusResult };
}

/** The payment state, late-payment flag and receipt of a status answer, kept whatever the status says. */
const keepProgress = { type: 'storeProgress', params: ({ event }: StatusAnswered) => event.output } as const;

/** A status answer kept as it came: its status (and tone) and its progress. */
const keepAnswer = [{ type: 'storeStatus', params: ({ event }: StatusAnswered) => ({ status: event.output.status }) } as const, keepProgress];

/** Declined or being confirmed, the payment goes back to awaited when the latest link is open again. */
const linkOpenAgain = { guard: 'paymentAwaited', target: 'awaiting', description: 'The latest link is open again (made elsewhere, e.g. in another tab).', meta: { product: 'The latest payment link is open again (made in another tab, say), so the shopper can pay on it.' } } as const;

/** The waiting step: countdown, status polling, payment progress, new link, change of gateway, cancel. */
export const waitingMachine = setup({
  types: {
    meta: {} as ProductWords,
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
  meta: { product: 'The waiting page: countdown to the payment deadline, payment progress, a new link, another method, or cancel.' },
  context: ({ input }) => initialWaitingContext(input),
  initial: 'resuming',
  states: {
    resuming: {
      description: 'Picks up from the persisted order and deadline (also after a reload).',
      meta: { product: "The waiting page picks up the shopper's order and deadline, also after a reload." },
      always: [
        {
          guard: 'isFraud',
          target: 'fraud',
          actions: { type: 'storeStatus', params: { status: 'Fraud' } },
          description: 'A fraud-flagged order is under review at once (its status is Fraud, never Pending).',
          meta: { product: 'The order is held for a check, so the shopper sees it is under review.' },
        },
        { guard: 'deadlinePassed', target: '#waitingExpired', description: 'A deadline already passed goes straight to expired.', meta: { product: 'The payment deadline has already passed, so the shopper sees the link has expired.' } },
        { target: 'watching', description: 'Otherwise the countdown and the polling start.', meta: { product: 'The countdown starts and the page keeps watching for the payment.' } },
      ],
    },
    watching: {
      id: 'waitingWatching',
      description: 'The order is pending: the countdown, the status polling and the page run side by side.',
      meta: { product: "The order awaits payment: the countdown, the payment watch and the shopper's actions run side by side." },
      type: 'parallel',
      states: {
        countdown: {
          description: 'Time left until the payment deadline.',
          meta: { product: 'The time left to pay.' },
          initial: 'counting',
          states: {
            counting: {
              id: 'waitingCountdown',
              description: 'Shows the time left and the progress bar.',
              meta: { product: 'The shopper sees the time left and a progress bar.' },
              after: {
                [COUNTDOWN_TICK_MS]: [
                  { guard: 'deadlinePassed', target: 'expired', description: 'The deadline is reached: the link has expired.', meta: { product: 'The deadline is reached: the payment link has expired.' } },
                  {
                    target: 'counting',
                    reenter: true,
                    actions: ['readClock', 'updateCountdown'],
                    description: 'Every second the clock is read and the countdown redrawn.',
                    meta: { product: 'Every second the countdown ticks on.' },
                  },
                ],
              },
            },
            expired: {
              id: 'waitingExpired',
              description: 'The deadline passed: the shopper can pick another gateway for a new link, or cancel.',
              meta: { product: 'The deadline passed: the shopper can pick a payment method for a new link, or cancel.' },
            },
          },
        },
        status: {
          description: 'The order status, read at once (the shopper may come back already paid), then polled until the payment settles.',
          meta: { product: 'The page asks at once whether the order is paid (the shopper may return paid), then keeps asking until it is.' },
          initial: 'fetching',
          states: {
            scheduled: {
              id: 'waitingPoll',
              description: 'Waits before the next status poll.',
              meta: { product: 'A short pause before asking again whether the order is paid.' },
              after: { pollDelay: { target: 'fetching', description: 'Time for the next poll.', meta: { product: 'Time to ask again.' } } },
            },
            fetching: {
              description: 'Reads the order status.',
              meta: { product: 'The page asks whether the order is paid.' },
              invoke: {
                id: 'fetchOrderStatus',
                src: 'fetchOrderStatus',
                input: ({ context }) => ({ orderid: context.order.orderid, invoiceid: context.order.invoiceid }),
                onDone: [
                  {
                    guard: { type: 'orderActive', params: ({ event }) => ({ status: event.output.status }) },
                    target: '#waitingSuccess',
                    actions: keepAnswer,
                    description: 'The payment settled: the order is Active.',
                    meta: { product: 'The payment came through: the service is active.' },
                  },
                  {
                    guard: { type: 'orderFraud', params: ({ event }) => ({ status: event.output.status, fraud: event.output.fraud }) },
                    target: '#waitingFraud',
                    actions: [{ type: 'storeStatus', params: { status: 'Fraud' } }, keepProgress],
                    description: 'The order was flagged as fraud: it is under review.',
                    meta: { product: 'The order is held for a check and is under review.' },
                  },
                  {
                    guard: { type: 'hasLatePayment', params: ({ event }) => ({ latePayment: event.output.latePayment }) },
                    target: '#waitingLatePayment',
                    actions: keepAnswer,
                    description: 'A payment came after the link expired or the order closed: the shopper is told what happens next.',
                    meta: { product: 'A payment came after the link expired or the order closed; the shopper is told what happens next.' },
                  },
                  {
                    guard: { type: 'orderCancelled', params: ({ event }) => ({ status: event.output.status }) },
                    target: '#waitingCancelled',
                    actions: keepAnswer,
                    description: 'The order was cancelled elsewhere.',
                    meta: { product: 'The order was cancelled somewhere else.' },
                  },
                  {
                    guard: { type: 'paymentExpiredEarly', params: ({ event }) => ({ payment: event.output.payment }) },
                    target: 'scheduled',
                    actions: [...keepAnswer, 'resetBackoff', 'expireNow'],
                    description: 'The provider expired the link before our deadline (Coinbase checkout.payment.expired): the deadline is now, so the page offers a new link.',
                    meta: { product: 'The payment provider let the link expire early, so the page offers a new link at once.' },
                  },
                  {
                    target: 'scheduled',
                    actions: [...keepAnswer, 'resetBackoff'],
                    description: 'Still pending: poll again at the normal interval (the payment region follows the payment state).',
                    meta: { product: 'Not paid yet: the page asks again shortly, and shows how the payment is going.' },
                  },
                ],
                onError: {
                  target: 'scheduled',
                  actions: 'backOff',
                  description: 'The poll failed: wait twice as long before the next one.',
                  meta: { product: 'The page could not get an answer, so it waits longer before asking again.' },
                },
              },
            },
          },
        },
        payment: {
          description: 'What became of the payment on the provider\'s page, as the last status answer says.',
          meta: { product: "How the payment is going on the payment provider's page." },
          initial: 'awaiting',
          states: {
            awaiting: {
              id: 'waitingAwaiting',
              description: 'No payment yet: waiting for the shopper to pay.',
              meta: { product: 'No payment yet: the page waits for the shopper to pay.' },
              always: [
                { guard: 'paymentDeclined', target: 'declined', description: 'The provider declined the payment.', meta: { product: 'The payment provider declined the payment.' } },
                { guard: 'paymentConfirming', target: 'confirming', description: 'The provider saw the money and awaits its confirmation.', meta: { product: 'The payment provider has the money and is confirming it.' } },
              ],
            },
            declined: {
              id: 'waitingDeclined',
              description: 'The payment was declined: the shopper may pay again on the same gateway or choose another.',
              meta: { product: 'The payment was declined: the shopper can pay again with the same method or choose another.' },
              always: [
                { guard: 'paymentConfirming', target: 'confirming', description: 'Paid after all, and now being confirmed.', meta: { product: 'The payment went through after all and is being confirmed.' } },
                linkOpenAgain,
              ],
            },
            confirming: {
              id: 'waitingConfirming',
              description: 'Payment received, confirming: nothing to do but wait for the confirmation.',
              meta: { product: 'The payment arrived and is being confirmed; the shopper only has to wait.' },
              always: [
                { guard: 'paymentDeclined', target: 'declined', description: 'The provider failed the payment after all.', meta: { product: 'The payment provider failed the payment after all.' } },
                linkOpenAgain,
              ],
            },
          },
        },
        page: {
          description: 'What the shopper does on the waiting page.',
          meta: { product: 'What the shopper can do on the waiting page.' },
          initial: 'info',
          states: {
            info: {
              description: 'Order info, status, countdown, receipt, new link (when declined or expired), cancel and change-gateway links.',
              meta: { product: 'The shopper sees the order, its status, the countdown and the receipt, with links to pay again, switch method or cancel.' },
              on: {
                'payment.renew': {
                  guard: 'mayRenewLink',
                  target: 'creatingLink',
                  actions: ['clearError', 'pickSameGateway'],
                  description: 'Pay again / Get a new payment link: a new link on the same gateway.',
                  meta: { product: 'The shopper asks for a new payment link with the same method.' },
                },
                'gateway.change': { guard: 'mayChangeGateway', target: 'choosingGateway', actions: 'clearError', description: 'Opens the gateway-change view.', meta: { product: 'The shopper opens the list of other payment methods.' } },
                'order.cancel': { guard: 'paymentNotConfirming', target: 'confirmingCancel', actions: 'clearError', description: 'Asks once whether to cancel the order.', meta: { product: 'The shopper asks to cancel the order and is asked to confirm.' } },
              },
            },
            confirmingCancel: {
              description: 'Cancel order #N? The shopper confirms the cancel or keeps the order; nothing is cancelled yet.',
              meta: { product: 'The shopper is asked whether to cancel the order; nothing is cancelled yet.' },
              always: { guard: 'paymentConfirming', target: 'info', description: 'A payment is being confirmed meanwhile: there is nothing left to cancel.', meta: { product: 'A payment is being confirmed meanwhile, so there is nothing left to cancel.' } },
              on: {
                'cancel.confirm': { target: 'cancelling', description: 'Confirmed: the order is cancelled.', meta: { product: 'The shopper confirms: the order is cancelled.' } },
                'cancel.keep': { target: 'info', description: 'The order is kept.', meta: { product: 'The shopper changes their mind and keeps the order.' } },
              },
            },
            choosingGateway: {
              description: 'The gateway-change view: the list of gateways.',
              meta: { product: 'The shopper sees the list of payment methods to switch to.' },
              always: { guard: 'paymentConfirming', target: 'info', description: 'A payment is being confirmed: no other gateway is offered.', meta: { product: 'A payment is being confirmed, so no other method is offered.' } },
              on: {
                'gateway.select': {
                  guard: { type: 'isOtherGateway', params: ({ event }) => ({ gateway: event.gateway }) },
                  target: 'creatingLink',
                  actions: ['clearError', { type: 'pickGateway', params: ({ event }) => ({ gateway: event.gateway }) }],
                  description: 'Another gateway was picked: ask for a new link.',
                  meta: { product: 'The shopper picks another method and a new payment link is made for it.' },
                },
                'gateway.dismiss': { target: 'info', actions: 'clearError', description: 'Keeps the current gateway.', meta: { product: 'The shopper keeps the current payment method.' } },
              },
            },
            creatingLink: {
              description: 'Asks for a new payment link for the same invoice, on the same or the new gateway.',
              meta: { product: 'A new payment link for the same order is being made, with the same or the new method.' },
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
                  meta: { product: 'The new link is ready: a fresh one-day countdown starts and the payment page opens.' },
                },
                onError: [
                  {
                    guard: { type: 'paidAfterClose', params: ({ event }) => ({ error: event.error }) },
                    target: '#waitingLatePayment',
                    actions: 'storeLatePayment',
                    description: 'No new link: a payment came after the order closed (409 paid_after_close); the shopper is told what happens next, never asked to pay again.',
                    meta: { product: 'A payment came after the order closed, so no new link; the shopper is told what happens next, never asked to pay twice.' },
                  },
                  {
                    guard: 'renewingSameGateway',
                    target: 'info',
                    actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'clearPendingGateway'],
                    description: 'No new link on the same gateway: the server message is shown on the page.',
                    meta: { product: 'No new link could be made; the shopper sees the reason on the page.' },
                  },
                  {
                    target: 'choosingGateway',
                    actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                    description: 'No new link: the server message is shown in the gateway view.',
                    meta: { product: 'No link with that method could be made; the shopper sees the reason in the list of methods.' },
                  },
                ],
              },
            },
            cancelling: {
              description: 'Cancels the order.',
              meta: { product: 'The order is being cancelled.' },
              invoke: {
                id: 'cancelOrder',
                src: 'cancelOrder',
                input: ({ context }) => ({ orderid: context.order.orderid }),
                onDone: {
                  target: '#waitingCancelled',
                  actions: ['clearOrder', 'goHome'],
                  description: 'Cancelled: the order data is cleared and the shopper goes home.',
                  meta: { product: 'The order is cancelled and the shopper goes back to the home page.' },
                },
                onError: {
                  target: 'info',
                  actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  description: 'The cancel failed: the server message is shown.',
                  meta: { product: 'The order could not be cancelled; the shopper sees the reason.' },
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
      meta: { product: 'Paid: the shopper goes to the success page with their service and receipt.' },
      type: 'final',
      // The ids go along to the success page before they are cleared: its receipt is the invoice's.
      entry: [{ type: 'goToSuccess', params: ({ context }) => ({ serviceid: context.order.serviceid, invoiceid: context.order.invoiceid }) }, 'clearOrderIds'],
    },
    fraud: {
      id: 'waitingFraud',
      description: 'The order is flagged as fraud: the fraud banner is shown.',
      meta: { product: 'The order is held for a check: the shopper sees that it is under review.' },
      type: 'final',
    },
    cancelled: {
      id: 'waitingCancelled',
      description: 'The order is cancelled.',
      meta: { product: 'The order is cancelled.' },
      type: 'final',
    },
    latePayment: {
      id: 'waitingLatePayment',
      description: 'A payment arrived after the link expired or the order closed: it is a payment exception; the shopper is told the shop activates the order or refunds the payment, and to contact support with the invoice number. No new link is offered.',
      meta: { product: 'Paid after the link expired or the order closed: we activate or refund it; support helps with the invoice number.' },
      type: 'final',
    },
  },
});
