import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import {
  PLACE_ORDER_MODEL_NOW,
  placeOrderModel,
  placeOrderModelClient,
  placeOrderModelFlaggedOrder,
  placeOrderModelGuest,
  placeOrderModelOrder,
  placeOrderModelRequest,
  priceChangedError,
} from '../scripts/statecharts/models/place-order.model';
import {
  isPriceChangeError,
  placeOrderGuards,
  placeOrderMachine,
  type CreatedOrder,
  type CreateOrderRequest,
  type IdentifiedGuest,
  type PlaceOrderContext,
  type PlaceOrderInput,
} from './place-order.machine';

const { paths, error: pathsError } = generatePathsForTest(placeOrderModel);

/** What must hold in every snapshot of every path. */
function assertPlaceOrderInvariants(snapshot: AnyMachineSnapshot): void {
  const context = snapshot.context as PlaceOrderContext;
  // The box shows a price only while the server's total waits for an answer.
  expect(context.priceChange !== null).toBe(snapshot.matches('priceChanged'));
  if (snapshot.matches('creatingOrder')) expect(context.user).not.toBeNull();
  if (snapshot.matches('toPayment')) {
    // One day from the model's clock (15 January 2026, noon UTC).
    expect(context.payment).toEqual({ gateway: 'sandbox', link: 'https://pay.example/601', deadline: '2026-01-16T12:00:00.000Z' });
    expect(snapshot.output).toMatchObject({ outcome: 'payment', order: { orderid: 501, invoiceid: 601, serviceid: 701, fraud: false } });
  }
  if (snapshot.matches('toWaiting')) expect(snapshot.output).toMatchObject({ outcome: 'waiting', payment: null, order: { orderid: 502, fraud: true } });
  if (snapshot.matches('cancelled')) expect(snapshot.output).toEqual({ outcome: 'cancelled', user: context.user });
  if (snapshot.matches('failed')) expect(snapshot.output).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^(Bad gateway|request\.failed)$/) });
}

