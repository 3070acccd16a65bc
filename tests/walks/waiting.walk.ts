/**
 * Random walks of the waiting step: time passing (countdown ticks, polls), the server answering status
 * reads with anything (Pending, Active, Fraud, Cancelled, a declined, confirming or late payment,
 * errors), new links and cancels granted or refused, and a shopper clicking anything, checked against
 * what a product owner promises.
 */
import fc from 'fast-check';
import { assign, createActor } from 'xstate';
import { ApiFailure } from '../../src/app/api';
import { ORDER_POLL_INTERVAL_MS, ORDER_POLL_MAX_BACKOFF_MS, PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { CreatePaymentLinkInput, OrderStatusResult, WaitingContext, WaitingGateway, WaitingInput, WaitingPaymentStatus } from '../../machines/waiting.context';
import { COUNTDOWN_TICK_MS, waitingMachine } from '../../machines/waiting.machine';
import { timeCommand, userCommand, type AnswerPlan, type AnswerPlans, type Invariant, type Step, type WalkClock, type WalkCommand, type WalkServer, type WalkSpec } from './harness';

export const WAITING_WALK_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** What the walk remembers: its own answers and what the machine asked of the app. */
export interface WaitingWorld {
  /** The walk's last answer to a status read (null before the first). */
  lastStatus: OrderStatusResult | null;
  /** For each time the success page (with the credentials) was opened: the status the server had last given. */
  successOpenedOn: (string | null)[];
  /** The step in which a new payment link was granted (the countdown starts a new day then). */
  newLinkAtStep: number | null;
  /** The payment deadline as the walk knows it: the order's, then one day after each new link. */
  deadline: number;
}

type Command = WalkCommand<WaitingWorld>;

const CONFIRM_CANCEL = 'shopper confirms the cancel';
type Plan = AnswerPlan<WaitingWorld>;

const gateways: WaitingGateway[] = [
  { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard' },
  { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin' },
];

/** Where a walk starts: a fresh order, one resumed seconds before its deadline, or one already expired; sometimes fraud-flagged. */
const starts: fc.Arbitrary<WaitingInput> = fc
  .record({
    fraud: fc.constantFrom(false, false, false, false, false, false, false, true),
    left: fc.constantFrom(PAYMENT_DEADLINE_MS, 60_000, 3 * COUNTDOWN_TICK_MS, 1_500, 0, -5_000),
    gatewayCount: fc.constantFrom(1, 2, 2),
  })
  .map(({ fraud, left, gatewayCount }) => ({
    order: { orderid: 101, invoiceid: 201, serviceid: 301, fraud },
    paymentLink: 'https://pay.example/card/201',
    lastDate: WAITING_WALK_NOW + left,
    duration: PAYMENT_DEADLINE_MS,
    gateways: gateways.slice(0, gatewayCount),
    selectedGateway: 'sandbox_card',
    now: WAITING_WALK_NOW,
  }));

/** What the shopper may click, at any moment, and time passing (weighted: most walks are about waiting). */
const commands: fc.Arbitrary<Command>[] = [
  fc.constant(userCommand<WaitingWorld>({ type: 'payment.renew' }, 'shopper asks for a new link')),
  fc.constant(userCommand<WaitingWorld>({ type: 'gateway.change' }, 'shopper opens change gateway')),
  fc.constantFrom('sandbox_card', 'sandbox_crypto', 'unknown').map((gateway) => userCommand<WaitingWorld>({ type: 'gateway.select', gateway }, `shopper picks gateway ${gateway}`)),
  fc.constant(userCommand<WaitingWorld>({ type: 'gateway.dismiss' }, 'shopper keeps the gateway')),
  fc.constant(userCommand<WaitingWorld>({ type: 'order.cancel' }, 'shopper cancels the order')),
  fc.constant(userCommand<WaitingWorld>({ type: 'cancel.confirm' }, CONFIRM_CANCEL)),
  fc.constant(userCommand<WaitingWorld>({ type: 'cancel.keep' }, 'shopper keeps the order')),
  fc.constant(timeCommand<WaitingWorld>()),
  fc.constant(timeCommand<WaitingWorld>()),
  fc.constant(timeCommand<WaitingWorld>()),
];

const receipt: OrderStatusResult['receipt'] = {
  lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }], promocode: null, discount: 0,
  date: '2026-01-01T12:00:00.000Z', datepaid: null, paymentmethod: { module: 'sandbox', displayname: 'Card' }, amount: 12.99, currency: 'EUR',
};

const statusPlan = fc
  .record({
    // Mostly still pending, so walks go on; every ending still comes up.
    status: fc.constantFrom('Pending', 'Pending', 'Pending', 'Pending', 'Pending', 'Pending', 'Active', 'Fraud', 'Cancelled', 'Unknown'),
    payment: fc.constantFrom<WaitingPaymentStatus | null>('Open', 'Open', 'Declined', 'Confirming', 'Confirming', 'Paid', 'Expired', null),
    latePayment: fc.constantFrom(false, false, false, false, false, false, false, true),
    fraud: fc.constantFrom(false, false, false, false, false, false, false, true),
  })
  .map((answer): Plan => ({
    label: `order ${answer.status}, payment ${answer.payment}${answer.latePayment ? ', a late payment' : ''}${answer.fraud ? ', fraud flag' : ''}`,
    answer: (_input, walk) => {
      // 'Unknown' is outside the contract on purpose: a server answering it must not open the success page.
      const output: OrderStatusResult = { orderid: 101, serviceids: [301], receipt, ...answer, status: answer.status as OrderStatusResult['status'] };
      walk.world.lastStatus = output;
      return { output };
    },
  }));

/** What the server may answer each actor. */
const answers: AnswerPlans<WaitingWorld> = {
  fetchOrderStatus: fc.oneof({ weight: 5, arbitrary: statusPlan }, { weight: 1, arbitrary: fc.constant<Plan>({ label: 'status read fails', answer: () => ({ error: new ApiFailure('api.network', 0, 'network') }) }) }),
  createPaymentLink: fc.constantFrom<Plan>(
    {
      label: 'new link granted',
      answer: (input: CreatePaymentLinkInput, walk) => {
        walk.world.newLinkAtStep = walk.server.step;
        walk.world.deadline = walk.clock.now + PAYMENT_DEADLINE_MS;
        return { output: { link: `https://pay.example/${input.gateway.module}/201-${walk.server.step}` } };
      },
    },
    { label: 'new link refused (invoice paid)', answer: () => ({ error: new ApiFailure('api.invoice_paid', 409, 'invoice_paid') }) },
  ),
  cancelOrder: fc.constantFrom<Plan>(
    { label: 'order cancelled', answer: () => ({ output: { orderid: 101, status: 'Cancelled' } }) },
    { label: 'cancel refused (not pending)', answer: () => ({ error: new ApiFailure('api.order_not_pending', 409, 'order_not_pending') }) },
  ),
};

/** The real waiting machine with the walk's server behind its actors and the walk's clock as its time source. */
function waitingUnderWalk(server: WalkServer, clock: WalkClock, world: WaitingWorld) {
  return waitingMachine.provide({
    actors: {
      fetchOrderStatus: server.actor('fetchOrderStatus'),
      cancelOrder: server.actor('cancelOrder'),
      createPaymentLink: server.actor('createPaymentLink'),
    },
    actions: {
      readClock: assign({ now: () => clock.now }),
      openPaymentLink: () => {},
      goToSuccess: () => {
        world.successOpenedOn.push(world.lastStatus?.status ?? null);
      },
      goHome: () => {},
    },
  });
}

const contextOf = (snapshot: Step<WaitingWorld>['after']) => snapshot.context as WaitingContext;
const startedNow = (step: Step<WaitingWorld>, actor: string) => step.server.startedAt(actor, step.index);

/** The promises a product owner reads; each is its own property. */
const invariants: Invariant<WaitingWorld>[] = [
  {
    sentence: 'credentials are never shown before the order is Active',
    broken: (step) => {
      const early = step.world.successOpenedOn.find((status) => status !== 'Active');
      if (early !== undefined) return `the success page opened while the server's last status was ${early ?? 'not yet read'}`;
      if (step.after.matches('success') && step.world.lastStatus?.status !== 'Active') return `the page shows the order paid, the server said ${step.world.lastStatus?.status ?? 'nothing yet'}`;
      return null;
    },
  },
  {
    sentence: 'the countdown never goes up, except when a new payment link starts a new day',
    broken: (step) => {
      const before = contextOf(step.before).remainingMs;
      const after = contextOf(step.after).remainingMs;
      if (after > before && step.world.newLinkAtStep !== step.index) return `the time left went from ${before} ms to ${after} ms`;
      return null;
    },
  },
  {
    sentence: 'the time shown is never more than the time left, never below zero, and zero once expired',
    broken: (step) => {
      const context = contextOf(step.after);
      if (context.remainingMs < 0 || context.progress < 0 || context.progress > 1) return `time left ${context.remainingMs} ms, progress ${context.progress}`;
      // The countdown is redrawn once a second, so it may lag the clock by one tick, never more.
      const left = Math.max(0, step.world.deadline - step.now);
      if (context.remainingMs > left + COUNTDOWN_TICK_MS) return `${context.remainingMs} ms shown, ${left} ms are left`;
      if (step.after.matches({ watching: { countdown: 'expired' } }) && context.remainingMs !== 0) return `the link expired but ${context.remainingMs} ms are shown`;
      return null;
    },
  },
  {
    sentence: 'no new link and no cancel while a payment is being confirmed',
    broken: (step) => {
      if (step.world.lastStatus?.payment !== 'Confirming') return null;
      if (startedNow(step, 'createPaymentLink').length) return 'a new payment link was asked for';
      if (startedNow(step, 'cancelOrder').length) return 'the order was cancelled';
      return null;
    },
  },
  {
    sentence: 'an order is cancelled only right after the shopper confirmed the cancel',
    broken: (step) => {
      if (startedNow(step, 'cancelOrder').length && step.label !== CONFIRM_CANCEL) return `the order was cancelled on "${step.label}"`;
      return null;
    },
  },
  {
    sentence: 'a new link on the same gateway only once the current one is declined, expired by the provider or past its deadline',
    broken: (step) => {
      const before = contextOf(step.before);
      for (const call of startedNow(step, 'createPaymentLink')) {
        const input = call.input as CreatePaymentLinkInput;
        if (input.gateway.module !== before.selectedGateway) continue;
        // A provider may expire its checkout before our deadline (Coinbase's checkout.payment.expired): the link is dead all the same.
        const declined = step.world.lastStatus?.payment === 'Declined' || step.world.lastStatus?.payment === 'Expired';
        // The walk's clock and deadline, not the machine's: the link must really be past its deadline.
        if (!declined && step.now < step.world.deadline) return `a new ${input.gateway.module} link was asked for ${step.world.deadline - step.now} ms before the deadline, payment ${step.world.lastStatus?.payment ?? 'not yet read'}`;
      }
      return null;
    },
  },
  {
    sentence: 'while the order is pending its status is always being read or about to be',
    broken: (step) => {
      if (!step.after.matches('watching')) return null;
      const reading = step.server.calls.some((call) => call.actor === 'fetchOrderStatus' && call.open);
      const delay = contextOf(step.after).pollDelayMs;
      if (reading) return null;
      if (!step.after.matches({ watching: { status: 'scheduled' } })) return 'no status read is running or scheduled';
      if (delay < ORDER_POLL_INTERVAL_MS || delay > ORDER_POLL_MAX_BACKOFF_MS) return `the next read is ${delay} ms away`;
      return null;
    },
  },
];

export const waitingWalks: WalkSpec<WaitingWorld, WaitingInput> = {
  machine: 'waiting',
  startTime: WAITING_WALK_NOW,
  start: starts,
  begin(input, server, clock) {
    const world: WaitingWorld = { lastStatus: null, successOpenedOn: [], newLinkAtStep: null, deadline: input.lastDate };
    const actor = createActor(waitingUnderWalk(server, clock, world), { input: { ...input, now: clock.now }, clock });
    return { actor, world, observe: () => {} };
  },
  commands,
  answers,
  invariants,
};
