/**
 * The shop the journeys of tests/facts/flows.ts and tests/facts/flows-account.ts talk to: the seeded catalogue,
 * gateways and promotions (tests/facts/catalogue.ts) behind a fake fetch whose answers are checked against
 * openapi.yaml, the accounts it knows (FLOW_CLIENT, FLOW_RESELLER), and a log of what reached it
 * (identifications, sign-ins and sign-outs, orders, invoices and the shop's answer to each, status reads,
 * cancels, device addresses, the renewal's payment links).
 */
import { EXTRA_CONNECTION_PRICING, PANEL_ACTIVATION_PID, SEEDED_PLANS, SEEDED_PROMOTIONS, SEEDED_RESELLER_PRODUCTS, contractPricing, type FactCurrency } from '../facts/catalogue';
import { FLOW_PAYMENT_LINK, PROVISIONED_SERVICE, WAITING_ORDER, type OrderSent, type StatusAnswer } from '../facts/flows';
import {
  CLIENT_PASSWORD,
  FLOW_RESELLER,
  RESELLER_PAYMENT_LINK,
  RESELLER_SERVICE,
  UPSELL_INVOICE,
  type AccountSession,
  type ClientService,
  type InvoiceSent,
  type ResellerAuthSent,
  type ResellerOrderSent,
  type ServiceAnswer,
} from '../facts/flows-account';
import { RENEWAL_INVOICE, RENEWAL_PAYMENT_LINK, type LinkSent } from '../facts/flows-renewal';
import type { Renewal, ServiceStatus } from '../../src/api/client';
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

const resellerProduct = (pack: (typeof SEEDED_RESELLER_PRODUCTS)[number]) => ({
  pid: pack.pid, name: pack.name, description: `${pack.name}, paid once.`, group: 'reseller', paytype: 'onetime', billingcycle: pack.billingcycle, pricing: contractPricing(pack.pricing), configoptions: [],
});

/** The opaque handles of a guest's and a sign-up's session (openapi.yaml GuestHandle). */
const GUEST_HANDLE = 'g_Flow0Guest0Handle00001';
const SIGN_UP_HANDLE = 'g_Flow0SignUp0Handle0001';

const sessionOf = (session: AccountSession) => {
  switch (session.kind) {
    case 'client':
      return { loggedIn: true, guest: false, userid: session.userid, email: session.email === '' ? null : session.email };
    case 'guest':
      return { loggedIn: false, guest: true, userid: GUEST_HANDLE, email: session.email };
    case 'sign-up':
      return { loggedIn: false, guest: false, userid: SIGN_UP_HANDLE, email: session.email };
    case 'visitor':
      return { loggedIn: false, guest: false, userid: null, email: null };
  }
};

const unauthenticated = () => apiError(401, 'unauthenticated', 'Please log in.');
const invalidLogin = () => apiError(401, 'invalid_credentials', 'Email or Password Invalid');

/** What one order request asked for, as OrderSent writes it (its answer added by the shop). */
interface OrderBody {
  pid: number;
  configoptions?: { '2'?: 0 | 1; '4'?: 0 | 1 };
  promocode?: string;
  amount: number;
  currency: FactCurrency;
}

export interface FlowShopOptions {
  session: AccountSession;
  country: string;
  /** The first order is refused with 409 price_changed at this total. */
  priceChangedTo?: number;
  /** Orders are created flagged, without a payment link. */
  flagged?: boolean;
  /** The answers to the waiting page's status reads, in order (the last repeats). */
  statuses?: StatusAnswer[];
  /** Seconds since the page opened, for the log of status reads. */
  elapsed?: () => number;
  /** The signed-in client's active services (getActiveProducts). */
  services?: ClientService[];
  /** The first upsell invoice is refused with 409 price_changed at this price. */
  upsellPriceChangedTo?: number;
  /** The service of the success page: provisioned, not yet, or not reachable without a login. */
  service?: ServiceAnswer;
  /** That service's status and due date, when it renews (default: Active once provisioned, no due date). */
  serviceDue?: { status: ServiceStatus; nextduedate: string | null };
  /** The shop's answer to each read of the renewal page (the last repeats), or a refusal of the session. */
  renewals?: Renewal[] | 'sign in first';
  /** The first payment link of the renewal invoice is refused. */
  linkRefusal?: LinkSent['answer'];
}

