/**
 * The journeys of a client's and a reseller's account, each as what the visitor starts from and how it must
 * end, written by hand from the spec (/work/shared/spec/checkout-spec.md), DESIGN.md and the README's
 * "Where we depart from the original spec": the upsell (extra connections for a service), the reseller
 * order and its waiting and success pages, the sign-in, and the service on the success page. The journey
 * tests (tests/routes/upsell-flows, reseller-flows, sign-in-flows and service-flows .test.tsx) drive the real
 * app and hold it to these; amounts are the seeded catalogue's (./catalogue.ts) as ./prices.ts works them
 * out, texts are ./messages.ts's or written out below, never a machine's.
 */
import type { FactCurrency, FactCycle } from './catalogue';
import { FLOW_CLIENT, FLOW_VISITOR, PROVISIONED_SERVICE, WAITING_ORDER, type FlowSession, type StatusAnswer } from './flows';
import { APP_MESSAGES, SPEC_MESSAGES, panelActivationNote, upsellProrated } from './messages';

/**
 * A session the account journeys start from: nobody, a signed-in client, a guest identified by e-mail (spec §6),
 * or a new reseller's sign-up, which reaches its own orders but is not logged in until its address is proved (DESIGN §11).
 */
export type AccountSession = FlowSession | { kind: 'guest'; email: string } | { kind: 'sign-up'; email: string };

/** The password the shop knows for FLOW_CLIENT; any other is refused. */
export const CLIENT_PASSWORD = 'correct-horse-battery';

/** The existing reseller the shop knows (spec §1: a reseller offering for new and existing resellers). */
export const FLOW_RESELLER = { userid: 7, email: 'reseller@example.com', password: 'Reseller-pass-2026' } as const;

/** The app's texts these journeys read where the spec shows none, written out here. */
export const ACCOUNT_TEXTS = {
  /** The login panel of the upsell for a visitor, and of the success page. */
  upsellSignIn: 'Log in to add connections',
  serviceSignIn: 'Log in to see your service',
  /** A guest identified by e-mail is no client (DESIGN §6.2): the upsell asks to sign out first. */
  guestSignOutFirst: (email: string) => `You are signed in as a guest (${email}). Sign out, then log in with your client account.`,
  /** The order form names who orders once a client is signed in. */
  orderingAs: (email: string) => `Ordering as ${email}.`,
  /** A service paid for but not provisioned yet: no credentials. */
  notProvisioned: 'Your service is being set up. Your login details appear here as soon as it is active.',
  unauthenticated: 'Please log in.',
  /** The reseller success page's lead and service line. */
  resellerPanel: (name: string, status: string) => `Your reseller panel ${name}: ${status}.`,
  resellerService: (serviceid: number, name: string) => `Service #${serviceid}: ${name}`,
} as const;

/** An active service of FLOW_CLIENT as getActiveProducts lists it (its extra connections priced as the seeded option 2). */
export interface ClientService {
  serviceid: number;
  name: string;
  billingcycle: FactCycle;
  extraConnections: number;
  /** Its due date; null when the shop gives none (a service activated before due dates were kept). */
  nextduedate: string | null;
  /** On a service with a due date, the days its extra connections are billed for (README, the upsell's price for the rest of the period). */
  proration: { remainingDays: number; periodDays: number; until: string } | null;
}

/** The client's active services, in the shop's order: the first is selected by default (spec §2 Upsell). */
export const CLIENT_SERVICES = {
  monthly: { serviceid: 3101, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, nextduedate: null, proration: null },
  halfYear: { serviceid: 3102, name: '6 Months', billingcycle: 'Semi-Annually', extraConnections: 1, nextduedate: null, proration: null },
  /** Due on 21 Dec 2026 and listed on 1 Dec: 20 days left of the 30 from 21 Nov. */
  monthlyDueSoon: {
    serviceid: 3103, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0,
    nextduedate: '2026-12-21', proration: { remainingDays: 20, periodDays: 30, until: '2026-12-21' },
  },
} as const satisfies Record<string, ClientService>;

/** The invoice and payment link the shop creates for an upsell. */
export const UPSELL_INVOICE = { invoiceid: 2101, link: 'https://pay.example/flow/upsell/2101' } as const;

