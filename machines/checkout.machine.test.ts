import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor, type ActorRefFrom, type AnyMachineSnapshot } from 'xstate';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { entryQuery, type EntryQuery } from '../src/domain/entry-query';
import type { PromotionLookup } from '../src/domain/promotion';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { seededPromotionLookup } from '../tests/facts/catalogue';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { checkoutFact } from '../tests/facts/prices';
import {
  CHECKOUT_MODEL_NOW,
  checkoutModel,
  modelGateways,
  modelGuest,
  modelProducts,
  modelPlaced,
  modelPlacedFlagged,
  modelPromotionLookup,
} from '../scripts/statecharts/models/checkout.model';
import { placeOrderModelFlaggedOrder as modelFraudOrder, placeOrderModelOrder as modelOrder, priceChangedError } from '../scripts/statecharts/models/place-order.model';
import type { CreatedOrder, CreateOrderRequest as OrderRequest } from './place-order.machine';
import { checkoutGuards } from './checkout.guards';
import { quoteFor } from './checkout.order';
import {
  checkoutMachine,
  type CheckoutContext,
  type CheckoutEvent,
  type CheckoutInput,
  type CheckoutGateway,
  type CheckoutProduct,
  type CheckoutUser,
  type SavedOrderStatus,
} from './checkout.machine';
import { placeOrderMachine } from './place-order.machine';

const { paths, error: pathsError } = generatePathsForTest(checkoutModel);

/** What must hold in every snapshot of every path. */
function assertCheckoutInvariants(snapshot: AnyMachineSnapshot): void {
  const context = snapshot.context as CheckoutContext;
  expect(context.products.length).toBeLessThanOrEqual(3);
  if (snapshot.matches('ready')) {
    expect(context.quote).toEqual(quoteFor(context));
    // The quote is the facts table's row for the choices, not only what the machine computes twice.
    const fact = checkoutFact({
      pid: context.selectedPid!,
      extraConnection: context.extraConnection,
      proxyProtection: context.proxyProtection,
      promo: context.promotion?.code ?? null,
      currency: context.currency,
    });
    expect(context.quote).toEqual({ currency: context.currency, ...fact });
    expect(snapshot.matches({ ready: { email: 'valid' } })).toBe(context.emailValid);
    // 'Please enter a Valid Email.' for an e-mail of the wrong shape, and for none at a submit.
    expect(snapshot.matches({ ready: { email: 'invalid' } }) || snapshot.matches({ ready: { email: 'required' } })).toBe(context.emailError === 'email.invalid');
    expect(snapshot.matches({ ready: { unpaidOrder: 'none' } })).toBe(context.unpaidOrder === null);
    expect(snapshot.matches({ ready: { promo: 'applied' } })).toBe(context.promotion !== null);
    expect(snapshot.matches({ ready: { promo: 'rejected' } })).toBe(context.promoError !== null);
    expect(snapshot.matches({ ready: { addons: { extraConnection: 'on' } } })).toBe(context.extraConnection);
    expect(snapshot.matches({ ready: { addons: { proxyProtection: 'on' } } })).toBe(context.proxyProtection);
  }
  if (snapshot.matches('redirecting')) {
    expect(context.payment).toEqual({ gateway: 'sandbox', link: PAYMENT_LINKS.checkout, deadline: new Date(CHECKOUT_MODEL_NOW + PAYMENT_DEADLINE_MS).toISOString() });
    expect(context.order).toEqual({ orderid: modelOrder.orderid, invoiceid: modelOrder.invoiceid, serviceid: 701, fraud: false });
  }
  if (snapshot.matches('waiting')) {
    expect(context.payment).toBeNull();
    expect(context.order?.fraud).toBe(true);
  }
}

