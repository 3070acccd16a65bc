import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Currency } from '../../../domain/currency';
import type { Database } from '../../db/connect';
import { invoices, orders, paymentExceptions, payments, products, services, webhookEvents } from '../../db/schema';
import { closedInvoiceReason } from '../port';
import type { InvoiceProgress, PaymentEvent, PaymentExceptionReason, PaymentRecord, SettleResult } from '../port';
import type { Executor, Transaction } from './store';

/** A payment id: the bearer token of its payment link, so it is drawn from a crypto random source. */
export const newPaymentId = () => `pay_${randomBytes(18).toString('base64url')}`;

/** A payment link as the port gives it, with its invoice's and order's status and the page the shopper returns to. */
export async function readPayment(executor: Executor, id: string): Promise<PaymentRecord | null> {
  const [row] = await executor.select({ payment: payments, invoiceKind: invoices.kind, invoiceStatus: invoices.status, orderId: invoices.orderId, orderKind: orders.kind, orderStatus: orders.status })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .leftJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(payments.id, id));
  if (!row) return null;
  const returnPath = row.orderKind === 'reseller' ? '/checkout/resellers/waiting' : '/checkout/waiting';
  return { ...row.payment, returnPath, invoiceStatus: row.invoiceStatus, invoiceKind: row.invoiceKind, orderId: row.orderId, orderStatus: row.orderStatus ?? null };
}

/** A new open payment link for the invoice's whole amount. */
export async function insertPayment(executor: Executor, invoice: { id: number; currency: Currency; amountCents: number }, gateway: string, expiresAt: Date) {
  const [payment] = await executor.insert(payments).values({
    id: newPaymentId(), invoiceId: invoice.id, gateway, currency: invoice.currency, amountCents: invoice.amountCents, status: 'Open', expiresAt,
  }).returning();
  if (!payment) throw new Error('Payment was not created');
  return payment;
}

/** The invoice's latest payment link (by creation; of two made at once, the one that lasts longer), if any. */
export async function latestPaymentOf(db: Database, invoiceId: number): Promise<typeof payments.$inferSelect | null> {
  const [latest] = await db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(desc(payments.createdAt), desc(payments.expiresAt)).limit(1);
  return latest ?? null;
}

/** Whether any payment link of the invoice is Confirming. */
export async function hasConfirmingPayment(db: Database, invoiceId: number): Promise<boolean> {
  const [confirming] = await db.select({ id: payments.id }).from(payments).where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, 'Confirming'))).limit(1);
  return confirming !== undefined;
}

/**
 * The checkout's own record of an invoice's payments (its latest link, a late payment, what it bills),
 * read from the store: the local billing's rows, or the mirror rows of the invoices it made in WHMCS.
 */
export async function readInvoiceProgress(db: Database, invoiceId: number, now: Date): Promise<InvoiceProgress> {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) return { payment: null, latePayment: false, lines: [], promocode: null, discountCents: 0, createdAt: null, paidAt: null, gateway: null };
  // An invoice has a few links at most: one read, newest first (of two made at once, the one that lasts longer).
  const links = await db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(desc(payments.createdAt), desc(payments.expiresAt));
  // A payment being confirmed outweighs a newer link: the money is on its way whatever the shopper opened since.
  const latest = links.find((link) => link.status === 'Confirming') ?? links[0];
  const paidWith = links.find((link) => link.status === 'Paid');
  // The receipt's facts beyond the lines: the dates and the gateway it was paid on (else offered on).
  const facts = { createdAt: invoice.createdAt, paidAt: invoice.paidAt, gateway: paidWith?.gateway ?? latest?.gateway ?? null };
  const [late] = await db.select({ id: paymentExceptions.id }).from(paymentExceptions)
    .where(and(eq(paymentExceptions.invoiceId, invoiceId), inArray(paymentExceptions.reason, ['link_expired', 'invoice_cancelled', 'invoice_refunded']))).limit(1);
  const payment = latest ? { status: latest.status === 'Open' && latest.expiresAt.getTime() <= now.getTime() ? 'Expired' as const : latest.status, gateway: latest.gateway } : null;
  const lineColumns = { pid: services.pid, name: products.name, billingcycle: services.billingcycle, extraConnections: services.extraConnections, proxyProtection: services.proxyProtection };
  if (invoice.kind !== 'order') {
    const rows = invoice.serviceId ? await db.select(lineColumns).from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.id, invoice.serviceId)) : [];
    // An upsell bills only the extra connections it adds to the service; a renewal the service with its add-ons.
    const lines = invoice.kind === 'upsell' ? rows.map((row) => ({ ...row, extraConnections: invoice.extraQuantity, proxyProtection: false })) : rows;
    return { payment, latePayment: Boolean(late), lines, promocode: null, discountCents: 0, ...facts };
  }
  const [order] = invoice.orderId ? await db.select({ promocode: orders.promocode, discountCents: orders.discountCents }).from(orders).where(eq(orders.id, invoice.orderId)) : [];
  const lines = invoice.orderId
    ? await db.select(lineColumns).from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.orderId, invoice.orderId)).orderBy(asc(services.id))
    : [];
  return { payment, latePayment: Boolean(late), lines, promocode: order?.promocode ?? null, discountCents: order?.discountCents ?? 0, ...facts };
}