/** One POST /api/addInvoice that reached the shop, and the shop's answer. */
export interface InvoiceSent {
  serviceId: number;
  extraQuantity: number;
  paymentmethod: string;
  price: number;
  currency: FactCurrency;
  /** Created with the payment link, or refused with the shop's own price (409 price_changed). */
  answer: 'created' | { priceChanged: number };
}

/** An upsell journey. */
export interface UpsellFlow {
  journey: string;
  source: string;
  session: AccountSession;
  country: string;
  services: ClientService[];
  /** What the client does: a service (its option as listed), a quantity, a payment method (its name), then Pay. */
  form?: { service?: string; quantity?: number; gateway?: string };
  /** What the price box and the Pay button say before paying. */
  shows?: { service: string; price: string; pay: string };
  /** The shop refuses the first invoice: 409 price_changed with its own price. */
  priceChangedTo?: number;
  /** What the form says after that refusal (its message, the shop's price and the Pay button); then the client pays again. */
  afterRefusal?: { says: string; price: string; pay: string };
  /** Whether the client's services were read (GET /api/getActiveProducts): never without a client's login. */
  servicesRead: boolean;
  invoices: InvoiceSent[];
  end:
    | { screen: 'payment page'; link: string }
    | { screen: 'sign in'; title: string }
    | { screen: 'guest'; says: string };
}

/** The upsell's journeys. */
export const UPSELL_FLOWS = {
  threeMonthly: {
    journey: 'A signed-in client buys 3 extra connections for a monthly service: one invoice at 3 × €4.00, then its payment page',
    source: 'spec §2 (Upsell: quantity slider, gateway choice), §7 (addInvoice: serviceId, extraQuantity, price); DESIGN §3 upsell (invoice → payment link → waiting)',
    session: FLOW_CLIENT,
    country: 'NL',
    services: [CLIENT_SERVICES.monthly, CLIENT_SERVICES.halfYear],
    form: { quantity: 3 },
    shows: { service: '1 Month, service #3101', price: '€12.00 per month', pay: 'Pay €12.00' },
    servicesRead: true,
    invoices: [{ serviceId: 3101, extraQuantity: 3, paymentmethod: 'sandbox', price: 12, currency: 'EUR', answer: 'created' }],
    end: { screen: 'payment page', link: UPSELL_INVOICE.link },
  },
  secondServiceInGbp: {
    journey: 'A client in GB picks the second service (6 months) and Bitcoin: one connection at £17.00, the default quantity',
    source: 'spec §3 (extraQuantity default 1; pricing per currency per cycle), §5 (GBP when the country is GB), §9 (hyphens removed from cycle names)',
    session: FLOW_CLIENT,
    country: 'GB',
    services: [CLIENT_SERVICES.monthly, CLIENT_SERVICES.halfYear],
    form: { service: '6 Months, service #3102', gateway: 'Bitcoin' },
    shows: { service: '6 Months, service #3102', price: '£17.00 every 6 months', pay: 'Pay £17.00' },
    servicesRead: true,
    invoices: [{ serviceId: 3102, extraQuantity: 1, paymentmethod: 'sandboxcrypto', price: 17, currency: 'GBP', answer: 'created' }],
    end: { screen: 'payment page', link: UPSELL_INVOICE.link },
  },
  priceChanged: {
    journey: "The shop prices the connections differently (409): the form says so and shows the shop's €9.00; paying again opens the payment page of one invoice at €9.00",
    source: "README departures 1 (an upsell price sent by the browser is compared; a mismatch is refused with 409 price_changed, carrying the shop's amount and currency); DESIGN §6.1",
    session: FLOW_CLIENT,
    country: 'NL',
    services: [CLIENT_SERVICES.monthly],
    form: { quantity: 2 },
    shows: { service: '1 Month, service #3101', price: '€8.00 per month', pay: 'Pay €8.00' },
    priceChangedTo: 9,
    afterRefusal: { says: APP_MESSAGES.priceChanged, price: '€9.00 per month', pay: 'Pay €9.00' },
    servicesRead: true,
    invoices: [
      { serviceId: 3101, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'EUR', answer: { priceChanged: 9 } },
      { serviceId: 3101, extraQuantity: 2, paymentmethod: 'sandbox', price: 9, currency: 'EUR', answer: 'created' },
    ],
    end: { screen: 'payment page', link: UPSELL_INVOICE.link },
  },
  proratedMonthly: {
    journey: 'A client buys 2 extra connections for a monthly service due in 20 of its 30 days: 2 × €4.00 × 20 ÷ 30 = €5.33 for the days left, until its due date',
    source: 'README (extra connections on a running service: the full period\'s price × the days left ÷ the period\'s days, to the cent)',
    session: FLOW_CLIENT,
    country: 'NL',
    services: [CLIENT_SERVICES.monthlyDueSoon],
    form: { quantity: 2 },
    shows: { service: '1 Month, service #3103', price: `€5.33 ${upsellProrated(20, 'Dec 21, 2026')}`, pay: 'Pay €5.33' },
    servicesRead: true,
    invoices: [{ serviceId: 3103, extraQuantity: 2, paymentmethod: 'sandbox', price: 5.33, currency: 'EUR', answer: 'created' }],
    end: { screen: 'payment page', link: UPSELL_INVOICE.link },
  },
  visitorSignsIn: {
    journey: 'A visitor who is not signed in is asked to log in: no service is read and nothing is bought',
    source: 'spec §1 (logged-in clients buy the upsell); DESIGN §6.2 and README departures 5 (the upsell needs a login)',
    session: FLOW_VISITOR,
    country: 'NL',
    services: [CLIENT_SERVICES.monthly],
    servicesRead: false,
    invoices: [],
    end: { screen: 'sign in', title: ACCOUNT_TEXTS.upsellSignIn },
  },
  guestSignsOutFirst: {
    journey: 'A guest identified by e-mail is no client: the upsell asks to sign out and log in as the client',
    source: 'spec §6 (an e-mail query identifies a guest); DESIGN §6.2, README departures 5 (an e-mail never reveals a client\'s services; the upsell needs a login)',
    session: { kind: 'guest', email: 'ann@example.com' },
    country: 'NL',
    services: [CLIENT_SERVICES.monthly],
    servicesRead: false,
    invoices: [],
    end: { screen: 'guest', says: ACCOUNT_TEXTS.guestSignOutFirst('ann@example.com') },
  },
} as const satisfies Record<string, UpsellFlow>;