describe('checkout machine: generated paths', () => {
  it('generates the expected number of paths (a changed statechart changes this)', () => {
    expect(pathsError).toBeNull();
    expect(paths.length).toBe(checkoutModel.expectedPaths);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(checkoutModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
  });

  it.each(paths.map((path) => [formatScenario(checkoutModel, path), path] as const))('%s', (_scenario, path) => {
    replayPath(checkoutModel, path, (snapshot, step) => {
      expect(snapshot.value).toEqual(step.state.value);
      expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(step.state.context);
      assertCheckoutInvariants(snapshot);
    });
  });
});

interface Fakes {
  products?: CheckoutProduct[] | Error;
  gateways?: { gateways: CheckoutGateway[]; defaultGateway: string };
  country?: string;
  lookup?: PromotionLookup | Error;
  guest?: CheckoutUser | Error;
  product?: CheckoutProduct | null | Error;
  createOrder?: (request: OrderRequest) => Promise<CreatedOrder>;
  savedOrderStatus?: SavedOrderStatus | Error;
  cancel?: Error;
}

const settle = <T,>(value: T | Error) => (value instanceof Error ? Promise.reject(value) : Promise.resolve(value));

/** A running checkout with fake actors answering at once and spies on the effects. */
function startCheckout(input: CheckoutInput, fakes: Fakes = {}) {
  const createOrder = vi.fn(fakes.createOrder ?? (async () => modelOrder));
  const redirectToPayment = vi.fn();
  const goToWaiting = vi.fn();
  const clearClientProduct = vi.fn();
  const forgetSavedOrder = vi.fn();
  const resumeUnpaidOrder = vi.fn();
  const checkSavedOrder = vi.fn(() => settle(fakes.savedOrderStatus ?? new Error('not asked')));
  const cancelUnpaidOrder = vi.fn(({ input: request }: { input: { orderid: number } }) => settle(fakes.cancel ?? { orderid: request.orderid, status: 'Cancelled' }));
  const identifyGuest = vi.fn(({ input: request }: { input: { email: string } }) => settle(fakes.guest ?? { ...modelGuest, email: request.email }));
  let keys = 0;
  const placeOrder = placeOrderMachine.provide({
    actors: { identifyGuest: fromPromise(identifyGuest), createOrder: fromPromise(({ input: request }: { input: OrderRequest }) => createOrder(request)) },
    actions: { newIdempotencyKey: assign({ idempotencyKey: () => `key-${++keys}` }) },
  });
  const machine = checkoutMachine.provide({
    actors: {
      placeOrder,
      loadProducts: fromPromise(() => settle(fakes.products ?? modelProducts)),
      loadGateways: fromPromise(async () => fakes.gateways ?? ({ gateways: modelGateways, defaultGateway: 'sandbox' })),
      loadCurrency: fromPromise(async () => ({ country: fakes.country ?? 'NL' })),
      checkFraud: fromPromise(async (): Promise<{ valid: boolean }> => ({ valid: true })),
      lookupPromotion: fromPromise(() => settle(fakes.lookup ?? modelPromotionLookup)),
      loadProduct: fromPromise(() => settle(fakes.product === undefined ? modelProducts[1]! : fakes.product)),
      checkSavedOrder: fromPromise(checkSavedOrder),
      cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(cancelUnpaidOrder),
    },
    actions: {
      redirectToPayment: (_args, params) => redirectToPayment(params),
      goToWaiting: (_args, params) => goToWaiting(params),
      clearClientProduct: () => clearClientProduct(),
      forgetSavedOrder: (_args, params) => forgetSavedOrder(params),
      resumeUnpaidOrder: (_args, params) => resumeUnpaidOrder(params),
    },
  });
  const actor = createActor(machine, { input: { now: () => CHECKOUT_MODEL_NOW, ...input } }).start();
  return { actor, createOrder, identifyGuest, redirectToPayment, goToWaiting, clearClientProduct, checkSavedOrder, cancelUnpaidOrder, forgetSavedOrder, resumeUnpaidOrder };
}

const settled = (actor: ReturnType<typeof startCheckout>['actor']) =>
  waitFor(actor, (snapshot) => !snapshot.matches('loading') && !snapshot.hasTag('busy') && !isBusy(snapshot));

/** Waits until the checkout's placeOrder child is in the state. */
const placeOrderIn = (actor: ReturnType<typeof startCheckout>['actor'], state: string) =>
  vi.waitFor(() => expect((actor.getSnapshot().children.placeOrder as ActorRefFrom<typeof placeOrderMachine> | undefined)?.getSnapshot().value).toBe(state));

function isBusy(snapshot: AnyMachineSnapshot): boolean {
  return (
    snapshot.matches('autoOrder') ||
    snapshot.matches('submitting') ||
    snapshot.matches('checkingSavedOrder') ||
    snapshot.matches({ ready: { promo: 'checking' } }) ||
    snapshot.matches({ ready: { unpaidOrder: 'cancelling' } })
  );
}

describe('checkout machine: gateways and the currency', () => {
  const gateways = {
    gateways: [
      { module: 'hostedlink', displayname: 'Card', type: 'CreditCard' as const, currencies: ['EUR'] },
      { module: 'coinbase', displayname: 'Crypto (Coinbase)', type: 'Cryptocurrency' as const, currencies: ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] },
    ],
    defaultGateway: 'hostedlink',
  };

  it('a visitor paying in EUR gets the default gateway', async () => {
    const { actor } = startCheckout({}, { gateways, country: 'NL' });
    await settled(actor);
    expect(actor.getSnapshot().context.selectedGateway).toBe('hostedlink');
  });

  it('a visitor paying in GBP gets the first gateway taking GBP, and cannot select one that does not', async () => {
    const { actor } = startCheckout({}, { gateways, country: 'GB' });
    await settled(actor);
    expect(actor.getSnapshot().context.currency).toBe('GBP');
    expect(actor.getSnapshot().context.selectedGateway).toBe('coinbase');
    actor.send({ type: 'gateway.select', module: 'hostedlink' });
    expect(actor.getSnapshot().context.selectedGateway).toBe('coinbase');
  });
});

