/**
 * The checkout walk's invariants: the promises a product owner reads, each its own property. Expected amounts come
 * from the walk's own catalogue and lookup answers (the spec's price and promotion rules), never from the machine's quote.
 */
import type { AnyMachineSnapshot } from 'xstate';
import type { CheckoutContext, CheckoutGateway, CheckoutProduct, CreateOrderRequest } from '../../machines/checkout.machine';
import type { PlaceOrderContext } from '../../machines/place-order.machine';
import type { Promotion, PromotionLookup } from '../../src/domain/promotion';
import { TODAY, placing, type CheckoutWorld } from './checkout-world';
import type { Invariant, Step } from './harness';

/** The plan an order is for (the contract allows a list, for a reseller's order; the checkout orders one). */
const pidOf = (request: CreateOrderRequest) => (Array.isArray(request.pid) ? Number.NaN : request.pid);

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
export const checkoutInvariants: Invariant<CheckoutWorld>[] = [
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
