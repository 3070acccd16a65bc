import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { checkoutMachineDocs } from '../../../machines/checkout.docs';
import {
  checkoutMachine,
  type CheckoutContext,
  type CheckoutGateway,
  type CheckoutInput,
  type CheckoutProduct,
  type CheckoutUser,
  type SavedOrder,
  type SavedOrderStatus,
} from '../../../machines/checkout.machine';
import type { PlaceOrderInput, PlaceOrderOutput } from '../../../machines/place-order.machine';
import { entryQuery } from '../../../src/domain/entry-query';
import type { PromotionLookup } from '../../../src/domain/promotion';
import { SEEDED_PLANS, contractPricing, seededPromotionLookup } from '../../../tests/facts/catalogue';
import type { MachineModel } from '../graph';

/** 15 January 2026, noon UTC: the model's fixed clock. */
export const CHECKOUT_MODEL_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The seeded retail plans (demo.yaml, as tests/facts/catalogue.ts writes them out), then a fourth product that is never offered. */
export const modelProducts: CheckoutProduct[] = [
  ...SEEDED_PLANS.map(({ cycleText: _cycleText, pricing, configoptions, ...plan }) => ({
    ...plan,
    pricing: contractPricing(pricing),
    configoptions: configoptions.map((option) => ({ ...option, pricing: contractPricing(option.pricing) })),
  })),
  { pid: 4, name: 'Trial', description: 'never offered', billingcycle: 'Monthly', pricing: { EUR: { monthly: 1 }, GBP: { monthly: 1 } }, configoptions: [] },
];

export const modelGateways: CheckoutGateway[] = [
  { module: 'sandbox', displayname: 'Card', type: 'CreditCard' },
  { module: 'coinbase', displayname: 'Crypto', type: 'Cryptocurrency' },
];

/**
 * The seeded codes the shopper types: WELCOME10 fits every plan (a plan change keeps it), HALFYEAR20 only
 * 6 Months (plans 1 and 3 refuse it). getPromotion answers each as the seed holds it.
 */
export const MODEL_PROMO_CODES = ['WELCOME10', 'HALFYEAR20'] as const;
/** HALFYEAR20 as getPromotion answers it: 20 % off 6 Months only. */
export const modelPromotionLookup: PromotionLookup = seededPromotionLookup('HALFYEAR20');
/** getPromotion's answer for a typed seeded code. */
const lookupOf = (code: string): PromotionLookup => seededPromotionLookup(code);

export const modelGuest: CheckoutUser = { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' };
/** A signed-in client (a positive user id), as the auth machine hands it over. */
export const modelClient: CheckoutUser = { userid: 42, email: 'client@example.com' };
/** placeOrder's ends as the checkout receives them (its own paths are in place-order.model.ts). */
export const modelPlaced: PlaceOrderOutput = {
  outcome: 'payment',
  user: modelGuest,
  order: { orderid: 501, invoiceid: 601, serviceid: 701, fraud: false },
  payment: { gateway: 'sandbox', link: 'https://pay.example/601', deadline: '2026-01-16T12:00:00.000Z' },
  total: 10,
};
export const modelPlacedFlagged: PlaceOrderOutput = { outcome: 'waiting', user: modelGuest, order: { orderid: 502, invoiceid: 602, serviceid: 702, fraud: true }, payment: null, total: 10 };
export const modelPlaceFailed: PlaceOrderOutput = { outcome: 'failed', user: null, error: 'Bad gateway' };
export const modelPlaceCancelled: PlaceOrderOutput = { outcome: 'cancelled', user: modelGuest };

const base = { now: () => CHECKOUT_MODEL_NOW };

/** The order whose payment this browser saved (the payment page left by the back button). */
export const modelSavedOrder: SavedOrder = { orderid: 301, invoiceid: 401 };

/** A plain visit, a link with an automatic order (with and without promo code), and both as a signed-in client. */
export const checkoutModelInputs: { name: string; input: CheckoutInput }[] = [
  { name: 'visit', input: { ...base, query: { aff_id: 'partner-1' } } },
  {
    name: 'auto-order link',
    input: { ...base, query: { email: 'ann@example.com', pid: '2', auto_redirect: 'true', promocode: 'HALFYEAR20', extraconnect: 'true', aff_id: 'partner-1' } },
  },
  { name: 'auto-order link without promo', input: { ...base, query: { email: 'ann@example.com', pid: '2', auto_redirect: 'true' } } },
  { name: 'auto-order link without e-mail', input: { ...base, query: { pid: '2', auto_redirect: 'true' } } },
  { name: 'auto-order link with a pid that is not a number', input: { ...base, query: entryQuery({ email: 'ann@example.com', pid: 'two', auto_redirect: 'true' }) } },
  { name: 'return with an unpaid order', input: { ...base, savedOrder: modelSavedOrder, query: {} } },
  { name: 'signed-in client follows an auto-order link', input: { ...base, user: modelClient, query: { email: 'client@example.com', pid: '2', auto_redirect: 'true' } } },
  { name: 'signed-in client visit', input: { ...base, user: modelClient, query: { aff_id: 'partner-1' } } },
];

const never = () => new Promise<never>(() => {});

/** The real machine with actors that never settle and actions that do nothing. */
const machine = checkoutMachine.provide({
  actors: {
    loadProducts: fromPromise<CheckoutProduct[]>(never),
    loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(never),
    loadCurrency: fromPromise<{ country: string }>(never),
    checkFraud: fromPromise<{ valid: boolean }>(never),
    lookupPromotion: fromPromise<PromotionLookup, { code: string }>(never),
    loadProduct: fromPromise<CheckoutProduct | null, { pid: number }>(never),
    checkSavedOrder: fromPromise<SavedOrderStatus, SavedOrder>(never),
    cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(never),
    // placeOrder is an inert child here: its ends are the events below (xstate.done.actor.placeOrder).
    placeOrder: fromPromise<PlaceOrderOutput, PlaceOrderInput>(never) as never,
  },
  actions: { clearClientProduct: () => {}, redirectToPayment: () => {}, goToWaiting: () => {}, forgetSavedOrder: () => {}, resumeUnpaidOrder: () => {} },
});

const done = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, message: string): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error: new Error(message) });