describe('checkout machine: loading and pre-fill', () => {
  it('offers only the first three products and selects the first by default', async () => {
    const { actor } = startCheckout({});
    await settled(actor);
    const { context } = actor.getSnapshot();
    expect(context.products.map((product) => product.pid)).toEqual([1, 2, 3]);
    expect(context.selectedPid).toBe(1);
    expect(context.selectedGateway).toBe('sandbox');
    expect(context.quote?.total).toBe(checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: null, currency: 'EUR' }).total);
  });

  it('selects the pid of the URL and pre-fills add-ons, e-mail and affiliate', async () => {
    const { actor } = startCheckout({ query: { pid: '2', extraconnect: 'true', proxyprotect: '1', email: 'bob@example.com', aff_id: 'partner-9' } });
    await settled(actor);
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.selectedPid).toBe(2);
    expect(snapshot.matches({ ready: { addons: { extraConnection: 'on', proxyProtection: 'on' }, email: 'valid' } })).toBe(true);
    expect(snapshot.context.affId).toBe('partner-9');
    expect(snapshot.context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 2, extraConnection: true, proxyProtection: true, promo: null, currency: 'EUR' }) });
  });

  it('ignores a pid of the URL that is not among the three offered', async () => {
    const { actor } = startCheckout({ query: { pid: '4' } });
    await settled(actor);
    expect(actor.getSnapshot().context.selectedPid).toBe(1);
  });

  it('checks a pre-filled promo code on arrival', async () => {
    const { actor } = startCheckout({ query: { promocode: 'HALFYEAR20', pid: '2' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: 'HALFYEAR20', currency: 'EUR' }) });
  });

  it('shows an invalid pre-filled e-mail with its message key', async () => {
    const { actor } = startCheckout({ query: { email: 'nope' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'invalid' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
  });

  it('prices in GBP for visitors from GB', async () => {
    const { actor } = startCheckout({}, { country: 'GB' });
    await settled(actor);
    expect(actor.getSnapshot().context.quote).toMatchObject({ currency: 'GBP', total: checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: null, currency: 'GBP' }).total });
  });

  it.each([
    ['an empty catalogue', []],
    ['a failed catalogue', new Error('Bad gateway')],
  ])('is not found with %s', async (_name, products) => {
    const { actor } = startCheckout({}, { products });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('notFound');
  });
});

describe('checkout machine: a preloaded first screen (server-rendered page)', () => {
  // The test's own catalogue: two plans in EUR and GBP, one with the extra connection, and two gateways.
  const plans: CheckoutProduct[] = [
    { pid: 7, name: 'Plan Seven', description: '', billingcycle: 'Monthly', pricing: { EUR: { monthly: 12 }, GBP: { monthly: 10 } }, configoptions: [{ id: 2, name: 'Extra', pricing: { EUR: { monthly: 3 }, GBP: { monthly: 2 } } }] },
    { pid: 9, name: 'Plan Nine', description: '', billingcycle: 'Monthly', pricing: { EUR: { monthly: 30 }, GBP: { monthly: 25 } }, configoptions: [] },
  ];
  const gateways: CheckoutGateway[] = [
    { module: 'eurpay', displayname: 'Euro only', type: 'CreditCard', currencies: ['EUR'] },
    { module: 'anypay', displayname: 'Any', type: 'CreditCard' },
  ];
  const nothingLoads = {
    actors: {
      loadProducts: fromPromise<CheckoutProduct[]>(() => Promise.reject(new Error('loadProducts called'))),
      loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(() => Promise.reject(new Error('loadGateways called'))),
      loadCurrency: fromPromise<{ country: string }>(() => Promise.reject(new Error('loadCurrency called'))),
      checkFraud: fromPromise<{ valid: boolean }>(() => Promise.reject(new Error('checkFraud called'))),
    },
  };

  it('starts in ready with the given plans, the URL pid and add-on, and no load started', () => {
    const logic = checkoutMachine.provide(nothingLoads);
    const actor = createActor(logic, { input: { query: { pid: '9', extraconnect: '1' }, preloaded: { products: plans, gateways, defaultGateway: 'eurpay', country: 'FR', fraudCheck: false } } });
    // The very first snapshot, before start: what the server renders and the browser hydrates.
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ ready: { plan: 'selected', promo: 'idle', addons: { extraConnection: 'on' } } })).toBe(true);
    expect(snapshot.context.products.map((plan) => plan.name)).toEqual(['Plan Seven', 'Plan Nine']);
    expect(snapshot.context.selectedPid).toBe(9);
    expect(snapshot.context.selectedGateway).toBe('eurpay');
    expect(snapshot.context.quote).toMatchObject({ currency: 'EUR', price: 30, total: 30 });
    actor.start();
    expect(actor.getSnapshot().children).toEqual({});
    actor.stop();
  });

  it('prices a preloaded GB visitor in GBP and skips the gateway that does not take it', () => {
    const actor = createActor(checkoutMachine.provide(nothingLoads), { input: { preloaded: { products: plans, gateways, defaultGateway: 'eurpay', country: 'GB', fraudCheck: true } } });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(context.quote).toMatchObject({ currency: 'GBP', total: 10 });
    expect(context.selectedGateway).toBe('anypay');
    expect(context.fraudCheck).toBe(true);
  });

  it('checks the saved order first when one is saved, as after a load', () => {
    const actor = createActor(checkoutMachine.provide(nothingLoads), { input: { savedOrder: { orderid: 5, invoiceid: 6 }, preloaded: { products: plans, gateways, defaultGateway: 'anypay', country: 'MA', fraudCheck: false } } });
    expect(actor.getSnapshot().value).toBe('checkingSavedOrder');
  });
});

