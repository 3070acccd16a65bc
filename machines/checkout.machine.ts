/**
 * The checkout: loads the catalogue, lets the shopper choose a plan, add-ons, promo code, e-mail and
 * gateway, creates the order and hands over to the payment page (or the waiting step); the automatic
 * order from URL parameters is its own branch that stops on the form with its reason. An order this
 * browser left unpaid is offered first: continue to its payment, or cancel it.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { components } from '../src/api/schema';
import type { OrderStatus } from '../src/api/client';
import { MAX_CHECKOUT_PRODUCTS } from '../src/domain/constants';
import { currencyForCountry, DEFAULT_COUNTRY, type Currency } from '../src/domain/currency';
import { isValidEmail } from '../src/domain/email';
import { isEntryFlagOn, type EntryQuery } from '../src/domain/entry-query';
import { promotionRefusalMessage, type MessageKey } from '../src/domain/messages';
import { orderDraftOf, quoteChoice, type OrderChoice } from '../src/domain/order-draft';
import type { OrderQuote, PricedOption, PricedProduct, PricingTable } from '../src/domain/pricing';
import { acceptPromotion, isoDate, type Promotion, type PromotionLookup } from '../src/domain/promotion';
import { placeOrderMachine, type OrderPayment, type OrderUser, type PlacedOrder, type PlaceOrderInput, type PlaceOrderOutput } from './place-order.machine';

export type { CreatedOrder, CreateOrderRequest, OrderDraft } from './place-order.machine';

type Schemas = components['schemas'];

/** A configurable option of a product (the contract's ConfigOption; id 2 extra connection, id 4 proxy protection), priced by the domain's partial table. */
export type CheckoutOption = Pick<Schemas['ConfigOption'], 'id' | 'name'> & PricedOption & { pricing: PricingTable };

/** A product as the catalogue returns it (the contract's Product, as far as the checkout reads it). */
export type CheckoutProduct = Pick<Schemas['Product'], 'pid' | 'name' | 'description' | 'billingcycle'> & PricedProduct & { configoptions: CheckoutOption[] };

/** A payment gateway as the catalogue returns it (the contract's Gateway); `currencies` absent means any. */
export type CheckoutGateway = Omit<Schemas['Gateway'], 'currencies'> & Partial<Pick<Schemas['Gateway'], 'currencies'>>;

/** True when the gateway takes payments in the currency. */
export function gatewayTakes(gateway: CheckoutGateway, currency: string): boolean {
  return !gateway.currencies || gateway.currencies.includes(currency);
}

/** The selected gateway if it takes the currency, else the first one that does. */
function gatewayFor(gateways: CheckoutGateway[], preferred: string | null, currency: string): string | null {
  const chosen = gateways.find((gateway) => gateway.module === preferred);
  if (chosen && gatewayTakes(chosen, currency)) return chosen.module;
  return gateways.find((gateway) => gatewayTakes(gateway, currency))?.module ?? null;
}

/** The user the order is placed for: logged in, or a guest identified by e-mail (authMiddleware). */
export type CheckoutUser = OrderUser;

/** Why the promo code is not applied: a message key, or the server's own message when the lookup failed. */
export type PromoError = { key: MessageKey } | { serverMessage: string };

/** The created order (spec section 4). */
export type CheckoutOrder = PlacedOrder;

/** The payment link for the chosen gateway and its deadline (ISO date-time, one day ahead). */
export type CheckoutPayment = OrderPayment;

/** The order whose payment this browser saved (the payment page left by the back button, or another tab). */
export interface SavedOrder {
  orderid: number;
  invoiceid: number | null;
}

/** What the server says of the saved order (orderStatus). */
export interface SavedOrderStatus {
  orderid: number;
  status: OrderStatus;
}

/**
 * Why the automatic order stopped on the form: the link's e-mail, its plan, its promo code (with the
 * refusal), or a failure with the server's message.
 */
export type AutoOrderStop = { reason: 'email' } | { reason: 'plan' } | { reason: 'promo'; error: PromoError } | { reason: 'failed'; error: string };

/** The automatic order's own product and promotion (spec section 5). */
export interface AutoOrder {
  product: CheckoutProduct;
  promotion: Promotion | null;
}

export interface CheckoutInput {
  /** The link's query, validated on entry (src/domain entryQuery): the chart trusts its shapes. */
  query?: EntryQuery;
  /** The logged-in (or already identified) user, from the auth machine. */
  user?: CheckoutUser | null;
  /** The clock; tests pass a fixed one. */
  now?: () => number;
  /** The order of the payment this browser saved, if any: checked before the form is shown. */
  savedOrder?: SavedOrder | null;
  /** Why an automatic order of this link stopped (the form it fell back to says so). */
  autoOrderStop?: AutoOrderStop | null;
  /** The first screen's data when already known (server-rendered page): the chart starts loaded, with no call. */
  preloaded?: CheckoutPreload | null;
}

/** What `loading` would fetch, known beforehand: products (an empty list is still loaded, to end in notFound), gateways, the visitor's country, the fraud flag. */
export interface CheckoutPreload {
  products: CheckoutProduct[];
  gateways: CheckoutGateway[];
  defaultGateway: string;
  /** The country the machine prices by (loadCurrency's output). */
  country: string;
  /** True when the visitor's fraud check came back not valid (the context's flag). */
  fraudCheck: boolean;
}

/** The context's loaded parts from a preload: as loading's onDone actions would have set them. */
function preloadedContext(preloaded: CheckoutPreload, query: EntryQuery): Partial<CheckoutContext> {
  const products = preloaded.products.slice(0, MAX_CHECKOUT_PRODUCTS);
  const currency = currencyForCountry(preloaded.country);
  return {
    products,
    selectedPid: initialSelectedPid(products, query),
    gateways: preloaded.gateways,
    selectedGateway: gatewayFor(preloaded.gateways, preloaded.defaultGateway, currency),
    country: preloaded.country,
    currency,
    fraudCheck: preloaded.fraudCheck,
    // An empty catalogue is left to loadProducts, whose empty answer ends in notFound.
    loaded: { products: products.length > 0, gateways: true, currency: true, fraudCheck: true },
  };
}

