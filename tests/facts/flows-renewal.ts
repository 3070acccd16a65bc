/**
 * The journeys of a service that renews, each as what the client starts from and how it must end, written by
 * hand from issue 27 ("A subscription that renews") and DESIGN §13: the renewal page a reminder's link lands on,
 * paid through the checkout's gateways and the waiting page; a lifetime, a terminated and a suspended service;
 * and "Renews on <date>" on the success page and the upsell. The journey test (tests/routes/renewal-flows.test.tsx)
 * drives the real app and holds it to these. Amounts are the seeded catalogue's (./catalogue.ts); days are written
 * out as each locale's Intl medium date writes them; texts are written out below, never read from src/i18n.
 */
import type { Renewal, ServiceStatus } from '../../src/api/client';
import type { Locale } from '../../src/domain/locale';
import { SEEDED_PLANS } from './catalogue';
import { FLOW_CLIENT, FLOW_VISITOR, WAITING_ORDER } from './flows';
import type { AccountSession, ClientService } from './flows-account';
import { APP_MESSAGES } from './messages';

const monthly = SEEDED_PLANS[0]!;

/**
 * The renewal invoice of the monthly service the waiting journeys bought (WAITING_ORDER's), due on 27 Dec 2026:
 * one more month, from the due date to the same day a month later, at the catalogue's current €12.99.
 */
