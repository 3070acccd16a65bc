/**
 * Random walks of the checkout: a shopper clicking and typing anything in any order, a server giving
 * good and hostile answers (an empty or odd catalogue, a negative price, a product not offered, a
 * promotion that does not apply, a 409 with a higher or lower amount, errors), checked against what a
 * product owner promises. Expected figures come from the walk's own catalogue answers, never from
 * the machine's quote.
 */
import fc from 'fast-check';
import { assign, createActor, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import {
  checkoutMachine,
  type CheckoutContext,
  type CheckoutGateway,
  type CheckoutInput,
  type CheckoutProduct,
  type CheckoutUser,
  type CreatedOrder,
  type CreateOrderRequest,
} from '../../machines/checkout.machine';
import { placeOrderMachine, type PlaceOrderContext } from '../../machines/place-order.machine';
import { ApiFailure } from '../../src/app/api';
import type { Promotion, PromotionLookup } from '../../src/domain/promotion';
import { timeCommand, userCommand, type AnswerPlan, type AnswerPlans, type Invariant, type Step, type WalkServer, type WalkClock, type WalkSpec, type WalkCommand } from './harness';

/** 15 January 2026, noon UTC: every walk's date (promotion dates are compared with it). */
export const CHECKOUT_WALK_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const TODAY = '2026-01-15';

/** What the walk remembers besides the machine: its own answers, and what the machine did with them. */
export interface CheckoutWorld {
  query: CheckoutInput['query'];
  /** The products of the last catalogue answer, by pid: the price oracle of a form order. */
  catalogue: Map<number, CheckoutProduct>;
  /** The product the single lookup of a deep link described: the price oracle of a deep-link order. */
  linkedProduct: CheckoutProduct | null;
  /** The pids the shopper may order: the first three of the last catalogue answer. */
  offeredPids: number[];
  /** The gateways of the last gateway answer. */
  gateways: CheckoutGateway[];
  /** The server's lookup answer per code. */
  lookups: Map<string, PromotionLookup>;
  /** The total on screen before the last step that showed one (the form's, or a new total from the server; null before any). */
  lastShownTotal: number | null;
  /** The form was shown (a deep link that orders at once never shows it). */
  formShown: boolean;
  /** The step in which the shopper confirmed a new total from the server. */
  confirmedAtStep: number | null;
  /** Orders the server created, by Idempotency-Key. */
  createdLinks: string[];
  redirects: string[];
}

type Command = WalkCommand<CheckoutWorld>;

/** The placeOrder child the views talk to while an order is placed. */
const placing = (snapshot: AnyMachineSnapshot) => snapshot.children.placeOrder as AnyActorRef | undefined;

/** The plan an order is for (the contract allows a list, for a reseller's order; the checkout orders one). */
const pidOf = (request: CreateOrderRequest) => (Array.isArray(request.pid) ? Number.NaN : request.pid);

const option = (id: number, name: string, eur: Record<string, number>, gbp: Record<string, number>) => ({ id, name, pricing: { EUR: eur, GBP: gbp } });
const extra = option(2, 'Extra connection', { monthly: 4, semiannually: 20, annually: 36 }, { monthly: 3.5, semiannually: 17, annually: 31 });
const proxy = option(4, 'Proxy protection', { monthly: 2.5, semiannually: 13, annually: 24 }, { monthly: 2, semiannually: 11, annually: 20 });

/** The walk's catalogue: three plans offered, a fourth never (only the first three are shown). */
export const walkCatalogue: CheckoutProduct[] = [
  { pid: 1, name: '1 Month', description: 'one month', billingcycle: 'Monthly', pricing: { EUR: { monthly: 12.99 }, GBP: { monthly: 10.99 } }, configoptions: [extra, proxy] },
  { pid: 2, name: '6 Months', description: 'six months', billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 59.99 }, GBP: { semiannually: 49.99 } }, configoptions: [extra, proxy] },
  { pid: 3, name: 'Lifetime', description: 'once', billingcycle: 'One Time', pricing: { EUR: { monthly: 199 }, GBP: { monthly: 169 } }, configoptions: [extra] },
  { pid: 4, name: 'Year', description: 'not offered', billingcycle: 'Annually', pricing: { EUR: { annually: 4.1 }, GBP: { annually: 3.5 } }, configoptions: [extra, proxy] },
];

