/**
 * The upsell: a logged-in client buys extra connections for one of their active services,
 * pays the invoice on the gateway's page, then waits for the payment.
 */
import { assign, fromPromise, setup } from 'xstate';
import { EXTRA_CONNECTION_OPTION_ID, PAYMENT_DEADLINE_MS, UPSELL_MAX_QUANTITY, UPSELL_MIN_QUANTITY } from '../src/domain/constants';
import type { Currency } from '../src/domain/currency';
import { failureMessage } from '../src/domain/failure-message';
import { prorate, quoteUpsell } from '../src/domain/pricing';
import type { ActiveProduct, ActiveProductList, AddInvoiceRequest, AddInvoiceResponse, Gateway } from '../src/api/client';
import { isPriceChangeError } from './place-order.machine';
import type { ProductWords } from './product-words';

/** An active service of the client (getActiveProducts): its extra connections, the extra-connection pricing and its proration today. */
export type ActiveService = ActiveProduct;

/** A payment gateway as the gateway list gives it (the currencies it takes, when named). */
export type UpsellGateway = Pick<Gateway, 'module' | 'displayname' | 'type'> & Partial<Pick<Gateway, 'currencies'>>;

/** What the upsell page starts from. */
export interface UpsellInput {
  /** The visitor's currency. */
  currency: Currency;
  gateways: UpsellGateway[];
  /** Module of the default gateway. */
  selectedGateway: string;
}

/** What the upsell page shows and the machine remembers. */
export interface UpsellContext {
  currency: Currency;
  services: ActiveService[];
  selectedServiceId: number | null;
  /** Extra connections to buy, UPSELL_MIN_QUANTITY … UPSELL_MAX_QUANTITY. */
  quantity: number;
  gateways: UpsellGateway[];
  selectedGateway: string;
  /** What the invoice will cost in the visitor's currency (the server's total after a 409 price_changed); null when the cycle is not sold in it. */
  price: number | null;
  invoiceid: number | null;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds. */
  lastDate: number | null;
  duration: number | null;
  /** Server message (or message key) of the last failed call. */
  error: string | null;
}

/** What the client does on the upsell page. */
export type UpsellEvent =
  | { type: 'service.select'; serviceid: number }
  | { type: 'quantity.change'; quantity: number }
  | { type: 'gateway.select'; gateway: string }
  | { type: 'order.submit' }
  | { type: 'services.retry' };

/** getActiveProducts. */
export type ActiveServicesOutput = ActiveProductList;

/** addInvoice's body. */
export type CreateInvoiceInput = AddInvoiceRequest;

/** addInvoice's answer: the invoice and its payment link with the deadline (date-time). */
export type CreateInvoiceOutput = AddInvoiceResponse;

