import type { Currency, CurrencyRate } from '../../domain/currency';
import type { Locale } from '../../domain/locale';
import type { PricingTable } from '../../domain/pricing';
import type { StoredPromotion } from '../../domain/promotion';

/** A catalogue product with its configurable options, as the checkout offers it. */
export interface CatalogueProduct {
  pid: number;
  name: string;
  description: string;
  group: 'retail' | 'reseller';
  paytype: 'onetime' | 'recurring';
  billingcycle: string;
  pricing: PricingTable;
  configoptions: { id: number; name: string; pricing: PricingTable }[];
  customFields: { username: number; password: number };
}

export interface Client {
  id: number;
  email: string;
  passwordHash: string | null;
  reseller: boolean;
  /** Whoever reads the address's mail has proved it (a sign-in link followed): only then does a password sign in. */
  emailVerified: boolean;
}

export type OrderStatus = 'Pending' | 'Active' | 'Cancelled' | 'Fraud';
export type InvoiceStatus = 'Unpaid' | 'Paid' | 'Cancelled' | 'Refunded';

/** Why an invoice can no longer be paid, as its error code says it; null while it is Unpaid. */
export type ClosedInvoiceReason = 'invoice_paid' | 'invoice_cancelled' | 'invoice_refunded';
export function closedInvoiceReason(status: InvoiceStatus): ClosedInvoiceReason | null {
  if (status === 'Paid') return 'invoice_paid';
  if (status === 'Cancelled') return 'invoice_cancelled';
  if (status === 'Refunded') return 'invoice_refunded';
  return null;
}
export type ServiceStatus = 'Pending' | 'Active' | 'Suspended' | 'Terminated' | 'Cancelled' | 'Fraud';

/** A service that can be renewed: one running, or suspended for want of its renewal; a terminated one is ordered anew. */
export const RENEWABLE_STATUSES: readonly ServiceStatus[] = ['Active', 'Suspended'];

export interface OrderRecord {
  id: number;
  clientId: number;
  kind: 'retail' | 'reseller';
  status: OrderStatus;
  fraud: boolean;
  currency: Currency;
  amountCents: number;
  invoiceId: number;
  invoiceStatus: InvoiceStatus;
  serviceIds: number[];
}

/** What an invoice pays: an order, extra connections on a service, or one more period of a service. */
export type InvoiceKind = 'order' | 'upsell' | 'renewal';

export interface InvoiceRecord {
  id: number;
  clientId: number;
  kind: InvoiceKind;
  orderId: number | null;
  serviceId: number | null;
  status: InvoiceStatus;
  currency: Currency;
  amountCents: number;
}

/** A payment link's state: Confirming = the provider saw the money (a crypto transaction) but has not confirmed it. */
export type PaymentStatus = 'Open' | 'Declined' | 'Confirming' | 'Paid';

/** What the waiting page says of an invoice's payment: the latest link's state, Expired once an Open link is past its deadline. */
export type PaymentProgressStatus = PaymentStatus | 'Expired';

/** One thing an invoice bills, for the receipt on the waiting page. */
export interface ReceiptLine {
  pid: number;
  name: string;
  billingcycle: string;
  /** Extra connections bought (0 or 1 with an order; the quantity with an upsell). */
  extraConnections: number;
  proxyProtection: boolean;
}

/** What the waiting page shows of an invoice beyond its status: its latest payment, a late payment, the receipt. */
export interface InvoiceProgress {
  /** The latest payment link made for the invoice; null when none was made (a flagged order). */
  payment: { status: PaymentProgressStatus; gateway: string } | null;
  /** A payment arrived after the link expired or the invoice closed: recorded as a payment exception for the operator. */
  latePayment: boolean;
  lines: ReceiptLine[];
  promocode: string | null;
  /** What the promotion took off, in cents (0 without one). */
  discountCents: number;
  /** When the invoice was made, and when it was paid (null while unpaid). */
  createdAt: Date | null;
  paidAt: Date | null;
  /** The gateway the invoice was paid on, else that of its latest link; null when it never had one. */
  gateway: string | null;
}

