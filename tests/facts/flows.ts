/**
 * The journeys the spec names, each as what the shopper starts from and how it must end, written by hand
 * from the spec (/work/shared/spec/checkout-spec.md) and DESIGN.md where it departs from it on purpose.
 * The journey tests (tests/routes/checkout-flows.test.tsx, tests/routes/waiting-flows.test.tsx) drive the
 * real app as a shopper does and hold it to these: the screen it ends on, the requests that reached the
 * shop, the amounts and the texts all come from here, never from a machine. Amounts are the seeded
 * catalogue's (./catalogue.ts) as ./prices.ts works them out; texts are ./messages.ts's.
 */
import type { FactCurrency } from './catalogue';
import { APP_MESSAGES, SPEC_MESSAGES, confirmPrice, discountApplied, priceChangedOffer } from './messages';

/** The shopper's session: nobody, or a signed-in client (a positive user id, spec §3 Auth). */
export type FlowSession = { kind: 'visitor' } | { kind: 'client'; userid: number; email: string };

/** The signed-in client of the journeys. */
export const FLOW_CLIENT: FlowSession = { kind: 'client', userid: 42, email: 'client@example.com' };
/** A visitor with no session. */
export const FLOW_VISITOR: FlowSession = { kind: 'visitor' };

/** One POST /api/order that reached the shop: what it asked for, and what the shop answered. */
export interface OrderSent {
  pid: number;
  /** Spec §5, §9: option 2 is the extra connection, option 4 proxy protection; both are always sent. */
  configoptions: { '2': 0 | 1; '4': 0 | 1 };
  promocode: string | null;
  amount: number;
  currency: FactCurrency;
  /** The order created (with the journey's payment link, or flagged without one), or refused with the shop's own total (409). */
  answer: 'created' | 'flagged' | { priceChanged: number };
}

/** Where a journey ends, and what the shopper reads there. */
export type FlowEnd =
  /** The shopper was sent to the payment link of the order created, once. */
  | { screen: 'payment page'; link: string }
  /** The order form, with the message it shows (null: none). */
  | { screen: 'order form'; says: string | null; total: string }
  /** The waiting step of a flagged order: under review, with the fraud banner. */
  | { screen: 'under review'; says: string };

/** A checkout journey: where the shopper comes in, what the shop answers, how it must end. */
export interface CheckoutFlow {
  /** The journey in the spec's words, and where the spec (or DESIGN) says so. */
  journey: string;
  source: string;
  session: FlowSession;
  /** The visitor's country (GET /api/currency): GB pays in GBP, everyone else in EUR (spec §5). */
  country: string;
  /** The URL the shopper opens. */
  url: string;
  /** What the shopper does on the form (none for a deep link): add-on, a promo code and what the box then says, e-mail, Validate. */
  form?: { extraConnection?: boolean; promo?: { code: string; says: string }; email?: string; submits: boolean };
  /** The shop's answer to the first order: 409 price_changed with this total (the next order is created). */
  priceChangedTo?: number;
  /** What the shopper does with a changed price, and what the box says. */
  priceChange?: { offer: string; choice: 'confirm' | 'refuse'; confirmButton: string };
  /** The shop flags the order (no payment link). */
  flagged?: boolean;
  /** Whether the order form is ever on the page (a deep link that orders straight away never shows it). */
  formShown: boolean;
  /** The e-mails the shop was asked to identify (POST /api/authMiddleware), in order. */
  identified: string[];
  /** Every order that reached the shop, in order. */
  orders: OrderSent[];
  end: FlowEnd;
}

/** The payment link the shop gives each created order of the journeys. */
export const FLOW_PAYMENT_LINK = 'https://pay.example/flow/601';

const none = { '2': 0, '4': 0 } as const;
const extra = { '2': 1, '4': 0 } as const;