/** What the waiting step starts from once the payment page is open. */
export interface UpsellOutput {
  order: { orderid: null; invoiceid: number | null; serviceid: number | null; fraud: false };
  paymentLink: string | null;
  lastDate: number | null;
  duration: number | null;
  selectedGateway: string;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/**
 * The invoice price of a quantity of extra connections for a service: a full period's, prorated for the rest of what
 * the service is billed for (as the server prices it); null when not sold in the currency.
 */
export function upsellPrice(service: ActiveService | undefined, currency: Currency, quantity: number): number | null {
  if (!service) return null;
  const fullPeriod = quoteUpsell({ id: EXTRA_CONNECTION_OPTION_ID, pricing: service.pricing }, service.billingcycle, currency, quantity);
  return fullPeriod === null ? null : prorate(fullPeriod, service.proration);
}

function selectedService(context: UpsellContext): ActiveService | undefined {
  return context.services.find((service) => service.serviceid === context.selectedServiceId);
}

const priced = (context: UpsellContext, changes: Partial<UpsellContext>): Partial<UpsellContext> => {
  const next = { ...context, ...changes };
  return { ...changes, price: upsellPrice(selectedService(next), next.currency, next.quantity) };
};

interface GuardArgs {
  context: UpsellContext;
}

/** The guards of the upsell machine, exported for their unit tests. */
export const upsellGuards = {
  hasServices: (_: unknown, params: { count: number }) => params.count > 0,
  isActiveService: ({ context }: GuardArgs, params: { serviceid: number }) =>
    context.services.some((service) => service.serviceid === params.serviceid),
  quantityInRange: (_: unknown, params: { quantity: number }) =>
    Number.isInteger(params.quantity) && params.quantity >= UPSELL_MIN_QUANTITY && params.quantity <= UPSELL_MAX_QUANTITY,
  isKnownGateway: ({ context }: GuardArgs, params: { gateway: string }) => context.gateways.some((gateway) => gateway.module === params.gateway),
  canSubmit: ({ context }: GuardArgs) =>
    context.price !== null && selectedService(context) !== undefined && context.gateways.some((gateway) => gateway.module === context.selectedGateway),
  priceChanged: ({ context }: GuardArgs, params: { error: unknown }) => isPriceChangeError(params.error) && params.error.serverPrice.currency === context.currency,
};

/** What the views and the app read about each actor, action, guard and delay. */
export const upsellMachineDocs = {
  actors: {
    loadActiveServices: {
      description: "Loads the client's active services with their extra-connection pricing (getActiveProducts).",
      input: 'none (the session tells the client)',
      output: '{ totalresults, products: [{ serviceid, pid, name, billingcycle, nextduedate, proration, extraConnections, pricing }] }',
    },
    createInvoice: {
      description: 'Creates the invoice for the extra connections and its payment link (addInvoice).',
      input: '{ serviceId, extraQuantity, paymentmethod, price, currency }',
      output: '{ invoiceid, amount, currency, link, deadline }',
    },
  },
  actions: {
    storeServices: { description: 'Keeps the services, selects the first and prices quantity 1 (prorated for the rest of its period).', input: 'products', output: 'services, selectedServiceId, price' },
    selectService: { description: 'Selects another service and reprices.', input: 'serviceid', output: 'selectedServiceId, price' },
    setQuantity: { description: 'Sets the number of extra connections and reprices.', input: 'quantity', output: 'quantity, price' },
    selectGateway: { description: 'Selects the payment gateway.', input: 'gateway', output: 'selectedGateway' },
    clearError: { description: 'Hides the last error message.', output: 'error' },
    storeError: { description: 'Keeps the server message of a failed call to show it.', input: 'the actor error', output: 'error' },
    takeServerPrice: {
      description: "Shows the server's total of a refused invoice as the price, with its message; the next payment sends it.",
      input: 'the actor error (409 price_changed: serverPrice { amount, currency })',
      output: 'price, error',
    },
    storeInvoice: {
      description: 'Keeps the invoice, its payment link and its one-day deadline.',
      input: 'invoiceid, link, deadline',
      output: 'invoiceid, paymentLink, lastDate, duration',
    },
    redirectToPayment: { description: "Sends the shopper to the gateway's payment page; the waiting step follows.", input: '{ link }' },
  },
  guards: {
    hasServices: { description: 'The client has at least one active service.' },
    isActiveService: { description: 'The chosen service is one of the loaded active services.' },
    quantityInRange: { description: `The quantity is a whole number from ${UPSELL_MIN_QUANTITY} to ${UPSELL_MAX_QUANTITY}; anything else is ignored.` },
    isKnownGateway: { description: 'The chosen gateway is in the gateway list.' },
    canSubmit: { description: 'A service, a price in the currency and a listed gateway are set.' },
    priceChanged: { description: 'The server refused the price (409 price_changed) and said its own amount in the currency shown.' },
  },
  events: {
    'service.select': { description: 'The client picks one of their services.' },
    'quantity.change': { description: 'The client moves the quantity slider.' },
    'gateway.select': { description: 'The client picks a payment gateway.' },
    'order.submit': { description: 'The client pays for the extra connections.' },
    'services.retry': { description: 'The client retries loading their services.' },
  },
};

/** The upsell: extra connections for an active service. */
export const upsellMachine = setup({
  types: {
    meta: {} as ProductWords,
    input: {} as UpsellInput,
    context: {} as UpsellContext,
    events: {} as UpsellEvent,
    output: {} as UpsellOutput,
  },
  actors: {
    loadActiveServices: fromPromise<ActiveServicesOutput>(notProvided('loadActiveServices')),
    createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(notProvided('createInvoice')),
  },
  actions: {
    storeServices: assign(({ context }, params: { services: ActiveService[] }) =>
      priced(context, { services: params.services, selectedServiceId: params.services[0]?.serviceid ?? null, quantity: UPSELL_MIN_QUANTITY }),
    ),
    selectService: assign(({ context }, params: { serviceid: number }) => priced(context, { selectedServiceId: params.serviceid })),
    setQuantity: assign(({ context }, params: { quantity: number }) => priced(context, { quantity: params.quantity })),
    selectGateway: assign((_, params: { gateway: string }) => ({ selectedGateway: params.gateway })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error) })),
    takeServerPrice: assign((_, params: { error: unknown }) =>
      isPriceChangeError(params.error) ? { price: params.error.serverPrice.amount, error: failureMessage(params.error) } : { error: failureMessage(params.error) },
    ),
    storeInvoice: assign((_, params: { invoice: CreateInvoiceOutput }) => ({
      invoiceid: params.invoice.invoiceid,
      paymentLink: params.invoice.link,
      lastDate: Date.parse(params.invoice.deadline),
      duration: PAYMENT_DEADLINE_MS,
    })),
    redirectToPayment: (_, _params: { link: string }) => {},
  },
  guards: upsellGuards,
}).createMachine({
  id: 'upsell',
  description: 'Extra connections for an active service: pick service, quantity and gateway, pay the invoice.',
  meta: { product: 'Extra connections for an active service: the client picks service, how many, and how to pay, then pays.' },
  context: ({ input }) => ({
    currency: input.currency,
    services: [],
    selectedServiceId: null,
    quantity: UPSELL_MIN_QUANTITY,
    gateways: input.gateways,
    selectedGateway: input.selectedGateway,
    price: null,
    invoiceid: null,
    paymentLink: null,
    lastDate: null,
    duration: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "Loads the client's active services.",
      meta: { product: 'The client waits a moment while their active services load.' },
      invoke: {
        id: 'loadActiveServices',
        src: 'loadActiveServices',
        onDone: [
          {
            guard: { type: 'hasServices', params: ({ event }) => ({ count: event.output.products.length }) },
            target: 'ready',
            actions: { type: 'storeServices', params: ({ event }) => ({ services: event.output.products }) },
            description: 'Services found: the first one is selected.',
            meta: { product: 'Services found: the first one is chosen.' },
          },
          { target: 'empty', description: 'No active service: nothing to extend.', meta: { product: 'The client has no active service to add connections to.' } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The services could not be loaded.',
          meta: { product: 'The services could not be loaded.' },
        },
      },
    },
    failed: {
      description: 'The services could not be loaded: message and retry button.',
      meta: { product: 'The services could not be loaded; the client sees a message and a button to try again.' },
      on: { 'services.retry': { target: 'loading', actions: 'clearError', description: 'Loads the services again.', meta: { product: 'The client tries again.' } } },
    },
    empty: {
      description: 'The client has no active service to add connections to.',
      meta: { product: 'The client has no active service to add connections to.' },
    },
    ready: {
      description: 'Service, quantity slider, gateway list and price; errors of a failed payment are shown here.',
      meta: { product: 'The client chooses service, number of connections and payment method, and sees the price.' },
      on: {
        'service.select': {
          guard: { type: 'isActiveService', params: ({ event }) => ({ serviceid: event.serviceid }) },
          actions: { type: 'selectService', params: ({ event }) => ({ serviceid: event.serviceid }) },
          description: 'Selects another service and reprices.',
          meta: { product: 'The client picks another service and the price follows.' },
        },
        'quantity.change': {
          guard: { type: 'quantityInRange', params: ({ event }) => ({ quantity: event.quantity }) },
          actions: { type: 'setQuantity', params: ({ event }) => ({ quantity: event.quantity }) },
          description: 'Sets the quantity and reprices; out-of-range values are ignored.',
          meta: { product: 'The client changes how many connections they want and the price follows.' },
        },
        'gateway.select': {
          guard: { type: 'isKnownGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          actions: { type: 'selectGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          description: 'Selects the payment gateway.',
          meta: { product: 'The client picks a payment method.' },
        },
        'order.submit': { guard: 'canSubmit', target: 'submitting', actions: 'clearError', description: 'Creates the invoice.', meta: { product: 'The client presses the order button.' } },
      },
    },
    submitting: {
      description: 'Creates the invoice and its payment link; a second submit is ignored.',
      meta: { product: 'The bill and its payment link are being made; pressing again does nothing.' },
      invoke: {
        id: 'createInvoice',
        src: 'createInvoice',
        input: ({ context }) => ({
          serviceId: context.selectedServiceId ?? 0,
          extraQuantity: context.quantity,
          paymentmethod: context.selectedGateway,
          price: context.price ?? 0,
          currency: context.currency,
        }),
        onDone: {
          target: 'redirecting',
          actions: { type: 'storeInvoice', params: ({ event }) => ({ invoice: event.output }) },
          description: 'Invoice created: go to its payment page.',
          meta: { product: 'The bill is ready: the client goes to its payment page.' },
        },
        onError: [
          {
            guard: { type: 'priceChanged', params: ({ event }) => ({ error: event.error }) },
            target: 'ready',
            actions: { type: 'takeServerPrice', params: ({ event }) => ({ error: event.error }) },
            description: "409 price_changed: the server's total is shown and paid next, the choices are kept.",
            meta: { product: 'The price changed meanwhile: the client sees the new total, which is what they pay next.' },
          },
          {
            target: 'ready',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'The invoice was refused: the server message is shown, the choices are kept.',
            meta: { product: 'The bill was refused; the client sees the reason and keeps their choices.' },
          },
        ],
      },
    },
    redirecting: {
      description: 'The payment page opens; the waiting step takes over with the invoice and its deadline.',
      meta: { product: 'The payment page opens; afterwards the waiting page follows the payment until its deadline.' },
      type: 'final',
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.paymentLink ?? '' }) },
    },
  },
  output: ({ context }) => ({
    order: { orderid: null, invoiceid: context.invoiceid, serviceid: context.selectedServiceId, fraud: false },
    paymentLink: context.paymentLink,
    lastDate: context.lastDate,
    duration: context.duration,
    selectedGateway: context.selectedGateway,
  }),
});