const loadingEvents = (context: CheckoutContext, withFailures: boolean): AnyEventObject[] => {
  // One load answers at a time, in a fixed order, so the walk stays a line.
  if (!context.loaded.products) {
    return [done('loadProducts', modelProducts), ...(withFailures ? [done('loadProducts', []), failed('loadProducts', 'Bad gateway')] : [])];
  }
  if (!context.loaded.gateways) {
    return [done('loadGateways', { gateways: modelGateways, defaultGateway: 'sandbox' }), ...(withFailures ? [failed('loadGateways', 'Bad gateway')] : [])];
  }
  if (!context.loaded.currency) return [done('loadCurrency', { country: 'GB' }), ...(withFailures ? [failed('loadCurrency', 'Bad gateway')] : [])];
  return [done('checkFraud', { valid: true }), ...(withFailures ? [done('checkFraud', { valid: false }), failed('checkFraud', 'Bad gateway')] : [])];
};

/** The loads answered as on the main line: two gateways, GBP, no fraud flag. */
const isMainLine = (context: CheckoutContext) =>
  context.query.auto_redirect === undefined && context.gateways.length === 2 && context.currency === 'GBP' && !context.fraudCheck;

/**
 * The signed-in client's form, one change at a time: a code refused, proxy protection chosen, the
 * reminder unticked, then the order submitted; a refused order shows the form again as it was
 * (the eventless restores of the add-on, the refused code and the unticked reminder).
 */
function signedInFormEvents(snapshot: AnyMachineSnapshot, context: CheckoutContext): AnyEventObject[] {
  const promo = (state: string) => snapshot.matches({ ready: { promo: state } });
  if (context.submitError !== null) return [];
  if (promo('idle')) return [context.promoCode === '' ? { type: 'promo.change', code: 'SAVE10' } : { type: 'promo.apply' }];
  if (promo('checking')) return [failed('lookupPromotion', 'Promotion code not found.')];
  if (!context.proxyProtection) return [{ type: 'proxyProtection.toggle' }];
  if (context.remind) return [{ type: 'remind.toggle' }];
  return [{ type: 'order.submit' }];
}

/** The banner of the saved order: continue or cancel it (its form is the visit's, walked there). */
function unpaidOrderEvents(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  if (snapshot.matches({ ready: { unpaidOrder: 'shown' } })) return [{ type: 'unpaidOrder.continue' }, { type: 'unpaidOrder.cancel' }];
  if (snapshot.matches({ ready: { unpaidOrder: 'confirmingCancel' } })) return [{ type: 'unpaidOrder.confirmCancel' }, { type: 'unpaidOrder.keep' }];
  if (snapshot.matches({ ready: { unpaidOrder: 'cancelling' } })) {
    return [done('cancelUnpaidOrder', { orderid: modelSavedOrder.orderid, status: 'Cancelled' }), failed('cancelUnpaidOrder', 'Only a pending order can be cancelled.')];
  }
  return [];
}