export interface PaymentRecord {
  id: string;
  invoiceId: number;
  gateway: string;
  currency: Currency;
  amountCents: number;
  status: PaymentStatus;
  expiresAt: Date;
  /** Where the shopper goes back to after the hosted page. */
  returnPath: string;
  /** The invoice this link pays: only an Unpaid one may be paid through it. */
  invoiceStatus: InvoiceStatus;
  invoiceKind: InvoiceKind;
  /** The invoice's order and its status (null for an upsell or renewal invoice). */
  orderId: number | null;
  orderStatus: OrderStatus | null;
}

export interface ServiceRecord {
  id: number;
  clientId: number;
  orderId: number;
  pid: number;
  productName: string;
  productGroup: 'retail' | 'reseller';
  billingcycle: string;
  status: ServiceStatus;
  username: string | null;
  /** Decrypted; only ever sent to the service's owner. */
  password: string | null;
  serverHostname: string;
  macAddress: string;
  extraConnections: number;
  notes: string;
  /** The day (YYYY-MM-DD, UTC) the next period is due; null for a lifetime service or one not yet active. */
  nextDueDate: string | null;
}

/** Whether a service can be renewed: it falls due (not lifetime) and runs, or is suspended for want of its renewal. */
export const isRenewable = (service: Pick<ServiceRecord, 'status' | 'nextDueDate'>): boolean =>
  service.nextDueDate !== null && RENEWABLE_STATUSES.includes(service.status);

/** A renewal invoice: one more period of a service, from its due date to the next. */
export interface RenewalInvoice {
  invoiceId: number;
  status: InvoiceStatus;
  currency: Currency;
  amountCents: number;
  /** The due date it pays (YYYY-MM-DD) and the one that follows once it is paid. */
  periodStart: string;
  periodEnd: string;
}

/** What the renewal page shows of a service: its due date and the renewal invoice open for it, if any. */
export interface Renewal {
  service: ServiceRecord;
  /** The oldest unpaid renewal invoice of the service; null when none is open. */
  invoice: RenewalInvoice | null;
  /** When none is open: the day the next one will be issued (the local billing); null when not known (WHMCS) or never (lifetime, terminated). */
  invoiceDate: string | null;
}

/** What one round of scheduled renewal work did, in counts. */
export interface RenewalRound {
  invoiced: number;
  reminded: number;
  suspended: number;
  terminated: number;
}

/** A service that falls due, for the operator's listing (npm run renewals:due). */
export interface DueRenewal {
  serviceId: number;
  clientId: number;
  productName: string;
  billingcycle: string;
  status: ServiceStatus;
  nextDueDate: string;
  invoiceId: number | null;
  invoiceStatus: InvoiceStatus | null;
  amountCents: number | null;
  currency: Currency | null;
}

/** A claim on an Idempotency-Key: the first answer under it is stored and replayed. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  requestHash: string;
}

/** An answer that can be stored under an idempotency key and replayed. */
export interface StoredAnswer<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}

export interface NewOrder {
  clientId: number;
  kind: 'retail' | 'reseller';
  items: { pid: number; billingcycle: string; extraConnection: boolean; proxyProtection: boolean }[];
  currency: Currency;
  amountCents: number;
  ip: string;
  country: string;
  promocode: string | null;
  /** What the promotion takes off, in cents (0 without one): the receipt shows it. */
  discountCents?: number;
  affid: string | null;
  fraud: boolean;
  /** Null when no payment link is made (a flagged order). */
  payment: { gateway: string; expiresAt: Date } | null;
  /** The shopper's language: the order's mails are written in it. */
  locale: Locale;
  /** "Remind me if I don't finish": one reminder this long after the order if still unpaid; null or absent = none. */
  recoveryAfterMs?: number | null;
}

/** The invoice of extra connections created for a service, with its payment. */
export interface UpsellInvoice {
  invoiceid: number;
  paymentId: string;
  amountCents: number;
  currency: Currency;
  deadline: string;
}