/** The reseller order's payment link. */
export const RESELLER_PAYMENT_LINK = 'https://pay.example/flow/reseller/1201';

/** One POST /api/resellerAuth that reached the shop. */
export interface ResellerAuthSent {
  email: string;
  password: string;
  existingReseller: boolean;
}

/** One reseller POST /api/order that reached the shop (spec §7: pid as a list). */
export interface ResellerOrderSent {
  pid: number[];
  paymentmethod: string;
  amount: number;
  currency: FactCurrency;
}

/** A reseller order journey on /resellers. */
export interface ResellerFlow {
  journey: string;
  source: string;
  country: string;
  /** What the visitor does: the yes/no answer, a pack (its name; none keeps the default), the account, Validate and pay. */
  form: { existing: boolean; pack?: string; email: string; password: string; confirmation?: string };
  /** What the page shows before the order: the pack checked, the total, the panel activation's note (null: none). */
  shows: { pack: string; total: string; note: string | null };
  signIns: ResellerAuthSent[];
  orders: ResellerOrderSent[];
  end: { screen: 'payment page'; link: string } | { screen: 'reseller form'; says: string };
}

const newReseller = { email: 'new.reseller@example.com', password: 'n3w-Reseller-pass' } as const;

/** The reseller page's journeys. */
export const RESELLER_FLOWS = {
  newResellerDefaultPack: {
    journey: 'A new reseller keeps the pack selected by default (the second) and pays it with the panel activation: €300 + €49',
    source: 'spec §2 (/resellers: the second product is selected by default), §4 (a new reseller order includes a second product), §7 (order: pid as a list)',
    country: 'NL',
    form: { existing: false, email: newReseller.email, password: newReseller.password, confirmation: newReseller.password },
    shows: { pack: 'Reseller 120 credits', total: '€349.00', note: panelActivationNote('€49.00') },
    signIns: [{ email: newReseller.email, password: newReseller.password, existingReseller: false }],
    orders: [{ pid: [11, 13], paymentmethod: 'sandbox', amount: 349, currency: 'EUR' }],
    end: { screen: 'payment page', link: RESELLER_PAYMENT_LINK },
  },
  existingResellerPaysPackAlone: {
    journey: 'An existing reseller in GB signs in and picks 300 credits: the pack alone, £559',
    source: 'spec §2 (yes/no choice for an existing reseller), §4 (only a new reseller order includes the second product), §5 (GBP when the country is GB)',
    country: 'GB',
    form: { existing: true, pack: 'Reseller 300 credits', email: FLOW_RESELLER.email, password: FLOW_RESELLER.password },
    shows: { pack: 'Reseller 300 credits', total: '£559.00', note: null },
    signIns: [{ email: FLOW_RESELLER.email, password: FLOW_RESELLER.password, existingReseller: true }],
    orders: [{ pid: [12], paymentmethod: 'sandbox', amount: 559, currency: 'GBP' }],
    end: { screen: 'payment page', link: RESELLER_PAYMENT_LINK },
  },
  confirmationDiffers: {
    journey: "A new reseller whose confirmation differs is told 'Not the same password': nobody signs up, nothing is ordered",
    source: "spec §5 ('Not the same password'), §8",
    country: 'NL',
    form: { existing: false, pack: 'Reseller 50 credits', email: newReseller.email, password: newReseller.password, confirmation: 'n3w-Reseller-typo' },
    shows: { pack: 'Reseller 50 credits', total: '€199.00', note: panelActivationNote('€49.00') },
    signIns: [],
    orders: [],
    end: { screen: 'reseller form', says: SPEC_MESSAGES.passwordMismatch },
  },
  wrongPassword: {
    journey: "An existing reseller's wrong password is refused with the shop's message: nothing is ordered",
    source: "spec §7 (resellerAuth: email, password, existingReseller), §8 (the server's message on failure); openapi.yaml 401 invalid_credentials",
    country: 'NL',
    form: { existing: true, email: FLOW_RESELLER.email, password: 'not-the-password' },
    shows: { pack: 'Reseller 120 credits', total: '€300.00', note: null },
    signIns: [{ email: FLOW_RESELLER.email, password: 'not-the-password', existingReseller: true }],
    orders: [],
    end: { screen: 'reseller form', says: APP_MESSAGES.invalidCredentials },
  },
} as const satisfies Record<string, ResellerFlow>;

