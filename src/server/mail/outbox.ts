/**
 * The outbox: every message is a row written in the same transaction as the event that causes it, under
 * a message key of its own, so an event retried or replayed queues it once. The row holds the facts the
 * message states (its payload); text and HTML are rendered from them when it is sent (templates.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Currency } from '../../domain/currency';
import { isLocale, type Locale } from '../../domain/locale';
import type { Database } from '../db/connect';
import { clients, mailOutbox, orders, products, services } from '../db/schema';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The database, or the transaction of the event that queues the message. */
export type Executor = Database | Transaction;

/** Which flow a message leads back to: its waiting and success pages. */
export type MailFlow = 'order' | 'reseller' | 'upsell';

export type ReceiptLine =
  | { type: 'product'; name: string; billingcycle: string }
  | { type: 'option'; option: 'extraConnection' | 'proxyProtection' }
  | { type: 'extraConnections'; count: number; serviceId: number; productName: string };

/** A receipt: what was bought, the amount and the deadline, as they were when the invoice was made. */
export interface ReceiptPayload {
  kind: 'receipt';
  flow: MailFlow;
  orderId: number | null;
  invoiceId: number;
  lines: ReceiptLine[];
  promocode: string | null;
  amountCents: number;
  currency: Currency;
  /** ISO time the payment link expires. */
  deadline: string;
}

/** "Your service is active": the services an order's payment provisioned (credentials are read when it is rendered). */
export interface ServiceActivePayload {
  kind: 'service-active';
  flow: Exclude<MailFlow, 'upsell'>;
  orderId: number;
  services: { id: number; name: string }[];
}

/** A one-time sign-in link asked for by the address's owner; the link itself is made when the mail is sent. */
export interface SignInLinkPayload {
  kind: 'sign-in-link';
  clientId: number;
  /** The checkout page the link lands on (checked when it was asked for). */
  redirectPath: string;
  /** Why it is sent: asked for (the default), a new account proving its address, a sign-up with an address already taken. */
  reason?: SignInLinkReason;
}

export type SignInLinkReason = 'requested' | 'sign-up' | 'sign-up-taken';

/**
 * "You have not finished your order": queued with the order, due RECOVERY_AFTER_MIN after it. When it comes
 * due the order is read again and the mail is skipped unless it is still unpaid, open and not opted out.
 */
export interface RecoveryPayload {
  kind: 'recovery';
  flow: Exclude<MailFlow, 'upsell'>;
  orderId: number;
  invoiceId: number;
  lines: ReceiptLine[];
  amountCents: number;
  currency: Currency;
  /** ISO time the order's first payment link expires (the renderer reads the latest one). */
  deadline: string;
}

/** Which renewal notice: the invoice issued, one day before the due date, on it, the service suspended, or terminated. */
export type RenewalStage = 'invoice' | 'due-soon' | 'due' | 'suspended' | 'terminated';

/**
 * A renewal notice, queued by the renewal round under renewal:<stage>:invoice:<id> in the transaction of what
 * causes it. When it is sent the invoice is read again: an invoice paid (or a client opted out) sends nothing.
 */
export interface RenewalPayload {
  kind: 'renewal';
  stage: RenewalStage;
  serviceId: number;
  invoiceId: number;
  productName: string;
  billingcycle: string;
  amountCents: number;
  currency: Currency;
  /** The due date the invoice pays, and the one after it once paid (YYYY-MM-DD). */
  dueDate: string;
  periodEnd: string;
}

/** What a renewal notice states, with whom it goes to and in which locale (the order's). */
export interface RenewalNoticeFacts extends Omit<RenewalPayload, 'kind' | 'stage'> {
  to: string;
  locale: string;
}

/** A renewal notice of one stage for one invoice, under its key renewal:<stage>:invoice:<id>. */
export function renewalNotice(stage: RenewalStage, { to, locale, ...facts }: RenewalNoticeFacts): OutboxMessage {
  return { key: `renewal:${stage}:invoice:${facts.invoiceId}`, to, locale: storedLocale(locale), payload: { kind: 'renewal', stage, ...facts } };
}

export type MailPayload = ReceiptPayload | ServiceActivePayload | SignInLinkPayload | RecoveryPayload | RenewalPayload;
export type MailKind = MailPayload['kind'];

export interface OutboxMessage {
  /** Unique per message, e.g. receipt:invoice:12: a second enqueue under it does nothing. */
  key: string;
  to: string;
  locale: Locale;
  payload: MailPayload;
  /** When it may be sent (a recovery reminder); now when absent. */
  dueAt?: Date;
}

/** A row as the worker and the demo page read it. */
export type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Queues a message in the caller's transaction; false when its key was queued before. The caller nudges
 * the worker once the transaction has committed (before that the row is not visible to it).
 */
export async function enqueueMail(executor: Executor, message: OutboxMessage): Promise<boolean> {
  return (await enqueueMails(executor, [message])) > 0;
}

/** Queues messages in one statement in the caller's transaction; answers how many were new (a key queued before is skipped). */
export async function enqueueMails(executor: Executor, messages: OutboxMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const inserted = await executor.insert(mailOutbox).values(messages.map((message) => ({ ...outboxValues(message), recipient: message.to })))
    .onConflictDoNothing({ target: mailOutbox.messageKey }).returning({ id: mailOutbox.id });
  return inserted.length;
}

/** The locale stored with a row or an order, read back defensively (an unknown one falls back to the default). */
export const storedLocale = (value: string): Locale => (isLocale(value) ? value : 'en-en');

