/**
 * The checkout: loads the catalogue, lets the shopper choose a plan, add-ons, promo code, e-mail and
 * gateway, creates the order and hands over to the payment page (or the waiting step); the automatic
 * order from URL parameters is its own branch that silently falls back to the form.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { components } from '../src/api/schema';
import { EXTRA_CONNECTION_OPTION_ID, MAX_CHECKOUT_PRODUCTS, PROXY_PROTECTION_OPTION_ID } from '../src/domain/constants';
import { currencyForCountry, DEFAULT_COUNTRY, type Currency } from '../src/domain/currency';
import { isValidEmail } from '../src/domain/email';
import { promotionRefusalMessage, type MessageKey } from '../src/domain/messages';
import { quoteOrder, type OrderQuote, type PricedOption, type PricedProduct, type PricingTable } from '../src/domain/pricing';
import { acceptPromotion, isoDate, type Promotion, type PromotionLookup } from '../src/domain/promotion';
import { placeOrderMachine, type OrderDraft, type OrderPayment, type OrderUser, type PlacedOrder, type PlaceOrderInput, type PlaceOrderOutput } from './place-order.machine';

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

/** Query parameters read on entry (spec section 2). */
export interface CheckoutQuery {
  pid?: string;
  extraconnect?: string;
  proxyprotect?: string;
  promocode?: string;
  email?: string;
  aff_id?: string;
  auto_redirect?: string;
}

/** Why the promo code is not applied: a message key, or the server's own message when the lookup failed. */
export type PromoError = { key: MessageKey } | { serverMessage: string };

/** The created order (spec section 4). */
export type CheckoutOrder = PlacedOrder;

/** The payment link for the chosen gateway and its deadline (ISO date-time, one day ahead). */
export type CheckoutPayment = OrderPayment;

/** The automatic order's own product and promotion (spec section 5). */
export interface AutoOrder {
  product: CheckoutProduct;
  promotion: Promotion | null;
}

/** What is ordered: the form's choice, or the automatic order's product, options and promotion. */
export interface OrderChoice {
  product: CheckoutProduct;
  extraConnection: boolean;
  proxyProtection: boolean;
  promotion: Promotion | null;
  /** "Remind me if I don't finish": one reminder mail if the order is still unpaid after a while. */
  remind: boolean;
}

export interface CheckoutInput {
  query?: CheckoutQuery;
  /** The logged-in (or already identified) user, from the auth machine. */
  user?: CheckoutUser | null;
  /** The clock; tests pass a fixed one. */
  now?: () => number;
  /** Makes one Idempotency-Key per attempt to create the order (placeOrder). */
  createIdempotencyKey?: () => string;
}

export interface CheckoutContext {
  now: () => number;
  createIdempotencyKey: () => string;
  query: CheckoutQuery;
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
}

export type CheckoutEvent =
  | { type: 'plan.select'; pid: number }
  | { type: 'extraConnection.toggle' }
  | { type: 'proxyProtection.toggle' }
  | { type: 'promo.change'; code: string }
  | { type: 'promo.apply' }
  | { type: 'promo.recheck' }
  | { type: 'email.change'; email: string }
  | { type: 'gateway.select'; module: string }
  | { type: 'remind.toggle' }
  | { type: 'order.submit' };

/** The placeOrder child's end, as the checkout's guards and actions read it. */
type PlacedEvent = { output: PlaceOrderOutput };

/** What the finished machine hands over: the order and its payment link. */
export interface CheckoutOutput {
  order: CheckoutOrder | null;
  payment: CheckoutPayment | null;
}

type GuardArgs = { context: CheckoutContext; event: CheckoutEvent };

const isFlagOn = (value: string | undefined) => value === 'true' || value === '1';
const optionById = (product: CheckoutProduct, id: number) => product.configoptions.find((option) => option.id === id) ?? null;
const todayOf = (context: CheckoutContext) => isoDate(new Date(context.now()));

/** The selected product among the three offered. */
export function selectedProduct(context: Pick<CheckoutContext, 'products' | 'selectedPid'>): CheckoutProduct | null {
  return context.products.find((product) => product.pid === context.selectedPid) ?? null;
}