/** The reseller service the shop answers on the reseller success page (the order of the waiting step, paid). */
export const RESELLER_SERVICE = {
  serviceid: WAITING_ORDER.serviceid,
  pid: 11,
  name: 'Reseller 120 credits',
  reseller: { name: 'streamshop', status: 'Active' },
  panel: { url: 'https://panel.example.net/', username: 'TV-20000001', password: '200000000001', credits: 120 },
} as const;

/** A reseller waiting journey: the reseller order saved by this browser, the status reads, where it ends. */
export interface ResellerWaitingFlow {
  journey: string;
  source: string;
  session: AccountSession;
  statuses: StatusAnswer[];
  watch: number;
  readsAt: number[];
  end:
    | { screen: 'reseller success'; path: '/resellers/success'; says: string; service: string; panelLogin: string; credits: string }
    | { screen: 'reseller page'; path: '/resellers' };
}

/** The reseller waiting page's journeys. */
export const RESELLER_WAITING_FLOWS = {
  paidToSuccess: {
    journey: "A signed-in reseller's waiting page ends on the reseller success page once the order is Active, with the panel login",
    source: 'spec §2 (/resellers/waiting, /resellers/success), §6 (reseller success needs a logged-in user with an Active reseller service); DESIGN §3 (reseller waiting → reseller success guard)',
    session: { kind: 'client', userid: FLOW_RESELLER.userid, email: FLOW_RESELLER.email },
    statuses: [{ status: 'Pending', payment: 'Open' }, { status: 'Active', payment: 'Paid' }],
    watch: 7,
    readsAt: [0, 5],
    end: {
      screen: 'reseller success',
      path: '/resellers/success',
      says: ACCOUNT_TEXTS.resellerPanel('streamshop', 'Active'),
      service: ACCOUNT_TEXTS.resellerService(RESELLER_SERVICE.serviceid, RESELLER_SERVICE.name),
      panelLogin: RESELLER_SERVICE.panel.username,
      credits: '120',
    },
  },
  signUpNotLoggedIn: {
    journey: 'A new reseller whose address is not proved yet is not logged in: once paid, the success page sends them back to the reseller page',
    source: "spec §2 (the reseller success route redirects unless the user is logged in), §6; DESIGN §11 (a sign-up's session reaches only its orders until the address is proved)",
    session: { kind: 'sign-up', email: newReseller.email },
    statuses: [{ status: 'Active', payment: 'Paid' }],
    watch: 1,
    readsAt: [0],
    end: { screen: 'reseller page', path: '/resellers' },
  },
} as const satisfies Record<string, ResellerWaitingFlow>;