const emailOf = async (executor: Executor, clientId: number) => {
  const [client] = await executor.select({ email: clients.email }).from(clients).where(eq(clients.id, clientId));
  if (!client) throw new Error(`Client ${clientId} not found`);
  return client.email;
};

export interface OrderReceiptFacts {
  orderId: number;
  invoiceId: number;
  clientId: number;
  kind: 'retail' | 'reseller';
  items: { pid: number; billingcycle: string; extraConnection: boolean; proxyProtection: boolean }[];
  promocode: string | null;
  amountCents: number;
  currency: Currency;
  deadline: Date;
  locale: Locale;
  /** When the recovery reminder is due (the order's creation + RECOVERY_AFTER_MIN); null = the shopper wants none. */
  reminderDueAt?: Date | null;
}

/**
 * The messages of a new order (not of a flagged one: the caller decides): its receipt under
 * receipt:invoice:<id> and, unless the shopper unticked "Remind me if I don't finish", its recovery
 * reminder under recovery:order:<id>, due later. `names` are the products' names by pid.
 */
export function orderReceiptMessages(facts: OrderReceiptFacts, names: Record<number, string>): Omit<OutboxMessage, 'to'>[] {
  const lines: ReceiptLine[] = facts.items.flatMap((item): ReceiptLine[] => [
    { type: 'product', name: names[item.pid] ?? `#${item.pid}`, billingcycle: item.billingcycle },
    ...(item.extraConnection ? [{ type: 'option', option: 'extraConnection' } as const] : []),
    ...(item.proxyProtection ? [{ type: 'option', option: 'proxyProtection' } as const] : []),
  ]);
  const flow = facts.kind === 'reseller' ? 'reseller' : 'order';
  const receipt: Omit<OutboxMessage, 'to'> = {
    key: `receipt:invoice:${facts.invoiceId}`,
    locale: facts.locale,
    payload: {
      kind: 'receipt', flow, orderId: facts.orderId, invoiceId: facts.invoiceId, lines,
      promocode: facts.promocode, amountCents: facts.amountCents, currency: facts.currency, deadline: facts.deadline.toISOString(),
    },
  };
  if (!facts.reminderDueAt) return [receipt];
  return [{
    key: `recovery:order:${facts.orderId}`,
    locale: facts.locale,
    dueAt: facts.reminderDueAt,
    payload: {
      kind: 'recovery', flow, orderId: facts.orderId, invoiceId: facts.invoiceId, lines,
      amountCents: facts.amountCents, currency: facts.currency, deadline: facts.deadline.toISOString(),
    },
  }, receipt];
}

/** The columns of an outbox row for a message, as enqueueMail writes them (the recipient aside). */
export function outboxValues(message: Omit<OutboxMessage, 'to'>) {
  return {
    messageKey: message.key,
    kind: message.payload.kind,
    locale: message.locale,
    payload: message.payload,
    messageId: randomBytes(16).toString('hex'),
    ...(message.dueAt ? { nextAttemptAt: message.dueAt } : {}),
  };
}

/** Queues the messages of a new order in the caller's transaction (see orderReceiptMessages); false when its receipt was queued before. */
export async function queueOrderReceipt(executor: Executor, facts: OrderReceiptFacts): Promise<boolean> {
  const rows = await executor.select({ pid: products.pid, name: products.name }).from(products).where(inArray(products.pid, facts.items.map((item) => item.pid)));
  const to = await emailOf(executor, facts.clientId);
  let queued = false;
  for (const message of orderReceiptMessages(facts, Object.fromEntries(rows.map((row) => [row.pid, row.name])))) queued = await enqueueMail(executor, { ...message, to });
  return queued;
}

export interface UpsellReceiptFacts {
  invoiceId: number;
  clientId: number;
  serviceId: number;
  quantity: number;
  amountCents: number;
  currency: Currency;
  deadline: Date;
  locale: Locale;
}

/** Queues the receipt of an invoice for extra connections on a service. */
export async function queueUpsellReceipt(executor: Executor, facts: UpsellReceiptFacts): Promise<boolean> {
  const [service] = await executor.select({ name: products.name }).from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.id, facts.serviceId));
  return enqueueMail(executor, {
    key: `receipt:invoice:${facts.invoiceId}`,
    to: await emailOf(executor, facts.clientId),
    locale: facts.locale,
    payload: {
      kind: 'receipt', flow: 'upsell', orderId: null, invoiceId: facts.invoiceId,
      lines: [{ type: 'extraConnections', count: facts.quantity, serviceId: facts.serviceId, productName: service?.name ?? '' }],
      promocode: null, amountCents: facts.amountCents, currency: facts.currency, deadline: facts.deadline.toISOString(),
    },
  });
}

/** Queues "your service is active" for an order whose payment has just provisioned its services. */
export async function queueServiceActive(executor: Executor, orderId: number): Promise<boolean> {
  const [order] = await executor.select({ clientId: orders.clientId, kind: orders.kind, locale: orders.locale }).from(orders).where(eq(orders.id, orderId));
  if (!order) return false;
  const rows = await executor.select({ id: services.id, name: products.name }).from(services).innerJoin(products, eq(products.pid, services.pid))
    .where(and(eq(services.orderId, orderId), eq(services.status, 'Active'))).orderBy(asc(services.id));
  if (rows.length === 0) return false;
  return enqueueMail(executor, {
    key: `service-active:order:${orderId}`,
    to: await emailOf(executor, order.clientId),
    locale: storedLocale(order.locale),
    payload: { kind: 'service-active', flow: order.kind === 'reseller' ? 'reseller' : 'order', orderId, services: rows },
  });
}