describe('checkout machine: promo rules (spec section 5)', () => {
  const withPromo = async (fakes: Fakes, pid?: string) => {
    const { actor } = startCheckout({ query: pid ? { pid } : {} }, fakes);
    await settled(actor);
    actor.send({ type: 'promo.change', code: 'HALFYEAR20' });
    actor.send({ type: 'promo.apply' });
    await settled(actor);
    return actor;
  };

  it("refuses a code that does not list the plan: 'This Coupon is not available for this product.'", async () => {
    const actor = await withPromo({}, '3');
    expect(actor.getSnapshot().matches({ ready: { promo: 'rejected' } })).toBe(true);
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.notApplicable' });
  });

  it('refuses a lookup with more than one result', async () => {
    const actor = await withPromo({ lookup: { ...modelPromotionLookup, totalresults: 2 } });
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.notApplicable' });
  });

  it("shows the server's message when the lookup fails", async () => {
    const actor = await withPromo({ lookup: new Error('Promotion code not found.') });
    expect(actor.getSnapshot().context.promoError).toEqual({ serverMessage: 'Promotion code not found.' });
  });

  it('refuses an expired code', async () => {
    const expired = { ...modelPromotionLookup, promotions: [{ ...modelPromotionLookup.promotions[0]!, expirationdate: '2026-01-14' }] };
    const actor = await withPromo({ lookup: expired });
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.expired' });
  });

  it('re-checks the applied code against a newly selected plan', async () => {
    const fact = (pid: number, promo: string | null) => checkoutFact({ pid, extraConnection: false, proxyProtection: false, promo, currency: 'EUR' });
    const actor = await withPromo({}, '2');
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: fact(2, 'HALFYEAR20').discount, total: fact(2, 'HALFYEAR20').total });
    actor.send({ type: 'plan.select', pid: 3 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'rejected' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: 0, total: fact(3, null).total });
    actor.send({ type: 'plan.select', pid: 2 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: fact(2, 'HALFYEAR20').discount, total: fact(2, 'HALFYEAR20').total });
  });

  it('keeps a code that lists every plan across a plan change (WELCOME10)', async () => {
    const actor = await withPromo({ lookup: seededPromotionLookup('WELCOME10') });
    actor.send({ type: 'plan.select', pid: 3 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 3, extraConnection: false, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' }) });
  });

  // SAVE5, 5 EUR off, as getPromotion answers it: the server converted the amount into GBP at the store's rate.
  const fixedAmount: PromotionLookup = seededPromotionLookup('SAVE5');
  const save5 = (currency: 'EUR' | 'GBP') => checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: 'SAVE5', currency });

  it('takes a Fixed Amount off in the currency shown: the amount the server converted, never the EUR value', async () => {
    const eur = await withPromo({ lookup: fixedAmount });
    expect(eur.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...save5('EUR') });
    const gbp = await withPromo({ lookup: fixedAmount, country: 'GB' });
    expect(gbp.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(gbp.getSnapshot().context.quote).toEqual({ currency: 'GBP', ...save5('GBP') });
  });

  it('orders with the total it shows, Fixed Amount converted', async () => {
    const { actor, createOrder } = startCheckout({ query: { promocode: 'SAVE5', email: 'ann@example.com' } }, { lookup: fixedAmount, country: 'GB' });
    await settled(actor);
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder).toHaveBeenCalledWith(expect.objectContaining({ pid: 1, promocode: 'SAVE5', amount: save5('GBP').total, currency: 'GBP' }));
  });
});

