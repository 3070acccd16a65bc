import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { newLinkFor, waitingModel, waitingModelInput, waitingModelReceipt } from '../scripts/statecharts/models/waiting.model';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { checkoutFact } from '../tests/facts/prices';
import { ORDER_POLL_INTERVAL_MS, ORDER_POLL_MAX_BACKOFF_MS, PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { statusTone } from '../src/domain/order-status';
import {
  backedOffDelay,
  countdownAt,
  type CreatePaymentLinkInput,
  type CreatePaymentLinkOutput,
  type FetchOrderStatusInput,
  type OrderStatusResult,
  type WaitingContext,
  type WaitingInput,
} from './waiting.context';
import { waitingGuards } from './waiting.guards';
import { waitingMachine } from './waiting.machine';

const { paths, error: pathsError } = generatePathsForTest(waitingModel);

describe('waiting machine: generated paths', () => {
  it('generates the expected number of paths', () => {
    expect(pathsError).toBeNull();
    expect(paths).toHaveLength(waitingModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(waitingModel, paths).transitionPairs).toEqual(waitingModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(waitingModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
    // Counted in the machine file: every on/always/after/onDone/onError entry, each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([34, 44]);
  });

  for (const path of paths) {
    it(formatScenario(waitingModel, path), () => {
      replayPath(waitingModel, path, (snapshot) => {
        const context = snapshot.context as WaitingContext;
        expect(context.statusTone).toBe(statusTone(context.status));
        expect(context).toMatchObject(countdownAt(context.now, context.lastDate, context.duration));
        // The time left is the deadline less the clock, never below zero; the link is one the fake API served.
        expect(context.remainingMs).toBe(Math.max(0, context.lastDate - context.now));
        expect([PAYMENT_LINKS.waiting, PAYMENT_LINKS.waitingRenewed, PAYMENT_LINKS.waitingCrypto, null]).toContain(context.paymentLink);
        if (snapshot.matches('success')) {
          expect(context.order).toMatchObject({ orderid: null, invoiceid: null, serviceid: 301 });
          expect(context.statusTone).toBe('success');
        }
        if (snapshot.matches('fraud')) expect(context.status).toBe('Fraud');
        if (snapshot.matches({ watching: { countdown: 'expired' } })) expect(context.now).toBeGreaterThanOrEqual(context.lastDate);
        if (context.selectedGateway === 'sandbox_crypto') {
          expect(context.lastDate).toBe(context.now + PAYMENT_DEADLINE_MS);
          expect(context.paymentLink).toBe(PAYMENT_LINKS.waitingCrypto);
          expect(context.order.invoiceid).toBe(201);
        }
        if (snapshot.matches('cancelled') && context.order.orderid === null) expect(context.paymentLink).toBeNull();
        if (context.paymentLink === newLinkFor('sandbox_card')) {
          // Pay again / Get a new payment link: the same gateway, a fresh day, an Open link.
          expect(context.selectedGateway).toBe('sandbox_card');
          expect(context.lastDate).toBe(context.now + PAYMENT_DEADLINE_MS);
          expect(context.payment).toBe('Open');
        }
        if (snapshot.matches({ watching: { payment: 'declined' } })) expect(context.payment).toBe('Declined');
        if (snapshot.matches({ watching: { payment: 'confirming' } })) expect(context.payment).toBe('Confirming');
        if (snapshot.matches({ watching: { payment: 'awaiting' } })) expect(['Open', 'Expired', null]).toContain(context.payment);
        // While a payment is being confirmed no other gateway is offered.
        if (context.payment === 'Confirming') expect(snapshot.matches({ watching: { page: 'choosingGateway' } })).toBe(false);
        if (snapshot.matches('latePayment')) expect(context.latePayment).toBe(true);
        if (context.receipt) expect(context.receipt).toEqual(waitingModelReceipt);
        // The receipt's amount is the facts table's for what it lists: 1 Month, an extra connection, WELCOME10, in EUR.
        if (context.receipt) expect(context.receipt.amount).toBe(checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' }).total);
      });
    });
  }
});

const context = (overrides: Partial<WaitingContext> = {}): WaitingContext => ({
  order: { orderid: 1, invoiceid: 2, serviceid: 3, fraud: false },
  paymentLink: 'https://pay.example/1',
  lastDate: 10_000,
  duration: 10_000,
  now: 0,
  remainingMs: 10_000,
  progress: 1,
  gateways: [
    { module: 'card', displayname: 'Card', type: 'CreditCard' },
    { module: 'coin', displayname: 'Coin', type: 'Bitcoin' },
  ],
  selectedGateway: 'card',
  pendingGateway: null,
  status: 'Pending',
  statusTone: 'warning',
  pollDelayMs: ORDER_POLL_INTERVAL_MS,
  error: null,
  payment: 'Open',
  latePayment: false,
  receipt: null,
  ...overrides,
});

describe('waiting machine: guards', () => {
  it('isFraud follows the order fraud flag', () => {
    expect(waitingGuards.isFraud({ context: context() })).toBe(false);
    expect(waitingGuards.isFraud({ context: context({ order: { orderid: 1, invoiceid: 2, serviceid: 3, fraud: true } }) })).toBe(true);
  });
  it('deadlinePassed is true from the deadline on', () => {
    expect(waitingGuards.deadlinePassed({ context: context({ now: 9_999 }) })).toBe(false);
    expect(waitingGuards.deadlinePassed({ context: context({ now: 10_000 }) })).toBe(true);
    expect(waitingGuards.deadlinePassed({ context: context({ now: 20_000 }) })).toBe(true);
  });
  it('orderActive only for Active', () => {
    expect(waitingGuards.orderActive(undefined, { status: 'Active' })).toBe(true);
    expect(waitingGuards.orderActive(undefined, { status: 'Pending' })).toBe(false);
  });
  it('orderFraud for a Fraud status or a fraud flag', () => {
    expect(waitingGuards.orderFraud(undefined, { status: 'Fraud', fraud: false })).toBe(true);
    expect(waitingGuards.orderFraud(undefined, { status: 'Pending', fraud: true })).toBe(true);
    expect(waitingGuards.orderFraud(undefined, { status: 'Pending', fraud: false })).toBe(false);
  });
  it('orderCancelled only for Cancelled', () => {
    expect(waitingGuards.orderCancelled(undefined, { status: 'Cancelled' })).toBe(true);
    expect(waitingGuards.orderCancelled(undefined, { status: 'Active' })).toBe(false);
  });
  it('paymentExpiredEarly: an Expired answer while our countdown still runs', () => {
    expect(waitingGuards.paymentExpiredEarly({ context: context({ now: 0, lastDate: 10_000 }) }, { payment: 'Expired' })).toBe(true);
    expect(waitingGuards.paymentExpiredEarly({ context: context({ now: 10_000, lastDate: 10_000 }) }, { payment: 'Expired' })).toBe(false);
    expect(waitingGuards.paymentExpiredEarly({ context: context({ now: 0, lastDate: 10_000 }) }, { payment: 'Open' })).toBe(false);
  });

  it('paidAfterClose: the paid_after_close code, as an ApiFailure or an API error body carries it', () => {
    expect(waitingGuards.paidAfterClose(undefined, { error: { status: 409, code: 'paid_after_close', message: 'x' } })).toBe(true);
    expect(waitingGuards.paidAfterClose(undefined, { error: { error: { code: 'paid_after_close', message: 'x' } } })).toBe(true);
    expect(waitingGuards.paidAfterClose(undefined, { error: { error: { code: 'invoice_paid', message: 'x' } } })).toBe(false);
    expect(waitingGuards.paidAfterClose(undefined, { error: new Error('down') })).toBe(false);
  });

  it('hasLatePayment follows the late-payment flag of the answer', () => {
    expect(waitingGuards.hasLatePayment(undefined, { latePayment: true })).toBe(true);
    expect(waitingGuards.hasLatePayment(undefined, { latePayment: false })).toBe(false);
  });
  it('the payment region follows the latest payment: Declined, Confirming, else awaited', () => {
    for (const [payment, declined, confirming, awaited] of [
      ['Declined', true, false, false], ['Confirming', false, true, false], ['Open', false, false, true], ['Expired', false, false, true], [null, false, false, true],
    ] as const) {
      expect([payment, waitingGuards.paymentDeclined({ context: context({ payment }) }), waitingGuards.paymentConfirming({ context: context({ payment }) }), waitingGuards.paymentAwaited({ context: context({ payment }) })])
        .toEqual([payment, declined, confirming, awaited]);
    }
  });
  it('mayRenewLink: a declined link or one past its deadline, never while a payment is being confirmed', () => {
    expect(waitingGuards.mayRenewLink({ context: context({ payment: 'Open', now: 9_999 }) })).toBe(false);
    expect(waitingGuards.mayRenewLink({ context: context({ payment: 'Open', now: 10_000 }) })).toBe(true);
    expect(waitingGuards.mayRenewLink({ context: context({ payment: 'Declined', now: 0 }) })).toBe(true);
    expect(waitingGuards.mayRenewLink({ context: context({ payment: 'Confirming', now: 20_000 }) })).toBe(false);
  });
  it('mayChangeGateway needs another gateway and no payment being confirmed', () => {
    expect(waitingGuards.mayChangeGateway({ context: context() })).toBe(true);
    expect(waitingGuards.mayChangeGateway({ context: context({ payment: 'Confirming' }) })).toBe(false);
    expect(waitingGuards.mayChangeGateway({ context: context({ gateways: [{ module: 'card', displayname: 'Card', type: 'CreditCard' }] }) })).toBe(false);
  });
  it('renewingSameGateway when the link being made is for the current gateway', () => {
    expect(waitingGuards.renewingSameGateway({ context: context({ pendingGateway: 'card' }) })).toBe(true);
    expect(waitingGuards.renewingSameGateway({ context: context({ pendingGateway: 'coin' }) })).toBe(false);
  });
  it('isOtherGateway needs a listed gateway other than the current one', () => {
    expect(waitingGuards.isOtherGateway({ context: context() }, { gateway: 'coin' })).toBe(true);
    expect(waitingGuards.isOtherGateway({ context: context() }, { gateway: 'card' })).toBe(false);
    expect(waitingGuards.isOtherGateway({ context: context() }, { gateway: 'unknown' })).toBe(false);
  });
});

describe('waiting machine: countdown and back-off rules', () => {
  it('gives the time left and the progress fraction', () => {
    expect(countdownAt(0, 10_000, 20_000)).toEqual({ remainingMs: 10_000, progress: 0.5 });
    expect(countdownAt(30_000, 10_000, 20_000)).toEqual({ remainingMs: 0, progress: 0 });
    expect(countdownAt(0, 10_000, 0)).toEqual({ remainingMs: 10_000, progress: 0 });
  });
  it('doubles the poll delay up to the maximum', () => {
    expect(backedOffDelay(ORDER_POLL_INTERVAL_MS)).toBe(2 * ORDER_POLL_INTERVAL_MS);
    expect(backedOffDelay(ORDER_POLL_MAX_BACKOFF_MS)).toBe(ORDER_POLL_MAX_BACKOFF_MS);
    expect(backedOffDelay(40_000)).toBe(ORDER_POLL_MAX_BACKOFF_MS);
  });
});

describe('waiting machine: resuming from the persisted state', () => {
  const start = (overrides: Partial<WaitingInput>) => {
    const actor = createActor(waitingModel.machine, { input: { ...waitingModelInput, ...overrides } });
    actor.start();
    const snapshot = actor.getSnapshot();
    actor.stop();
    return snapshot;
  };
  it('starts counting and reads the status at once while the deadline is ahead', () => {
    expect(start({}).value).toEqual({ watching: { countdown: 'counting', status: 'fetching', payment: 'awaiting', page: 'info' } });
  });
  it('goes straight to expired when the deadline passed during the reload', () => {
    const snapshot = start({ now: waitingModelInput.lastDate + 1 });
    expect(snapshot.matches({ watching: { countdown: 'expired' } })).toBe(true);
    expect(snapshot.context.remainingMs).toBe(0);
  });
  it('a fraud-flagged order is under review at once: status Fraud, never Pending', () => {
    const snapshot = start({ order: { ...waitingModelInput.order, fraud: true } });
    expect(snapshot.value).toBe('fraud');
    expect(snapshot.context.status).toBe('Fraud');
  });
});

describe('waiting machine: with timers and the app actors', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the status at once, then every 5 s, backs off after errors and resets after an answer', async () => {
    vi.useFakeTimers();
    const progress = { payment: 'Open' as const, latePayment: false, receipt: waitingModelReceipt };
    const answers: Array<OrderStatusResult | Error> = [new Error('down'), new Error('down'), { orderid: 101, status: 'Pending', fraud: false, serviceids: [301], ...progress }];
    const polledAt: number[] = [];
    const machine = waitingMachine.provide({
      actors: {
        fetchOrderStatus: fromPromise(async () => {
          polledAt.push(Date.now());
          const answer = answers.shift() ?? { orderid: 101, status: 'Active', fraud: false, serviceids: [301], ...progress, payment: 'Paid' as const };
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      },
    });
    const now = Date.now();
    const actor = createActor(machine, { input: { ...waitingModelInput, now, lastDate: now + PAYMENT_DEADLINE_MS, duration: PAYMENT_DEADLINE_MS } });
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.pollDelayMs).toBe(10_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actor.getSnapshot().context.pollDelayMs).toBe(20_000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(actor.getSnapshot().context.pollDelayMs).toBe(ORDER_POLL_INTERVAL_MS);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(polledAt.map((at) => at - now)).toEqual([0, 10_000, 30_000, 35_000]);
    expect(actor.getSnapshot().value).toBe('success');
    expect(actor.getSnapshot().context.remainingMs).toBe(PAYMENT_DEADLINE_MS - 34_000);
    actor.stop();
  });

  it('expires when the clock reaches the deadline', async () => {
    vi.useFakeTimers();
    const now = Date.now();
    const actor = createActor(waitingMachine.provide({ actors: { fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(() => new Promise(() => {})) } }), {
      input: { ...waitingModelInput, now, lastDate: now + 3_000, duration: 3_000 },
    });
    actor.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(actor.getSnapshot().context).toMatchObject({ remainingMs: 0, progress: 0 });
    expect(actor.getSnapshot().matches({ watching: { countdown: 'counting' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().matches({ watching: { countdown: 'expired' } })).toBe(true);
    actor.stop();
  });

  it('Pay again after a decline asks a new link for the same invoice on the same gateway, then opens it', async () => {
    const asked: unknown[] = [];
    const opened: string[] = [];
    const machine = waitingMachine.provide({
      actors: {
        // Declined until the new link exists; the re-read after it finds the new link Open.
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(async () => ({ orderid: 101, status: 'Pending', fraud: false, serviceids: [301], payment: asked.length ? ('Open' as const) : ('Declined' as const), latePayment: false, receipt: waitingModelReceipt })),
        createPaymentLink: fromPromise(async ({ input }) => {
          asked.push(input);
          return { link: 'https://pay.example/again' };
        }),
      },
      actions: { openPaymentLink: (_, params) => opened.push(params.link) },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() + 60_000 } });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ watching: { payment: 'declined' } })).toBe(true));
    actor.send({ type: 'payment.renew' });
    await vi.waitFor(() => expect(opened).toEqual(['https://pay.example/again']));
    expect(asked).toEqual([{ invoiceid: 201, gateway: { module: 'sandbox_card', type: 'CreditCard' } }]);
    expect(actor.getSnapshot().context).toMatchObject({ selectedGateway: 'sandbox_card', paymentLink: 'https://pay.example/again', payment: 'Open' });
    actor.stop();
  });

  it('a new link granted while the status already says Confirming keeps the payment Confirming: no cancel, no further link', async () => {
    let grantLink: (answer: CreatePaymentLinkOutput) => void = () => {};
    let statusReads = 0;
    const machine = waitingMachine.provide({
      actors: {
        // The old link's money arrives while the new link is being made; later reads are still on their way.
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(() => (statusReads++ === 0
          ? Promise.resolve({ orderid: 101, status: 'Pending', fraud: false, serviceids: [301], payment: 'Confirming' as const, latePayment: false, receipt: waitingModelReceipt })
          : new Promise(() => {}))),
        createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(() => new Promise((resolve) => { grantLink = resolve; })),
      },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() - 1_000 } });
    actor.start();
    actor.send({ type: 'payment.renew' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.payment).toBe('Confirming'));
    grantLink({ link: 'https://pay.example/again' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.paymentLink).toBe('https://pay.example/again'));
    expect(actor.getSnapshot().context.payment).toBe('Confirming');
    expect(actor.getSnapshot().can({ type: 'order.cancel' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'payment.renew' })).toBe(false);
    actor.stop();
  });

  it('cancel asks once: asking cancels nothing, "keep" goes back, only the confirmation calls cancelOrder', async () => {
    const cancelled: unknown[] = [];
    let wentHome = 0;
    const machine = waitingMachine.provide({
      actors: {
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(() => new Promise(() => {})),
        cancelOrder: fromPromise(async ({ input }) => {
          cancelled.push(input);
          return { orderid: 101, status: 'Cancelled' as const };
        }),
      },
      actions: { goHome: () => void wentHome++ },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() + 60_000 } });
    actor.start();
    actor.send({ type: 'order.cancel' });
    expect(actor.getSnapshot().matches({ watching: { page: 'confirmingCancel' } })).toBe(true);
    actor.send({ type: 'cancel.keep' });
    expect(actor.getSnapshot().matches({ watching: { page: 'info' } })).toBe(true);
    await Promise.resolve();
    expect(cancelled).toEqual([]);
    actor.send({ type: 'order.cancel' });
    actor.send({ type: 'cancel.confirm' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('cancelled'));
    expect(cancelled).toEqual([{ orderid: 101 }]);
    expect(wentHome).toBe(1);
    actor.stop();
  });

  it('paid: goes to the success page with the service and the invoice whose receipt it shows, then clears the ids', async () => {
    const went: unknown[] = [];
    const machine = waitingMachine.provide({
      actors: {
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(async () => ({ orderid: 101, status: 'Active', fraud: false, serviceids: [301], payment: 'Paid', latePayment: false, receipt: waitingModelReceipt })),
      },
      actions: { goToSuccess: (_, params) => void went.push(params) },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() + 60_000 } });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('success'));
    expect(went).toEqual([{ serviceid: 301, invoiceid: 201 }]);
    expect(actor.getSnapshot().context.order).toEqual({ orderid: null, invoiceid: null, serviceid: 301, fraud: false });
    actor.stop();
  });

  it('the provider expired the link before our deadline (status Expired): the deadline becomes now and a new link may be asked for, on the renew-link path', async () => {
    const opened: string[] = [];
    let expired = true;
    const machine = waitingMachine.provide({
      actors: {
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(async () => ({
          orderid: 101, status: 'Pending', fraud: false, serviceids: [301], payment: expired ? ('Expired' as const) : ('Open' as const), latePayment: false, receipt: waitingModelReceipt,
        })),
        createPaymentLink: fromPromise(async () => {
          expired = false;
          return { link: 'https://pay.example/renewed' };
        }),
      },
      actions: { openPaymentLink: (_, params) => opened.push(params.link) },
    });
    const now = Date.now();
    const actor = createActor(machine, { input: { ...waitingModelInput, now, lastDate: now + 60_000, duration: 120_000 } });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().context.payment).toBe('Expired'));
    expect(actor.getSnapshot().context).toMatchObject({ lastDate: now, remainingMs: 0, progress: 0 });
    expect(actor.getSnapshot().can({ type: 'payment.renew' })).toBe(true);
    actor.send({ type: 'payment.renew' });
    await vi.waitFor(() => expect(opened).toEqual(['https://pay.example/renewed']));
    expect(actor.getSnapshot().context).toMatchObject({ payment: 'Open', duration: PAYMENT_DEADLINE_MS });
    actor.stop();
  });

  it.each([
    ['renew on the same gateway', [{ type: 'payment.renew' }]],
    ['change of gateway', [{ type: 'gateway.change' }, { type: 'gateway.select', gateway: 'sandbox_crypto' }]],
  ] as const)('a new link refused with 409 paid_after_close (%s) ends on the late-payment state: no link opened, no error shown', async (_name, events) => {
    const opened: string[] = [];
    const machine = waitingMachine.provide({
      actors: {
        fetchOrderStatus: fromPromise<OrderStatusResult, FetchOrderStatusInput>(() => new Promise(() => {})),
        createPaymentLink: fromPromise<CreatePaymentLinkOutput, CreatePaymentLinkInput>(() => Promise.reject(Object.assign(new Error('A payment arrived after it closed.'), { status: 409, code: 'paid_after_close' }))),
      },
      actions: { openPaymentLink: (_, params) => opened.push(params.link) },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() - 1_000 } });
    actor.start();
    for (const event of events) actor.send(event);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('latePayment'));
    expect(actor.getSnapshot().context).toMatchObject({ latePayment: true, error: null, paymentLink: waitingModelInput.paymentLink });
    expect(opened).toEqual([]);
    actor.stop();
  });

  it('asks a new link for the same invoice and the new gateway, then opens it', async () => {
    const asked: unknown[] = [];
    const opened: string[] = [];
    const machine = waitingMachine.provide({
      actors: {
        createPaymentLink: fromPromise(async ({ input }) => {
          asked.push(input);
          return { link: 'https://pay.example/new' };
        }),
      },
      actions: { openPaymentLink: (_, params) => opened.push(params.link) },
    });
    const actor = createActor(machine, { input: { ...waitingModelInput, now: Date.now(), lastDate: Date.now() + 60_000 } });
    actor.start();
    actor.send({ type: 'gateway.change' });
    actor.send({ type: 'gateway.select', gateway: 'sandbox_crypto' });
    await vi.waitFor(() => expect(opened).toEqual(['https://pay.example/new']));
    expect(asked).toEqual([{ invoiceid: 201, gateway: { module: 'sandbox_crypto', type: 'Bitcoin' } }]);
    const { context: after } = actor.getSnapshot();
    expect(after.selectedGateway).toBe('sandbox_crypto');
    expect(after.duration).toBe(PAYMENT_DEADLINE_MS);
    expect(after.lastDate - after.now).toBe(PAYMENT_DEADLINE_MS);
    actor.stop();
  });
});