describe('placeOrder machine: generated paths', () => {
  it('generates the expected number of paths (a changed statechart changes this)', () => {
    expect(pathsError).toBeNull();
    expect(paths.length).toBe(placeOrderModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(placeOrderModel, paths).transitionPairs).toEqual(placeOrderModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(placeOrderModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
  });

  it.each(paths.map((path) => [formatScenario(placeOrderModel, path), path] as const))('%s', (_scenario, path) => {
    replayPath(placeOrderModel, path, (snapshot, step) => {
      expect(snapshot.value).toEqual(step.state.value);
      expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(step.state.context);
      assertPlaceOrderInvariants(snapshot);
    });
  });
});

interface Fakes {
  guest?: IdentifiedGuest | Error;
  /** createOrder's answers in turn (an Error rejects). */
  answers?: (CreatedOrder | Error)[];
}

/** A running placeOrder with fake actors answering at once. */
function startPlaceOrder(input: Partial<PlaceOrderInput>, fakes: Fakes = {}) {
  const answers = [...(fakes.answers ?? [placeOrderModelOrder])];
  const identifyGuest = vi.fn(async ({ input: request }: { input: { email: string } }) => {
    const guest = fakes.guest ?? { ...placeOrderModelGuest, email: request.email };
    if (guest instanceof Error) throw guest;
    return guest;
  });
  const createOrder = vi.fn(async ({ input: request }: { input: CreateOrderRequest }) => {
    void request;
    const answer = answers.shift() ?? placeOrderModelOrder;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  let keys = 0;
  const machine = placeOrderMachine.provide({
    actors: { identifyGuest: fromPromise(identifyGuest), createOrder: fromPromise(createOrder) },
    actions: { newIdempotencyKey: assign({ idempotencyKey: () => `key-${++keys}` }) },
  });
  const actor = createActor(machine, {
    input: { request: placeOrderModelRequest, user: null, email: 'ann@example.com', now: () => PLACE_ORDER_MODEL_NOW, ...input },
  }).start();
  const requests = () => createOrder.mock.calls.map(([call]) => call.input);
  return { actor, identifyGuest, requests };
}

const finished = (actor: ReturnType<typeof startPlaceOrder>['actor']) => waitFor(actor, (snapshot) => snapshot.status === 'done');

describe('placeOrder machine: placing an order', () => {
  it('identifies a guest by the trimmed e-mail, then creates the order for that guest with a key', async () => {
    const { actor, identifyGuest, requests } = startPlaceOrder({ email: '  ann@example.com ' });
    await finished(actor);
    expect(identifyGuest.mock.calls[0]![0].input).toEqual({ email: 'ann@example.com' });
    expect(requests()).toEqual([
      { pid: 1, paymentmethod: 'sandbox', amount: 16.99, currency: 'EUR', configoptions: { '2': 1, '4': 0 }, remind: true, email: 'ann@example.com', userid: 'g_Model0Guest0Handle0001', idempotencyKey: 'key-1' },
    ]);
    expect(actor.getSnapshot().output).toEqual({
      outcome: 'payment',
      user: { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' },
      order: { orderid: 501, invoiceid: 601, serviceid: 701, fraud: false },
      payment: { gateway: 'sandbox', link: 'https://pay.example/601', deadline: '2026-01-16T12:00:00.000Z' },
      total: 16.99,
    });
  });

  it('does not identify a signed-in client again', async () => {
    const { actor, identifyGuest, requests } = startPlaceOrder({ user: placeOrderModelClient, email: '' });
    await finished(actor);
    expect(identifyGuest).not.toHaveBeenCalled();
    expect(requests()[0]).toMatchObject({ userid: 42, email: 'client@example.com' });
  });

  it('hands a flagged order without a link over to the waiting step', async () => {
    const { actor } = startPlaceOrder({}, { answers: [placeOrderModelFlaggedOrder] });
    await finished(actor);
    expect(actor.getSnapshot().value).toBe('toWaiting');
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'waiting', payment: null, order: { orderid: 502, invoiceid: 602, serviceid: 702, fraud: true } });
  });

  it.each([
    ['the identification fails', { guest: new Error('api.rate_limited') }, 'api.rate_limited'],
    ['no user id comes back', { guest: { userid: 0, email: '' } }, 'request.failed'],
    ['the order is refused', { answers: [new Error('api.unknown_gateway')] }, 'api.unknown_gateway'],
  ] as const)("ends with the server's message when %s", async (_name, fakes, error) => {
    const { actor } = startPlaceOrder({}, fakes as Fakes);
    await finished(actor);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'failed', error });
  });
});

describe('placeOrder machine: the price changed (409)', () => {
  it("shows the server's total, and a confirm orders again with that amount under a new key", async () => {
    const { actor, requests } = startPlaceOrder({}, { answers: [priceChangedError(), placeOrderModelOrder] });
    await waitFor(actor, (snapshot) => snapshot.matches('priceChanged'));
    expect(actor.getSnapshot().context.priceChange).toEqual({ previous: 16.99, amount: 14.5, currency: 'EUR' });
    actor.send({ type: 'price.confirm' });
    await finished(actor);
    expect(requests().map(({ amount, currency, idempotencyKey }) => ({ amount, currency, idempotencyKey }))).toEqual([
      { amount: 16.99, currency: 'EUR', idempotencyKey: 'key-1' },
      { amount: 14.5, currency: 'EUR', idempotencyKey: 'key-2' },
    ]);
    // The checkout shows the total that was sent, the server's.
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'payment', total: 14.5 });
  });

  it('a cancel ends without an order, so the checkout shows the form', async () => {
    const { actor, requests } = startPlaceOrder({}, { answers: [priceChangedError()] });
    await waitFor(actor, (snapshot) => snapshot.matches('priceChanged'));
    actor.send({ type: 'price.cancel' });
    await finished(actor);
    expect(requests()).toHaveLength(1);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'cancelled', user: { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' } });
  });

  it('answers a second price change with a second box', async () => {
    const secondChange = Object.assign(new Error('api.price_changed'), { serverPrice: { amount: 15, currency: 'EUR' } });
    const { actor } = startPlaceOrder({}, { answers: [priceChangedError(), secondChange] });
    await waitFor(actor, (snapshot) => snapshot.matches('priceChanged'));
    actor.send({ type: 'price.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('priceChanged') && snapshot.context.priceChange?.amount === 15);
    expect(actor.getSnapshot().context.priceChange).toEqual({ previous: 14.5, amount: 15, currency: 'EUR' });
  });

  it("a confirm orders again in the server's currency as well as its amount (409 price_changed carries both)", async () => {
    const inPounds = Object.assign(new Error('api.price_changed'), { serverPrice: { amount: 10.99, currency: 'GBP' } });
    const { actor, requests } = startPlaceOrder({}, { answers: [inPounds, placeOrderModelOrder] });
    await waitFor(actor, (snapshot) => snapshot.matches('priceChanged'));
    expect(actor.getSnapshot().context.priceChange).toEqual({ previous: 16.99, amount: 10.99, currency: 'GBP' });
    actor.send({ type: 'price.confirm' });
    await finished(actor);
    expect(requests().map(({ amount, currency }) => ({ amount, currency }))).toEqual([
      { amount: 16.99, currency: 'EUR' },
      { amount: 10.99, currency: 'GBP' },
    ]);
  });

  it('ignores confirm and cancel while the order is being created', async () => {
    let answer: (order: CreatedOrder) => void = () => {};
    const machine = placeOrderMachine.provide({
      actors: { identifyGuest: fromPromise(async () => placeOrderModelGuest), createOrder: fromPromise(() => new Promise<CreatedOrder>((resolve) => (answer = resolve))) },
      actions: { newIdempotencyKey: assign({ idempotencyKey: 'key' }) },
    });
    const actor = createActor(machine, { input: { request: placeOrderModelRequest, user: placeOrderModelClient, email: '', now: () => PLACE_ORDER_MODEL_NOW } }).start();
    actor.send({ type: 'price.cancel' });
    actor.send({ type: 'price.confirm' });
    expect(actor.getSnapshot().value).toBe('creatingOrder');
    answer(placeOrderModelOrder);
    await finished(actor);
    expect(actor.getSnapshot().value).toBe('toPayment');
  });

  it('creates no order without a provided key maker: the machine draws no key itself', () => {
    const createOrder = vi.fn(async () => placeOrderModelOrder);
    const machine = placeOrderMachine.provide({ actors: { identifyGuest: fromPromise(async () => placeOrderModelGuest), createOrder: fromPromise(createOrder) } });
    const actor = createActor(machine, { input: { request: placeOrderModelRequest, user: placeOrderModelClient, email: '', now: () => PLACE_ORDER_MODEL_NOW } });
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(actor.getSnapshot().status).toBe('error');
    expect(errors).toEqual([new Error('newIdempotencyKey not provided')]);
    expect(createOrder).not.toHaveBeenCalled();
  });
});

describe('placeOrder guards', () => {
  const context = createActor(placeOrderMachine, { input: { request: placeOrderModelRequest, user: null, email: '', now: () => 0 } }).getSnapshot().context;
  const args = { context, event: { type: 'price.confirm' } };

  it('isKnownUser', () => {
    expect(placeOrderGuards.isKnownUser(args)).toBe(false);
    expect(placeOrderGuards.isKnownUser({ ...args, context: { ...context, user: placeOrderModelClient } })).toBe(true);
  });

  it("hasUserId takes a guest's handle or a positive client id only", () => {
    expect(placeOrderGuards.hasUserId(args, { user: placeOrderModelGuest })).toBe(true);
    expect(placeOrderGuards.hasUserId(args, { user: { userid: 42, email: 'a@b.co' } })).toBe(true);
    expect(placeOrderGuards.hasUserId(args, { user: { userid: 0, email: '' } })).toBe(false);
    expect(placeOrderGuards.hasUserId(args, { user: { userid: 'guest', email: '' } })).toBe(false);
  });

  it('hasPaymentLink', () => {
    expect(placeOrderGuards.hasPaymentLink(args, { link: 'https://pay.example/1' })).toBe(true);
    expect(placeOrderGuards.hasPaymentLink(args, { link: '' })).toBe(false);
    expect(placeOrderGuards.hasPaymentLink(args, { link: null })).toBe(false);
  });

  it('isPriceChange needs the server amount and currency on the error', () => {
    expect(placeOrderGuards.isPriceChange(args, { error: priceChangedError() })).toBe(true);
    expect(isPriceChangeError(Object.assign(new Error('api.price_changed'), { serverPrice: undefined }))).toBe(false);
    expect(isPriceChangeError(Object.assign(new Error('x'), { serverPrice: { amount: '14.5', currency: 'EUR' } }))).toBe(false);
    expect(isPriceChangeError(new Error('api.price_changed'))).toBe(false);
    // A total below zero or not a number is not one the shopper can be asked to confirm: the order fails with its message.
    expect(isPriceChangeError(Object.assign(new Error('x'), { serverPrice: { amount: -987.01, currency: 'EUR' } }))).toBe(false);
    expect(isPriceChangeError(Object.assign(new Error('x'), { serverPrice: { amount: Number.NaN, currency: 'EUR' } }))).toBe(false);
    expect(isPriceChangeError(Object.assign(new Error('x'), { serverPrice: { amount: 0, currency: 'EUR' } }))).toBe(true);
    expect(isPriceChangeError(null)).toBe(false);
  });
});
