/** The checkout machine with the app's actors (typed-client calls) and actions (navigation, saved state). */
import { assign, fromPromise } from 'xstate';
import { checkoutMachine, type CheckoutContext, type CheckoutGateway, type CheckoutPreload, type CheckoutProduct, type SavedOrder, type SavedOrderStatus } from '../../../machines/checkout.machine';
import { placeOrderMachine, type CreatedOrder, type CreateOrderRequest, type IdentifiedGuest } from '../../../machines/place-order.machine';
import { currencyForCountry } from '../../domain/currency';
import { isLocale, visitorCurrency } from '../../domain/locale';
import type { PromotionLookup } from '../../domain/promotion';
import { ApiFailure, unwrap } from '../api';
import type { SavedChoices } from '../persistence';
import { readPayment } from '../saved-payment';
import type { AppServices } from '../services';
import { savePayment } from './payment';

const PROMO_CODE = /^[A-Za-z0-9_-]{1,64}$/;

const loadProducts = async (app: AppServices) => (await unwrap(app.client.GET('/checkout/api/getProducts', { params: { query: { locale: app.catalogueLocale() } } }))).products;

/** The country the machine prices by; a locale with its own currency (en-gb: GBP) stands in for GB. */
async function pricingCountry(app: AppServices): Promise<string> {
  const { country } = await app.session.visitor.currencyAnswer;
  const locale = isLocale(app.i18n.language) ? app.i18n.language : 'en-en';
  return visitorCurrency(locale, country) === currencyForCountry(country) ? country : 'GB';
}

/**
 * Everything the checkout's loading state fetches, fetched by the index route's loader (on the server
 * for the page it renders, in the browser from the page's dehydrated answers); null when a part failed,
 * and the chart then loads (and reports) it itself.
 */
export async function loadCheckoutPreload(app: AppServices): Promise<CheckoutPreload | null> {
  try {
    const [products, { gateways, defaultGateway }, country, fraud] = await Promise.all([loadProducts(app), app.loadGateways(), pricingCountry(app), unwrap(app.client.GET('/checkout/api/checkFraud'))]);
    return { products, gateways, defaultGateway, country, fraudCheck: !fraud.valid };
  } catch {
    return null;
  }
}

/** The checkout machine wired to the typed client. */
export function checkoutLogic(app: AppServices, hooks: { goToWaiting: () => void }) {
  const { client } = app;
  return checkoutMachine.provide({
    actors: {
      loadProducts: fromPromise<CheckoutProduct[]>(() => loadProducts(app)),
      loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(() => app.loadGateways()),
      loadCurrency: fromPromise<{ country: string }>(async () => ({ country: await pricingCountry(app) })),
      checkFraud: fromPromise<{ valid: boolean }>(() => unwrap(client.GET('/checkout/api/checkFraud'))),
      lookupPromotion: fromPromise<PromotionLookup, { code: string }>(async ({ input }) => {
        if (!PROMO_CODE.test(input.code)) throw new ApiFailure('api.promotion_not_found', 422, 'promotion_not_found');
        const lookup = await unwrap(client.GET('/checkout/api/getPromotion', { params: { query: { code: input.code } } }));
        return { totalresults: lookup.totalresults, promotions: lookup.promotions.promotion };
      }),
      loadProduct: fromPromise<CheckoutProduct | null, { pid: number }>(async ({ input }) => {
        try {
          return await unwrap(client.GET('/checkout/api/getProduct', { params: { query: { pid: String(input.pid), locale: app.catalogueLocale() } } }));
        } catch (error) {
          if (error instanceof ApiFailure && error.status === 404) return null;
          throw error;
        }
      }),
      checkSavedOrder: fromPromise<SavedOrderStatus, SavedOrder>(async ({ input }) => {
        const order = await unwrap(client.GET('/checkout/api/orderStatus', { params: { query: { orderid: String(input.orderid) } } }));
        return { orderid: order.orderid, status: order.status };
      }),
      cancelUnpaidOrder: fromPromise<unknown, { orderid: number }>(({ input }) => unwrap(client.POST('/checkout/api/cancelOrder', { body: { orderid: input.orderid } }))),
      placeOrder: placeOrderLogic(app),
    },
    actions: {
      // The new order replaces the previous one the success page was about.
      clearClientProduct: () => app.store.update({ payment: undefined }),
      redirectToPayment: ({ context }, { link }) => {
        savePayment(app, 'order', handoverOf(context));
        app.leave(link);
      },
      goToWaiting: ({ context }) => {
        savePayment(app, 'order', handoverOf(context));
        hooks.goToWaiting();
      },
      // Only the order checked: another tab may have saved a newer one meanwhile.
      forgetSavedOrder: (_args, { orderid }) => {
        if (savedOrderOf(app)?.orderid === orderid) app.store.update({ payment: undefined });
      },
      // The waiting step resumes the saved payment: its link while it lasts, a new one after.
      resumeUnpaidOrder: () => hooks.goToWaiting(),
    },
  });
}

/**
 * The placeOrder machine wired to the typed client, drawing a random Idempotency-Key for each attempt to
 * create the order. A refused order rejects with the ApiFailure, whose serverPrice (409 price_changed) the
 * machine reads as a price change.
 */
export function placeOrderLogic(app: AppServices) {
  const { client } = app;
  return placeOrderMachine.provide({
    actors: {
      identifyGuest: fromPromise<IdentifiedGuest, { email: string }>(({ input }) => unwrap(client.POST('/checkout/api/authMiddleware', { body: input }))),
      createOrder: fromPromise<CreatedOrder, CreateOrderRequest>(async ({ input }) => {
        const { idempotencyKey, email: _email, userid: _userid, ...body } = input;
        const order = await unwrap(client.POST('/checkout/api/order', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body }));
        return { orderid: order.orderid, invoiceid: order.invoiceid, serviceids: order.serviceids, fraud: order.fraud, link: order.link };
      }),
    },
    actions: {
      newIdempotencyKey: assign({ idempotencyKey: () => globalThis.crypto.randomUUID() }),
    },
  });
}

/** The order of the payment this browser saved for the index's flow (not an upsell's or a reseller's). */
export function savedOrderOf(app: AppServices): SavedOrder | null {
  const payment = readPayment(app.store);
  if (!payment || payment.flow !== 'order' || payment.order.orderid === null) return null;
  return { orderid: payment.order.orderid, invoiceid: payment.order.invoiceid };
}

function handoverOf(context: CheckoutContext) {
  return {
    order: context.order ?? { orderid: null, invoiceid: null, serviceid: null, fraud: false },
    link: context.payment?.link ?? null,
    gateway: context.payment?.gateway ?? context.selectedGateway ?? '',
    lastDate: context.payment ? Date.parse(context.payment.deadline) : null,
  };
}

/** The form as the shopper left it, saved so a return resumes it (only what was chosen). */
export function choicesOf(context: CheckoutContext): SavedChoices {
  const email = context.email.trim();
  return {
    ...(context.selectedPid !== null ? { pid: String(context.selectedPid) } : {}),
    ...(context.extraConnection ? { extraconnect: 'true' } : {}),
    ...(context.proxyProtection ? { proxyprotect: 'true' } : {}),
    ...(context.promotion ? { promocode: context.promotion.code } : {}),
    ...(email ? { email } : {}),
  };
}