function quoteWith(product: CheckoutProduct, currency: Currency, extraConnection: boolean, proxyProtection: boolean, promotion: Promotion | null) {
  return quoteOrder({
    product,
    currency,
    extraConnection: extraConnection ? optionById(product, EXTRA_CONNECTION_OPTION_ID) : null,
    proxyProtection: proxyProtection ? optionById(product, PROXY_PROTECTION_OPTION_ID) : null,
    promotion,
  });
}

/** The total of the current choice (src/domain quoteOrder), or null without a priced product. */
export function quoteFor(context: CheckoutContext): OrderQuote | null {
  const choice = formChoice(context);
  return choice ? quoteOf(context, choice) : null;
}

function quoteOf(context: Pick<CheckoutContext, 'currency'>, choice: OrderChoice): OrderQuote | null {
  return quoteWith(choice.product, context.currency, choice.extraConnection, choice.proxyProtection, choice.promotion);
}

/** The form's choice, or null without a selected product. */
function formChoice(context: CheckoutContext): OrderChoice | null {
  const product = selectedProduct(context);
  return product && { product, extraConnection: context.extraConnection, proxyProtection: context.proxyProtection, promotion: context.promotion, remind: context.remind };
}

/** The automatic order's choice: its product, the URL's options and promotion; a deep link has no form to untick, so the reminder stays on. */
function autoOrderChoice(context: CheckoutContext, product: CheckoutProduct = context.autoOrder!.product, promotion: Promotion | null = context.autoOrder!.promotion): OrderChoice {
  return { product, extraConnection: isFlagOn(context.query.extraconnect), proxyProtection: isFlagOn(context.query.proxyprotect), promotion, remind: true };
}

function configOptionsFor(product: CheckoutProduct, extraConnection: boolean, proxyProtection: boolean): NonNullable<OrderDraft['configoptions']> {
  const options: NonNullable<OrderDraft['configoptions']> = {};
  if (optionById(product, EXTRA_CONNECTION_OPTION_ID)) options['2'] = extraConnection ? 1 : 0;
  if (optionById(product, PROXY_PROTECTION_OPTION_ID)) options['4'] = proxyProtection ? 1 : 0;
  return options;
}

/** The one order request (POST /api/order's body, without its key) for a choice, from the form or the automatic order. */
export function orderRequestOf(context: CheckoutContext, choice: OrderChoice): OrderDraft {
  return {
    pid: choice.product.pid,
    paymentmethod: context.selectedGateway ?? '',
    ...(choice.promotion ? { promocode: choice.promotion.code } : {}),
    ...(context.affId ? { affid: context.affId } : {}),
    amount: quoteOf(context, choice)?.total ?? 0,
    currency: context.currency,
    configoptions: configOptionsFor(choice.product, choice.extraConnection, choice.proxyProtection),
    remind: choice.remind,
  };
}

/** What placeOrder starts from: the request, and the user or the e-mail to identify. */
function placeOrderInput(context: CheckoutContext, choice: OrderChoice, email: string): PlaceOrderInput {
  return { request: orderRequestOf(context, choice), user: context.user, email, now: context.now, createIdempotencyKey: context.createIdempotencyKey };
}