export interface PlacedOrder {
  orderid: number;
  invoiceid: number;
  serviceids: number[];
  fraud: boolean;
  status: OrderStatus;
  amount: number;
  currency: Currency;
  paymentId: string | null;
  deadline: string | null;
}

export interface NewUpsellInvoice {
  clientId: number;
  serviceId: number;
  quantity: number;
  currency: Currency;
  amountCents: number;
  payment: { gateway: string; expiresAt: Date };
  /** The shopper's language: the invoice's receipt is written in it. */
  locale: Locale;
}

export interface PaymentEvent {
  id: string;
  /**
   * `payment.confirming`: the provider saw the money but has not confirmed it yet (a crypto transaction awaiting confirmations);
   * `payment.expired`: the provider closed the link unpaid, maybe before our deadline (Coinbase `checkout.payment.expired`).
   */
  type: 'payment.succeeded' | 'payment.failed' | 'payment.confirming' | 'payment.expired';
  paymentId: string;
  invoiceId: number;
  amountCents: number;
  currency: Currency;
  /** When the provider created the event (its signed `created`): a payment made before the link expired is on time. */
  createdAt: Date;
}

/** Why a verified payment event could not be applied (payment_exceptions.reason). */
export type PaymentExceptionReason =
  | ClosedInvoiceReason | 'link_expired' | 'amount_mismatch' | 'currency_mismatch' | 'unknown_payment';

/**
 * What a verified event did: `exception` = money the provider reports that could not be applied (recorded
 * for the operator, e.g. a second charge under a new event id for a payment already Paid); `already_applied` =
 * a confirming event for the payment that paid the invoice (out of order); `ignored` = a declined, confirming
 * or expired event that applies to nothing (no money confirmed); `confirming` = the payment is seen and awaits
 * its confirmation; `expired` = the provider closed the open link before our deadline (a new link may be made).
 */
export type SettleOutcome = 'duplicate' | 'paid' | 'declined' | 'confirming' | 'expired' | 'already_applied' | 'ignored' | 'exception';

export interface SettleResult {
  outcome: SettleOutcome;
  /** Set for `exception` and `ignored`. */
  reason: PaymentExceptionReason | null;
  /** The invoice the event names (or its payment's). */
  invoiceId: number;
  /** Set when `paid` paid an order's invoice: the services that payment activates. */
  activated?: number;
}

/** A payment the provider reported that could not be applied, for the operator to refund or apply by hand. */
export interface PaymentException {
  id: number;
  gateway: string;
  eventId: string;
  eventType: string;
  paymentId: string | null;
  invoiceId: number | null;
  amountCents: number;
  currency: string;
  reason: PaymentExceptionReason;
  receivedAt: Date;
}

/** What the checkout needs of a billing system. The local store implements it; a WHMCS adapter would too. */
export interface BillingPort {
  products(group: 'retail' | 'reseller'): Promise<CatalogueProduct[]>;
  product(pid: number): Promise<CatalogueProduct | null>;
  /** A promotion as stored: a Fixed Amount's value is in the default currency (convertPromotion converts it). */
  promotion(code: string): Promise<StoredPromotion | null>;
  /** The currencies the catalogue is priced in, with their rates to the default currency. */
  currencies(): Promise<CurrencyRate[]>;
  /** Gateways' display names the catalogue gives, by module (a module not named keeps its adapter's name). */
  gatewayNames(): Promise<Record<string, string>>;

  clientByEmail(email: string): Promise<Client | null>;
  clientById(id: number): Promise<Client | null>;
  /** Creates a client with a password; null when the e-mail is taken. */
  /** `currency`: the one a billing system that bills each client in one currency (WHMCS) gives a new client. */
  createClient(input: { email: string; passwordHash: string; reseller: boolean; currency?: Currency }): Promise<Client | null>;
  /** A billing system that holds its clients' passwords (WHMCS) checks one for a client with no password of the checkout's; the local store has none. */
  validateLogin?(email: string, password: string): Promise<boolean>;
  /** The client of a guest e-mail, created without a password when new. */
  guestClient(email: string, currency?: Currency): Promise<Client>;