describe('checkout machine: ordering', () => {
  const readyGuest = async (fakes: Fakes = {}) => {
    const started = startCheckout({ query: { aff_id: 'partner-1' } }, fakes);
    await settled(started.actor);
    started.actor.send({ type: 'extraConnection.toggle' });
    started.actor.send({ type: 'email.change', email: 'ann@example.com' });
    return started;
  };

  it('identifies the guest, creates the order with its amount and key, stores it and redirects', async () => {
    const { actor, createOrder, identifyGuest, redirectToPayment, clearClientProduct } = await readyGuest();
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(identifyGuest).toHaveBeenCalledTimes(1);
    expect(createOrder).toHaveBeenCalledWith({
      pid: 1,
      paymentmethod: 'sandbox',
      affid: 'partner-1',
      amount: checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: null, currency: 'EUR' }).total,
      currency: 'EUR',
      configoptions: { '2': 1, '4': 0 },
      remind: true,
      email: 'ann@example.com',
      userid: modelGuest.userid,
      idempotencyKey: 'key-1',
    });
    const { context, value } = actor.getSnapshot();
    expect(value).toBe('redirecting');
    expect(context.order).toEqual({ orderid: 501, invoiceid: 601, serviceid: 701, fraud: false });
    expect(context.payment).toEqual({ gateway: 'sandbox', link: PAYMENT_LINKS.checkout, deadline: '2026-01-16T12:00:00.000Z' });
    expect(clearClientProduct).toHaveBeenCalledTimes(1);
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
    expect(actor.getSnapshot().output).toEqual({ order: context.order, payment: context.payment });
  });

  it('sends remind: false once "Remind me if I don\'t finish" is unticked, and true again once ticked back', async () => {
    const unticked = await readyGuest();
    expect(unticked.actor.getSnapshot().context.remind).toBe(true);
    unticked.actor.send({ type: 'remind.toggle' });
    expect(unticked.actor.getSnapshot().matches({ ready: { reminder: 'off' } })).toBe(true);
    unticked.actor.send({ type: 'order.submit' });
    await waitFor(unticked.actor, (snapshot) => snapshot.status === 'done');
    expect(unticked.createOrder.mock.calls[0]![0]).toMatchObject({ remind: false });

    const ticked = await readyGuest();
    ticked.actor.send({ type: 'remind.toggle' });
    ticked.actor.send({ type: 'remind.toggle' });
    ticked.actor.send({ type: 'order.submit' });
    await waitFor(ticked.actor, (snapshot) => snapshot.status === 'done');
    expect(ticked.createOrder.mock.calls[0]![0]).toMatchObject({ remind: true });
  });

  it('creates one order when submit is pressed again while the first is in flight', async () => {
    let answer: (order: CreatedOrder) => void = () => {};
    const { actor, createOrder } = await readyGuest({ createOrder: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'order.submit' });
    await placeOrderIn(actor, 'creatingOrder');
    actor.send({ type: 'order.submit' });
    actor.send({ type: 'order.submit' });
    answer(modelOrder);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder).toHaveBeenCalledTimes(1);
  });

  it("shows the server's message after a refusal, and a new attempt uses a new idempotency key", async () => {
    const refusals = [new Error('api.unknown_gateway')];
    const { actor, createOrder } = await readyGuest({ createOrder: async () => { const refusal = refusals.shift(); if (refusal) throw refusal; return modelOrder; } });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.submitError).toBe('api.unknown_gateway');
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder.mock.calls.map(([request]) => request.idempotencyKey)).toEqual(['key-1', 'key-2']);
  });

  it("a price change confirmed orders the server's total; a refused one goes back to the form without a message", async () => {
    const confirmed = await readyGuest({ createOrder: vi.fn().mockRejectedValueOnce(priceChangedError()).mockResolvedValue(modelOrder) });
    confirmed.actor.send({ type: 'order.submit' });
    await placeOrderIn(confirmed.actor, 'priceChanged');
    confirmed.actor.getSnapshot().children.placeOrder!.send({ type: 'price.confirm' });
    await waitFor(confirmed.actor, (snapshot) => snapshot.status === 'done');
    // First the table's total for the form (1 Month + extra connection, EUR), then the server's 14.50 (priceChangedError).
    const formTotal = checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: null, currency: 'EUR' }).total;
    expect(confirmed.createOrder.mock.calls.map(([request]) => request.amount)).toEqual([formTotal, 14.5]);

    const refused = await readyGuest({ createOrder: async () => { throw priceChangedError(); } });
    refused.actor.send({ type: 'order.submit' });
    await placeOrderIn(refused.actor, 'priceChanged');
    refused.actor.getSnapshot().children.placeOrder!.send({ type: 'price.cancel' });
    await waitFor(refused.actor, (snapshot) => snapshot.matches('ready'));
    expect(refused.actor.getSnapshot().context).toMatchObject({ submitError: null, user: modelGuest, quote: { total: formTotal } });
  });

  it('goes to the waiting step when the order comes back without a link (fraud)', async () => {
    const { actor, goToWaiting, redirectToPayment } = await readyGuest({ createOrder: async () => modelFraudOrder });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(goToWaiting).toHaveBeenCalledWith({ orderid: 502 });
    expect(redirectToPayment).not.toHaveBeenCalled();
  });

  it('does not identify a logged-in user again', async () => {
    const { actor, identifyGuest, createOrder } = startCheckout({ user: { userid: 42, email: 'client@example.com' } });
    await settled(actor);
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(identifyGuest).not.toHaveBeenCalled();
    expect(createOrder.mock.calls[0]![0]).toMatchObject({ userid: 42, email: 'client@example.com' });
  });

  it('ignores submit with an invalid e-mail', async () => {
    const { actor, createOrder } = startCheckout({});
    await settled(actor);
    actor.send({ type: 'email.change', email: 'ann@' });
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(createOrder).not.toHaveBeenCalled();
  });
});

