/**
 * The checkout: loads the catalogue, lets the shopper choose a plan, add-ons, promo code, e-mail and
 * gateway, creates the order and hands over to the payment page (or the waiting step); the automatic
 * order from URL parameters is its own branch that stops on the form with its reason. An order this
 * browser left unpaid is offered first: continue to its payment, or cancel it.
 */
import { assign } from 'xstate';
import { MAX_CHECKOUT_PRODUCTS } from '../src/domain/constants';
import { currencyForCountry } from '../src/domain/currency';
import { acceptPromotion } from '../src/domain/promotion';
import { errorMessage, gatewayFor, initialContext, initialSelectedPid, todayOf } from './checkout.context';
import { formRegions } from './checkout.form';
import { autoOrderChoice, formChoice, placeOrderInput, refusalFor } from './checkout.order';
import { checkoutSetup } from './checkout.setup';
import type { PlaceOrderOutput } from './place-order.machine';

export type {
  AutoOrder,
  AutoOrderStop,
  CheckoutContext,
  CheckoutEvent,
  CheckoutGateway,
  CheckoutInput,
  CheckoutOption,
  CheckoutOrder,
  CheckoutOutput,
  CheckoutPayment,
  CheckoutPreload,
  CheckoutProduct,
  CheckoutUser,
  PromoError,
  SavedOrder,
  SavedOrderStatus,
} from './checkout.context';
export { selectedProduct } from './checkout.context';
export type { CreatedOrder, CreateOrderRequest, OrderDraft } from './place-order.machine';

/** The params of the checkout's guards and actions on placeOrder's end. */
const placed = ({ event }: { event: { output: unknown } }) => ({ output: event.output as PlaceOrderOutput });

