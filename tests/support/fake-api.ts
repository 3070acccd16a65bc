/**
 * A fake `fetch` that answers the checkout API with contract-shaped demo data, for DOM tests.
 * Each answer can be replaced per test: a value (sent as JSON 200), a Response, or a function of the request.
 */
import type { components } from '../../src/api/schema';

type Schemas = components['schemas'];
type Answer = unknown | Response | ((request: Request) => unknown | Response | Promise<unknown | Response>);

/** The operations by their path after /checkout/api/ (or /checkout/aff/ for new_click). */
export type Operation =
  | 'session'
  | 'currency'
  | 'merchant'
  | 'getProducts'
  | 'getProduct'
  | 'getGateway'
  | 'checkFraud'
  | 'getPromotion'
  | 'authMiddleware'
  | 'auth'
  | 'signOut'
  | 'signInLink'
  | 'order'
  | 'orderStatus'
  | 'resumeOrder'
  | 'invoiceStatus'
  | 'cancelOrder'
  | 'offshore'
  | 'coinbase'
  | 'getActiveProducts'
  | 'addInvoice'
  | 'getClientProducts'
  | 'renewal'
  | 'updateMacAddress'
  | 'getResellersProducts'
  | 'resellerAuth'
  | 'getResellerProducts'
  | 'new_click';

const cycles = (monthly: number, annually = -1): Schemas['CyclePrices'] => ({ monthly, quarterly: -1, semiannually: -1, annually, biennially: -1, triennially: -1 });
const pricing = (eur: Schemas['CyclePrices'], gbp: Schemas['CyclePrices']): Schemas['PricingTable'] => ({ EUR: eur, GBP: gbp });

const options: Schemas['ConfigOption'][] = [
  { id: 2, name: 'Extra connection', pricing: pricing(cycles(5, 50), cycles(4, 40)) },
  { id: 4, name: 'Proxy protection', pricing: pricing(cycles(2.5, 25), cycles(2, 20)) },
];

const product = (pid: number, name: string, billingcycle: Schemas['BillingCycle'], price: Schemas['PricingTable'], group: 'retail' | 'reseller' = 'retail'): Schemas['Product'] => ({
  pid,
  name,
  description: `${name} plan`,
  group,
  paytype: billingcycle === 'One Time' ? 'onetime' : 'recurring',
  billingcycle,
  pricing: price,
  configoptions: group === 'retail' ? options : [],
});

export const demoProducts: Schemas['Product'][] = [
  product(1, 'TV Monthly', 'Monthly', pricing(cycles(15), cycles(13))),
  product(2, 'TV Yearly', 'Annually', pricing(cycles(-1, 120), cycles(-1, 100))),
  product(3, 'TV Day Pass', 'One Time', pricing(cycles(5), cycles(4))),
];

export const demoGateways: Schemas['GatewayList'] = {
  paymentmethods: {
    paymentmethod: [
      { module: 'sandbox', displayname: 'Card (sandbox)', type: 'CreditCard', currencies: ['EUR', 'GBP'] },
      { module: 'sandboxcrypto', displayname: 'Bitcoin (sandbox)', type: 'Bitcoin', currencies: ['EUR', 'GBP'] },
    ],
  },
  defaultGateway: 'sandbox',
};

export const demoService: Schemas['ClientProduct'] = {
  serviceid: 3001,
  orderid: 1001,
  pid: 1,
  name: 'TV Monthly',
  status: 'Active',
  billingcycle: 'Monthly',
  username: 'TV-12345678',
  password: '483920571634',
  serverhostname: 'eu1.tvcheckout.test',
  playlistUrl: 'http://eu1.tvcheckout.test/get.php?username=TV-12345678&password=483920571634&type=m3u_plus',
  macAddress: { id: 13, value: '' },
  extraConnect: { id: 2, value: 0 },
  reseller: null,
  nextduedate: null,
};

/** The waiting page's facts of a status answer: an open sandbox link, no late payment, the plan bought. */
const waitingFacts = {
  payment: { status: 'Open', gateway: 'sandbox' },
  latePayment: false,
  receipt: {
    lines: [{ pid: 1, name: 'TV Monthly', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }], promocode: null, discount: 0,
    date: '2026-01-01T12:00:00.000Z', datepaid: null, paymentmethod: { module: 'sandbox', displayname: 'Card (sandbox)' },
  },
} satisfies Pick<Schemas['OrderStatusResponse'], 'payment' | 'latePayment' | 'receipt'>;

const anonymous: Schemas['Session'] = { loggedIn: false, guest: false, userid: null, email: null };
/** A logged-in client, for the pages that need one. */
export const clientSession: Schemas['Session'] = { loggedIn: true, guest: false, userid: 42, email: 'demo@tvcheckout.test' };