/** A sign-in journey in the header and the login panel of the order page. */
export interface SignInFlow {
  journey: string;
  source: string;
  session: AccountSession;
  /** The page opened (under /checkout). */
  path: '/' | '/upsell';
  /** A payment of this browser is saved in the checkout cookie. */
  paymentSaved: boolean;
  /** What the visitor types in the login panel, then Log in. */
  logsIn?: { email: string; password: string };
  signsOut?: boolean;
  /** The e-mails and passwords that reached POST /api/auth, and how many times POST /api/signOut was called. */
  signIns: Array<{ email: string; password: string }>;
  signOuts: number;
  end: {
    path: '/' | '/upsell';
    /** Signed in: the Sign Out button is offered, the login panel is not. */
    signedIn: boolean;
    /** The Sign Out button (spec §1: only with both a user id and an e-mail). */
    signOutOffered: boolean;
    /** The login panel's alert, or what the order form says of who orders (null: nothing). */
    says: string | null;
    /** The saved payment is still in the checkout cookie (spec §4: Sign Out clears payment and order data). */
    paymentKept: boolean;
  };
}

/** The sign-in's journeys. */
export const SIGN_IN_FLOWS = {
  wrongPassword: {
    journey: "A wrong password is refused with the shop's message and the visitor stays signed out",
    source: 'spec §4 (logged out to logged in only after a successful login call), §7 (POST /api/auth: email, password); openapi.yaml 401 invalid_credentials',
    session: FLOW_VISITOR,
    path: '/',
    paymentSaved: false,
    logsIn: { email: 'client@example.com', password: 'wrong-password' },
    signIns: [{ email: 'client@example.com', password: 'wrong-password' }],
    signOuts: 0,
    end: { path: '/', signedIn: false, signOutOffered: false, says: APP_MESSAGES.invalidCredentials, paymentKept: false },
  },
  rightPassword: {
    journey: "The right password signs the client in: Sign Out is offered and the order form names the client's e-mail",
    source: 'spec §1 (Sign Out shown when logged in with a user id and an e-mail), §4 (logged out to logged in after a successful login); README departures 3 (auth answers userid, email, loggedIn)',
    session: FLOW_VISITOR,
    path: '/',
    paymentSaved: false,
    logsIn: { email: 'client@example.com', password: CLIENT_PASSWORD },
    signIns: [{ email: 'client@example.com', password: CLIENT_PASSWORD }],
    signOuts: 0,
    end: { path: '/', signedIn: true, signOutOffered: true, says: ACCOUNT_TEXTS.orderingAs('client@example.com'), paymentKept: false },
  },
  signOut: {
    journey: 'Sign Out on the upsell ends the session, clears the saved payment and goes home, signed out',
    source: 'spec §4 (Sign Out clears the user, payment and order data and goes home); README departures 3 (POST /api/signOut clears the cookie)',
    session: FLOW_CLIENT,
    path: '/upsell',
    paymentSaved: true,
    signsOut: true,
    signIns: [],
    signOuts: 1,
    end: { path: '/', signedIn: false, signOutOffered: false, says: null, paymentKept: false },
  },
  noEmailNoSignOut: {
    journey: 'A session with a user id but no e-mail is signed in, yet Sign Out is not offered',
    source: 'spec §1 (a Sign Out button only when the user is logged in and has both a user id and an e-mail)',
    session: { kind: 'client', userid: 42, email: '' },
    path: '/',
    paymentSaved: true,
    signIns: [],
    signOuts: 0,
    end: { path: '/', signedIn: true, signOutOffered: false, says: null, paymentKept: true },
  },
} as const satisfies Record<string, SignInFlow>;