// The form's order and the link's automatic order hand over alike once placed; only a refusal differs.
const handOverPlacedOrder = [
  { guard: { type: 'orderToPay', params: placed }, target: '#checkout.redirecting', description: 'Order created: go to the payment page.', meta: { product: 'The order is placed and the shopper goes on to the payment page.' }, actions: [{ type: 'storeOrder', params: placed }, 'clearClientProduct'] },
  {
    guard: { type: 'orderToWait', params: placed },
    target: '#checkout.waiting',
    description: 'Order created without a payment link (flagged): go to the waiting step.',
    meta: { product: 'The order is placed but held for a check, so the shopper goes to the waiting page instead of paying.' },
    actions: [{ type: 'storeOrder', params: placed }, 'clearClientProduct'],
  },
] as const;

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  description: 'The order: plan, add-ons, promo, e-mail and gateway, then the payment link.',
  meta: { product: 'The order: the shopper chooses plan, extras, discount, e-mail and payment method, then goes on to pay.' },
  context: ({ input }) => initialContext(input),
  output: ({ context }) => ({ order: context.order, payment: context.payment }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Products, gateways, currency and fraud check load side by side.',
      meta: { product: "The page loads the plans, payment methods, the shopper's currency and a quick safety check." },
      invoke: [
        {
          id: 'loadProducts',
          src: 'loadProducts',
          onDone: [
            {
              guard: { type: 'hasProducts', params: ({ event }) => ({ products: event.output }) },
              description: 'Keep the first three products and select the pid of the URL, else the first.',
              meta: { product: 'The plans arrive and the one from the link, or the first, is chosen.' },
              actions: assign(({ context, event }) => {
                const products = event.output.slice(0, MAX_CHECKOUT_PRODUCTS);
                return { products, selectedPid: initialSelectedPid(products, context.query), loaded: { ...context.loaded, products: true } };
              }),
            },
            { target: 'notFound', description: 'The catalogue is empty.', meta: { product: 'There is no plan to offer.' } },
          ],
          onError: { target: 'notFound', description: 'The catalogue could not be loaded.', meta: { product: 'The plans could not be loaded.' } },
        },
        {
          id: 'loadGateways',
          src: 'loadGateways',
          onDone: {
            description: 'Keep the gateways and select the default one (or the first that takes the currency; none when none does).',
            meta: { product: "The payment methods arrive and the shop's usual one is chosen, or the first that takes the shopper's currency." },
            actions: assign(({ context, event }) => {
              const { gateways, defaultGateway } = event.output;
              const selectedGateway = gatewayFor(gateways, defaultGateway, context.currency);
              return { gateways, selectedGateway, loaded: { ...context.loaded, gateways: true } };
            }),
          },
          onError: { description: 'No gateway can be offered; the failure is only logged.', meta: { product: 'The payment methods could not be loaded, so none can be offered.' }, actions: assign({ loaded: ({ context }) => ({ ...context.loaded, gateways: true }) }) },
        },
        {
          id: 'loadCurrency',
          src: 'loadCurrency',
          onDone: {
            description: 'GB pays in GBP, every other country in EUR; a gateway that does not take it is not kept selected.',
            meta: { product: 'The shopper pays in pounds in the UK and in euros everywhere else.' },
            actions: assign(({ context, event }) => {
              const currency = currencyForCountry(event.output.country);
              const selectedGateway = context.gateways.length ? gatewayFor(context.gateways, context.selectedGateway, currency) : context.selectedGateway;
              return { country: event.output.country, currency, selectedGateway, loaded: { ...context.loaded, currency: true } };
            }),
          },
          onError: { description: 'Keep the default country and EUR.', meta: { product: "The shopper's country is unknown, so they pay in euros." }, actions: assign({ loaded: ({ context }) => ({ ...context.loaded, currency: true }) }) },
        },
        {
          id: 'checkFraud',
          src: 'checkFraud',
          onDone: {
            description: 'A check that is not valid sets the fraud flag.',
            meta: { product: 'The safety check is done; a doubtful visit is marked for review.' },
            actions: assign(({ context, event }) => ({ fraudCheck: !event.output.valid, loaded: { ...context.loaded, fraudCheck: true } })),
          },
          onError: { description: 'A failed check is only logged; no fraud flag.', meta: { product: 'The safety check could not be made; the visit is treated as normal.' }, actions: assign({ loaded: ({ context }) => ({ ...context.loaded, fraudCheck: true }) }) },
        },
      ],
      always: [
        { guard: 'autoOrderRequested', target: 'autoOrder', description: 'The URL asks for an automatic order.', meta: { product: 'The link asks to order a plan straight away, without the form.' } },
        { guard: 'hasSavedOrder', target: 'checkingSavedOrder', description: 'Everything answered and an order of this browser may be unpaid: ask the server first.', meta: { product: 'Everything is loaded and the shopper may have left an order unpaid: we look at it first.' } },
        { guard: 'catalogueLoaded', target: 'ready', description: 'Everything answered: show the form.', meta: { product: 'Everything is loaded: the shopper sees the order form.' } },
      ],
    },
    checkingSavedOrder: {
      description: 'Asking what became of the order whose payment this browser saved, before the form is shown (so the banner does not push it down).',
      meta: { product: "A moment's check on an order the shopper left in this browser, before the form shows." },
      invoke: {
        id: 'checkSavedOrder',
        src: 'checkSavedOrder',
        input: ({ context }) => context.savedOrder!,
        onDone: [
          {
            guard: { type: 'savedOrderUnpaid', params: ({ event }) => ({ status: event.output }) },
            target: 'ready',
            description: 'Unpaid: the banner offers it above the form.',
            meta: { product: 'The earlier order is still unpaid, so the form shows a banner offering it.' },
            actions: assign({ unpaidOrder: ({ context }) => context.savedOrder }),
          },
          {
            guard: { type: 'savedOrderSettled', params: ({ event }) => ({ status: event.output }) },
            target: 'ready',
            description: 'Paid or cancelled: no banner, and the stale saved payment is forgotten.',
            meta: { product: 'The earlier order is paid or cancelled, so no banner and it is forgotten.' },
            actions: { type: 'forgetSavedOrder', params: ({ context }) => ({ orderid: context.savedOrder!.orderid }) },
          },
          { target: 'ready', description: 'Under review (Fraud): no banner; the waiting page still shows it.', meta: { product: 'The earlier order is under review, so no banner; the waiting page still shows it.' } },
        ],
        onError: { target: 'ready', description: "The check failed (or the order is not this session's): no banner.", meta: { product: 'The earlier order could not be checked, so no banner.' } },
      },
    },
    resumingOrder: {
      type: 'final',
      description: "Continuing the unpaid order: its payment (the waiting step) takes over.",
      meta: { product: 'The shopper goes on to pay the order they left unpaid.' },
      entry: { type: 'resumeUnpaidOrder', params: ({ context }) => ({ orderid: context.unpaidOrder?.orderid ?? 0 }) },
    },
    notFound: {
      type: 'final',
      description: 'No product to offer: the not-found page.',
      meta: { product: 'There is no plan to offer, so the shopper sees the not-found page.' },
    },
    autoOrder: {
      description: 'The automatic order from URL parameters (spec section 5); a failed condition or lookup stops on the form with its reason.',
      meta: { product: 'An order made straight from a link; if anything is missing the shopper lands on the form with the reason.' },
      initial: 'checkingLink',
      states: {
        checkingLink: {
          description: "Checking the link's e-mail and pid before anything is looked up.",
          meta: { product: 'We check that the link carries an e-mail and a plan before anything else.' },
          always: [
            { guard: 'linkEmailInvalid', target: '#checkout.ready', description: "No e-mail of the right shape: stop on the form with 'Please enter a Valid Email.'", meta: { product: "The link's e-mail is not valid, so the shopper lands on the form and is asked for one." }, actions: assign({ autoOrderStop: { reason: 'email' } }) },
            { guard: 'linkPidInvalid', target: '#checkout.ready', description: 'No pid: stop on the form, the plan was not found.', meta: { product: 'The link names no plan, so the shopper lands on the form with "plan not found".' }, actions: assign({ autoOrderStop: { reason: 'plan' } }) },
            { target: 'loadingProduct', description: 'An e-mail of the right shape and a pid: look the product up.', meta: { product: 'The link carries an e-mail and a plan: the plan is looked up.' } },
          ],
        },
        loadingProduct: {
          description: 'Looking up the product of the URL.',
          meta: { product: 'The shopper waits a moment while the plan from the link is looked up.' },
          invoke: {
            id: 'loadProduct',
            src: 'loadProduct',
            input: ({ context }) => ({ pid: Number(context.query.pid) }),
            onDone: [
              {
                guard: { type: 'autoProductPricedWithPromo', params: ({ event }) => ({ product: event.output }) },
                target: 'checkingPromo',
                description: 'Priced product and a promo code to check.',
                meta: { product: 'The plan exists and has a price, and the link carries a discount code to check.' },
                actions: assign({ autoOrder: ({ event }) => ({ product: event.output!, promotion: null }) }),
              },
              {
                guard: { type: 'autoProductPriced', params: ({ event }) => ({ product: event.output }) },
                target: 'placingOrder',
                description: 'Priced product, no promo code.',
                meta: { product: 'The plan exists and has a price, and there is no discount code: the order is placed.' },
                actions: assign({ autoOrder: ({ event }) => ({ product: event.output!, promotion: null }) }),
              },
              { target: '#checkout.ready', description: 'Not found or no positive price: stop on the form, the plan was not found.', meta: { product: 'The plan does not exist or has no price, so the shopper lands on the form with "plan not found".' }, actions: assign({ autoOrderStop: { reason: 'plan' } }) },
            ],
            onError: { target: '#checkout.ready', description: "Lookup failed: stop on the form with the server's message.", meta: { product: 'The plan could not be looked up, so the shopper lands on the form with the reason.' }, actions: assign({ autoOrderStop: ({ event }) => ({ reason: 'failed', error: errorMessage(event.error) }) }) },
          },
        },
        checkingPromo: {
          description: 'Checking the promo code of the URL; it is used only if valid, listed and within its dates.',
          meta: { product: "The shopper waits a moment while the link's discount code is checked." },
          invoke: {
            id: 'lookupPromotion',
            src: 'lookupPromotion',
            input: ({ context }) => ({ code: context.query.promocode?.trim() ?? '' }),
            onDone: [
              {
                guard: { type: 'linkPromotionAccepted', params: ({ event }) => ({ lookup: event.output }) },
                target: 'placingOrder',
                description: 'The promotion is usable for the product: order with it.',
                meta: { product: 'The discount code is valid for the plan, so the order is placed with the discount.' },
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
                meta: { product: 'The discount code does not apply, so the shopper lands on the form with the reason, never at full price.' },
                actions: assign({ autoOrderStop: ({ context, event }) => ({ reason: 'promo', error: refusalFor(event.output, context.autoOrder!.product.pid, todayOf(context)) }) }),
              },
            ],
            onError: {
              target: '#checkout.ready',
              description: "Lookup failed (an unknown code): stop on the form with the server's message.",
              meta: { product: 'The discount code is unknown, so the shopper lands on the form with the reason.' },
              actions: assign({ autoOrderStop: ({ event }) => ({ reason: 'promo', error: { serverMessage: errorMessage(event.error) } }) }),
            },
          },
        },
        placingOrder: {
          description: "placeOrder places the automatic order (identifying a guest first); a changed price is confirmed on this page; a refusal stops on the form with the server's message, a refused new price goes to the form.",
          meta: { product: 'The order from the link is being placed; if the price changed, the shopper confirms the new total here.' },
          invoke: {
            id: 'placeOrder',
            src: 'placeOrder',
            input: ({ context }) => placeOrderInput(context, autoOrderChoice(context), context.query.email ?? ''),
            onDone: [
              ...handOverPlacedOrder,
              {
                target: '#checkout.ready',
                description: "Not placed: the form, with the server's message (none after the shopper refused the new price).",
                meta: { product: 'The order was not placed, so the shopper lands on the form with the reason.' },
                actions: [{ type: 'keepUser', params: placed }, { type: 'stopAfterPlaceOrder', params: placed }],
              },
            ],
          },
        },
      },
    },
    ready: {
      description: 'The form: plan, add-ons, promo, e-mail and gateway side by side; the total follows every change.',
      meta: { product: 'The order form: plan, extras, discount, e-mail and payment method side by side, with a total that follows every change.' },
      type: 'parallel',
      entry: 'recomputeQuote',
      on: {
        'order.submit': { guard: 'canSubmit', target: 'submitting', description: 'Submit: placeOrder identifies a guest first.', meta: { product: 'The shopper presses the order button with everything filled in.' } },
      },
      // Plan, add-ons, promo, e-mail, gateway, reminder and the unpaid order's banner: checkout.form.ts.
      states: formRegions,
    },
    submitting: {
      description: 'placeOrder places the order; a second submit is ignored here, so only one order is created; a changed price is confirmed on the form.',
      meta: { product: 'The order is being placed; pressing again does nothing, so only one order is made.' },
      entry: assign({ order: null, payment: null, submitError: null }),
      invoke: {
        id: 'placeOrder',
        src: 'placeOrder',
        input: ({ context }) => placeOrderInput(context, formChoice(context)!, context.email),
        onDone: [
          ...handOverPlacedOrder,
          { target: '#checkout.ready', description: "Not placed: back to the form with the server's message (none after the new price was cancelled).", meta: { product: 'The order was not placed; the shopper is back on the form with the reason.' }, actions: [{ type: 'keepUser', params: placed }, { type: 'showPlaceOrderError', params: placed }] },
        ],
      },
    },
    redirecting: {
      type: 'final',
      description: "Leaving for the gateway's payment page.",
      meta: { product: 'The shopper leaves for the payment page of their chosen payment method.' },
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.payment?.link ?? '' }) },
    },
    waiting: {
      type: 'final',
      description: 'No payment link (fraud): the waiting step takes over.',
      meta: { product: 'The order is held for a check, so the shopper goes to the waiting page.' },
      entry: { type: 'goToWaiting', params: ({ context }) => ({ orderid: context.order?.orderid ?? 0 }) },
    },
  },
});