/** The checkout's journeys. */
export const CHECKOUT_FLOWS = {
  signedInDeepLink: {
    journey: "A signed-in client's deep link orders straight away: payment without the form",
    source: 'spec §2 (query parameters), §5 (automatic order via URL: e-mail, numeric pid, auto_redirect=true, a user id, a priced product)',
    session: FLOW_CLIENT,
    country: 'NL',
    url: '/checkout/?email=client%40example.com&pid=2&auto_redirect=true',
    formShown: false,
    // The client is known: nobody is identified again.
    identified: [],
    // 6 Months in EUR, no add-on, no promo: 59.99.
    orders: [{ pid: 2, configoptions: none, promocode: null, amount: 59.99, currency: 'EUR', answer: 'created' }],
    end: { screen: 'payment page', link: FLOW_PAYMENT_LINK },
  },
  guestDeepLink: {
    journey: "A guest's deep link with a valid e-mail orders straight away, in GBP from GB, with its add-on and promo",
    source: 'spec §5 (automatic order; promo used when valid and listed; currency GBP when the country is GB), §6 (an e-mail query is identified through authMiddleware)',
    session: FLOW_VISITOR,
    country: 'GB',
    url: '/checkout/?email=ann%40example.com&pid=2&auto_redirect=true&extraconnect=1&promocode=WELCOME10',
    formShown: false,
    identified: ['ann@example.com'],
    // 6 Months + extra connection in GBP, 49.99 + 17.00 = 66.99, less WELCOME10's 10 % (6.70): 60.29.
    orders: [{ pid: 2, configoptions: extra, promocode: 'WELCOME10', amount: 60.29, currency: 'GBP', answer: 'created' }],
    end: { screen: 'payment page', link: FLOW_PAYMENT_LINK },
  },
  deepLinkInvalidEmail: {
    journey: 'A deep link whose e-mail has the wrong shape orders nothing and stops on the form, which asks for the e-mail',
    source: 'spec §5 (automatic order requires an e-mail; the e-mail shape text@text.text, else the message)',
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/?email=ann%40example&pid=2&auto_redirect=true',
    formShown: true,
    identified: [],
    orders: [],
    end: { screen: 'order form', says: SPEC_MESSAGES.invalidEmail, total: '€59.99' },
  },
  deepLinkRefusedPromo: {
    journey: "A deep link whose promo does not list its plan orders nothing and stops on the form with the refusal, never at full price",
    source: "spec §5 (a promo is used only if its pid is listed: 'This Coupon is not available for this product.'); DESIGN §3 (the automatic order stops on any failed lookup)",
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/?email=ann%40example.com&pid=1&auto_redirect=true&promocode=HALFYEAR20',
    formShown: true,
    identified: ['ann@example.com'],
    orders: [],
    // 1 Month in EUR without the refused code.
    end: { screen: 'order form', says: SPEC_MESSAGES.couponNotForProduct, total: '€12.99' },
  },
  formOrder: {
    journey: 'A guest orders on the form with an add-on and a promo code: one order at the total shown, then the payment page',
    source: 'spec §2 (main checkout), §4 (discount applies when the promotion lists the pid), §6 (a guest is identified by e-mail)',
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/',
    form: { extraConnection: true, promo: { code: 'WELCOME10', says: discountApplied('WELCOME10') }, email: 'ann@example.com', submits: true },
    formShown: true,
    identified: ['ann@example.com'],
    // 1 Month + extra connection in EUR, 12.99 + 4.00 = 16.99, less 10 % (1.70): 15.29.
    orders: [{ pid: 1, configoptions: extra, promocode: 'WELCOME10', amount: 15.29, currency: 'EUR', answer: 'created' }],
    end: { screen: 'payment page', link: FLOW_PAYMENT_LINK },
  },
  formRefusedPromo: {
    journey: "A promo code that does not list the plan is refused on the form with the spec's message, and the total stays",
    source: "spec §5 ('This Coupon is not available for this product.'), §4 (otherwise the discount stays unset)",
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/',
    form: { promo: { code: 'HALFYEAR20', says: SPEC_MESSAGES.couponNotForProduct }, submits: false },
    formShown: true,
    identified: [],
    orders: [],
    end: { screen: 'order form', says: SPEC_MESSAGES.couponNotForProduct, total: '€12.99' },
  },
  formInvalidEmail: {
    journey: 'An e-mail of the wrong shape orders nothing: the form says so',
    source: "spec §5 ('Please enter a Valid Email.')",
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/',
    form: { email: 'ann@example', submits: true },
    formShown: true,
    identified: [],
    orders: [],
    end: { screen: 'order form', says: SPEC_MESSAGES.invalidEmail, total: '€12.99' },
  },
  priceChangeConfirmed: {
    journey: 'The shop prices the order differently and the shopper confirms: exactly one order, at the new total',
    source: 'DESIGN §6.1 (a mismatched amount is refused with 409 and the server amount), §3 placeOrder (price.confirm creates the order again)',
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/',
    form: { extraConnection: true, email: 'ann@example.com', submits: true },
    priceChangedTo: 17.49,
    priceChange: { offer: priceChangedOffer('€17.49', '€16.99'), choice: 'confirm', confirmButton: confirmPrice('€17.49') },
    formShown: true,
    identified: ['ann@example.com'],
    // The form's 16.99 (1 Month + extra connection) is refused; the confirmed 17.49 is the one order created.
    orders: [
      { pid: 1, configoptions: extra, promocode: null, amount: 16.99, currency: 'EUR', answer: { priceChanged: 17.49 } },
      { pid: 1, configoptions: extra, promocode: null, amount: 17.49, currency: 'EUR', answer: 'created' },
    ],
    end: { screen: 'payment page', link: FLOW_PAYMENT_LINK },
  },
  priceChangeRefused: {
    journey: 'The shop prices the order differently and the shopper refuses: back to the form, nothing ordered',
    source: 'DESIGN §3 placeOrder (price.cancel: back to the form), §6.1',
    session: FLOW_VISITOR,
    country: 'NL',
    url: '/checkout/',
    form: { extraConnection: true, email: 'ann@example.com', submits: true },
    priceChangedTo: 17.49,
    priceChange: { offer: priceChangedOffer('€17.49', '€16.99'), choice: 'refuse', confirmButton: confirmPrice('€17.49') },
    formShown: true,
    identified: ['ann@example.com'],
    orders: [{ pid: 1, configoptions: extra, promocode: null, amount: 16.99, currency: 'EUR', answer: { priceChanged: 17.49 } }],
    end: { screen: 'order form', says: null, total: '€16.99' },
  },
  flaggedOrder: {
    journey: 'An order the shop flags as fraud has no payment link: the waiting step shows it under review with the fraud banner',
    source: "spec §4 (creating an order stores the fraud flag; a link is stored only if one comes back), §8 (fraud flag shows a fraud banner); DESIGN §3 (hand over to waiting for a flagged order)",
    session: FLOW_CLIENT,
    country: 'NL',
    url: '/checkout/',
    form: { submits: true },
    flagged: true,
    formShown: true,
    identified: [],
    orders: [{ pid: 1, configoptions: none, promocode: null, amount: 12.99, currency: 'EUR', answer: 'flagged' }],
    end: { screen: 'under review', says: APP_MESSAGES.fraudReview },
  },
} as const satisfies Record<string, CheckoutFlow>;