function readyEvents(snapshot: AnyMachineSnapshot, context: CheckoutContext): AnyEventObject[] {
  if (!isMainLine(context)) return [];
  if (context.savedOrder !== null) return unpaidOrderEvents(snapshot);
  if (context.user?.userid === modelClient.userid) return signedInFormEvents(snapshot, context);
  const promo = (state: string) => snapshot.matches({ ready: { promo: state } });
  const addonsOff = !context.extraConnection && !context.proxyProtection;
  const plainPromo = promo('idle') && context.promoCode === '';
  const untouched = addonsOff && context.selectedGateway === 'sandbox' && plainPromo && context.email === '' && context.submitError === null;
  // Unticked "Remind me if I don't finish" is only ticked again here; its effect on the order is a unit test.
  if (!context.remind) return [{ type: 'remind.toggle' }];
  const events: AnyEventObject[] = [];
  if (untouched && context.selectedPid === 1) {
    // The current gateway chosen again, and an empty code applied: guards seen false.
    events.push({ type: 'remind.toggle' }, { type: 'gateway.select', module: 'sandbox' }, { type: 'promo.apply' });
  }
  // Each part of the form is varied from the untouched form only, so the walk stays small.
  if (context.selectedPid === 1 && context.selectedGateway === 'sandbox' && plainPromo && context.email === '' && context.submitError === null) {
    events.push({ type: 'extraConnection.toggle' }, { type: 'proxyProtection.toggle' });
  }
  if (untouched || (addonsOff && plainPromo && context.email === '' && context.selectedGateway === 'coinbase')) {
    events.push({ type: 'gateway.select', module: context.selectedGateway === 'sandbox' ? 'coinbase' : 'sandbox' });
  }
  if (untouched || promo('applied') || promo('rejected')) {
    events.push(...[1, 2, 3].map((pid) => ({ type: 'plan.select', pid })));
  }
  if (addonsOff && context.selectedGateway === 'sandbox' && context.email === '' && context.submitError === null) {
    if (plainPromo) events.push(...MODEL_PROMO_CODES.map((code) => ({ type: 'promo.change', code })));
    if (promo('idle') && context.promoCode !== '') events.push({ type: 'promo.apply' });
    if (promo('applied') || promo('rejected')) events.push({ type: 'promo.change', code: '' }, { type: 'promo.apply' });
    if (promo('applied')) events.push({ type: 'promo.remove' });
    if (promo('checking')) {
      events.push(done('lookupPromotion', lookupOf(context.promoCode)), failed('lookupPromotion', 'Promotion code not found.'), { type: 'order.submit' });
    }
  }
  if (addonsOff && context.selectedGateway === 'sandbox' && context.selectedPid === 1 && (plainPromo || promo('applied'))) {
    if (context.email === '' || context.emailValid || context.emailError !== null) {
      // Asked for after a submit (required), the field is empty: clearing it is no change.
      const required = snapshot.matches({ ready: { email: 'required' } });
      events.push(...(required ? ['ann@', 'ann@example.com'] : ['', 'ann@', 'ann@example.com']).map((email) => ({ type: 'email.change', email })));
    }
    // A submit with an invalid e-mail is refused by both submit guards; without one it asks for it.
    if (context.emailValid || context.user !== null || context.email === 'ann@' || (context.email === '' && plainPromo)) events.push({ type: 'order.submit' });
  }
  return events;
}

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = snapshot.context as CheckoutContext;
  if (snapshot.matches('loading')) return loadingEvents(context, context.query.auto_redirect === undefined && context.savedOrder === null);
  if (snapshot.matches('checkingSavedOrder')) {
    const answer = (status: SavedOrderStatus['status']) => done('checkSavedOrder', { orderid: modelSavedOrder.orderid, status });
    return [answer('Pending'), answer('Active'), answer('Fraud'), failed('checkSavedOrder', 'Bad gateway')];
  }
  if (snapshot.matches({ autoOrder: 'loadingProduct' })) return [done('loadProduct', modelProducts[1]), done('loadProduct', null), failed('loadProduct', 'Not found')];
  if (snapshot.matches({ autoOrder: 'checkingPromo' })) {
    // The link's code as the seed holds it, an expired one (EXPIRED15: refused), and an unknown one.
    return [done('lookupPromotion', lookupOf(context.query.promocode!)), done('lookupPromotion', lookupOf('EXPIRED15')), failed('lookupPromotion', 'Promotion code not found.')];
  }
  if (snapshot.matches({ autoOrder: 'placingOrder' }) || snapshot.matches('submitting')) {
    // placeOrder ends with the user it placed for: the signed-in client as given, else the guest it identified.
    const asClient = context.user?.userid === modelClient.userid;
    const ends = [modelPlaced, modelPlacedFlagged, modelPlaceFailed, modelPlaceCancelled].map((end) => (asClient ? { ...end, user: modelClient } : end));
    const placed = ends.map((end) => done('placeOrder', end));
    // A second submit while the order is placed is ignored (one order).
    return snapshot.matches('submitting') ? [...placed, { type: 'order.submit' }] : placed;
  }
  if (snapshot.matches('ready')) return readyEvents(snapshot, context);
  return [];
}