/** Odd products a broken catalogue may hold: negative, missing or fractional prices, unknown pids. */
const oddProduct: fc.Arbitrary<CheckoutProduct> = fc
  .record({
    pid: fc.constantFrom(1, 2, 3, 4, 9),
    cycle: fc.constantFrom(['Monthly', 'monthly'], ['Semi-Annually', 'semiannually'], ['One Time', 'monthly'], ['Annually', 'annually']),
    eur: fc.constantFrom(-1, 0, 4.1, 19.99, 12.99, 250),
    gbp: fc.option(fc.constantFrom(-5, 0, 3.33, 10.99), { nil: undefined }),
    options: fc.subarray([extra, proxy]),
  })
  .map(({ pid, cycle, eur, gbp, options }) => ({
    pid,
    name: `Plan ${pid}`,
    description: 'odd',
    billingcycle: cycle[0]!,
    pricing: { EUR: { [cycle[1]!]: eur }, ...(gbp === undefined ? {} : { GBP: { [cycle[1]!]: gbp } }) },
    configoptions: options,
  }));

const gateway = (module: string, currencies?: string[]): CheckoutGateway => ({ module, displayname: module, type: 'CreditCard', ...(currencies ? { currencies } : {}) });
/** Gateway lists: some gateways take one currency only, some defaults are not in the list, some lists are empty. */
const gatewayAnswers = fc.constantFrom(
  { gateways: [gateway('sandbox'), gateway('coinbase')], defaultGateway: 'sandbox' },
  { gateways: [gateway('sandbox'), gateway('coinbase')], defaultGateway: 'coinbase' },
  { gateways: [gateway('gbp_only', ['GBP']), gateway('sandbox')], defaultGateway: 'gbp_only' },
  { gateways: [gateway('gbp_only', ['GBP']), gateway('sandbox')], defaultGateway: 'sandbox' },
  { gateways: [gateway('eur_only', ['EUR'])], defaultGateway: 'missing' },
  { gateways: [], defaultGateway: 'sandbox' },
);

const promotion = fc.record({
  code: fc.constant('CODE'),
  type: fc.constantFrom('Percentage' as const, 'Fixed Amount' as const),
  value: fc.constantFrom(10, 25, 100, 150),
  appliesto: fc.constantFrom('1,2', '3', '1, 2,3', '', '4'),
  startdate: fc.constantFrom('0000-00-00', '2026-01-15', '2026-02-01'),
  expirationdate: fc.constantFrom('0000-00-00', '2026-01-15', '2025-12-31'),
  maxuses: fc.constantFrom(0, 5),
  uses: fc.constantFrom(0, 5),
});

/** A promotion that applies to plans 1 to 3 today (Fixed Amounts of 1 to 15 EUR, percentages up to 150). */
const usablePromotion = fc.record({
  code: fc.constant('CODE'),
  type: fc.constantFrom('Percentage' as const, 'Fixed Amount' as const),
  value: fc.constantFrom(10, 15, 25, 100, 150),
  appliesto: fc.constantFrom('1,2,3', '1, 2, 3'),
  startdate: fc.constantFrom('0000-00-00', TODAY),
  expirationdate: fc.constantFrom('0000-00-00', TODAY),
  maxuses: fc.constantFrom(0, 5),
  uses: fc.constant(0),
});

/** A lookup answer: most often one usable promotion, else anything (other plans, dates, used up, none or two). */
const lookupAnswer = fc.oneof(
  { weight: 3, arbitrary: usablePromotion.map((promotion) => ({ promotion, count: 1 })) },
  { weight: 2, arbitrary: fc.record({ promotion, count: fc.constantFrom(1, 1, 0, 2) }) },
);

function lookupFor(code: string, { promotion, count }: { promotion: Omit<Promotion, 'amounts'>; count: number }): PromotionLookup {
  const withCode: Promotion = {
    ...promotion,
    code,
    amounts: promotion.type === 'Fixed Amount' ? { EUR: promotion.value / 10, GBP: promotion.value / 12 } : null,
  } as Promotion;
  return { totalresults: count, promotions: count === 0 ? [] : count === 1 ? [withCode] : [withCode, { ...withCode, code: `${code}2` }] };
}

