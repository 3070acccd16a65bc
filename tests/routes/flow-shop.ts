/**
 * The shop the journeys of tests/facts/flows.ts talk to: the seeded catalogue, gateways and promotions
 * (tests/facts/catalogue.ts) behind a fake fetch whose answers are checked against openapi.yaml, and a log
 * of what reached it (identifications, orders and the shop's answer to each, status reads, cancels).
 */
import { SEEDED_PLANS, SEEDED_PROMOTIONS, contractPricing, type FactCurrency } from '../facts/catalogue';
import { FLOW_PAYMENT_LINK, PROVISIONED_SERVICE, WAITING_ORDER, type FlowSession, type OrderSent, type StatusAnswer } from '../facts/flows';
import { controlledApi } from '../model/api';
import { apiError, type Operation } from '../support/fake-api';

const retailProduct = (plan: (typeof SEEDED_PLANS)[number]) => ({
  pid: plan.pid,
  name: plan.name,
  description: plan.description,
  group: 'retail',
  paytype: plan.billingcycle === 'One Time' ? 'onetime' : 'recurring',
  billingcycle: plan.billingcycle,
  pricing: contractPricing(plan.pricing),
  configoptions: plan.configoptions.map((option) => ({ id: option.id, name: option.name, pricing: contractPricing(option.pricing) })),
});

const sessionOf = (session: FlowSession) =>
  session.kind === 'client' ? { loggedIn: true, guest: false, userid: session.userid, email: session.email } : { loggedIn: false, guest: false, userid: null, email: null };

/** What one order request asked for, as OrderSent writes it (its answer added by the shop). */
interface OrderBody {
  pid: number;
  configoptions?: { '2'?: 0 | 1; '4'?: 0 | 1 };
  promocode?: string;
  amount: number;
  currency: FactCurrency;
}

export interface FlowShopOptions {
  session: FlowSession;
  country: string;
  /** The first order is refused with 409 price_changed at this total. */
  priceChangedTo?: number;
  /** Orders are created flagged, without a payment link. */
  flagged?: boolean;
  /** The answers to the waiting page's status reads, in order (the last repeats). */
  statuses?: StatusAnswer[];
  /** Seconds since the page opened, for the log of status reads. */
  elapsed?: () => number;
}