function describeResult(event: AnyEventObject): string | null {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
  const error = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
  if (error) return `${error[1]} fails ("${(event.error as Error).message}")`;
  if (!done) return null;
  const output = event.output as never;
  switch (done[1]) {
    case 'loadProducts':
      return (output as CheckoutProduct[]).length ? `${(output as CheckoutProduct[]).length} products load` : 'no products load';
    case 'loadGateways':
      return 'gateways load';
    case 'loadCurrency':
      return `country is ${(output as { country: string }).country}`;
    case 'checkFraud':
      return (output as { valid: boolean }).valid ? 'fraud check passes' : 'fraud check flags the visitor';
    case 'lookupPromotion':
      return `promo code ${(output as PromotionLookup).promotions[0]?.code ?? ''} found`;
    case 'checkSavedOrder':
      return `the saved order is ${(output as SavedOrderStatus).status}`;
    case 'cancelUnpaidOrder':
      return 'the unpaid order is cancelled';
    case 'loadProduct':
      return output ? `product ${(output as CheckoutProduct).pid} found` : 'product not found';
    case 'placeOrder':
      return {
        payment: 'order placed with payment link',
        waiting: 'order placed without link (flagged)',
        failed: `order not placed ("${(output as { error?: string }).error}")`,
        cancelled: 'new price refused',
      }[(output as PlaceOrderOutput).outcome];
    default:
      return `${done[1]} done`;
  }
}

function describeEvent(event: AnyEventObject): string {
  switch (event.type) {
    case 'plan.select':
      return `select plan ${String(event.pid)}`;
    case 'extraConnection.toggle':
      return 'toggle extra connection';
    case 'proxyProtection.toggle':
      return 'toggle proxy protection';
    case 'promo.change':
      return event.code ? `type promo ${String(event.code)}` : 'clear promo code';
    case 'promo.apply':
      return 'apply promo';
    case 'email.change':
      return event.email ? `type e-mail "${String(event.email)}"` : 'clear e-mail';
    case 'gateway.select':
      return `choose gateway ${String(event.module)}`;
    case 'remind.toggle':
      return 'toggle "Remind me if I don\'t finish"';
    case 'order.submit':
      return 'submit order';
    case 'promo.remove':
      return 'remove promo';
    case 'unpaidOrder.continue':
      return 'continue the unpaid order';
    case 'unpaidOrder.cancel':
      return 'cancel the unpaid order';
    case 'unpaidOrder.confirmCancel':
      return 'confirm the cancel';
    case 'unpaidOrder.keep':
      return 'keep the order';
    default:
      return describeResult(event) ?? event.type;
  }
}

export const checkoutModel: MachineModel = {
  name: 'checkout',
  machine,
  inputs: checkoutModelInputs,
  events,
  describeEvent,
  expectedPaths: 59,
  expectedPairs: { walked: 124, total: 367 },
  docs: checkoutMachineDocs,
  unreachable: {
    'checkout.ready.promo.rejected → checkout.ready.promo.checking on promo.apply [hasPromoCode]: false':
      'In rejected the code is the refused one and never empty: typing (promo.change) leaves rejected for idle.',
    'checkout.ready.email.required → checkout.ready.email.empty on email.change [isEmptyEmail]':
      'In required the field is empty (nothing was typed): clearing an empty field sends no change, and typing leaves required for invalid or valid.',
    'checkout.ready.email.required → checkout.ready.email.empty on email.change [isEmptyEmail]: true':
      'In required the field is empty (nothing was typed): clearing an empty field sends no change, and typing leaves required for invalid or valid.',
  },
};