/** The order the waiting journeys wait on (saved by the checkout before it left for the payment page). */
export const WAITING_ORDER = { orderid: 1101, invoiceid: 1201, serviceid: 1301, link: 'https://pay.example/card/1201', gateway: 'sandbox', amount: 15.29, currency: 'EUR' } as const;

/** The service the shop provisions once paid (spec §9: username TV- and 8 digits, password 12 digits). */
export const PROVISIONED_SERVICE = { username: 'TV-48213907', password: '583920174265', host: 'eu1.tvcheckout.test' } as const;

/** The order status reads of a waiting journey: what the shop answers each time the page reads it. */
export type StatusAnswer = { status: 'Pending' | 'Active' | 'Cancelled'; payment: 'Open' | 'Declined' | 'Confirming' | 'Paid' };

/** A waiting journey: the shop's answers to the page's status reads, what the shopper does, how it ends. */
export interface WaitingFlow {
  journey: string;
  source: string;
  /** The shop's answer to each status read, in order (the last one repeats). */
  statuses: StatusAnswer[];
  /** How long the shopper keeps the page open, in seconds. */
  watch: number;
  /** Seconds after the page opened at which the status is read (DESIGN §3: at once, then every 5 s, until the order settles). */
  readsAt: number[];
  /** The shopper cancels the order, confirming when asked once. */
  cancels?: boolean;
  /** What the page shows at the end. */
  end:
    | { screen: 'success'; credentials: typeof PROVISIONED_SERVICE }
    | { screen: 'waiting'; says: string; offers: string }
    | { screen: 'home'; says: string; cancelled: number };
}

/** The waiting step's journeys. */
export const WAITING_FLOWS = {
  pollsUntilPaid: {
    journey: 'The waiting page reads the order status at once and every 5 seconds until the order is Active, then shows the credentials',
    source: 'spec §2 (waiting, success: username, password, server host), §4 (Active: success); DESIGN §3 waiting (polling every 5 s; Active → success)',
    statuses: [
      { status: 'Pending', payment: 'Open' },
      { status: 'Pending', payment: 'Confirming' },
      { status: 'Active', payment: 'Paid' },
    ],
    // Active at the third read: nothing is read after it.
    watch: 20,
    readsAt: [0, 5, 10],
    end: { screen: 'success', credentials: PROVISIONED_SERVICE },
  },
  paymentDeclined: {
    journey: 'A declined payment is said so, no money taken, and the page offers to pay again',
    source: 'DESIGN §3 waiting (a declined payment told apart from one still awaited); spec §2 (gateway-change view)',
    statuses: [{ status: 'Pending', payment: 'Declined' }],
    // Still pending: the page goes on reading, in case the shopper pays again elsewhere.
    watch: 12,
    readsAt: [0, 5, 10],
    end: { screen: 'waiting', says: APP_MESSAGES.paymentDeclined, offers: 'Pay again' },
  },
  shopperCancels: {
    journey: 'The shopper cancels the order (asked once): the shop cancels that order and the shopper is home, told so',
    source: 'spec §2 (waiting: a cancel link), §4 (cancel order clears order data), §7 (cancelOrder with the orderid)',
    statuses: [{ status: 'Pending', payment: 'Open' }],
    watch: 2,
    readsAt: [0],
    cancels: true,
    end: { screen: 'home', says: APP_MESSAGES.orderCancelled, cancelled: WAITING_ORDER.orderid },
  },
} as const satisfies Record<string, WaitingFlow>;