export interface CheckoutContext {
  now: () => number;
  query: EntryQuery;
  user: CheckoutUser | null;
  loaded: { products: boolean; gateways: boolean; currency: boolean; fraudCheck: boolean };
  /** The first three catalogue products. */
  products: CheckoutProduct[];
  selectedPid: number | null;
  extraConnection: boolean;
  proxyProtection: boolean;
  /** "Remind me if I don't finish" (ticked by default). */
  remind: boolean;
  gateways: CheckoutGateway[];
  selectedGateway: string | null;
  country: string;
  currency: Currency;
  /** True when the visitor's fraud check came back not valid. */
  fraudCheck: boolean;
  promoCode: string;
  /** A pre-filled code still waits for its first check. */
  promoCheckPending: boolean;
  promoLookup: PromotionLookup | null;
  promotion: Promotion | null;
  promoError: PromoError | null;
  email: string;
  emailValid: boolean;
  emailError: MessageKey | null;
  affId: string | null;
  quote: OrderQuote | null;
  autoOrder: AutoOrder | null;
  order: CheckoutOrder | null;
  payment: CheckoutPayment | null;
  submitError: string | null;
  /** The saved payment's order, until the server said what became of it. */
  savedOrder: SavedOrder | null;
  /** The saved order the server holds unpaid: the banner offers to continue or cancel it. */
  unpaidOrder: SavedOrder | null;
  /** The server's message when cancelling the unpaid order failed. */
  unpaidOrderError: string | null;
  /** Why the automatic order stopped on the form; null when it did not (or the shopper refused a new price). */
  autoOrderStop: AutoOrderStop | null;
}

export type CheckoutEvent =
  | { type: 'plan.select'; pid: number }
  | { type: 'extraConnection.toggle' }
  | { type: 'proxyProtection.toggle' }
  | { type: 'promo.change'; code: string }
  | { type: 'promo.apply' }
  | { type: 'promo.remove' }
  | { type: 'promo.recheck' }
  | { type: 'email.change'; email: string }
  | { type: 'gateway.select'; module: string }
  | { type: 'remind.toggle' }
  | { type: 'order.submit' }
  | { type: 'unpaidOrder.continue' }
  | { type: 'unpaidOrder.cancel' }
  | { type: 'unpaidOrder.confirmCancel' }
  | { type: 'unpaidOrder.keep' };

/** The placeOrder child's end, as the checkout's guards and actions read it. */
type PlacedEvent = { output: PlaceOrderOutput };

/** What the finished machine hands over: the order and its payment link. */
export interface CheckoutOutput {
  order: CheckoutOrder | null;
  payment: CheckoutPayment | null;
}

type GuardArgs = { context: CheckoutContext; event: CheckoutEvent };

const todayOf = (context: CheckoutContext) => isoDate(new Date(context.now()));

/** The selected product among the three offered. */
export function selectedProduct(context: Pick<CheckoutContext, 'products' | 'selectedPid'>): CheckoutProduct | null {
  return context.products.find((product) => product.pid === context.selectedPid) ?? null;
}

/** The total of the current choice (src/domain quoteChoice), or null without a priced product. */
export function quoteFor(context: CheckoutContext): OrderQuote | null {
  const choice = formChoice(context);
  return choice ? quoteChoice(choice, context.currency) : null;
}

/** The form's choice, or null without a selected product. */
function formChoice(context: CheckoutContext): OrderChoice<CheckoutProduct> | null {
  const product = selectedProduct(context);
  return product && { product, extraConnection: context.extraConnection, proxyProtection: context.proxyProtection, promotion: context.promotion, remind: context.remind };
}

/** The automatic order's choice: its product, the URL's options and promotion; a deep link has no form to untick, so the reminder stays on. */
function autoOrderChoice(context: CheckoutContext, product: CheckoutProduct = context.autoOrder!.product, promotion: Promotion | null = context.autoOrder!.promotion): OrderChoice<CheckoutProduct> {
  return { product, extraConnection: isEntryFlagOn(context.query.extraconnect), proxyProtection: isEntryFlagOn(context.query.proxyprotect), promotion, remind: true };
}

/** What placeOrder starts from: the request, and the user or the e-mail to identify. */
function placeOrderInput(context: CheckoutContext, choice: OrderChoice<CheckoutProduct>, email: string): PlaceOrderInput {
  const request = orderDraftOf(choice, { currency: context.currency, gateway: context.selectedGateway, affId: context.affId });
  return { request, user: context.user, email, now: context.now };
}