const guestHandle = 'g_Walk0Guest0Handle00001';
const priceChanged = (amount: number, currency: string) => new ApiFailure('api.price_changed', 409, 'price_changed', { amount, currency: currency as 'EUR' });

/** What the shopper may do, at any moment (an event the form ignores must change nothing that matters). */
const commands: fc.Arbitrary<Command>[] = [
  fc.constantFrom(1, 2, 3, 4, 9).map((pid) => userCommand<CheckoutWorld>({ type: 'plan.select', pid }, `shopper picks plan ${pid}`)),
  fc.constant(userCommand<CheckoutWorld>({ type: 'extraConnection.toggle' }, 'shopper toggles the extra connection')),
  fc.constant(userCommand<CheckoutWorld>({ type: 'proxyProtection.toggle' }, 'shopper toggles proxy protection')),
  fc.constantFrom('SAVE10', ' SAVE10 ', 'BIG', '').map((code) => userCommand<CheckoutWorld>({ type: 'promo.change', code }, `shopper types promo "${code}"`)),
  fc.constant(userCommand<CheckoutWorld>({ type: 'promo.apply' }, 'shopper applies the promo')),
  fc.constantFrom('', 'ann@', 'ann@example.com').map((email) => userCommand<CheckoutWorld>({ type: 'email.change', email }, `shopper types e-mail "${email}"`)),
  fc.constantFrom('sandbox', 'coinbase', 'gbp_only', 'gbp_only', 'nope').map((module) => userCommand<CheckoutWorld>({ type: 'gateway.select', module }, `shopper picks gateway ${module}`)),
  fc.constant(userCommand<CheckoutWorld>({ type: 'remind.toggle' }, 'shopper toggles the reminder')),
  fc.constant(userCommand<CheckoutWorld>({ type: 'order.submit' }, 'shopper submits')),
  fc.constant(userCommand<CheckoutWorld>({ type: 'order.submit' }, 'shopper submits')),
  fc.constant(userCommand<CheckoutWorld>({ type: 'price.confirm' }, 'shopper confirms the new total', placing)),
  fc.constant(userCommand<CheckoutWorld>({ type: 'price.cancel' }, 'shopper refuses the new total', placing)),
  fc.constant(timeCommand<CheckoutWorld>()),
];

type Plan = AnswerPlan<CheckoutWorld>;
const plan = (label: string, answer: Plan['answer']): Plan => ({ label, answer });
const fails = (error: ApiFailure) => plan(`fails (${error.code})`, () => ({ error }));
const network = () => new ApiFailure('api.network', 0, 'network');

