/**
 * The checkout machine's paths walked through the order form on / (a visit) and through
 * /creatingOrder (an automatic-order link), down to the payment page or the waiting step. Each step is
 * taken as checkout-actions.ts says and checked as checkout-views.ts says.
 */
import HTMLInputElementValueSanitizer from 'happy-dom/lib/nodes/html-input-element/HTMLInputElementValueSanitizer.js';
import { afterAll, beforeAll } from 'vitest';
import type { StateValue } from 'xstate';
import type { CheckoutContext, CheckoutInput } from '../../machines/checkout.machine';
import type { PathStep } from '../../scripts/statecharts/graph';
import { CHECKOUT_MODEL_NOW, checkoutModel, modelGateways, modelProducts } from '../../scripts/statecharts/models/checkout.model';
import { MIN_LOADING_MS } from '../../src/domain/constants';
import type { FactCurrency } from '../facts/catalogue';
import { perform } from './checkout-actions';
import { anonymous, badGateway, currencyAnswer, gatewayList, isCurrencyResult, productList, savedOrderStatus, savedPayment } from './checkout-answers';
import { top, type CheckoutPage } from './checkout-page';
import { see } from './checkout-views';
import { describeViewWalk, refusedInputs, type WalkedStep } from './walk';

// happy-dom strips every Unicode blank from an e-mail input (String.trim); the HTML spec strips only
// ASCII whitespace, so in a browser a pasted no-break space stays in the field. The walk follows the spec.
const { sanitize } = HTMLInputElementValueSanitizer;
beforeAll(() => {
  HTMLInputElementValueSanitizer.sanitize = (input, value) =>
    input.type === 'email' && !input.multiple ? value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/[\n\r]/g, '') : sanitize.call(HTMLInputElementValueSanitizer, input, value);
});
afterAll(() => {
  HTMLInputElementValueSanitizer.sanitize = sanitize;
});

/** The part of the context compared with the path's. */
function project(value: StateValue, raw: unknown): unknown {
  // Until the catalogue is complete, the loads answer in the app's order (the currency first): only the state is compared.
  if (top(value) === 'loading' || top(value) === 'notFound') return {};
  const context = raw as CheckoutContext;
  return {
    query: context.query,
    user: context.user,
    loaded: context.loaded,
    products: context.products.map((product) => product.pid),
    selectedPid: context.selectedPid,
    extraConnection: context.extraConnection,
    proxyProtection: context.proxyProtection,
    gateways: context.gateways.map((gateway) => gateway.module),
    selectedGateway: context.selectedGateway,
    country: context.country,
    currency: context.currency,
    fraudCheck: context.fraudCheck,
    promoCode: context.promoCode,
    promoCheckPending: context.promoCheckPending,
    promoLookup: context.promoLookup,
    promotion: context.promotion?.code ?? null,
    // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
    promoError: context.promoError && ('key' in context.promoError ? context.promoError : 'server message'),
    savedOrder: context.savedOrder,
    unpaidOrder: context.unpaidOrder,
    unpaidOrderError: context.unpaidOrderError !== null,
    autoOrderStop: context.autoOrderStop && {
      reason: context.autoOrderStop.reason,
      ...('error' in context.autoOrderStop ? { error: typeof context.autoOrderStop.error === 'object' && 'key' in context.autoOrderStop.error ? context.autoOrderStop.error : 'server message' } : {}),
    },
    email: context.email,
    emailValid: context.emailValid,
    emailError: context.emailError,
    affId: context.affId,
    quote: context.quote,
    autoOrder: context.autoOrder && { pid: context.autoOrder.product.pid, promotion: context.autoOrder.promotion?.code ?? null },
    order: context.order,
    payment: context.payment,
    submitError: context.submitError !== null,
  };
}

describeViewWalk<CheckoutPage>({
  model: checkoutModel,
  open: async (path, base) => {
    const { query = {}, user, savedOrder } = path.input as CheckoutInput;
    // A signed-in client following a deep link: the session is the client's, nobody is identified.
    const session = user ? { loggedIn: true, guest: false, userid: user.userid, email: user.email } : anonymous;
    const route = query.auto_redirect === 'true' ? '/creatingOrder' : '/';
    const search = new URLSearchParams(Object.entries(query)).toString();
    const page = await base({
      url: `/checkout${route}${search ? `?${search}` : ''}`,
      now: () => CHECKOUT_MODEL_NOW,
      minLoadingMs: MIN_LOADING_MS,
      // Back from the payment page: the payment the app saved before leaving.
      ...(savedOrder ? { cookies: { checkout: JSON.stringify({ payment: savedPayment }) } } : {}),
      api: {
        answers: {
          session,
          currency: currencyAnswer(path),
          // The waiting page a continued order opens polls the order as unpaid.
          orderStatus: savedOrderStatus('Pending'),
          getProducts: productList(modelProducts),
          getGateway: gatewayList({ gateways: modelGateways, defaultGateway: 'sandbox' }),
        },
        // A link's e-mail logs its guest in first; that fails here, so the checkout identifies the guest itself (the model's input has no user).
        first: route === '/creatingOrder' && !user ? { authMiddleware: [badGateway()] } : {},
        // The walked actor's own calls; later forms (after a fallback, on the waiting page) load at once.
        hold: { getProducts: 1, getGateway: 1, checkFraud: 1, getPromotion: Infinity, authMiddleware: Infinity, getProduct: Infinity, order: Infinity, orderStatus: savedOrder ? 1 : 0, cancelOrder: Infinity },
      },
    });
    if (route === '/creatingOrder' && !user) page.note("auto-order link: the automatic login of the link's e-mail fails first, so the checkout identifies the guest itself (the model's input has no user)");
    const currency = currencyAnswer(path);
    return { ...page, route, currency: currency instanceof Response ? 'EUR' : (currency.currency as FactCurrency) };
  },
  // The currency is known before the form exists: its answer is the first of the four loads.
  arrange: (path) => [...path.steps.filter((step) => isCurrencyResult(step.event)), ...path.steps.filter((step) => !isCurrencyResult(step.event))],
  offView: refusedInputs({
    'gateway.select': 'choosing the gateway already chosen sends nothing (a checked radio)',
    'plan.select': 'choosing the plan already chosen sends nothing (a checked radio)',
    'promo.apply': 'the Apply button is disabled while the code is empty',
  }),
  unrepeatable: { idempotencyKey: 'a fresh random Idempotency-Key per submission (the app draws it, the model uses a fixed one)' },
  perform: (step, page) => perform(step.event, page),
  see: (state, page, step) => see(state.value, state.context as CheckoutContext, page, step),
  project,
  extra: (walked: WalkedStep, _previous, steps: PathStep[]) =>
    isCurrencyResult(walked.event) && !steps.some((step) => isCurrencyResult(step.event))
      ? 'the currency the app reads as it starts answers loadCurrency, though the path ends before that load'
      : null,
});
