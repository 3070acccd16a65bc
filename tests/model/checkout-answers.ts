/**
 * What the fake API answers the checkout's page, as openapi.yaml writes it: the model's products, gateways,
 * promotions and saved order, the visitor's currency, and a proxy's 502 while the API is down.
 */
import type { AnyEventObject } from 'xstate';
import type { CheckoutGateway, CheckoutProduct, SavedOrderStatus } from '../../machines/checkout.machine';
import type { ModelPath } from '../../scripts/statecharts/graph';
import { CHECKOUT_MODEL_NOW, modelSavedOrder } from '../../scripts/statecharts/models/checkout.model';
import { PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { PromotionLookup } from '../../src/domain/promotion';
import { SEEDED_PLANS } from '../facts/catalogue';
import { PAYMENT_LINKS } from '../facts/messages';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';

/** The session of a visitor nobody signed in yet. */
export const anonymous = { loggedIn: false, guest: false, userid: null, email: null };

export const contractProduct = (product: CheckoutProduct) => ({
  pid: product.pid,
  name: product.name,
  description: product.description,
  group: 'retail',
  paytype: 'recurring',
  billingcycle: product.billingcycle,
  pricing: contractPricing(product.pricing),
  configoptions: product.configoptions.map((option) => ({ id: option.id, name: option.name, pricing: contractPricing(option.pricing) })),
});
export const productList = (products: CheckoutProduct[]) => ({ totalresults: products.length, products: products.map(contractProduct) });
export const gatewayList = ({ gateways, defaultGateway }: { gateways: CheckoutGateway[]; defaultGateway: string }) => contractGateways(gateways, defaultGateway);
export const promotionLookup = (lookup: PromotionLookup) => ({ result: 'success', totalresults: lookup.totalresults, promotions: { promotion: lookup.promotions } });
/** What a proxy in front of the API answers when the API is down ('Bad gateway' in the model). */
export const badGateway = () => apiError(502, 'bad_gateway', 'Bad gateway');

export const CURRENCY = 'loadCurrency';
export const isCurrencyResult = (event: AnyEventObject) => event.type === `xstate.done.actor.${CURRENCY}` || event.type === `xstate.error.actor.${CURRENCY}`;

/** The app asks the visitor's currency once, as it starts (before any view): the path's answer, else GB. */
export function currencyAnswer(path: ModelPath) {
  const event = path.steps.find((step) => isCurrencyResult(step.event))?.event;
  if (event?.type === `xstate.error.actor.${CURRENCY}`) return badGateway();
  const country = (event?.output as { country: string } | undefined)?.country ?? 'GB';
  return { country, currency: country === 'GB' ? 'GBP' : 'EUR' };
}

/** orderStatus of the saved order as the server answers it: Pending is unpaid, Active paid, Fraud under review. */
export function savedOrderStatus(status: SavedOrderStatus['status']) {
  const invoiceStatus = status === 'Active' ? 'Paid' : status === 'Cancelled' ? 'Cancelled' : 'Unpaid';
  return {
    orderid: modelSavedOrder.orderid, status, invoiceid: modelSavedOrder.invoiceid, invoiceStatus, serviceids: [501], fraud: status === 'Fraud', amount: 10, currency: 'GBP',
    payment: { status: status === 'Active' ? 'Paid' : 'Open', gateway: 'sandbox' },
    latePayment: false,
    receipt: {
      lines: [{ pid: 1, name: SEEDED_PLANS[0]!.name, billingcycle: SEEDED_PLANS[0]!.billingcycle, extraConnections: 0, proxyProtection: false }],
      promocode: null,
      discount: 0,
      date: new Date(CHECKOUT_MODEL_NOW).toISOString(),
      datepaid: status === 'Active' ? new Date(CHECKOUT_MODEL_NOW).toISOString() : null,
      paymentmethod: { module: 'sandbox', displayname: 'Card' },
    },
  };
}

/** The saved payment of the model's unpaid order, as the checkout cookie holds it (the app saved it before leaving for the payment page). */
export const savedPayment = {
  flow: 'order',
  order: { ...modelSavedOrder, serviceid: 501, fraud: false },
  link: PAYMENT_LINKS.checkout,
  gateway: 'sandbox',
  lastDate: CHECKOUT_MODEL_NOW + PAYMENT_DEADLINE_MS,
  duration: PAYMENT_DEADLINE_MS,
};