/** What the server may answer each actor: mostly good answers, some hostile ones. */
const answers: AnswerPlans<CheckoutWorld> = {
  loadProducts: fc.oneof(
    { weight: 5, arbitrary: fc.constant(walkCatalogue) },
    { weight: 2, arbitrary: fc.array(oddProduct, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  ).map((products) =>
    products === null
      ? fails(network())
      : plan(products === walkCatalogue ? 'the catalogue' : `odd catalogue ${JSON.stringify(products.map((p) => [p.pid, p.billingcycle, p.pricing]))}`, (_input, walk) => {
          // A pid listed twice is the first one (the form offers the first it finds).
          walk.world.catalogue = new Map(products.toReversed().map((product) => [product.pid, product]));
          walk.world.offeredPids = products.slice(0, 3).map((product) => product.pid);
          return { output: products };
        }),
  ),
  loadGateways: fc.oneof(
    {
      weight: 4,
      arbitrary: gatewayAnswers.map((answer) =>
        plan(`${answer.gateways.map((g) => `${g.module}${g.currencies ? `[${g.currencies.join('')}]` : ''}`).join(',') || '(none)'} (default ${answer.defaultGateway})`, (_input, walk) => {
          walk.world.gateways = [...answer.gateways];
          return { output: answer };
        }),
      ),
    },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  loadCurrency: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('GB', 'DE', 'US').map((country) => plan(`visitor is in ${country}`, () => ({ output: { country } }))) },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  checkFraud: fc.oneof(
    { weight: 4, arbitrary: fc.boolean().map((valid) => plan(valid ? 'passes' : 'flags the visitor', () => ({ output: { valid } }))) },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  lookupPromotion: fc.oneof(
    {
      weight: 4,
      arbitrary: lookupAnswer.map((answer) =>
        plan(`${answer.count} promotion(s): ${answer.promotion.type} ${answer.promotion.value} for "${answer.promotion.appliesto}" ${answer.promotion.startdate}..${answer.promotion.expirationdate} uses ${answer.promotion.uses}/${answer.promotion.maxuses}`, (input: { code: string }, walk) => {
          const lookup = lookupFor(input.code, answer);
          walk.world.lookups.set(input.code, lookup);
          return { output: lookup };
        }),
      ),
    },
    { weight: 1, arbitrary: fc.constant(fails(new ApiFailure('api.promotion_not_found', 422, 'promotion_not_found'))) },
  ),
  identifyGuest: fc.oneof(
    { weight: 4, arbitrary: fc.constant(plan('the guest is identified', () => ({ output: { userid: guestHandle, email: 'ann@example.com' } satisfies CheckoutUser }))) },
    { weight: 1, arbitrary: fc.constant(plan('nobody is identified', () => ({ output: { userid: 0, email: '' } satisfies CheckoutUser }))) },
    { weight: 1, arbitrary: fc.constant(fails(new ApiFailure('api.rate_limited', 429, 'rate_limited'))) },
  ),
  loadProduct: fc.constantFrom('asked', 'asked', 'other', 'none', 'negative', 'error').map((kind) =>
    kind === 'error'
      ? fails(network())
      : plan(kind === 'asked' ? 'the asked product' : kind === 'other' ? 'another product' : kind === 'none' ? 'no product' : 'the asked product at a negative price', (input: { pid: number }, walk) => {
          if (kind === 'none') return { output: null };
          const base = walkCatalogue.find((product) => product.pid === input.pid) ?? { ...walkCatalogue[0]!, pid: input.pid };
          const negative = { monthly: -5, semiannually: -5, annually: -5 };
          const product: CheckoutProduct =
            kind === 'other' ? { ...walkCatalogue[2]!, pid: input.pid === 3 ? 1 : 3 } : kind === 'negative' ? { ...base, pricing: { EUR: negative, GBP: negative } } : base;
          walk.world.linkedProduct = product;
          return { output: product };
        }),
  ),
  createOrder: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('link', 'fraud').map((kind) =>
        plan(kind === 'link' ? 'order created with a payment link' : 'fraud-flagged order created without link', (_input: CreateOrderRequest, walk) => {
          const orderid = 500 + walk.world.createdLinks.length;
          const link = kind === 'link' ? `https://pay.example/${orderid}` : null;
          if (link) walk.world.createdLinks.push(link);
          return { output: { orderid, invoiceid: orderid + 100, serviceids: [orderid + 200], fraud: kind === 'fraud', link } satisfies CreatedOrder };
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(1.5, -2, 1000).map((delta) =>
        plan(`409 price changed by ${delta}`, (input: CreateOrderRequest) => ({ error: priceChanged(Math.max(0, Math.round((input.amount + delta) * 100) / 100), input.currency) })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(new ApiFailure('api.bad_request', 400, 'bad_request'), network(), new ApiFailure('api.idempotency_key_reused', 409, 'idempotency_key_reused')).map(fails),
    },
  ),
};

/** Where a walk starts: a plain visit or a deep link that orders at once, for a guest or a signed-in client. */
const starts = fc.record({
  query: fc.oneof(
    fc.record({ aff_id: fc.constantFrom('partner-1', ''), promocode: fc.constantFrom('SAVE10', ' SAVE10 ', 'BIG') }, { requiredKeys: [] }),
    // Mostly a link that does order (valid e-mail, a plan on offer, auto_redirect=true), sometimes one that must not.
    fc.record(
      {
        email: fc.constantFrom('ann@example.com', 'ann@example.com', 'ann@example.com', 'not-an-email'),
        pid: fc.constantFrom('1', '2', '3', '1', '2', '3', '4', '9'),
        auto_redirect: fc.constantFrom('true', 'true', 'true', 'false'),
        promocode: fc.constantFrom('SAVE10', ' BIG '),
        extraconnect: fc.constantFrom('true', '1', '0'),
        proxyprotect: fc.constantFrom('true', 'false'),
        aff_id: fc.constant('partner-1'),
      },
      { requiredKeys: ['email', 'pid', 'auto_redirect'] },
    ),
  ),
  user: fc.option(fc.constant<CheckoutUser>({ userid: 42, email: 'client@example.com' }), { nil: null }),
});

type CheckoutStart = { query: NonNullable<CheckoutInput['query']>; user: CheckoutUser | null };

/**
 * The real checkout machine with the walk's server behind every actor and the walk's clock and key
 * maker. The one place that knows which actors the chart invokes (helper B's placeOrder child goes here).
 */
function checkoutUnderWalk(server: WalkServer, world: CheckoutWorld, newKey: () => string) {
  return checkoutMachine.provide({
    actors: {
      loadProducts: server.actor('loadProducts'),
      loadGateways: server.actor('loadGateways'),
      loadCurrency: server.actor('loadCurrency'),
      checkFraud: server.actor('checkFraud'),
      lookupPromotion: server.actor('lookupPromotion'),
      loadProduct: server.actor('loadProduct'),
      // The form and the deep link place their order through the placeOrder child.
      placeOrder: placeOrderMachine.provide({
        actors: { identifyGuest: server.actor('identifyGuest'), createOrder: server.actor('createOrder') },
        actions: { newIdempotencyKey: assign({ idempotencyKey: newKey }) },
      }),
    },
    actions: {
      clearClientProduct: () => {},
      redirectToPayment: (_args, { link }) => {
        world.redirects.push(link);
      },
      goToWaiting: () => {},
    },
  });
}

/** The total on screen: the form's, or the server's new total while a price change waits (null when none is shown). */
export function shownTotal(snapshot: AnyMachineSnapshot): number | null {
  const context = snapshot.context as CheckoutContext;
  if (snapshot.matches('ready')) return context.quote?.total ?? null;
  const child = placing(snapshot)?.getSnapshot() as AnyMachineSnapshot | undefined;
  return child?.matches('priceChanged') ? ((child.context as PlaceOrderContext).priceChange?.amount ?? null) : null;
}


/** Cents, rounded half away from zero, as money is (spec: every figure to 2 decimals). */
const cents = (amount: number) => Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-6);
const cycleKey = (cycle: string) => (cycle === 'One Time' ? 'monthly' : cycle.replace(/[-\s]/g, '').toLowerCase());

/** The spec's rule for a promo code: exactly one result, listing the plan, within its dates, with uses left. */
function promotionAccepted(lookup: PromotionLookup | undefined, pid: number): Promotion | null {
  const promotion = lookup?.promotions[0];
  if (!lookup || lookup.totalresults !== 1 || !promotion) return null;
  const started = promotion.startdate === '0000-00-00' || promotion.startdate <= TODAY;
  const notExpired = promotion.expirationdate === '0000-00-00' || TODAY <= promotion.expirationdate;
  const usesLeft = !promotion.maxuses || (promotion.uses ?? 0) < promotion.maxuses;
  const listed = promotion.appliesto.split(',').map((token) => token.trim()).includes(String(pid));
  return started && notExpired && usesLeft && listed ? promotion : null;
}

/** What the order must cost, from the server's own catalogue answer: plan + chosen options − accepted promotion. */
function expectedAmountCents(world: CheckoutWorld, request: CreateOrderRequest): number | null {
  const fromLink = !world.formShown;
  const product = fromLink ? world.linkedProduct : world.catalogue.get(pidOf(request));
  if (!product || product.pid !== pidOf(request)) return null;
  const key = cycleKey(product.billingcycle);
  const priceOf = (pricing: CheckoutProduct['pricing']) => (pricing[request.currency] as Record<string, number> | undefined)?.[key];
  const price = priceOf(product.pricing);
  if (typeof price !== 'number' || price < 0) return null;
  const optionCents = (id: number, chosen: 0 | 1 | undefined) => {
    const found = chosen ? product.configoptions.find((candidate) => candidate.id === id) : undefined;
    const value = found ? priceOf(found.pricing) : undefined;
    return typeof value === 'number' && value >= 0 ? cents(value) : 0;
  };
  const subtotal = cents(price) + optionCents(2, request.configoptions?.['2']) + optionCents(4, request.configoptions?.['4']);
  const promotion = request.promocode ? promotionAccepted(world.lookups.get(request.promocode), pidOf(request)) : null;
  if (!promotion) return subtotal;
  const off = promotion.type === 'Percentage' ? Math.round((subtotal * promotion.value) / 100 + 1e-6) : cents(promotion.amounts![request.currency]);
  // A discount never takes more than the amount (a 150 % or a 15-euro code on a 12.99 plan makes it free).
  return subtotal - Math.min(off, subtotal);
}

/** The order requests sent during this step. */
const startedNow = (step: Step<CheckoutWorld>) => step.server.startedAt('createOrder', step.index).map((call) => call.input as CreateOrderRequest);
const money = (value: number) => value.toFixed(2);

/** The promises a product owner reads; each is its own property. */
const invariants: Invariant<CheckoutWorld>[] = [
  {
    sentence: 'a total is never below zero',
    broken: (step) => {
      const shown = shownTotal(step.after);
      if (shown !== null && shown < 0) return `the form shows ${money(shown)}`;
      const negative = startedNow(step).find((request) => request.amount < 0);
      return negative ? `an order for ${money(negative.amount)} was sent` : null;
    },
  },
  {
    sentence: 'the amount sent is the amount shown',
    broken: (step) => {
      for (const request of startedNow(step)) {
        const shown = step.world.lastShownTotal;
        // A deep link orders before any form is shown; its amount is checked against the catalogue instead.
        if (shown !== null && cents(request.amount) !== cents(shown)) return `the form showed ${money(shown)} but ${money(request.amount)} was sent`;
      }
      return null;
    },
  },
  {
    sentence: 'an order costs the catalogue price of what was chosen, less only a promotion that applies, or the new total the shopper confirmed',
    broken: (step) => {
      // An order sent by confirming the server's new total is held to that total by "the amount sent is the amount shown".
      if (step.world.confirmedAtStep === step.index) return null;
      for (const request of startedNow(step)) {
        const expected = expectedAmountCents(step.world, request);
        if (expected === null) return `plan ${request.pid} has no price in ${request.currency} in the catalogue, yet an order for ${money(request.amount)} was sent`;
        if (cents(request.amount) !== expected) return `plan ${request.pid} ${JSON.stringify(request.configoptions)} ${request.promocode ?? 'no promo'} in ${request.currency} costs ${money(expected / 100)}, but ${money(request.amount)} was sent`;
      }
      return null;
    },
  },
  {
    sentence: 'a refused promo never discounts',
    broken: (step) => {
      const context = step.after.context as CheckoutContext;
      if (step.after.matches('ready') && context.quote && context.quote.discount !== 0 && (context.promoError !== null || context.promotion === null)) {
        return `the form shows a discount of ${money(context.quote.discount)} while the promo is ${context.promoError ? 'refused' : 'not applied'}`;
      }
      for (const request of startedNow(step)) {
        if (request.promocode && !promotionAccepted(step.world.lookups.get(request.promocode), pidOf(request))) return `the order for plan ${request.pid} carries promo ${request.promocode}, which does not apply to it`;
      }
      return null;
    },
  },
  {
    sentence: 'one order per Idempotency-Key',
    broken: (step) => {
      const seen = new Map<string, string>();
      for (const request of step.server.calls.filter((call) => call.actor === 'createOrder').map((call) => call.input as CreateOrderRequest)) {
        if (!request.idempotencyKey) return 'an order was sent without an Idempotency-Key';
        const { idempotencyKey, ...body } = request;
        const text = JSON.stringify(body);
        const earlier = seen.get(idempotencyKey);
        if (earlier !== undefined && earlier !== text) return `key ${idempotencyKey} was sent with two different orders: ${earlier} and ${text}`;
        seen.set(idempotencyKey, text);
      }
      return null;
    },
  },
  {
    sentence: 'a re-submit while the order is being placed creates no second order',
    broken: (step) => {
      const orders = step.server.calls.filter((call) => call.actor === 'createOrder');
      for (const call of orders.filter((candidate) => candidate.step === step.index)) {
        const request = call.input as CreateOrderRequest;
        // A request the machine stopped waiting for may still reach the server; only the same key and body is the same order.
        const unanswered = orders.find((earlier) => earlier !== call && earlier.step <= call.step && !earlier.answered && JSON.stringify(earlier.input) !== JSON.stringify(request));
        if (unanswered) return `a second order (key ${request.idempotencyKey}) was sent while order key ${(unanswered.input as CreateOrderRequest).idempotencyKey} had no answer yet`;
      }
      if (step.label === 'shopper submits' && startedNow(step).length > 0 && !step.before.matches('ready')) return `a submit outside the form sent an order (state ${JSON.stringify(step.before.value)})`;
      return null;
    },
  },
  {
    sentence: 'only a plan on offer is ordered',
    broken: (step) => {
      for (const request of startedNow(step)) {
        const deepLink = !step.world.formShown;
        if (deepLink && String(request.pid) !== step.world.query?.pid) return `the link asked for plan ${step.world.query?.pid ?? '?'} but plan ${request.pid} was ordered`;
        if (!deepLink && !step.world.offeredPids.includes(pidOf(request))) return `plan ${request.pid} was ordered, the form offers ${step.world.offeredPids.join(', ')}`;
      }
      return null;
    },
  },
  {
    sentence: 'an order is paid on an offered gateway that takes its currency',
    broken: (step) => {
      for (const request of startedNow(step)) {
        const { gateways } = step.world;
        const gateway = gateways.find((candidate) => candidate.module === request.paymentmethod);
        if (!gateway) return `the order names gateway "${request.paymentmethod}", the server offers ${gateways.map((g) => g.module).join(', ') || 'none'}`;
        const takes = (candidate: CheckoutGateway) => !candidate.currencies || candidate.currencies.includes(request.currency);
        if (!takes(gateway)) return `gateway ${gateway.module} takes ${gateway.currencies!.join(', ')}, the order is in ${request.currency}`;
      }
      return null;
    },
  },
  {
    sentence: 'the shopper is sent to the payment page of the order just created, once',
    broken: (step) => {
      const { redirects, createdLinks } = step.world;
      if (redirects.length > 1) return `sent to ${redirects.length} payment pages`;
      if (redirects[0] !== undefined && redirects[0] !== createdLinks.at(-1)) return `sent to ${redirects[0] || '(empty link)'}, the order's link is ${createdLinks.at(-1) ?? 'none'}`;
      return null;
    },
  },
];

export const checkoutWalks: WalkSpec<CheckoutWorld, CheckoutStart> = {
  machine: 'checkout',
  startTime: CHECKOUT_WALK_NOW,
  start: starts as fc.Arbitrary<CheckoutStart>,
  begin(start: CheckoutStart, server: WalkServer, clock: WalkClock) {
    let keys = 0;
    const world: CheckoutWorld = {
      query: start.query,
      catalogue: new Map(),
      linkedProduct: null,
      offeredPids: [],
      gateways: [],
      lookups: new Map(),
      lastShownTotal: null,
      formShown: false,
      confirmedAtStep: null,
      createdLinks: [],
      redirects: [],
    };
    const actor = createActor(checkoutUnderWalk(server, world, () => `key-${++keys}`), {
      input: { query: start.query, user: start.user, now: () => clock.now },
      clock,
    });
    return {
      actor,
      world,
      observe(step) {
        // What the shopper saw when acting: the form's total just before this step.
        const shown = shownTotal(step.before);
        if (shown !== null) step.world.lastShownTotal = shown;
        if (step.before.matches('ready')) step.world.formShown = true;
        if (step.label === 'shopper confirms the new total') step.world.confirmedAtStep = step.index;
      },
    };
  },
  commands,
  answers,
  invariants,
};