describe('checkout machine: automatic order from URL parameters (spec section 5)', () => {
  const autoQuery: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true', promocode: 'HALFYEAR20', proxyprotect: 'true' };

  it('orders the product of the URL with a usable promo and redirects', async () => {
    const { actor, createOrder, redirectToPayment } = startCheckout({ query: autoQuery }, { country: 'GB' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder.mock.calls[0]![0]).toEqual({
      pid: 2,
      paymentmethod: 'sandbox',
      promocode: 'HALFYEAR20',
      amount: checkoutFact({ pid: 2, extraConnection: false, proxyProtection: true, promo: 'HALFYEAR20', currency: 'GBP' }).total,
      currency: 'GBP',
      configoptions: { '2': 0, '4': 1 },
      // No form, nothing unticked: a deep link's order is reminded.
      remind: true,
      email: 'ann@example.com',
      userid: modelGuest.userid,
      idempotencyKey: 'key-1',
    });
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
  });

  it('stops on the form with the refusal when the promo is out of its dates, never ordering at full price (issue 16)', async () => {
    const notStarted = { ...modelPromotionLookup, promotions: [{ ...modelPromotionLookup.promotions[0]!, startdate: '2026-02-01' }] };
    const { actor, createOrder } = startCheckout({ query: autoQuery }, { lookup: notStarted });
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(createOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.autoOrderStop).toEqual({ reason: 'promo', error: { key: 'promo.notStarted' } });
  });

  it('stops on the form for the seeded EXPIRED15 with the expiry refusal', async () => {
    const { actor, createOrder } = startCheckout({ query: { ...autoQuery, pid: '1', promocode: 'EXPIRED15' } }, { lookup: seededPromotionLookup('EXPIRED15'), product: modelProducts[0]! });
    await settled(actor);
    expect(createOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.autoOrderStop).toEqual({ reason: 'promo', error: { key: 'promo.expired' } });
  });

  it.each<[string, CheckoutInput['query'], Fakes, unknown]>([
    ['the pid is not an id (dropped on entry)', entryQuery({ ...autoQuery, pid: 'abc' }), {}, { reason: 'plan' }],
    ['the e-mail is missing', { ...autoQuery, email: '' }, {}, { reason: 'email' }],
    ['the e-mail has the wrong shape', { ...autoQuery, email: 'ann@example' }, {}, { reason: 'email' }],
    ['the guest cannot be identified', autoQuery, { guest: new Error('Bad gateway') }, { reason: 'failed', error: 'Bad gateway' }],
    ['the product is not found', autoQuery, { product: null }, { reason: 'plan' }],
    ['the product has no positive price', autoQuery, { product: { ...modelProducts[1]!, pricing: { EUR: { semiannually: 0 } } } }, { reason: 'plan' }],
    ['the product lookup fails', autoQuery, { product: new Error('Bad gateway') }, { reason: 'failed', error: 'Bad gateway' }],
    ['the promo lookup fails', autoQuery, { lookup: new Error('Promotion code not found.') }, { reason: 'promo', error: { serverMessage: 'Promotion code not found.' } }],
    ['the order is refused', autoQuery, { createOrder: () => Promise.reject(new Error('api.unknown_gateway')) }, { reason: 'failed', error: 'api.unknown_gateway' }],
  ])('stops on the form with its reason when %s', async (_name, query, fakes, stop) => {
    const { actor, createOrder } = startCheckout({ query }, fakes);
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.autoOrderStop).toEqual(stop);
    if ((stop as { reason: string }).reason !== 'failed') expect(createOrder).not.toHaveBeenCalled();
  });

  it('shows the plain form, no reason, when auto_redirect is not "true"', async () => {
    const { actor } = startCheckout({ query: entryQuery({ ...autoQuery, auto_redirect: '1' }) });
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.autoOrderStop).toBeNull();
  });

  it('asks for the e-mail at once on the form an automatic order stopped for its missing e-mail', async () => {
    const { actor } = startCheckout({ query: { pid: '2' }, autoOrderStop: { reason: 'email' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'required' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
    actor.send({ type: 'email.change', email: 'ann@example.com' });
    expect(actor.getSnapshot().matches({ ready: { email: 'valid' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBeNull();
  });
});

describe('checkout machine: an unpaid order of this browser (issue 16)', () => {
  const savedOrder = { orderid: 501, invoiceid: 601 };

  it('asks the server about the saved order before the form, and offers it while it is Pending', async () => {
    const { actor, checkSavedOrder, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    expect(checkSavedOrder).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrder).toEqual(savedOrder);
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });

  it.each(['Active', 'Cancelled'] as const)('shows no banner and forgets the saved payment of an order that is %s', async (status) => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(forgetSavedOrder).toHaveBeenCalledWith({ orderid: 501 });
  });

  it.each<[string, SavedOrderStatus | Error]>([
    ['under review (Fraud)', { orderid: 501, status: 'Fraud' }],
    ['not answered', new Error('Bad gateway')],
  ])('shows no banner and keeps the saved payment when the order is %s', async (_name, answer) => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: answer });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });

  it('asks nothing without a saved order', async () => {
    const { actor, checkSavedOrder } = startCheckout({});
    await settled(actor);
    expect(checkSavedOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
  });

  it('continue opens the saved order’s payment', async () => {
    const { actor, resumeUnpaidOrder, createOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.continue' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(resumeUnpaidOrder).toHaveBeenCalledWith({ orderid: 501 });
    expect(createOrder).not.toHaveBeenCalled();
  });

  it('cancel cancels it on the server, the banner goes and the saved payment is forgotten; the form stays usable', async () => {
    const { actor, cancelUnpaidOrder, forgetSavedOrder, redirectToPayment } = startCheckout({ savedOrder, query: { email: 'ann@example.com' } }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.cancel' });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'confirmingCancel' } })).toBe(true);
    actor.send({ type: 'unpaidOrder.keep' });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    actor.send({ type: 'unpaidOrder.cancel' });
    await settled(actor);
    // Asking cancels nothing: only the confirmation does.
    expect(cancelUnpaidOrder).not.toHaveBeenCalled();
    actor.send({ type: 'unpaidOrder.confirmCancel' });
    await settled(actor);
    expect(cancelUnpaidOrder.mock.calls[0]![0].input).toEqual({ orderid: 501 });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrder).toBeNull();
    expect(forgetSavedOrder).toHaveBeenCalledWith({ orderid: 501 });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
  });

  it("keeps the banner with the server's message when the cancel is refused", async () => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' }, cancel: new Error('api.payment_confirming') });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.cancel' });
    actor.send({ type: 'unpaidOrder.confirmCancel' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrderError).toBe('api.payment_confirming');
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });
});

describe('checkout machine: form details (issue 16)', () => {
  it("a guest's submit without an e-mail says 'Please enter a Valid Email.' (email.invalid) and orders nothing", async () => {
    const { actor, createOrder } = startCheckout({});
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'empty' } })).toBe(true);
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().matches({ ready: { email: 'required' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
    expect(createOrder).not.toHaveBeenCalled();
    actor.send({ type: 'email.change', email: 'ann@' });
    expect(actor.getSnapshot().matches({ ready: { email: 'invalid' } })).toBe(true);
  });

  it('an applied promo can be removed: the total goes back to the undiscounted one', async () => {
    const { actor } = startCheckout({ query: { pid: '2', promocode: 'HALFYEAR20' } });
    await settled(actor);
    expect(actor.getSnapshot().context.quote?.total).toBe(checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: 'HALFYEAR20', currency: 'EUR' }).total);
    actor.send({ type: 'promo.remove' });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches({ ready: { promo: 'idle' } })).toBe(true);
    expect(context.promotion).toBeNull();
    expect(context.promoCode).toBe('');
    expect(context.quote?.total).toBe(checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: null, currency: 'EUR' }).total);
  });
});