export type InvoiceRow = typeof invoices.$inferSelect;

/** What recording an event did: its outcome, the invoice it paid (null unless `paid`), and the payment it is about. */
export interface RecordedPaymentEvent {
  result: SettleResult;
  paidInvoice: InvoiceRow | null;
  /** The checkout's payment the event settles or repeats (a duplicate names the event's own). */
  paymentId: string | null;
}

/**
 * Records a verified payment event in the checkout's store once (by event id) and decides it: a payment
 * that cannot be applied (closed invoice, expired link, other amount or currency, unknown payment) is a
 * payment exception; a decline, a confirmation pending or a success moves the payment's status; a success
 * marks the invoice Paid, leaving the caller to provision in the same transaction (local) or after (WHMCS).
 */
export async function recordPaymentEvent(tx: Transaction, gateway: string, event: PaymentEvent, paidAt: Date): Promise<RecordedPaymentEvent> {
  const fresh = await tx.insert(webhookEvents).values({ id: event.id, gateway, type: event.type }).onConflictDoNothing().returning({ id: webhookEvents.id });
  if (fresh.length === 0) return { result: { outcome: 'duplicate', reason: null, invoiceId: event.invoiceId }, paidInvoice: null, paymentId: event.paymentId };
  const found = await readPayment(tx, event.paymentId);
  // A payment of another gateway or another invoice is, for this event, a payment we do not know.
  const payment = found && found.gateway === gateway && found.invoiceId === event.invoiceId ? found : null;
  const invoiceId = payment?.invoiceId ?? event.invoiceId;
  const decided = (outcome: SettleResult['outcome'], reason: PaymentExceptionReason | null = null): RecordedPaymentEvent => (
    { result: { outcome, reason, invoiceId }, paidInvoice: null, paymentId: payment?.id ?? null }
  );
  const exception = async (reason: PaymentExceptionReason): Promise<RecordedPaymentEvent> => {
    // A declined event moved no money, a confirming one none yet (its success follows): not the operator's to handle.
    if (event.type !== 'payment.succeeded') return decided('ignored', reason);
    await tx.insert(paymentExceptions).values({
      gateway, eventId: event.id, eventType: event.type, paymentId: event.paymentId, invoiceId, amountCents: event.amountCents, currency: event.currency, reason,
    });
    return decided('exception', reason);
  };
  if (!payment) return exception('unknown_payment');
  // A success under a new event id for a payment already Paid is a second charge (the same event again is a
  // duplicate, above): it falls through to the closed invoice below and is an invoice_paid exception, to be refunded.
  // A confirming event arriving after the success (out of order) changes nothing.
  if (payment.status === 'Paid' && event.type === 'payment.confirming') return decided('already_applied');
  const closed = closedInvoiceReason(payment.invoiceStatus);
  if (closed) return exception(closed);
  // Money seen before the deadline (Confirming) is on time even when its confirmation comes after it.
  if (payment.status !== 'Confirming' && payment.expiresAt.getTime() < event.createdAt.getTime()) return exception('link_expired');
  if (event.type === 'payment.expired') {
    // The provider closed the link before our deadline: it is Expired from then on, so a new link may be made.
    await tx.update(payments).set({ expiresAt: event.createdAt })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'Open'), gt(payments.expiresAt, event.createdAt)));
    return decided('expired');
  }
  if (payment.currency !== event.currency) return exception('currency_mismatch');
  if (payment.amountCents !== event.amountCents) return exception('amount_mismatch');
  if (event.type === 'payment.failed') {
    // Money seen but then failed (a crypto transaction dropped) is declined too: the shopper may pay again.
    await tx.update(payments).set({ status: 'Declined' }).where(and(eq(payments.id, payment.id), inArray(payments.status, ['Open', 'Confirming'])));
    return decided('declined');
  }
  if (event.type === 'payment.confirming') {
    await tx.update(payments).set({ status: 'Confirming' }).where(and(eq(payments.id, payment.id), inArray(payments.status, ['Open', 'Declined'])));
    return decided('confirming');
  }
  const [invoice] = await tx.update(invoices).set({ status: 'Paid', paidAt })
    .where(and(eq(invoices.id, payment.invoiceId), eq(invoices.status, 'Unpaid'))).returning();
  if (!invoice) {
    // Closed by a concurrent transaction (another link paid, the order cancelled) since it was read.
    const [now] = await tx.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, payment.invoiceId));
    return exception(closedInvoiceReason(now?.status ?? 'Cancelled') ?? 'invoice_paid');
  }
  await tx.update(payments).set({ status: 'Paid' }).where(eq(payments.id, payment.id));
  // An order's payment activates its services (the operator counts them); other invoices activate none.
  const activated = invoice.kind === 'order' && invoice.orderId ? await tx.$count(services, eq(services.orderId, invoice.orderId)) : null;
  return { result: { outcome: 'paid', reason: null, invoiceId, ...(activated === null ? {} : { activated }) }, paidInvoice: invoice, paymentId: payment.id };
}