  /** Orders from the address since then; with `atMost`, counting may stop there (a limit only asks whether it is reached). */
  ordersFromIpSince(ip: string, since: Date, atMost?: number): Promise<number>;
  /** The answer recorded under an Idempotency-Key for the same body, replayed before anything that may have changed since is checked again. */
  recordedAnswer<T>(claim: IdempotencyClaim): Promise<StoredAnswer<T> | null>;
  /** A fresh answer may carry its payment link as stored (`payment`), so the caller need not read it back. */
  placeOrder(order: NewOrder, claim: IdempotencyClaim | null): Promise<StoredAnswer<PlacedOrder> & { payment?: PaymentRecord }>;
  order(id: number): Promise<OrderRecord | null>;
  /** Moves an order (and its services and unpaid invoice) to a new status when it is in one of `from`. */
  changeOrderStatus(id: number, from: OrderStatus[], to: 'Cancelled' | 'Fraud'): Promise<OrderRecord | null>;

  invoice(id: number): Promise<InvoiceRecord | null>;
  createUpsellInvoice(invoice: NewUpsellInvoice, claim: IdempotencyClaim | null): Promise<StoredAnswer<UpsellInvoice>>;
  createPayment(input: { invoiceId: number; gateway: string; expiresAt: Date }): Promise<PaymentRecord>;
  payment(id: string): Promise<PaymentRecord | null>;
  /** The invoice's latest payment, whether a payment came too late, and what it bills (the waiting page's receipt). */
  invoiceProgress(invoiceId: number, now: Date): Promise<InvoiceProgress>;
  /** Whether a payment of the invoice is being confirmed (money seen, not yet final): no new link, no cancel then. */
  paymentConfirming(invoiceId: number): Promise<boolean>;
  /**
   * Applies a verified payment event once: paid → invoice Paid, order Active, services provisioned. A
   * payment that cannot be applied (closed invoice, expired link, other amount or currency, unknown
   * payment) is recorded as a payment exception in the same transaction, and activates nothing.
   */
  settlePayment(gateway: string, event: PaymentEvent): Promise<SettleResult>;

  service(id: number): Promise<ServiceRecord | null>;
  activeServices(clientId: number): Promise<ServiceRecord[]>;
  updateService(id: number, patch: Partial<Pick<ServiceRecord, 'status' | 'macAddress' | 'notes'>>): Promise<ServiceRecord | null>;
  /** Provisions a paid, not yet active service (ModuleCreate). */
  provisionService(id: number): Promise<ServiceRecord | null>;
  /** Restarts the service through its provisioning module (WHMCS ModuleCustom restart); absent when there is none. */
  restartService?(id: number): Promise<void>;

  recordAffiliateClick(input: { affId: string; referer: string; ip: string }): Promise<void>;

  /** The service's renewal as of `now`: its due date and open renewal invoice; null when the service does not exist. */
  renewal(serviceId: number, now: Date): Promise<Renewal | null>;
  /**
   * One round of scheduled renewal work as of `now` (invoices issued, reminders queued, services suspended or
   * terminated), each piece done once however many instances run it. Absent when the billing system does it (WHMCS).
   */
  renewalRound?(now: Date): Promise<RenewalRound>;
  /** Services whose due date is before `until` (YYYY-MM-DD) with their renewal invoice, for the operator. */
  dueRenewals(until: string): Promise<DueRenewal[]>;

  /**
   * One round of the billing's unfinished work (WHMCS: undos WHMCS refused, payments not yet applied there): what is
   * due is tried once, safely beside other instances. Absent when the billing leaves nothing unfinished (the local store).
   */
  resumeUnfinished?(): Promise<UnfinishedRound>;

  /** Releases what the port holds open (WHMCS's keep-alive connections); called when the app closes. */
  close?(): Promise<void>;
}

/** What one round of unfinished work did: undos WHMCS accepted or not, payments applied or not. */
export interface UnfinishedRound {
  undone: number;
  undoRefused: number;
  applied: number;
  applyFailed: number;
}