describe('checkout guards', () => {
  const baseContext = (): CheckoutContext => {
    const context = createActor(checkoutMachine, { input: { now: () => CHECKOUT_MODEL_NOW } }).getSnapshot().context;
    return {
      ...context,
      loaded: { products: true, gateways: true, currency: true, fraudCheck: true },
      products: modelProducts.slice(0, 3),
      selectedPid: 1,
      gateways: modelGateways,
      selectedGateway: 'sandbox',
      quote: quoteFor({ ...context, products: modelProducts.slice(0, 3), selectedPid: 1 }),
    };
  };
  const submit: CheckoutEvent = { type: 'order.submit' };
  const call = (guard: (args: { context: CheckoutContext; event: CheckoutEvent }) => boolean, context: Partial<CheckoutContext> = {}, event: CheckoutEvent = submit) =>
    guard({ context: { ...baseContext(), ...context }, event });

  it('catalogueLoaded waits for all four loads', () => {
    expect(call(checkoutGuards.catalogueLoaded)).toBe(true);
    expect(call(checkoutGuards.catalogueLoaded, { loaded: { products: true, gateways: true, currency: false, fraudCheck: true } })).toBe(false);
  });

  it('autoOrderRequested needs auto_redirect "true" and a gateway, for a guest or a known user; the e-mail and pid are checked inside', () => {
    const query: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true' };
    const { pid: _pid, ...withoutPid } = query;
    expect(call(checkoutGuards.autoOrderRequested, { query })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, user: modelGuest })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, loaded: { products: true, gateways: true, currency: true, fraudCheck: false } })).toBe(false);
    expect(call(checkoutGuards.autoOrderRequested, { query: { ...query, auto_redirect: 'false' } })).toBe(false);
    expect(call(checkoutGuards.autoOrderRequested, { query: withoutPid })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, selectedGateway: null })).toBe(false);
    expect(call(checkoutGuards.linkPidInvalid, { query: withoutPid })).toBe(true);
    expect(call(checkoutGuards.linkPidInvalid, { query })).toBe(false);
    expect(call(checkoutGuards.linkEmailInvalid, { query: { ...query, email: 'ann' } })).toBe(true);
    expect(call(checkoutGuards.linkEmailInvalid, { query: { pid: '2' } })).toBe(true);
    expect(call(checkoutGuards.linkEmailInvalid, { query })).toBe(false);
  });

  it('hasSavedOrder waits for the catalogue; savedOrderUnpaid / savedOrderSettled read the status', () => {
    const savedOrder = { orderid: 501, invoiceid: 601 };
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder })).toBe(true);
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder: null })).toBe(false);
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder, loaded: { products: true, gateways: false, currency: true, fraudCheck: true } })).toBe(false);
    const status = (value: SavedOrderStatus['status']) => ({ status: { orderid: 501, status: value } });
    expect(checkoutGuards.savedOrderUnpaid({} as never, status('Pending'))).toBe(true);
    expect(checkoutGuards.savedOrderUnpaid({} as never, status('Fraud'))).toBe(false);
    expect(['Active', 'Cancelled', 'Pending', 'Fraud'].map((value) => checkoutGuards.savedOrderSettled({} as never, status(value as SavedOrderStatus['status'])))).toEqual([true, true, false, false]);
  });

  it('hasProducts', () => {
    expect(checkoutGuards.hasProducts({ context: baseContext(), event: submit }, { products: modelProducts })).toBe(true);
    expect(checkoutGuards.hasProducts({ context: baseContext(), event: submit }, { products: [] })).toBe(false);
  });

  it('extraConnectionChosen / proxyProtectionChosen follow the context', () => {
    expect(call(checkoutGuards.extraConnectionChosen, { extraConnection: true })).toBe(true);
    expect(call(checkoutGuards.proxyProtectionChosen, { proxyProtection: false })).toBe(false);
  });

  it('isOfferedPlan accepts another of the three plans only', () => {
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 2 })).toBe(true);
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 1 })).toBe(false);
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 4 })).toBe(false);
  });

  it('isOfferedGateway accepts another loaded gateway only', () => {
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'coinbase' })).toBe(true);
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'sandbox' })).toBe(false);
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'paypal' })).toBe(false);
  });

  it('promo state guards', () => {
    expect(call(checkoutGuards.hasAppliedPromotion, { promotion: modelPromotionLookup.promotions[0]! })).toBe(true);
    expect(call(checkoutGuards.hasPromoError, { promoError: { key: 'promo.notApplicable' } })).toBe(true);
    expect(call(checkoutGuards.hasPendingPromoCheck, { promoCheckPending: true, promoCode: 'HALFYEAR20' })).toBe(true);
    expect(call(checkoutGuards.hasPendingPromoCheck, { promoCheckPending: true, promoCode: ' ' })).toBe(false);
    expect(call(checkoutGuards.hasPromoCode, { promoCode: '  ' })).toBe(false);
    expect(call(checkoutGuards.hasPromoLookup, { promoLookup: modelPromotionLookup })).toBe(true);
  });

  it('promotionAccepted applies spec section 5 to the selected plan', () => {
    const args = (selectedPid: number) => ({ context: { ...baseContext(), selectedPid }, event: submit });
    expect(checkoutGuards.promotionAccepted(args(2), { lookup: modelPromotionLookup })).toBe(true);
    expect(checkoutGuards.promotionAccepted(args(3), { lookup: modelPromotionLookup })).toBe(false);
    expect(checkoutGuards.promotionAccepted(args(1), { lookup: { totalresults: 0, promotions: [] } })).toBe(false);
  });

  it('lookupFitsSelectedPlan re-checks the last lookup', () => {
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: modelPromotionLookup, selectedPid: 2 })).toBe(true);
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: modelPromotionLookup, selectedPid: 3 })).toBe(false);
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: null })).toBe(false);
  });

  it('isEmptyEmail / isValidEmail read the typed e-mail, else the context', () => {
    expect(call(checkoutGuards.isEmptyEmail, {}, { type: 'email.change', email: '  ' })).toBe(true);
    expect(call(checkoutGuards.isValidEmail, {}, { type: 'email.change', email: 'a@b.co' })).toBe(true);
    expect(call(checkoutGuards.isValidEmail, {}, { type: 'email.change', email: 'a@b' })).toBe(false);
    expect(call(checkoutGuards.isValidEmail, { email: 'a@b.co' })).toBe(true);
  });

  it('canSubmit needs a priced plan, a gateway and a user or a valid e-mail', () => {
    expect(call(checkoutGuards.canSubmit, { emailValid: true })).toBe(true);
    expect(call(checkoutGuards.canSubmit, { emailValid: false })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: true, selectedGateway: null })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: true, quote: null })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: false, user: modelGuest })).toBe(true);
    expect(call(checkoutGuards.canSubmit, { emailValid: false, user: modelGuest, selectedPid: null })).toBe(false);
  });

  it('autoProductPriced / autoProductPricedWithPromo need the URL product with a positive price', () => {
    const query: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true' };
    const args = (extra: Partial<CheckoutContext>) => ({ context: { ...baseContext(), query, ...extra }, event: submit });
    expect(checkoutGuards.autoProductPriced(args({}), { product: modelProducts[1]! })).toBe(true);
    expect(checkoutGuards.autoProductPriced(args({}), { product: null })).toBe(false);
    expect(checkoutGuards.autoProductPriced(args({}), { product: modelProducts[0]! })).toBe(false);
    expect(checkoutGuards.autoProductPriced(args({}), { product: { ...modelProducts[1]!, pricing: { EUR: { annually: -1 } } } })).toBe(false);
    expect(checkoutGuards.autoProductPricedWithPromo(args({}), { product: modelProducts[1]! })).toBe(false);
    expect(checkoutGuards.autoProductPricedWithPromo(args({ query: { ...query, promocode: 'HALFYEAR20' } }), { product: modelProducts[1]! })).toBe(true);
  });

  it('orderToPay / orderToWait read how placeOrder ended', () => {
    const ended = (output: Parameters<typeof checkoutGuards.orderToPay>[1]['output']) => ({ output });
    const args = { context: baseContext(), event: submit };
    expect(checkoutGuards.orderToPay(args, ended(modelPlaced))).toBe(true);
    expect(checkoutGuards.orderToWait(args, ended(modelPlaced))).toBe(false);
    expect(checkoutGuards.orderToWait(args, ended(modelPlacedFlagged))).toBe(true);
    expect(checkoutGuards.orderToPay(args, ended({ outcome: 'cancelled', user: null }))).toBe(false);
    expect(checkoutGuards.orderToWait(args, ended({ outcome: 'failed', user: null, error: 'x' }))).toBe(false);
  });
});