/** The shop of one journey and its log. */
export function flowShop({ session, country, priceChangedTo, flagged = false, statuses = [], elapsed = () => 0 }: FlowShopOptions) {
  const identified: string[] = [];
  const orders: OrderSent[] = [];
  const statusReads: number[] = [];
  const cancelled: number[] = [];
  const json = async (request: Request) => (await request.json()) as Record<string, unknown>;

  const order = async (request: Request) => {
    const body = (await json(request)) as unknown as OrderBody;
    const sent = {
      pid: body.pid,
      configoptions: { '2': body.configoptions?.['2'] ?? 0, '4': body.configoptions?.['4'] ?? 0 },
      promocode: body.promocode ?? null,
      amount: body.amount,
      currency: body.currency,
    } as const;
    if (priceChangedTo !== undefined && orders.length === 0) {
      orders.push({ ...sent, answer: { priceChanged: priceChangedTo } });
      return apiError(409, 'price_changed', 'The price has changed.', { amount: priceChangedTo, currency: body.currency });
    }
    orders.push({ ...sent, answer: flagged ? 'flagged' : 'created' });
    return {
      orderid: WAITING_ORDER.orderid, invoiceid: WAITING_ORDER.invoiceid, serviceids: [WAITING_ORDER.serviceid], fraud: flagged, status: flagged ? 'Fraud' : 'Pending',
      amount: body.amount, currency: body.currency, link: flagged ? null : FLOW_PAYMENT_LINK, deadline: flagged ? null : new Date(Date.now() + 86_400_000).toISOString(),
    };
  };

  const receipt = {
    lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: false }], promocode: 'WELCOME10', discount: 1.7,
    date: '2026-01-15T12:00:00.000Z', datepaid: null, paymentmethod: { module: WAITING_ORDER.gateway, displayname: 'Card' },
  };
  const statusOf = ({ status, payment }: StatusAnswer) => ({
    orderid: WAITING_ORDER.orderid, status, invoiceid: WAITING_ORDER.invoiceid, invoiceStatus: status === 'Active' ? 'Paid' : status === 'Cancelled' ? 'Cancelled' : 'Unpaid',
    serviceids: [WAITING_ORDER.serviceid], fraud: false, amount: WAITING_ORDER.amount, currency: WAITING_ORDER.currency,
    payment: { status: payment, gateway: WAITING_ORDER.gateway }, latePayment: false, receipt,
  });
  const orderStatus = () => {
    statusReads.push(elapsed());
    return statusOf(statuses[Math.min(statusReads.length, statuses.length) - 1] ?? { status: 'Pending', payment: 'Open' });
  };

  const answers: Partial<Record<Operation, unknown>> = {
    session: sessionOf(session),
    currency: { country, currency: country === 'GB' ? 'GBP' : 'EUR' },
    getProducts: { totalresults: SEEDED_PLANS.length, products: SEEDED_PLANS.map(retailProduct) },
    getProduct: (request: Request) => {
      const plan = SEEDED_PLANS.find((candidate) => String(candidate.pid) === new URL(request.url).searchParams.get('pid'));
      return plan ? retailProduct(plan) : apiError(404, 'not_found', 'Product not found.');
    },
    getGateway: {
      paymentmethods: { paymentmethod: [{ module: 'sandbox', displayname: 'Card', type: 'CreditCard', currencies: ['EUR', 'GBP'] }, { module: 'sandboxcrypto', displayname: 'Bitcoin', type: 'Bitcoin', currencies: ['EUR', 'GBP'] }] },
      defaultGateway: 'sandbox',
    },
    checkFraud: { valid: true },
    getPromotion: (request: Request) => {
      const promotion = SEEDED_PROMOTIONS[new URL(request.url).searchParams.get('code') ?? ''];
      return promotion ? { result: 'success', totalresults: 1, promotions: { promotion: [promotion] } } : apiError(422, 'promotion_not_found', 'Promotion code not found.');
    },
    authMiddleware: async (request: Request) => {
      const { email } = (await json(request)) as { email: string };
      identified.push(email);
      return { userid: 'g_Flow0Guest0Handle00001', email };
    },
    order,
    orderStatus,
    invoiceStatus: {
      invoiceid: WAITING_ORDER.invoiceid, status: 'Paid', kind: 'order', orderid: WAITING_ORDER.orderid, serviceid: WAITING_ORDER.serviceid, amount: WAITING_ORDER.amount,
      currency: WAITING_ORDER.currency, payment: { status: 'Paid', gateway: WAITING_ORDER.gateway }, latePayment: false, receipt,
    },
    cancelOrder: async (request: Request) => {
      const { orderid } = (await json(request)) as { orderid: number };
      cancelled.push(orderid);
      return { orderid, status: 'Cancelled' };
    },
    getClientProducts: {
      serviceid: WAITING_ORDER.serviceid, orderid: WAITING_ORDER.orderid, pid: 1, name: '1 Month', status: 'Active', billingcycle: 'Monthly',
      username: PROVISIONED_SERVICE.username, password: PROVISIONED_SERVICE.password, serverhostname: PROVISIONED_SERVICE.host,
      playlistUrl: `http://${PROVISIONED_SERVICE.host}/get.php?username=${PROVISIONED_SERVICE.username}&password=${PROVISIONED_SERVICE.password}&type=m3u_plus`,
      macAddress: { id: 13, value: '' }, extraConnect: { id: 2, value: 1 }, reseller: null,
    },
  };
  const api = controlledApi({ answers });
  return { ...api, identified, orders, statusReads, cancelled };
}

export type FlowShop = ReturnType<typeof flowShop>;