/** The shop of one journey and its log. */
export function flowShop(options: FlowShopOptions) {
  const { session, country, priceChangedTo, flagged = false, statuses = [], elapsed = () => 0, services = [], upsellPriceChangedTo, service = 'provisioned' } = options;
  let current = sessionOf(session);
  const identified: string[] = [];
  const signIns: Array<{ email: string; password: string }> = [];
  const resellerSignIns: ResellerAuthSent[] = [];
  const resellerOrders: ResellerOrderSent[] = [];
  const invoices: InvoiceSent[] = [];
  const devicesSaved: Array<{ serviceid: number; macAddress: string }> = [];
  let signOuts = 0;
  const orders: OrderSent[] = [];
  const statusReads: number[] = [];
  const cancelled: number[] = [];
  const paymentLinks: LinkSent[] = [];
  const json = async (request: Request) => (await request.json()) as Record<string, unknown>;

  const order = async (request: Request) => {
    const body = (await json(request)) as unknown as OrderBody | (ResellerOrderSent & { pid: number[] });
    if (Array.isArray(body.pid)) return resellerOrder(body as ResellerOrderSent);
    return retailOrder(body as OrderBody);
  };
  const deadline = () => new Date(Date.now() + 86_400_000).toISOString();
  const resellerOrder = ({ pid, paymentmethod, amount, currency }: ResellerOrderSent) => {
    resellerOrders.push({ pid, paymentmethod, amount, currency });
    return { orderid: WAITING_ORDER.orderid, invoiceid: WAITING_ORDER.invoiceid, serviceids: [WAITING_ORDER.serviceid], fraud: false, status: 'Pending', amount, currency, link: RESELLER_PAYMENT_LINK, deadline: deadline() };
  };
  const retailOrder = (body: OrderBody) => {
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
      amount: body.amount, currency: body.currency, link: flagged ? null : FLOW_PAYMENT_LINK, deadline: flagged ? null : deadline(),
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

  /** The renewal invoice once paid, as the waiting page reads it: an invoice without an order. */
  const renewalPaid = {
    invoiceid: RENEWAL_INVOICE.invoiceid, status: 'Paid', kind: 'renewal', orderid: null, serviceid: WAITING_ORDER.serviceid, amount: RENEWAL_INVOICE.amount, currency: RENEWAL_INVOICE.currency,
    payment: { status: 'Paid', gateway: 'sandbox' }, latePayment: false,
    receipt: { ...receipt, lines: [{ ...receipt.lines[0]!, extraConnections: 0 }], promocode: null, discount: 0, datepaid: '2026-12-21T12:00:00.000Z' },
  };

  const answers: Partial<Record<Operation, unknown>> = {
    // The session as the shop knows it now: a sign-in, a sign-up and a sign-out change it.
    session: () => current,
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
      return { userid: GUEST_HANDLE, email };
    },
    ...accountAnswers(),
    ...renewalAnswers(),
    order,
    orderStatus,
    invoiceStatus: options.renewals
      ? renewalPaid
      : {
          invoiceid: WAITING_ORDER.invoiceid, status: 'Paid', kind: 'order', orderid: WAITING_ORDER.orderid, serviceid: WAITING_ORDER.serviceid, amount: WAITING_ORDER.amount,
          currency: WAITING_ORDER.currency, payment: { status: 'Paid', gateway: WAITING_ORDER.gateway }, latePayment: false, receipt,
        },
    cancelOrder: async (request: Request) => {
      const { orderid } = (await json(request)) as { orderid: number };
      cancelled.push(orderid);
      return { orderid, status: 'Cancelled' };
    },
  };

  /** The renewal page: the service's renewal, read in turn, and the payment links of its invoice. */
  function renewalAnswers(): Partial<Record<Operation, unknown>> {
    const { renewals = [], linkRefusal } = options;
    let reads = 0;
    const link = (endpoint: LinkSent['endpoint']) => async (request: Request) => {
      const { invoiceid, paymentmethod, amount, currency } = (await json(request)) as unknown as LinkSent;
      const answer = linkRefusal !== undefined && paymentLinks.length === 0 ? linkRefusal : 'created';
      paymentLinks.push({ endpoint, invoiceid, paymentmethod, amount, currency, answer });
      if (answer === 'invoice_paid') return apiError(409, 'invoice_paid', 'This invoice is already paid.');
      if (answer !== 'created') return apiError(409, 'price_changed', `This invoice is for ${answer.priceChanged.toFixed(2)} ${currency}.`, { amount: answer.priceChanged, currency });
      return { invoiceid, paymentmethod, link: RENEWAL_PAYMENT_LINK, deadline: deadline() };
    };
    return {
      renewal: () => (renewals === 'sign in first' ? unauthenticated() : renewals[Math.min(reads++, renewals.length - 1)]),
      offshore: link('offshore'),
      coinbase: link('coinbase'),
    };
  }

  /** Sign-in and sign-out, the reseller pages, the upsell and the success page's service. */
  function accountAnswers(): Partial<Record<Operation, unknown>> {
    const signedIn = () => current.loggedIn;
    const provisioned = service === 'provisioned';
    // As the shop answers it: the credentials only while the service is Active.
    const { status, nextduedate } = options.serviceDue ?? { status: provisioned ? 'Active' : 'Pending', nextduedate: null };
    const active = status === 'Active';
    return {
      auth: async (request: Request) => {
        const { email, password } = (await json(request)) as { email: string; password: string };
        signIns.push({ email, password });
        if (email !== 'client@example.com' || password !== CLIENT_PASSWORD) return invalidLogin();
        current = sessionOf({ kind: 'client', userid: 42, email });
        return { userid: 42, email, loggedIn: true };
      },
      signOut: () => {
        signOuts += 1;
        current = sessionOf({ kind: 'visitor' });
        return { loggedIn: false };
      },
      getResellersProducts: { totalresults: SEEDED_RESELLER_PRODUCTS.length, products: SEEDED_RESELLER_PRODUCTS.map(resellerProduct), newResellerPid: PANEL_ACTIVATION_PID },
      resellerAuth: async (request: Request) => {
        const { email, password, existingReseller } = (await json(request)) as unknown as ResellerAuthSent;
        resellerSignIns.push({ email, password, existingReseller });
        if (!existingReseller) {
          current = sessionOf({ kind: 'sign-up', email });
          return { userid: SIGN_UP_HANDLE, email, reseller: false };
        }
        if (email !== FLOW_RESELLER.email || password !== FLOW_RESELLER.password) return invalidLogin();
        current = sessionOf({ kind: 'client', userid: FLOW_RESELLER.userid, email });
        return { userid: FLOW_RESELLER.userid, email, reseller: true };
      },
      getResellerProducts: () => (signedIn() ? { ...RESELLER_SERVICE, status: 'Active' } : unauthenticated()),
      getActiveProducts: () =>
        signedIn()
          ? { totalresults: services.length, products: services.map((active) => ({ ...active, pid: 1, pricing: contractPricing(EXTRA_CONNECTION_PRICING) })) }
          : unauthenticated(),
      addInvoice: async (request: Request) => {
        const { serviceId, extraQuantity, paymentmethod, price, currency } = (await json(request)) as unknown as InvoiceSent;
        const sent = { serviceId, extraQuantity, paymentmethod, price, currency };
        if (upsellPriceChangedTo !== undefined && invoices.length === 0) {
          invoices.push({ ...sent, answer: { priceChanged: upsellPriceChangedTo } });
          return apiError(409, 'price_changed', 'The price has changed.', { amount: upsellPriceChangedTo, currency });
        }
        invoices.push({ ...sent, answer: 'created' });
        return { invoiceid: UPSELL_INVOICE.invoiceid, amount: price, currency, link: UPSELL_INVOICE.link, deadline: deadline() };
      },
      getClientProducts: () =>
        service === 'sign in first'
          ? unauthenticated()
          : {
              serviceid: WAITING_ORDER.serviceid, orderid: WAITING_ORDER.orderid, pid: 1, name: '1 Month', status, billingcycle: 'Monthly', nextduedate,
              username: active ? PROVISIONED_SERVICE.username : null, password: active ? PROVISIONED_SERVICE.password : null, serverhostname: PROVISIONED_SERVICE.host,
              playlistUrl: active ? `http://${PROVISIONED_SERVICE.host}/get.php?username=${PROVISIONED_SERVICE.username}&password=${PROVISIONED_SERVICE.password}&type=m3u_plus` : null,
              macAddress: { id: 13, value: '' }, extraConnect: { id: 2, value: 1 }, reseller: null,
            },
      updateMacAddress: async (request: Request) => {
        const { serviceid, macAddress } = (await json(request)) as { serviceid: number; macAddress: string };
        devicesSaved.push({ serviceid, macAddress });
        return { serviceid, macAddress: { id: 13, value: macAddress }, result: 'success' };
      },
    };
  }

  const api = controlledApi({ answers });
  return {
    ...api, identified, orders, statusReads, cancelled, signIns, resellerSignIns, resellerOrders, invoices, devicesSaved, paymentLinks,
    get signOuts() {
      return signOuts;
    },
  };
}

export type FlowShop = ReturnType<typeof flowShop>;
