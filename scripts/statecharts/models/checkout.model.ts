import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  checkoutMachine,
  checkoutMachineDocs,
  type CheckoutContext,
  type CheckoutGateway,
  type CheckoutInput,
  type CheckoutProduct,
  type CheckoutUser,
} from '../../../machines/checkout.machine';
import type { PlaceOrderInput, PlaceOrderOutput } from '../../../machines/place-order.machine';
import type { PricingTable } from '../../../src/domain/pricing';
import type { PromotionLookup } from '../../../src/domain/promotion';
import type { MachineModel } from '../graph';

/** 15 January 2026, noon UTC: the model's fixed clock. */
export const CHECKOUT_MODEL_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

const table = (eur: number, gbp: number, cycle: 'monthly' | 'annually' | 'quarterly'): PricingTable => ({
  EUR: { [cycle]: eur },
  GBP: { [cycle]: gbp },
});

const options = (cycle: 'monthly' | 'annually') => [
  { id: 2, name: 'Extra connection', pricing: table(3, 2.5, cycle) },
  { id: 4, name: 'Proxy protection', pricing: table(2, 1.5, cycle) },
];

/** Four catalogue products: only the first three are offered. */
export const modelProducts: CheckoutProduct[] = [
  { pid: 1, name: 'Monthly', description: '1 month', billingcycle: 'Monthly', pricing: table(10, 9, 'monthly'), configoptions: options('monthly') },
  { pid: 2, name: 'Yearly', description: '12 months', billingcycle: 'Annually', pricing: table(100, 90, 'annually'), configoptions: options('annually') },
  { pid: 3, name: 'Quarterly', description: '3 months', billingcycle: 'Quarterly', pricing: table(25, 22, 'quarterly'), configoptions: [] },
  { pid: 4, name: 'Trial', description: 'never offered', billingcycle: 'Monthly', pricing: table(1, 1, 'monthly'), configoptions: [] },
];

export const modelGateways: CheckoutGateway[] = [
  { module: 'sandbox', displayname: 'Card', type: 'CreditCard' },
  { module: 'coinbase', displayname: 'Crypto', type: 'Cryptocurrency' },
];

/** SAVE10: 10 % off plans 1 and 2, no dates. */
export const modelPromotionLookup: PromotionLookup = {
  totalresults: 1,
  promotions: [{ code: 'SAVE10', type: 'Percentage', value: 10, appliesto: '1,2', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null }],
};

export const modelGuest: CheckoutUser = { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' };
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

const base = { now: () => CHECKOUT_MODEL_NOW, createIdempotencyKey: () => 'key-1' };

/** A plain visit, a link with an automatic order (with and without promo code). */
export const checkoutModelInputs: { name: string; input: CheckoutInput }[] = [
  { name: 'visit', input: { ...base, query: { aff_id: 'partner-1' } } },
  {
    name: 'auto-order link',
    input: { ...base, query: { email: 'ann@example.com', pid: '2', auto_redirect: 'true', promocode: 'SAVE10', extraconnect: 'true', aff_id: 'partner-1' } },
  },
  { name: 'auto-order link without promo', input: { ...base, query: { email: 'ann@example.com', pid: '2', auto_redirect: 'true' } } },
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
    // placeOrder is an inert child here: its ends are the events below (xstate.done.actor.placeOrder).
    placeOrder: fromPromise<PlaceOrderOutput, PlaceOrderInput>(never) as never,
  },
  actions: { clearClientProduct: () => {}, redirectToPayment: () => {}, goToWaiting: () => {} },
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

function readyEvents(snapshot: AnyMachineSnapshot, context: CheckoutContext): AnyEventObject[] {
  if (!isMainLine(context)) return [];
  const promo = (state: string) => snapshot.matches({ ready: { promo: state } });
  const addonsOff = !context.extraConnection && !context.proxyProtection;
  const plainPromo = promo('idle') && context.promoCode === '';
  const untouched = addonsOff && context.selectedGateway === 'sandbox' && plainPromo && context.email === '' && context.submitError === null;
  // Unticked "Remind me if I don't finish" is only ticked again here; its effect on the order is a unit test.
  if (!context.remind) return [{ type: 'remind.toggle' }];
  const events: AnyEventObject[] = [];
  if (untouched && context.selectedPid === 1) events.push({ type: 'remind.toggle' });
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
    if (plainPromo) events.push({ type: 'promo.change', code: 'SAVE10' });
    if (promo('idle') && context.promoCode !== '') events.push({ type: 'promo.apply' });
    if (promo('applied') || promo('rejected')) events.push({ type: 'promo.change', code: '' }, { type: 'promo.apply' });
    if (promo('checking')) {
      events.push(done('lookupPromotion', modelPromotionLookup), failed('lookupPromotion', 'Promotion code not found.'), { type: 'order.submit' });
    }
  }
  if (addonsOff && context.selectedGateway === 'sandbox' && context.selectedPid === 1 && (plainPromo || promo('applied'))) {
    if (context.email === '' || context.emailValid || context.emailError !== null) {
      events.push(...['', 'ann@', 'ann@example.com'].map((email) => ({ type: 'email.change', email })));
    }
    if (context.emailValid || context.user !== null) events.push({ type: 'order.submit' });
  }
  return events;
}

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = snapshot.context as CheckoutContext;
  if (snapshot.matches('loading')) return loadingEvents(context, context.query.auto_redirect === undefined);
  if (snapshot.matches({ autoOrder: 'loadingProduct' })) return [done('loadProduct', modelProducts[1]), done('loadProduct', null), failed('loadProduct', 'Not found')];
  if (snapshot.matches({ autoOrder: 'checkingPromo' })) return [done('lookupPromotion', modelPromotionLookup), failed('lookupPromotion', 'Promotion code not found.')];
  if (snapshot.matches({ autoOrder: 'placingOrder' }) || snapshot.matches('submitting')) {
    const placed = [done('placeOrder', modelPlaced), done('placeOrder', modelPlacedFlagged), done('placeOrder', modelPlaceFailed), done('placeOrder', modelPlaceCancelled)];
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
      return 'promo code found';
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
  expectedPaths: 35,
  docs: checkoutMachineDocs,
};