/** What the shop answers for the service of the success page. */
export type ServiceAnswer = 'provisioned' | 'not provisioned' | 'sign in first';

/** A success-page journey: the service /success?serviceid= shows, and what the client does there. */
export interface ServiceFlow {
  journey: string;
  source: string;
  session: AccountSession;
  service: ServiceAnswer;
  /** The client copies this value (by its label), or types a device address and adds it. */
  copies?: 'Username' | 'Password' | 'Server host';
  device?: string;
  /** The device addresses that reached POST /api/updateMacAddress. */
  devicesSaved: Array<{ serviceid: number; macAddress: string }>;
  end:
    | { screen: 'credentials'; username: string; password: string; host: string; playlist: string; copied?: { text: string; hint: string } }
    | { screen: 'not provisioned'; says: string }
    | { screen: 'device'; says: string; role: 'alert' | 'status' }
    | { screen: 'sign in'; says: string; title: string };
}

/** The success page's journeys (the service of WAITING_ORDER). */
export const SERVICE_FLOWS = {
  provisioned: {
    journey: 'A provisioned service shows its username, password, server host and playlist; a copied username says "Copied!"',
    source: "spec §2 (Success: username, password, server host, playlist download, copy buttons, 'Copied!'), §9 (TV- and 8 digits, 12 digits)",
    session: FLOW_CLIENT,
    service: 'provisioned',
    copies: 'Username',
    devicesSaved: [],
    end: {
      screen: 'credentials',
      ...PROVISIONED_SERVICE,
      // The checkout's own endpoint: no address with the password reaches the browser.
      playlist: `/checkout/api/playlist?serviceid=${WAITING_ORDER.serviceid}`,
      copied: { text: PROVISIONED_SERVICE.username, hint: SPEC_MESSAGES.copied },
    },
  },
  notProvisioned: {
    journey: 'A service not provisioned yet says so and shows no credentials and no copy button',
    source: 'spec §3 (client product: username, password, status); openapi.yaml ClientProduct (username and password null until provisioned)',
    session: FLOW_CLIENT,
    service: 'not provisioned',
    devicesSaved: [],
    end: { screen: 'not provisioned', says: ACCOUNT_TEXTS.notProvisioned },
  },
  deviceOfWrongShape: {
    journey: 'A device address of the wrong shape is refused with its message and never sent',
    source: 'spec §2 (a device address field with add button); DESIGN §3 service (device address edit / save / error)',
    session: FLOW_CLIENT,
    service: 'provisioned',
    device: '00:1A:79:12:34',
    devicesSaved: [],
    end: { screen: 'device', says: APP_MESSAGES.deviceInvalid, role: 'alert' },
  },
  deviceSaved: {
    journey: 'A well-formed device address is saved for the service and the page says so',
    source: 'spec §1 (clients update the device address), §7 (updateMacAddress: serviceid, macAddress → result)',
    session: FLOW_CLIENT,
    service: 'provisioned',
    device: '00:1A:79:12:34:56',
    devicesSaved: [{ serviceid: WAITING_ORDER.serviceid, macAddress: '00:1A:79:12:34:56' }],
    end: { screen: 'device', says: APP_MESSAGES.deviceSaved, role: 'status' },
  },
  visitorSignsIn: {
    journey: 'A visitor with no session and no order of this browser is told to log in, with the login panel, and sees no credentials',
    source: 'DESIGN §6.2 (credentials need a session from a login, or from the order paid in this browser); openapi.yaml 401 unauthenticated',
    session: FLOW_VISITOR,
    service: 'sign in first',
    devicesSaved: [],
    end: { screen: 'sign in', says: ACCOUNT_TEXTS.unauthenticated, title: ACCOUNT_TEXTS.serviceSignIn },
  },
} as const satisfies Record<string, ServiceFlow>;
