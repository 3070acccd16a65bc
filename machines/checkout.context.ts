/**
 * The checkout's context: what it holds, its input, events and output, and how it starts (from the link's
 * query, the signed-in user and a preload of the server-rendered page).
 */
import type { components } from '../src/api/schema';
import type { OrderStatus } from '../src/api/client';
import { MAX_CHECKOUT_PRODUCTS } from '../src/domain/constants';
import { currencyForCountry, DEFAULT_COUNTRY, type Currency } from '../src/domain/currency';
import { isValidEmail } from '../src/domain/email';
import { isEntryFlagOn, type EntryQuery } from '../src/domain/entry-query';
import type { MessageKey } from '../src/domain/messages';
import type { OrderQuote, PricedOption, PricedProduct, PricingTable } from '../src/domain/pricing';
import { isoDate, type Promotion, type PromotionLookup } from '../src/domain/promotion';
import type { OrderPayment, OrderUser, PlacedOrder, PlaceOrderOutput } from './place-order.machine';

type Schemas = components['schemas'];

/** A configurable option of a product (the contract's ConfigOption; id 2 extra connection, id 4 proxy protection), priced by the domain's partial table. */
export type CheckoutOption = Pick<Schemas['ConfigOption'], 'id' | 'name'> & PricedOption & { pricing: PricingTable };

/** A product as the catalogue returns it (the contract's Product, as far as the checkout reads it). */
export type CheckoutProduct = Pick<Schemas['Product'], 'pid' | 'name' | 'description' | 'billingcycle' | 'badge'> & PricedProduct & { configoptions: CheckoutOption[] };

/** A payment gateway as the catalogue returns it (the contract's Gateway); `currencies` absent means any. */
export type CheckoutGateway = Omit<Schemas['Gateway'], 'currencies'> & Partial<Pick<Schemas['Gateway'], 'currencies'>>;

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
export type PlacedEvent = { output: PlaceOrderOutput };

/** What the finished machine hands over: the order and its payment link. */
export interface CheckoutOutput {
  order: CheckoutOrder | null;
  payment: CheckoutPayment | null;
}

/** True when the gateway takes payments in the currency. */
export function gatewayTakes(gateway: CheckoutGateway, currency: string): boolean {
  return !gateway.currencies || gateway.currencies.includes(currency);
}

/** The selected gateway if it takes the currency, else the first one that does. */
export function gatewayFor(gateways: CheckoutGateway[], preferred: string | null, currency: string): string | null {
  const chosen = gateways.find((gateway) => gateway.module === preferred);
  if (chosen && gatewayTakes(chosen, currency)) return chosen.module;
  return gateways.find((gateway) => gatewayTakes(gateway, currency))?.module ?? null;
}

/** The selected product among the three offered. */
export function selectedProduct(context: Pick<CheckoutContext, 'products' | 'selectedPid'>): CheckoutProduct | null {
  return context.products.find((product) => product.pid === context.selectedPid) ?? null;
}

/** Today's date (YYYY-MM-DD) by the checkout's clock, for a promotion's dates. */
export const todayOf = (context: Pick<CheckoutContext, 'now'>) => isoDate(new Date(context.now()));

/** The plan selected first: the link's pid when it is offered, else the first product. */
export function initialSelectedPid(products: CheckoutProduct[], query: EntryQuery): number | null {
  const wanted = query.pid !== undefined ? Number(query.pid) : null;
  return products.find((product) => product.pid === wanted)?.pid ?? products[0]?.pid ?? null;
}

/** How a failed call is kept in the context: its message. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
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

/** The context as the checkout starts: the link's choices and the user's e-mail, and the preloaded catalogue when the page had it. */
export function initialContext(input: CheckoutInput): CheckoutContext {
  return {
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
  };
}