export const RENEWAL_INVOICE = { invoiceid: 2007, status: 'Unpaid', amount: monthly.pricing.EUR.monthly!, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' } as const;

/** The service's renewal as the shop answers it while that invoice is open. */
export const RENEWAL_DUE: Renewal = {
  serviceid: WAITING_ORDER.serviceid, name: monthly.name, billingcycle: 'Monthly', status: 'Active', nextduedate: '2026-12-27', renewable: true,
  invoice: { ...RENEWAL_INVOICE }, invoiceDate: null,
};

/** Unpaid 3 days after its due date (RENEWAL_GRACE_DAYS): suspended, the same invoice still open. */
export const RENEWAL_SUSPENDED: Renewal = { ...RENEWAL_DUE, status: 'Suspended' };

/** Paid: due a month later (the invoice's period end), the next invoice issued 7 days before it (RENEWAL_INVOICE_DAYS). */
export const RENEWAL_PAID: Renewal = { ...RENEWAL_DUE, nextduedate: '2027-01-27', invoice: null, invoiceDate: '2027-01-20' };

/** The shop's catalogue price went up to €14.99 after the page loaded: the open invoice is for that now. */
export const RENEWAL_REPRICED: Renewal = { ...RENEWAL_DUE, invoice: { ...RENEWAL_INVOICE, amount: 14.99 } };

/** A lifetime plan: no due date, nothing to renew. */
export const RENEWAL_LIFETIME: Renewal = { ...RENEWAL_DUE, name: 'Lifetime', billingcycle: 'One Time', nextduedate: null, renewable: false, invoice: null };

/** Unpaid 30 days after its due date (RENEWAL_TERMINATE_DAYS): terminated, its invoice cancelled, no longer renewable. */
export const RENEWAL_TERMINATED: Renewal = { ...RENEWAL_DUE, status: 'Terminated', renewable: false, invoice: null };

/** The payment link the shop makes for the renewal invoice. */
export const RENEWAL_PAYMENT_LINK = 'https://pay.example/flow/renewal/2007';

/** One payment link asked of the shop (POST /api/offshore for a card, /api/coinbase for crypto), and the shop's answer. */
export interface LinkSent {
  endpoint: 'offshore' | 'coinbase';
  invoiceid: number;
  paymentmethod: string;
  amount: number;
  currency: 'EUR' | 'GBP';
  answer: 'created' | 'invoice_paid' | { priceChanged: number };
}

/** The app's texts of the renewal page (en-en), written out. */
export const RENEWAL_TEXTS = {
  title: 'Renew your service',
  signIn: 'Log in to renew your service',
  service: (name: string, serviceid: number) => `${name}, service #${serviceid}`,
  dueOn: (day: string) => `Due on ${day}.`,
  extendsTo: (day: string) => `Paying extends your service to ${day}.`,
  suspended: 'This service is suspended. Paying this invoice reactivates it at once.',
  paidUntil: (day: string) => `Paid until ${day}.`,
  invoiceDate: (day: string) => `Your next invoice will be issued on ${day}; we will e-mail it to you.`,
  lifetime: 'This is a lifetime plan: it never needs renewing.',
  ended: 'This service has ended and can no longer be renewed. Order a new subscription to watch again.',
  orderAnew: 'Order a new subscription',
  toService: 'See your service',
  renewsOn: (day: string) => `Renews on ${day}`,
} as const;

/** A journey on /renew?serviceid=N. */
export interface RenewalFlow {
  journey: string;
  source: string;
  /** A reminder's one-time link signs the browser in before it lands: a client's session; a used link leaves a visitor. */
  session: AccountSession;
  /** The shop's answer to each read of the renewal, in order (the last repeats), or a refusal of the session. */
  renewals: Renewal[] | 'sign in first';
  /** The client picks a payment method (by name; none keeps the first offered), then Pay. */
  pays?: { gateway?: string };
  /** What the page says before paying: the service heading, its lines, the payment methods offered, the Pay button. */
  shows?: { service: string; status: string; says: string[]; gateways: string[]; pay: string };
  /** The shop refuses the first link. */
  linkRefusal?: 'invoice_paid' | { priceChanged: number };
  /** What the page says after that refusal, once it has read the renewal again (then the client pays again, if it can). */
  afterRefusal?: { alert: string; says: string[]; pay?: string };
  /** Every payment link asked of the shop, in order. */
  links: LinkSent[];
  end:
    | { screen: 'payment page'; link: string; saved: { flow: 'renewal'; invoiceid: number; serviceid: number }; paid?: { renewsOn: string } }
    | { screen: 'renewal'; says: string[]; link?: { name: string; href: string } }
    | { screen: 'sign in'; title: string; says: string };
}

const cardLink = (amount: number, answer: LinkSent['answer'] = 'created'): LinkSent => ({ endpoint: 'offshore', invoiceid: RENEWAL_INVOICE.invoiceid, paymentmethod: 'sandbox', amount, currency: 'EUR', answer });
const paidEnd = { screen: 'payment page', link: RENEWAL_PAYMENT_LINK, saved: { flow: 'renewal', invoiceid: RENEWAL_INVOICE.invoiceid, serviceid: WAITING_ORDER.serviceid } } as const;
const service = RENEWAL_TEXTS.service(monthly.name, WAITING_ORDER.serviceid);

/** The renewal page's journeys. */
export const RENEWAL_FLOWS = {
  reminderLinkPays: {
    journey: "A reminder's link lands signed in on /renew: the client pays the €12.99 invoice by card, the waiting page polls the invoice and, once paid, the service renews on Jan 27, 2027",
    source: 'issue 27 Build 3 (a one-time sign-in link to the renewal page), 4 (the service, the period it extends to, the amount, the gateways; paid through the waiting page; the due date moves one cycle from the old one)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_DUE],
    pays: {},
    shows: { service, status: 'Active', says: [RENEWAL_TEXTS.dueOn('Dec 27, 2026'), RENEWAL_TEXTS.extendsTo('Jan 27, 2027')], gateways: ['Card', 'Bitcoin'], pay: 'Pay €12.99' },
    links: [cardLink(12.99)],
    end: { ...paidEnd, paid: { renewsOn: RENEWAL_TEXTS.renewsOn('Jan 27, 2027') } },
  },
  suspendedByBitcoin: {
    journey: 'A suspended service says paying reactivates it at once; the client pays its invoice with Bitcoin (a crypto gateway: coinbase)',
    source: 'issue 27 Build 5 (suspended after the grace period; the page says it is suspended; paying its renewal reactivates it at once); DESIGN §3 (crypto gateways pay through coinbase)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_SUSPENDED],
    pays: { gateway: 'Bitcoin' },
    shows: { service, status: 'Suspended', says: [RENEWAL_TEXTS.suspended, RENEWAL_TEXTS.extendsTo('Jan 27, 2027')], gateways: ['Card', 'Bitcoin'], pay: 'Pay €12.99' },
    links: [{ ...cardLink(12.99), endpoint: 'coinbase', paymentmethod: 'sandboxcrypto' }],
    end: paidEnd,
  },
  priceChanged: {
    journey: "The catalogue's price changed after the page loaded (409 price_changed): the page reads the renewal again, says so and shows €14.99; paying again sends €14.99",
    source: 'issue 27 Build 2 (the catalogue\'s current price); README departures 1 (an amount sent by the browser is compared; a mismatch is refused with 409)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_DUE, RENEWAL_REPRICED],
    pays: {},
    shows: { service, status: 'Active', says: [RENEWAL_TEXTS.dueOn('Dec 27, 2026')], gateways: ['Card', 'Bitcoin'], pay: 'Pay €12.99' },
    linkRefusal: { priceChanged: 14.99 },
    afterRefusal: { alert: APP_MESSAGES.priceChanged, says: [RENEWAL_TEXTS.extendsTo('Jan 27, 2027')], pay: 'Pay €14.99' },
    links: [cardLink(12.99, { priceChanged: 14.99 }), cardLink(14.99)],
    end: paidEnd,
  },
  paidMeanwhile: {
    journey: 'The invoice was paid meanwhile (409 invoice_paid): the page reads the renewal again and says it is paid until Jan 27, 2027; nothing more is asked',
    source: 'issue 27 Build 3 (nothing once the invoice is paid), 4 (the due date moves one cycle)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_DUE, RENEWAL_PAID],
    pays: {},
    shows: { service, status: 'Active', says: [RENEWAL_TEXTS.dueOn('Dec 27, 2026')], gateways: ['Card', 'Bitcoin'], pay: 'Pay €12.99' },
    linkRefusal: 'invoice_paid',
    afterRefusal: { alert: APP_MESSAGES.invoicePaid, says: [RENEWAL_TEXTS.paidUntil('Jan 27, 2027'), RENEWAL_TEXTS.invoiceDate('Jan 20, 2027')] },
    links: [cardLink(12.99, 'invoice_paid')],
    end: { screen: 'renewal', says: [RENEWAL_TEXTS.paidUntil('Jan 27, 2027')] },
  },
  lifetime: {
    journey: 'A lifetime service has nothing to renew: the page says so, links to the service and offers no payment',
    source: 'issue 27 Build 1 (the lifetime / One Time plan has no due date), Done when (a lifetime service never gets an invoice)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_LIFETIME],
    links: [],
    end: { screen: 'renewal', says: [RENEWAL_TEXTS.lifetime], link: { name: RENEWAL_TEXTS.toService, href: `/checkout/success?serviceid=${WAITING_ORDER.serviceid}` } },
  },
  terminated: {
    journey: "A terminated service can no longer be renewed: the page offers a new order, a link to the checkout's first page",
    source: 'issue 27 Build 5 (terminated and no longer renewable: a new order instead)',
    session: FLOW_CLIENT,
    renewals: [RENEWAL_TERMINATED],
    links: [],
    end: { screen: 'renewal', says: [RENEWAL_TEXTS.ended], link: { name: RENEWAL_TEXTS.orderAnew, href: '/checkout/' } },
  },
  usedLinkSignsIn: {
    journey: 'A browser without a session (the one-time link already used) is asked to log in: nothing of the service shows and nothing is paid',
    source: 'DESIGN §6.2 and §11 (a service needs a session; a sign-in link works once); issue 27 Build 3',
    session: FLOW_VISITOR,
    renewals: 'sign in first',
    links: [],
    end: { screen: 'sign in', title: RENEWAL_TEXTS.signIn, says: 'Please log in.' },
  },
} as const satisfies Record<string, RenewalFlow>;

/** A success-page journey of a service that renews: what /success?serviceid= says of its due date, in a locale. */
export interface RenewingServiceFlow {
  journey: string;
  source: string;
  locale: Locale;
  status: ServiceStatus;
  nextduedate: string | null;
  end: { renewsOn: string | null; suspended?: { says: string; link: { name: string; href: string } } };
}

/** The success page's journeys of a service that renews (the service of WAITING_ORDER). */
export const RENEWING_SERVICE_FLOWS = {
  english: {
    journey: 'The success page of a monthly service says when it renews, in en-en',
    source: 'issue 27 Build 1 (the due date on the success page: "Renews on 27 Dec 2026", in the locale\'s format)',
    locale: 'en-en', status: 'Active', nextduedate: '2026-12-27',
    end: { renewsOn: 'Renews on Dec 27, 2026' },
  },
  british: {
    journey: 'In en-gb the day comes first',
    source: 'issue 27 Build 1',
    locale: 'en-gb', status: 'Active', nextduedate: '2026-12-27',
    end: { renewsOn: 'Renews on 27 Dec 2026' },
  },
  german: {
    journey: 'In de-de the date is written the German way',
    source: 'issue 27 Build 1; Build 4 (six locales)',
    locale: 'de-de', status: 'Active', nextduedate: '2026-12-27',
    end: { renewsOn: 'Verlängert sich am 27.12.2026' },
  },
  lifetime: {
    journey: 'A lifetime service says nothing of renewing',
    source: 'issue 27 Build 1 (the lifetime plan has no due date)',
    locale: 'en-en', status: 'Active', nextduedate: null,
    end: { renewsOn: null },
  },
  suspended: {
    journey: 'A suspended service says it is suspended, with a link to renew it, and shows no credentials',
    source: 'issue 27 Build 5 (the success page says it is suspended and how to renew)',
    locale: 'en-en', status: 'Suspended', nextduedate: '2026-12-27',
    end: {
      renewsOn: null,
      suspended: { says: 'This service is suspended until its renewal is paid. Renew it now', link: { name: 'Renew it now', href: `/checkout/renew?serviceid=${WAITING_ORDER.serviceid}` } },
    },
  },
} as const satisfies Record<string, RenewingServiceFlow>;

/** A client's active service with a due date, as the upsell lists it. */
export const UPSELL_RENEWING_SERVICE = {
  service: { serviceid: 3101, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, nextduedate: '2026-12-27', proration: null } satisfies ClientService,
  renewsOn: 'Renews on Dec 27, 2026',
} as const;