const defaults: Record<Operation, Answer> = {
  session: anonymous,
  currency: { country: 'FR', currency: 'EUR' },
  merchant: {
    name: 'Fake Shop Ltd.', logo: null, supportEmail: 'help@shop.example', supportUrl: null,
    termsUrl: 'https://shop.example/terms', privacyUrl: 'https://shop.example/privacy', refundUrl: 'https://shop.example/refunds',
  } satisfies Schemas['Merchant'],
  getProducts: { totalresults: demoProducts.length, products: demoProducts },
  getProduct: demoProducts[0],
  getGateway: demoGateways,
  checkFraud: { valid: true },
  getPromotion: {
    result: 'success',
    totalresults: 1,
    promotions: { promotion: [{ code: 'WELCOME10', type: 'Percentage', value: 10, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 0, uses: 0, amounts: null }] },
  },
  authMiddleware: { userid: 'g_4nq0c2ZkVwQ8mX1bTf7sLw', email: 'new.shopper@mail.test' },
  auth: { userid: 42, email: 'demo@tvcheckout.test', loggedIn: true },
  signOut: { loggedIn: false },
  // 202 whether or not the address is known (a fresh Response per call).
  signInLink: () => new Response(JSON.stringify({ accepted: true }), { status: 202, headers: { 'content-type': 'application/json' } }),
  order: { orderid: 1001, invoiceid: 2001, serviceids: [3001], fraud: false, status: 'Pending', amount: 15, currency: 'EUR', link: 'http://localhost/checkout/sandbox/pay/pay_demo', deadline: '2030-01-02T12:00:00.000Z' },
  orderStatus: { orderid: 1001, status: 'Pending', invoiceid: 2001, invoiceStatus: 'Unpaid', serviceids: [3001], fraud: false, amount: 15, currency: 'EUR', ...waitingFacts },
  resumeOrder: {
    orderid: 1001, invoiceid: 2001, serviceids: [3001], flow: 'order', status: 'Pending', invoiceStatus: 'Unpaid', fraud: false, amount: 15, currency: 'EUR',
    paymentmethod: 'sandboxcrypto', link: 'http://localhost/checkout/sandbox/pay/pay_resumed', deadline: new Date(Date.now() + 5 * 3_600_000).toISOString(), latePayment: false,
  } satisfies Schemas['ResumeOrderResponse'],
  invoiceStatus: { invoiceid: 2001, status: 'Unpaid', kind: 'order', orderid: 1001, serviceid: 3001, amount: 15, currency: 'EUR', ...waitingFacts },
  cancelOrder: { orderid: 1001, status: 'Cancelled' },
  offshore: { invoiceid: 2001, paymentmethod: 'sandbox', link: 'http://localhost/checkout/sandbox/pay/pay_card', deadline: '2030-01-02T12:00:00.000Z' },
  coinbase: { invoiceid: 2001, paymentmethod: 'sandboxcrypto', link: 'http://localhost/checkout/sandbox/pay/pay_coin', deadline: '2030-01-02T12:00:00.000Z' },
  getActiveProducts: { totalresults: 1, products: [{ serviceid: 3001, pid: 1, name: 'TV Monthly', billingcycle: 'Monthly', nextduedate: null, proration: null, extraConnections: 0, pricing: options[0]!.pricing }] },
  addInvoice: { invoiceid: 2002, amount: 5, currency: 'EUR', link: 'http://localhost/checkout/sandbox/pay/pay_upsell', deadline: '2030-01-02T12:00:00.000Z' },
  getClientProducts: demoService,
  // The demo service's renewal invoice, open: one more month at the plan's price.
  renewal: {
    serviceid: 3001, name: 'TV Monthly', billingcycle: 'Monthly', status: 'Active', nextduedate: '2026-12-27', renewable: true,
    invoice: { invoiceid: 2007, status: 'Unpaid', amount: 15, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' }, invoiceDate: null,
  } satisfies Schemas['Renewal'],
  updateMacAddress: { serviceid: 3001, macAddress: { id: 13, value: '00:1A:79:12:34:56' }, result: 'success' },
  getResellersProducts: {
    totalresults: 3,
    products: [
      product(5, 'Reseller 100 credits', 'One Time', pricing(cycles(149), cycles(129)), 'reseller'),
      product(6, 'Reseller 500 credits', 'One Time', pricing(cycles(599), cycles(519)), 'reseller'),
      product(13, 'Reseller panel', 'One Time', pricing(cycles(25), cycles(20)), 'reseller'),
    ],
    newResellerPid: 13,
  },
  resellerAuth: { userid: 12, email: 'reseller@tvcheckout.test', reseller: true },
  getResellerProducts: {
    serviceid: 3005, pid: 5, name: 'Reseller 100 credits', status: 'Active', reseller: { name: 'streamshop', status: 'Active' },
    panel: { url: 'https://panel.example.net/', username: 'TV-20000005', password: '200000000005', credits: 100 },
  },
  new_click: { recorded: true },
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An API error in the contract's one shape. */
export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return json({ error: { code, message, ...extra } }, status);
}

/** A fake fetch answering every operation; `calls` records the requests in order. */
export function fakeApi(answers: Partial<Record<Operation, Answer>> = {}) {
  const calls: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    calls.push(request);
    const operation = new URL(request.url).pathname.replace(/^\/checkout\/(api|aff)\//, '') as Operation;
    if (!(operation in defaults)) return apiError(404, 'not_found', `No fake for ${request.url}`);
    const answer = operation in answers ? answers[operation] : defaults[operation];
    const value = typeof answer === 'function' ? await (answer as (request: Request) => unknown)(request) : answer;
    return value instanceof Response ? value.clone() : json(value);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