function initialSelectedPid(products: CheckoutProduct[], query: CheckoutQuery): number | null {
  const wanted = /^\d+$/.test(query.pid ?? '') ? Number(query.pid) : null;
  return products.find((product) => product.pid === wanted)?.pid ?? products[0]?.pid ?? null;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

// The gateway is not in the spec's list, but without one the order cannot be placed at all.
const isAutoOrderRequested = (context: CheckoutContext) =>
  isValidEmail(context.query.email ?? '') && /^\d+$/.test(context.query.pid ?? '') && context.query.auto_redirect === 'true' && context.selectedGateway !== null;
const isCatalogueLoaded = (context: CheckoutContext) => Object.values(context.loaded).every(Boolean);

/** Every guard of the checkout machine, exported for unit tests. */
export const checkoutGuards = {
  catalogueLoaded: ({ context }: GuardArgs) => isCatalogueLoaded(context),
  autoOrderRequested: ({ context }: GuardArgs) => isCatalogueLoaded(context) && isAutoOrderRequested(context),
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
  const quote = quoteOf(context, autoOrderChoice(context, product, null));
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
    placeOrder: {
      input: 'PlaceOrderInput { request (orderRequestOf), user, email, now, createIdempotencyKey }',
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
  },
  guards: {
    catalogueLoaded: { description: 'Products, gateways, currency and fraud check have all answered.' },
    autoOrderRequested: { description: 'The URL asks for an automatic order (e-mail, numeric pid, auto_redirect "true", a gateway); placeOrder identifies a guest, not a known user.' },
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
  },
  guards: checkoutGuards,
}).createMachine({
  id: 'checkout',
  description: 'The order: plan, add-ons, promo, e-mail and gateway, then the payment link.',
  context: ({ input }) => ({
    now: input.now ?? (() => Date.now()),
    createIdempotencyKey: input.createIdempotencyKey ?? (() => globalThis.crypto.randomUUID()),
    query: input.query ?? {},
    user: input.user ?? null,
    loaded: { products: false, gateways: false, currency: false, fraudCheck: false },
    products: [],
    selectedPid: null,
    extraConnection: isFlagOn(input.query?.extraconnect),
    proxyProtection: isFlagOn(input.query?.proxyprotect),
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
        { guard: 'catalogueLoaded', target: 'ready', description: 'Everything answered: show the form.' },
      ],
    },
    notFound: {
      type: 'final',
      description: 'No product to offer: the not-found page.',
    },
    autoOrder: {
      description: 'The automatic order from URL parameters (spec section 5); any failed condition or lookup falls back to the form.',
      initial: 'loadingProduct',
      states: {
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
              { target: '#checkout.ready', description: 'Not found or no positive price: fall back to the form silently.' },
            ],
            onError: { target: '#checkout.ready', description: 'Lookup failed: fall back to the form silently.' },
          },
        },
        checkingPromo: {
          description: 'Checking the promo code of the URL; it is used only if valid, listed and within its dates.',
          invoke: {
            id: 'lookupPromotion',
            src: 'lookupPromotion',
            input: ({ context }) => ({ code: context.query.promocode?.trim() ?? '' }),
            onDone: {
              target: 'placingOrder',
              description: 'Use the promotion if it is usable for the product, otherwise order without it.',
              actions: assign({
                autoOrder: ({ context, event }) => {
                  const autoOrder = context.autoOrder!;
                  const verdict = acceptPromotion(event.output, autoOrder.product.pid, todayOf(context));
                  return { ...autoOrder, promotion: 'promotion' in verdict ? verdict.promotion : null };
                },
              }),
            },
            onError: { target: '#checkout.ready', description: 'Lookup failed: fall back to the form silently.' },
          },
        },
        placingOrder: {
          description: "placeOrder places the automatic order (identifying a guest first); a changed price is confirmed on this page; a refusal or a cancel falls back to the form silently.",
          invoke: {
            id: 'placeOrder',
            src: 'placeOrder',
            input: ({ context }) => placeOrderInput(context, autoOrderChoice(context), context.query.email ?? ''),
            onDone: [
              ...handOverPlacedOrder,
              { target: '#checkout.ready', description: "Not placed (refused, or the new price cancelled): fall back to the form silently.", actions: [{ type: 'keepUser', params: placed }] },
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
              description: 'The discount is applied.',
              on: {
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
                { guard: 'isEmptyEmail', target: 'empty', description: 'No e-mail yet.' },
                { guard: 'isValidEmail', target: 'valid', description: 'A valid e-mail.' },
                { target: 'invalid', description: 'An invalid e-mail.', actions: assign({ emailError: 'email.invalid' }) },
              ],
            },
            empty: { description: 'No e-mail typed.', on: { 'email.change': emailChange } },
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
  const verdict = acceptPromotion(lookup, context.selectedPid ?? 0, todayOf(context));
  return { key: 'refusal' in verdict ? promotionRefusalMessage(verdict.refusal) : 'promo.notApplicable' };
}

