/**
 * Random walks of the checkout: a shopper clicking and typing anything in any order, a server giving
 * good and hostile answers (an empty or odd catalogue, a negative price, a product not offered, a
 * promotion that does not apply, a 409 with a higher or lower amount, errors), checked against what a
 * product owner promises. Expected figures come from the walk's own catalogue answers, never from
 * the machine's quote. The server's answers are in checkout-answers.ts, the promises in checkout-invariants.ts.
 */
import fc from 'fast-check';
import { assign, createActor } from 'xstate';
import { checkoutMachine, type CheckoutInput, type CheckoutUser } from '../../machines/checkout.machine';
import { placeOrderMachine } from '../../machines/place-order.machine';
import { checkoutAnswers } from './checkout-answers';
import { checkoutInvariants, shownTotal } from './checkout-invariants';
import { CHECKOUT_WALK_NOW, placing, type CheckoutWorld } from './checkout-world';
import { timeCommand, userCommand, type WalkServer, type WalkClock, type WalkSpec, type WalkCommand } from './harness';

// progress.ts reads the walk's catalogue and world from here.
export { walkCatalogue } from './checkout-answers';
export type { CheckoutWorld } from './checkout-world';

type Command = WalkCommand<CheckoutWorld>;

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
 * maker. The one place that knows which actors the chart invokes (the placeOrder child's included).
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
  answers: checkoutAnswers,
  invariants: checkoutInvariants,
};