function initialSelectedPid(products: CheckoutProduct[], query: EntryQuery): number | null {
  const wanted = query.pid !== undefined ? Number(query.pid) : null;
  return products.find((product) => product.pid === wanted)?.pid ?? products[0]?.pid ?? null;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

// The gateway is not in the spec's list, but without one the order cannot be placed at all (the form says why).
const isAutoOrderRequested = (context: CheckoutContext) => context.query.auto_redirect === 'true' && context.selectedGateway !== null;
const isCatalogueLoaded = (context: CheckoutContext) => Object.values(context.loaded).every(Boolean);

/** Every guard of the checkout machine, exported for unit tests. */
export const checkoutGuards = {
  catalogueLoaded: ({ context }: GuardArgs) => isCatalogueLoaded(context),
  autoOrderRequested: ({ context }: GuardArgs) => isCatalogueLoaded(context) && isAutoOrderRequested(context),
  hasSavedOrder: ({ context }: GuardArgs) => isCatalogueLoaded(context) && context.savedOrder !== null,
  savedOrderUnpaid: (_args: GuardArgs, params: { status: SavedOrderStatus }) => params.status.status === 'Pending',
  savedOrderSettled: (_args: GuardArgs, params: { status: SavedOrderStatus }) => params.status.status === 'Active' || params.status.status === 'Cancelled',
  hasUnpaidOrder: ({ context }: GuardArgs) => context.unpaidOrder !== null,
  linkEmailInvalid: ({ context }: GuardArgs) => !isValidEmail(context.query.email ?? ''),
  linkPidInvalid: ({ context }: GuardArgs) => context.query.pid === undefined,
  linkPromotionAccepted: ({ context }: GuardArgs, params: { lookup: PromotionLookup }) =>
    context.autoOrder !== null && 'promotion' in acceptPromotion(params.lookup, context.autoOrder.product.pid, todayOf(context)),
  emailRequired: ({ context }: GuardArgs) => context.email.trim() === '' && context.autoOrderStop?.reason === 'email',
  isGuest: ({ context }: GuardArgs) => context.user === null,
  hasProducts: (_args: GuardArgs, params: { products: CheckoutProduct[] }) => params.products.length > 0,
  extraConnectionChosen: ({ context }: GuardArgs) => context.extraConnection,
  proxyProtectionChosen: ({ context }: GuardArgs) => context.proxyProtection,
  remindChosen: ({ context }: GuardArgs) => context.remind,
  isOfferedPlan: ({ context, event }: GuardArgs) =>
    event.type === 'plan.select' && event.pid !== context.selectedPid && context.products.some((product) => product.pid === event.pid),
  isOfferedGateway: ({ context, event }: GuardArgs) =>
    event.type === 'gateway.select' && event.module !== context.selectedGateway && context.gateways.some((gateway) => gateway.module === event.module && gatewayTakes(gateway, context.currency)),
  hasAppliedPromotion: ({ context }: GuardArgs) => context.promotion !== null,
  hasPromoError: ({ context }: GuardArgs) => context.promoError !== null,
  hasPendingPromoCheck: ({ context }: GuardArgs) => context.promoCheckPending && context.promoCode.trim() !== '',
  hasPromoCode: ({ context }: GuardArgs) => context.promoCode.trim() !== '',
  promotionAccepted: ({ context }: GuardArgs, params: { lookup: PromotionLookup }) =>
    context.selectedPid !== null && 'promotion' in acceptPromotion(params.lookup, context.selectedPid, todayOf(context)),
  lookupFitsSelectedPlan: ({ context }: GuardArgs) =>
    context.promoLookup !== null && context.selectedPid !== null && 'promotion' in acceptPromotion(context.promoLookup, context.selectedPid, todayOf(context)),
  hasPromoLookup: ({ context }: GuardArgs) => context.promoLookup !== null,
  isEmptyEmail: ({ context, event }: GuardArgs) => (event.type === 'email.change' ? event.email : context.email).trim() === '',
  isValidEmail: ({ context, event }: GuardArgs) => isValidEmail(event.type === 'email.change' ? event.email : context.email),
  canSubmit: ({ context }: GuardArgs) => (context.user !== null || context.emailValid) && isOrderComplete(context),
  autoProductPricedWithPromo: ({ context }: GuardArgs, params: { product: CheckoutProduct | null }) =>
    isAutoProductPriced(context, params.product) && context.query.promocode !== undefined && context.query.promocode.trim() !== '',
  autoProductPriced: ({ context }: GuardArgs, params: { product: CheckoutProduct | null }) => isAutoProductPriced(context, params.product),
  orderToPay: (_args: GuardArgs, params: PlacedEvent) => params.output.outcome === 'payment',
  orderToWait: (_args: GuardArgs, params: PlacedEvent) => params.output.outcome === 'waiting',
};

function isOrderComplete(context: CheckoutContext): boolean {
  return selectedProduct(context) !== null && context.quote !== null && context.selectedGateway !== null;
}

function isAutoProductPriced(context: CheckoutContext, product: CheckoutProduct | null): boolean {
  if (!product || product.pid !== Number(context.query.pid)) return false;
  const quote = quoteChoice(autoOrderChoice(context, product, null), context.currency);
  return quote !== null && quote.price > 0;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

/** Documentation of every actor, action, guard and delay; printed in docs/statecharts/checkout.md. */
export const checkoutMachineDocs = {
  actors: {
    loadProducts: { input: 'none', output: 'CheckoutProduct[] (GET /api/getProducts → products)', description: 'Loads the retail catalogue; only the first three products are offered.' },
    loadGateways: { input: 'none', output: '{ gateways: CheckoutGateway[]; defaultGateway: string } (GET /api/getGateway)', description: 'Loads the payment gateways and the default one.' },
    loadCurrency: { input: 'none', output: '{ country: string } (GET /api/currency)', description: "Tells the visitor's country; GB pays in GBP, everyone else in EUR." },
    checkFraud: { input: 'none', output: '{ valid: boolean } (GET /api/checkFraud)', description: "Checks the visitor's connection; not valid sets the fraud flag." },
    lookupPromotion: { input: '{ code: string }', output: 'PromotionLookup { totalresults, promotions } (GET /api/getPromotion); rejects with the server message', description: 'Looks a promo code up; the rules of spec section 5 decide whether it applies.' },
    loadProduct: { input: '{ pid: number }', output: 'CheckoutProduct | null (GET /api/getProduct)', description: 'Looks up the product the automatic order asks for.' },
    checkSavedOrder: { input: 'SavedOrder { orderid, invoiceid }', output: 'SavedOrderStatus { orderid, status } (GET /api/orderStatus)', description: 'Asks what became of the order whose payment this browser saved.' },
    cancelUnpaidOrder: { input: '{ orderid: number }', output: '{ orderid, status } (POST /api/cancelOrder)', description: 'Cancels the unpaid order the banner offers; rejects with the server message.' },
    placeOrder: {
      input: 'PlaceOrderInput { request (src/domain orderDraftOf), user, email, now }',
      output: "PlaceOrderOutput { outcome: 'payment' | 'waiting' | 'failed' | 'cancelled', user, order, payment, error }",
      description: 'The placeOrder machine: identifies a guest, creates the order, asks to confirm a changed price, hands over (docs/statecharts/placeOrder.md).',
    },
  },
  actions: {
    storeEmail: { input: 'email.change', output: 'email, emailValid, emailError', description: "Keeps the typed e-mail, its valid flag and 'email.invalid' when it has the wrong shape." },
    recomputeQuote: { input: 'the form (plan, add-ons, promotion, currency)', output: 'quote', description: 'The one place the total is computed again after the form changed.' },
    storeOrder: { input: 'PlaceOrderOutput', output: 'order, payment', description: 'Keeps the placed order and its payment link.' },
    keepUser: { input: 'PlaceOrderOutput', output: 'user', description: 'A guest placeOrder identified stays identified for the next attempt.' },
    showPlaceOrderError: { input: 'PlaceOrderOutput', output: 'submitError', description: "The server's message of a refused order (none after the new price was cancelled)." },
    clearClientProduct: { input: 'none', output: 'none', description: "Forgets the previous service's client product (persisted store) once the new order exists." },
    redirectToPayment: { input: '{ link: string }', output: 'none', description: "Sends the browser to the gateway's payment page." },
    goToWaiting: { input: '{ orderid: number }', output: 'none', description: 'Opens the waiting step when no payment link came back (fraud).' },
    forgetSavedOrder: { input: '{ orderid: number }', output: 'none', description: 'Forgets the saved payment of an order that is paid or cancelled (persisted store).' },
    resumeUnpaidOrder: { input: '{ orderid: number }', output: 'none', description: "Opens the saved order's payment (the waiting step, which resumes it)." },
    requireEmail: { input: 'none', output: 'emailError', description: "'Please enter a Valid Email.' for a missing e-mail." },
    stopAfterPlaceOrder: { input: 'PlaceOrderOutput', output: 'autoOrderStop', description: "Why the automatic order was not placed: the server's message (none when the shopper refused the new price)." },
  },
  guards: {
    catalogueLoaded: { description: 'Products, gateways, currency and fraud check have all answered.' },
    autoOrderRequested: { description: 'The URL asks for an automatic order (auto_redirect "true") and a gateway takes the currency; its e-mail and pid are checked next.' },
    hasSavedOrder: { description: 'Everything answered and this browser saved the payment of an order.' },
    savedOrderUnpaid: { description: 'The server holds the saved order as Pending (unpaid).' },
    savedOrderSettled: { description: 'The saved order is Active (paid) or Cancelled: its saved payment is stale.' },
    hasUnpaidOrder: { description: 'The saved order is unpaid: the banner is shown.' },
    linkEmailInvalid: { description: "The link's e-mail is missing or has the wrong shape." },
    linkPidInvalid: { description: "The link has no pid (a pid that is not an id is dropped on entry)." },
    linkPromotionAccepted: { description: "The link's promo code is usable for its product (listed, within its dates and uses)." },
    emailRequired: { description: "The e-mail is empty and the automatic order stopped for it: say so at once." },
    isGuest: { description: 'Nobody is signed in: the order needs the e-mail typed.' },
    hasProducts: { description: 'The catalogue returned at least one product.' },
    extraConnectionChosen: { description: 'The extra connection is chosen (pre-filled or toggled).' },
    proxyProtectionChosen: { description: 'Proxy protection is chosen (pre-filled or toggled).' },
    remindChosen: { description: '"Remind me if I don\'t finish" is ticked (the default, or ticked again).' },
    isOfferedPlan: { description: 'The plan is one of the three offered and not the current one.' },
    isOfferedGateway: { description: 'The gateway is in the loaded list and not the current one.' },
    hasAppliedPromotion: { description: 'A promotion is applied.' },
    hasPromoError: { description: 'The promo code was refused.' },
    hasPendingPromoCheck: { description: 'A pre-filled promo code has not been checked yet.' },
    hasPromoCode: { description: 'The promo code field is not empty.' },
    promotionAccepted: { description: 'The lookup has exactly one promotion listing the selected plan, within its dates and uses.' },
    lookupFitsSelectedPlan: { description: 'The last lookup accepts the newly selected plan.' },
    hasPromoLookup: { description: 'A promo lookup answered (refusals can be re-checked against another plan).' },
    isEmptyEmail: { description: 'The e-mail is empty.' },
    isValidEmail: { description: 'The e-mail has the shape text@text.text.' },
    canSubmit: { description: 'A known user, or a guest with a valid e-mail; a priced product and a gateway.' },
    autoProductPricedWithPromo: { description: 'The product was found with a positive price in the currency and the URL has a promo code.' },
    autoProductPriced: { description: 'The product was found with a positive price in the currency.' },
    orderToPay: { description: 'placeOrder created the order with a payment link.' },
    orderToWait: { description: 'placeOrder created the order without a payment link (flagged).' },
  },
} as const;

/** The params of the checkout's guards and actions on placeOrder's end. */
const placed = ({ event }: { event: { output: unknown } }) => ({ output: event.output as PlaceOrderOutput });

// The form's order and the link's automatic order hand over alike once placed; only a refusal differs.
const handOverPlacedOrder = [
  { guard: { type: 'orderToPay', params: placed }, target: '#checkout.redirecting', description: 'Order created: go to the payment page.', actions: [{ type: 'storeOrder', params: placed }, 'clearClientProduct'] },
  {
    guard: { type: 'orderToWait', params: placed },
    target: '#checkout.waiting',
    description: 'Order created without a payment link (flagged): go to the waiting step.',
    actions: [{ type: 'storeOrder', params: placed }, 'clearClientProduct'],
  },
] as const;

// Every e-mail state answers typing the same way, so the three share one transition list.
const emailChange = [
  { guard: 'isEmptyEmail', target: 'empty', description: 'Cleared the e-mail.', actions: 'storeEmail' },
  { guard: 'isValidEmail', target: 'valid', description: 'Typed a valid e-mail.', actions: 'storeEmail' },
  { target: 'invalid', description: "Typed an invalid e-mail: 'Please enter a Valid Email.'", actions: 'storeEmail' },
] as const;

export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    output: {} as CheckoutOutput,
  },
  actors: {
    loadProducts: fromPromise<CheckoutProduct[]>(notProvided('loadProducts')),
    loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(notProvided('loadGateways')),
    loadCurrency: fromPromise<{ country: string }>(notProvided('loadCurrency')),
    checkFraud: fromPromise<{ valid: boolean }>(notProvided('checkFraud')),
    lookupPromotion: fromPromise<PromotionLookup, { code: string }>(notProvided('lookupPromotion')),
    loadProduct: fromPromise<CheckoutProduct | null, { pid: number }>(notProvided('loadProduct')),
    checkSavedOrder: fromPromise<SavedOrderStatus, SavedOrder>(notProvided('checkSavedOrder')),
    cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(notProvided('cancelUnpaidOrder')),
    placeOrder: placeOrderMachine,
  },
  actions: {
    storeEmail: assign(({ event }) => {
      if (event.type !== 'email.change') return {};
      const emailValid = isValidEmail(event.email);
      return { email: event.email, emailValid, emailError: emailValid || event.email.trim() === '' ? null : ('email.invalid' as const) };
    }),
    recomputeQuote: assign({ quote: ({ context }) => quoteFor(context) }),
    storeOrder: assign((_args, { output }: PlacedEvent) => (output.outcome === 'payment' || output.outcome === 'waiting' ? { order: output.order, payment: output.payment, submitError: null } : {})),
    keepUser: assign(({ context }, { output }: PlacedEvent) => ({ user: output.user ?? context.user })),
    showPlaceOrderError: assign((_args, { output }: PlacedEvent) => ({ submitError: output.outcome === 'failed' ? output.error : null })),
    clearClientProduct: () => {},
    redirectToPayment: (_args, _params: { link: string }) => {},
    goToWaiting: (_args, _params: { orderid: number }) => {},
    forgetSavedOrder: (_args, _params: { orderid: number }) => {},
    resumeUnpaidOrder: (_args, _params: { orderid: number }) => {},
    requireEmail: assign({ emailError: 'email.invalid' as const }),
    stopAfterPlaceOrder: assign((_args, { output }: PlacedEvent) => ({ autoOrderStop: output.outcome === 'failed' ? ({ reason: 'failed', error: output.error } as const) : null })),
  },
  guards: checkoutGuards,
}).createMachine({
  id: 'checkout',
  description: 'The order: plan, add-ons, promo, e-mail and gateway, then the payment link.',
  context: ({ input }) => ({
    now: input.now ?? (() => Date.now()),
    query: input.query ?? {},
    user: input.user ?? null,
    loaded: { products: false, gateways: false, currency: false, fraudCheck: false },
    products: [],
    selectedPid: null,
    extraConnection: isEntryFlagOn(input.query?.extraconnect),
    proxyProtection: isEntryFlagOn(input.query?.proxyprotect),
    remind: true,
    gateways: [],
    selectedGateway: null,
    country: DEFAULT_COUNTRY,
    currency: currencyForCountry(DEFAULT_COUNTRY),
    fraudCheck: false,
    promoCode: input.query?.promocode?.trim() ?? '',
    promoCheckPending: (input.query?.promocode?.trim() ?? '') !== '',
    promoLookup: null,
    promotion: null,
    promoError: null,
    email: input.query?.email?.trim() || input.user?.email || '',
    emailValid: isValidEmail(input.query?.email?.trim() || input.user?.email || ''),
    emailError: null,
    affId: input.query?.aff_id?.trim() || null,
    quote: null,
    autoOrder: null,
    order: null,
    payment: null,
    submitError: null,
    savedOrder: input.savedOrder ?? null,
    unpaidOrder: null,
    unpaidOrderError: null,
    autoOrderStop: input.autoOrderStop ?? null,
    ...(input.preloaded ? preloadedContext(input.preloaded, input.query ?? {}) : {}),
  }),
  output: ({ context }) => ({ order: context.order, payment: context.payment }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Products, gateways, currency and fraud check load side by side.',
      invoke: [
        {
          id: 'loadProducts',
          src: 'loadProducts',
          onDone: [
            {
              guard: { type: 'hasProducts', params: ({ event }) => ({ products: event.output }) },
              description: 'Keep the first three products and select the pid of the URL, else the first.',
              actions: assign(({ context, event }) => {
                const products = event.output.slice(0, MAX_CHECKOUT_PRODUCTS);
                return { products, selectedPid: initialSelectedPid(products, context.query), loaded: { ...context.loaded, products: true } };
              }),
            },
            { target: 'notFound', description: 'The catalogue is empty.' },
          ],
          onError: { target: 'notFound', description: 'The catalogue could not be loaded.' },
        },
        {
          id: 'loadGateways',
          src: 'loadGateways',
          onDone: {
            description: 'Keep the gateways and select the default one (or the first that takes the currency; none when none does).',
            actions: assign(({ context, event }) => {
              const { gateways, defaultGateway } = event.output;
              const selectedGateway = gatewayFor(gateways, defaultGateway, context.currency);
              return { gateways, selectedGateway, loaded: { ...context.loaded, gateways: true } };
            }),
          },
          onError: { description: 'No gateway can be offered; the failure is only logged.', actions: assign({ loaded: ({ context }) => ({ ...context.loaded, gateways: true }) }) },
        },
        {
          id: 'loadCurrency',
          src: 'loadCurrency',
          onDone: {
            description: 'GB pays in GBP, every other country in EUR; a gateway that does not take it is not kept selected.',
            actions: assign(({ context, event }) => {
              const currency = currencyForCountry(event.output.country);
              const selectedGateway = context.gateways.length ? gatewayFor(context.gateways, context.selectedGateway, currency) : context.selectedGateway;
              return { country: event.output.country, currency, selectedGateway, loaded: { ...context.loaded, currency: true } };
            }),
          },
          onError: { description: 'Keep the default country and EUR.', actions: assign({ loaded: ({ context }) => ({ ...context.loaded, currency: true }) }) },
        },
        {
          id: 'checkFraud',
          src: 'checkFraud',
          onDone: {
            description: 'A check that is not valid sets the fraud flag.',
            actions: assign(({ context, event }) => ({ fraudCheck: !event.output.valid, loaded: { ...context.loaded, fraudCheck: true } })),
          },
          onError: { description: 'A failed check is only logged; no fraud flag.', actions: assign({ loaded: ({ context }) => ({ ...context.loaded, fraudCheck: true }) }) },
        },
      ],
      always: [
        { guard: 'autoOrderRequested', target: 'autoOrder', description: 'The URL asks for an automatic order.' },
        { guard: 'hasSavedOrder', target: 'checkingSavedOrder', description: 'Everything answered and an order of this browser may be unpaid: ask the server first.' },
        { guard: 'catalogueLoaded', target: 'ready', description: 'Everything answered: show the form.' },
      ],
    },
    checkingSavedOrder: {
      description: 'Asking what became of the order whose payment this browser saved, before the form is shown (so the banner does not push it down).',
      invoke: {
        id: 'checkSavedOrder',
        src: 'checkSavedOrder',
        input: ({ context }) => context.savedOrder!,
        onDone: [
          {
            guard: { type: 'savedOrderUnpaid', params: ({ event }) => ({ status: event.output }) },
            target: 'ready',
            description: 'Unpaid: the banner offers it above the form.',
            actions: assign({ unpaidOrder: ({ context }) => context.savedOrder }),
          },
          {
            guard: { type: 'savedOrderSettled', params: ({ event }) => ({ status: event.output }) },
            target: 'ready',
            description: 'Paid or cancelled: no banner, and the stale saved payment is forgotten.',
            actions: { type: 'forgetSavedOrder', params: ({ context }) => ({ orderid: context.savedOrder!.orderid }) },
          },
          { target: 'ready', description: 'Under review (Fraud): no banner; the waiting page still shows it.' },
        ],
        onError: { target: 'ready', description: "The check failed (or the order is not this session's): no banner." },
      },
    },
    resumingOrder: {
      type: 'final',
      description: "Continuing the unpaid order: its payment (the waiting step) takes over.",
      entry: { type: 'resumeUnpaidOrder', params: ({ context }) => ({ orderid: context.unpaidOrder?.orderid ?? 0 }) },
    },
    notFound: {
      type: 'final',
      description: 'No product to offer: the not-found page.',
    },
    autoOrder: {
      description: 'The automatic order from URL parameters (spec section 5); a failed condition or lookup stops on the form with its reason.',
      initial: 'checkingLink',
      states: {
        checkingLink: {
          description: "Checking the link's e-mail and pid before anything is looked up.",
          always: [
            { guard: 'linkEmailInvalid', target: '#checkout.ready', description: "No e-mail of the right shape: stop on the form with 'Please enter a Valid Email.'", actions: assign({ autoOrderStop: { reason: 'email' } }) },
            { guard: 'linkPidInvalid', target: '#checkout.ready', description: 'No pid: stop on the form, the plan was not found.', actions: assign({ autoOrderStop: { reason: 'plan' } }) },
            { target: 'loadingProduct', description: 'An e-mail of the right shape and a pid: look the product up.' },
          ],
        },
        loadingProduct: {
          description: 'Looking up the product of the URL.',
          invoke: {
            id: 'loadProduct',
            src: 'loadProduct',
            input: ({ context }) => ({ pid: Number(context.query.pid) }),
            onDone: [
              {
                guard: { type: 'autoProductPricedWithPromo', params: ({ event }) => ({ product: event.output }) },
                target: 'checkingPromo',
                description: 'Priced product and a promo code to check.',
                actions: assign({ autoOrder: ({ event }) => ({ product: event.output!, promotion: null }) }),
              },
              {
                guard: { type: 'autoProductPriced', params: ({ event }) => ({ product: event.output }) },
                target: 'placingOrder',
                description: 'Priced product, no promo code.',
                actions: assign({ autoOrder: ({ event }) => ({ product: event.output!, promotion: null }) }),
              },
              { target: '#checkout.ready', description: 'Not found or no positive price: stop on the form, the plan was not found.', actions: assign({ autoOrderStop: { reason: 'plan' } }) },
            ],
            onError: { target: '#checkout.ready', description: "Lookup failed: stop on the form with the server's message.", actions: assign({ autoOrderStop: ({ event }) => ({ reason: 'failed', error: errorMessage(event.error) }) }) },
          },
        },
        checkingPromo: {
          description: 'Checking the promo code of the URL; it is used only if valid, listed and within its dates.',
          invoke: {
            id: 'lookupPromotion',
            src: 'lookupPromotion',
            input: ({ context }) => ({ code: context.query.promocode?.trim() ?? '' }),
            onDone: [
              {
                guard: { type: 'linkPromotionAccepted', params: ({ event }) => ({ lookup: event.output }) },
                target: 'placingOrder',
                description: 'The promotion is usable for the product: order with it.',
                actions: assign({
                  autoOrder: ({ context, event }) => {
                    const autoOrder = context.autoOrder!;
                    const verdict = acceptPromotion(event.output, autoOrder.product.pid, todayOf(context));
                    return { ...autoOrder, promotion: 'promotion' in verdict ? verdict.promotion : null };
                  },
                }),
              },
              {
                target: '#checkout.ready',
                description: 'Refused (not listed, not started, expired, used up): stop on the form with the refusal, never a silent full price.',
                actions: assign({ autoOrderStop: ({ context, event }) => ({ reason: 'promo', error: refusalFor(event.output, context.autoOrder!.product.pid, todayOf(context)) }) }),
              },
            ],
            onError: {
              target: '#checkout.ready',
              description: "Lookup failed (an unknown code): stop on the form with the server's message.",
              actions: assign({ autoOrderStop: ({ event }) => ({ reason: 'promo', error: { serverMessage: errorMessage(event.error) } }) }),
            },
          },
        },
        placingOrder: {
          description: "placeOrder places the automatic order (identifying a guest first); a changed price is confirmed on this page; a refusal stops on the form with the server's message, a refused new price goes to the form.",
          invoke: {
            id: 'placeOrder',
            src: 'placeOrder',
            input: ({ context }) => placeOrderInput(context, autoOrderChoice(context), context.query.email ?? ''),
            onDone: [
              ...handOverPlacedOrder,
              {
                target: '#checkout.ready',
                description: "Not placed: the form, with the server's message (none after the shopper refused the new price).",
                actions: [{ type: 'keepUser', params: placed }, { type: 'stopAfterPlaceOrder', params: placed }],
              },
            ],
          },
        },
      },
    },
    ready: {
      description: 'The form: plan, add-ons, promo, e-mail and gateway side by side; the total follows every change.',
      type: 'parallel',
      entry: 'recomputeQuote',
      on: {
        'order.submit': { guard: 'canSubmit', target: 'submitting', description: 'Submit: placeOrder identifies a guest first.' },
      },
      states: {
        plan: {
          description: 'The selected plan.',
          initial: 'selected',
          states: {
            selected: {
              description: 'One of the three plans is selected.',
              on: {
                'plan.select': {
                  guard: 'isOfferedPlan',
                  description: 'Select another plan, recompute the total and re-check the promo code.',
                  actions: [assign({ selectedPid: ({ event }) => event.pid }), 'recomputeQuote', raise({ type: 'promo.recheck' })],
                },
              },
            },
          },
        },
        addons: {
          description: 'Extra connection and proxy protection toggles.',
          type: 'parallel',
          states: {
            extraConnection: {
              description: 'The extra connection toggle.',
              initial: 'deciding',
              states: {
                deciding: {
                  description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
                  always: [{ guard: 'extraConnectionChosen', target: 'on', description: 'Chosen before.' }, { target: 'off', description: 'Not chosen.' }],
                },
                off: {
                  description: 'No extra connection.',
                  on: {
                    'extraConnection.toggle': {
                      target: 'on',
                      description: 'Add the extra connection and recompute the total.',
                      actions: [assign({ extraConnection: true }), 'recomputeQuote'],
                    },
                  },
                },
                on: {
                  description: 'Extra connection added.',
                  on: {
                    'extraConnection.toggle': {
                      target: 'off',
                      description: 'Remove the extra connection and recompute the total.',
                      actions: [assign({ extraConnection: false }), 'recomputeQuote'],
                    },
                  },
                },
              },
            },
            proxyProtection: {
              description: 'The proxy protection toggle.',
              initial: 'deciding',
              states: {
                deciding: {
                  description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
                  always: [{ guard: 'proxyProtectionChosen', target: 'on', description: 'Chosen before.' }, { target: 'off', description: 'Not chosen.' }],
                },
                off: {
                  description: 'No proxy protection.',
                  on: {
                    'proxyProtection.toggle': {
                      target: 'on',
                      description: 'Add proxy protection and recompute the total.',
                      actions: [assign({ proxyProtection: true }), 'recomputeQuote'],
                    },
                  },
                },
                on: {
                  description: 'Proxy protection added.',
                  on: {
                    'proxyProtection.toggle': {
                      target: 'off',
                      description: 'Remove proxy protection and recompute the total.',
                      actions: [assign({ proxyProtection: false }), 'recomputeQuote'],
                    },
                  },
                },
              },
            },
          },
        },
        promo: {
          description: 'The discount box.',
          initial: 'deciding',
          states: {
            deciding: {
              description: 'Shows the promo as it was: applied, refused, a pre-filled code to check, or empty.',
              always: [
                { guard: 'hasAppliedPromotion', target: 'applied', description: 'A promotion is applied.' },
                { guard: 'hasPromoError', target: 'rejected', description: 'The code was refused.' },
                { guard: 'hasPendingPromoCheck', target: 'checking', description: 'Check the pre-filled code.' },
                { target: 'idle', description: 'Nothing to show.' },
              ],
            },
            idle: {
              description: 'No promotion applied; the code can be typed.',
              on: {
                'promo.change': { description: 'Type the code.', actions: assign({ promoCode: ({ event }) => event.code }) },
                'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the typed code.' },
              },
            },
            checking: {
              description: 'Looking the code up.',
              entry: assign({ promoCheckPending: false, promoError: null }),
              invoke: {
                id: 'lookupPromotion',
                src: 'lookupPromotion',
                input: ({ context }) => ({ code: context.promoCode.trim() }),
                onDone: [
                  {
                    guard: { type: 'promotionAccepted', params: ({ event }) => ({ lookup: event.output }) },
                    target: 'applied',
                    description: 'The code applies to the selected plan: apply the discount.',
                    actions: [
                      assign(({ context, event }) => {
                        const verdict = acceptPromotion(event.output, context.selectedPid!, todayOf(context));
                        return { promoLookup: event.output, promotion: 'promotion' in verdict ? verdict.promotion : null };
                      }),
                      'recomputeQuote',
                    ],
                  },
                  {
                    target: 'rejected',
                    description: "Refused: 'This Coupon is not available for this product.' (or not started, expired, used up).",
                    actions: [assign(({ context, event }) => ({ promoLookup: event.output, promotion: null, promoError: refusalOf(context, event.output) })), 'recomputeQuote'],
                  },
                ],
                onError: {
                  target: 'rejected',
                  description: "The lookup failed: show the server's message.",
                  actions: [assign(({ event }) => ({ promoLookup: null, promotion: null, promoError: { serverMessage: errorMessage(event.error) } })), 'recomputeQuote'],
                },
              },
              on: { 'order.submit': { description: 'Ignored until the code is checked.' } },
            },
            applied: {
              description: 'The discount is applied; it can be removed.',
              on: {
                'promo.remove': {
                  target: 'idle',
                  description: 'Remove the code: the total goes back to the undiscounted one.',
                  actions: [assign({ promoCode: '', promoLookup: null, promotion: null }), 'recomputeQuote'],
                },
                'promo.change': {
                  target: 'idle',
                  description: 'Editing the code removes the discount.',
                  actions: [assign(({ event }) => ({ promoCode: event.code, promoLookup: null, promotion: null })), 'recomputeQuote'],
                },
                'promo.recheck': [
                  {
                    guard: 'lookupFitsSelectedPlan',
                    description: 'The new plan keeps the discount; recompute the total.',
                    actions: 'recomputeQuote',
                  },
                  {
                    target: 'rejected',
                    description: 'The new plan is not listed: remove the discount.',
                    actions: [assign(({ context }) => ({ promotion: null, promoError: refusalOf(context, context.promoLookup!) })), 'recomputeQuote'],
                  },
                ],
              },
            },
            rejected: {
              description: 'The code was refused; the message key or server message is shown.',
              on: {
                'promo.change': {
                  target: 'idle',
                  description: 'Editing the code clears the message.',
                  actions: assign({ promoCode: ({ event }) => event.code, promoLookup: null, promoError: null }),
                },
                'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the code again.' },
                'promo.recheck': {
                  guard: 'lookupFitsSelectedPlan',
                  target: 'applied',
                  description: 'The new plan is listed: apply the discount.',
                  actions: [
                    assign(({ context }) => {
                      const verdict = acceptPromotion(context.promoLookup!, context.selectedPid!, todayOf(context));
                      return { promotion: 'promotion' in verdict ? verdict.promotion : null, promoError: null };
                    }),
                    'recomputeQuote',
                  ],
                },
              },
            },
          },
        },
        email: {
          description: "The guest's e-mail.",
          initial: 'deciding',
          states: {
            deciding: {
              description: 'Shows the pre-filled or earlier e-mail.',
              always: [
                { guard: 'emailRequired', target: 'required', description: 'The automatic order stopped for its missing e-mail: ask for it at once.', actions: 'requireEmail' },
                { guard: 'isEmptyEmail', target: 'empty', description: 'No e-mail yet.' },
                { guard: 'isValidEmail', target: 'valid', description: 'A valid e-mail.' },
                { target: 'invalid', description: 'An invalid e-mail.', actions: assign({ emailError: 'email.invalid' }) },
              ],
            },
            empty: {
              description: 'No e-mail typed.',
              on: {
                'email.change': emailChange,
                'order.submit': { guard: 'isGuest', target: 'required', description: "Submitted without an e-mail: say 'Please enter a Valid Email.'", actions: 'requireEmail' },
              },
            },
            required: { description: "Submitted without an e-mail: 'Please enter a Valid Email.' is shown until it is typed.", on: { 'email.change': emailChange } },
            invalid: { description: "The e-mail has the wrong shape; 'email.invalid' is shown.", on: { 'email.change': emailChange } },
            valid: { description: 'The e-mail has the shape text@text.text.', on: { 'email.change': emailChange } },
          },
        },
        gateway: {
          description: 'The payment method.',
          initial: 'selected',
          states: {
            selected: {
              description: 'A gateway (the default at first) is selected.',
              on: {
                'gateway.select': { guard: 'isOfferedGateway', description: 'Select another gateway.', actions: assign({ selectedGateway: ({ event }) => event.module }) },
              },
            },
          },
        },
        reminder: {
          description: '"Remind me if I don\'t finish": one mail if the order is still unpaid after a while.',
          initial: 'restore',
          states: {
            restore: {
              description: 'Shows the checkbox as it was (ticked at first).',
              always: [{ guard: 'remindChosen', target: 'on', description: 'Ticked.' }, { target: 'off', description: 'Unticked.' }],
            },
            on: {
              description: 'A reminder is wanted.',
              on: { 'remind.toggle': { target: 'off', description: 'Untick: no reminder.', actions: assign({ remind: false }) } },
            },
            off: {
              description: 'No reminder.',
              on: { 'remind.toggle': { target: 'on', description: 'Tick again.', actions: assign({ remind: true }) } },
            },
          },
        },
        unpaidOrder: {
          description: 'The banner of an order this browser left unpaid: continue to its payment, or cancel it.',
          initial: 'deciding',
          states: {
            deciding: {
              description: 'Shows the banner while the saved order is unpaid.',
              always: [{ guard: 'hasUnpaidOrder', target: 'shown', description: 'An unpaid order.' }, { target: 'none', description: 'None.' }],
            },
            none: { description: 'No unpaid order: no banner.' },
            shown: {
              description: '"You have an unpaid order #N": continue to payment, or cancel it.',
              on: {
                'unpaidOrder.continue': { target: '#checkout.resumingOrder', description: 'Continue to its payment.' },
                'unpaidOrder.cancel': { target: 'confirmingCancel', description: 'Asks once whether to cancel it.', actions: assign({ unpaidOrderError: null }) },
              },
            },
            confirmingCancel: {
              description: 'Cancel order #N? The shopper confirms or keeps the order; nothing is cancelled yet.',
              on: {
                'unpaidOrder.confirmCancel': { target: 'cancelling', description: 'Confirmed: cancel it on the server.' },
                'unpaidOrder.keep': { target: 'shown', description: 'The order is kept.' },
              },
            },
            cancelling: {
              description: 'Cancelling the unpaid order.',
              invoke: {
                id: 'cancelUnpaidOrder',
                src: 'cancelUnpaidOrder',
                input: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }),
                onDone: {
                  target: 'none',
                  description: 'Cancelled: the banner goes, and so does the saved payment.',
                  actions: [{ type: 'forgetSavedOrder', params: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }) }, assign({ unpaidOrder: null })],
                },
                onError: { target: 'shown', description: "Not cancelled: the banner stays with the server's message.", actions: assign({ unpaidOrderError: ({ event }) => errorMessage(event.error) }) },
              },
            },
          },
        },
      },
    },
    submitting: {
      description: 'placeOrder places the order; a second submit is ignored here, so only one order is created; a changed price is confirmed on the form.',
      entry: assign({ order: null, payment: null, submitError: null }),
      invoke: {
        id: 'placeOrder',
        src: 'placeOrder',
        input: ({ context }) => placeOrderInput(context, formChoice(context)!, context.email),
        onDone: [
          ...handOverPlacedOrder,
          { target: '#checkout.ready', description: "Not placed: back to the form with the server's message (none after the new price was cancelled).", actions: [{ type: 'keepUser', params: placed }, { type: 'showPlaceOrderError', params: placed }] },
        ],
      },
    },
    redirecting: {
      type: 'final',
      description: "Leaving for the gateway's payment page.",
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.payment?.link ?? '' }) },
    },
    waiting: {
      type: 'final',
      description: 'No payment link (fraud): the waiting step takes over.',
      entry: { type: 'goToWaiting', params: ({ context }) => ({ orderid: context.order?.orderid ?? 0 }) },
    },
  },
});

function refusalOf(context: CheckoutContext, lookup: PromotionLookup): PromoError {
  return refusalFor(lookup, context.selectedPid ?? 0, todayOf(context));
}

/** The message of a lookup's refusal for a plan on a day. */
function refusalFor(lookup: PromotionLookup, pid: number, today: string): PromoError {
  const verdict = acceptPromotion(lookup, pid, today);
  return { key: 'refusal' in verdict ? promotionRefusalMessage(verdict.refusal) : 'promo.notApplicable' };
}

