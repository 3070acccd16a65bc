import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { clients, invoices, orders, paymentExceptions, payments, products, services, webhookEvents } from '../../db/schema';
import { queueServiceActive } from '../../mail/outbox';
import { closedInvoiceReason } from '../port';
import type { BillingPort, PaymentExceptionReason, SettleResult } from '../port';
import { insertPayment, newCredentials, readPayment, type LocalBillingContext } from './context';

type PaymentCalls = Pick<BillingPort, 'createPayment' | 'payment' | 'invoiceProgress' | 'settlePayment'>;

/** Payment links and the verified events that settle them, each applied once. */
export function localPayments(context: LocalBillingContext): PaymentCalls {
  const { db } = context;
  return {
    async createPayment({ invoiceId, gateway, expiresAt }) {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
      if (!invoice) throw new Error(`Invoice ${invoiceId} not found`);
      const payment = await insertPayment(db, invoice, gateway, expiresAt);
      const record = await readPayment(db, payment.id);
      if (!record) throw new Error('Payment was not created');
      return record;
    },

    payment: (id) => readPayment(db, id),

    async invoiceProgress(invoiceId, now) {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
      if (!invoice) return { payment: null, latePayment: false, lines: [], promocode: null };
      const [latest] = await db.select().from(payments).where(eq(payments.invoiceId, invoiceId)).orderBy(desc(payments.createdAt), desc(payments.id)).limit(1);
      const [late] = await db.select({ id: paymentExceptions.id }).from(paymentExceptions)
        .where(and(eq(paymentExceptions.invoiceId, invoiceId), inArray(paymentExceptions.reason, ['link_expired', 'invoice_cancelled', 'invoice_refunded']))).limit(1);
      const payment = latest ? { status: latest.status === 'Open' && latest.expiresAt.getTime() <= now.getTime() ? 'Expired' as const : latest.status, gateway: latest.gateway } : null;
      const lineColumns = { pid: services.pid, name: products.name, billingcycle: services.billingcycle, extraConnections: services.extraConnections, proxyProtection: services.proxyProtection };
      if (invoice.kind === 'upsell') {
        const rows = invoice.serviceId ? await db.select(lineColumns).from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.id, invoice.serviceId)) : [];
        // An upsell bills only the extra connections it adds to the service.
        const lines = rows.map((row) => ({ ...row, extraConnections: invoice.extraQuantity, proxyProtection: false }));
        return { payment, latePayment: Boolean(late), lines, promocode: null };
      }
      const [order] = invoice.orderId ? await db.select({ promocode: orders.promocode }).from(orders).where(eq(orders.id, invoice.orderId)) : [];
      const lines = invoice.orderId
        ? await db.select(lineColumns).from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.orderId, invoice.orderId)).orderBy(asc(services.id))
        : [];
      return { payment, latePayment: Boolean(late), lines, promocode: order?.promocode ?? null };
    },

    settlePayment: (gateway, event) => db.transaction(async (tx): Promise<SettleResult> => {
      const fresh = await tx.insert(webhookEvents).values({ id: event.id, gateway, type: event.type }).onConflictDoNothing().returning({ id: webhookEvents.id });
      if (fresh.length === 0) return { outcome: 'duplicate', reason: null, invoiceId: event.invoiceId };
      const found = await readPayment(tx, event.paymentId);
      // A payment of another gateway or another invoice is, for this event, a payment we do not know.
      const payment = found && found.gateway === gateway && found.invoiceId === event.invoiceId ? found : null;
      const invoiceId = payment?.invoiceId ?? event.invoiceId;
      const exception = async (reason: PaymentExceptionReason): Promise<SettleResult> => {
        // A declined event moved no money, a confirming one none yet (its success follows): not the operator's to handle.
        if (event.type !== 'payment.succeeded') return { outcome: 'ignored', reason, invoiceId };
        await tx.insert(paymentExceptions).values({
          gateway, eventId: event.id, eventType: event.type, paymentId: event.paymentId, invoiceId, amountCents: event.amountCents, currency: event.currency, reason,
        });
        return { outcome: 'exception', reason, invoiceId };
      };
      if (!payment) return exception('unknown_payment');
      const sameMoney = payment.amountCents === event.amountCents && payment.currency === event.currency;
      // The payment that paid this invoice, reported again under a new event id: the same money, already applied.
      if (payment.status === 'Paid' && sameMoney && event.type === 'payment.succeeded') return { outcome: 'already_applied', reason: null, invoiceId };
      // A confirming event arriving after the success (out of order) changes nothing.
      if (payment.status === 'Paid' && event.type === 'payment.confirming') return { outcome: 'already_applied', reason: null, invoiceId };
      const closed = closedInvoiceReason(payment.invoiceStatus);
      if (closed) return exception(closed);
      // Money seen before the deadline (Confirming) is on time even when its confirmation comes after it.
      if (payment.status !== 'Confirming' && payment.expiresAt.getTime() < event.createdAt.getTime()) return exception('link_expired');
      if (payment.currency !== event.currency) return exception('currency_mismatch');
      if (payment.amountCents !== event.amountCents) return exception('amount_mismatch');
      if (event.type === 'payment.failed') {
        // Money seen but then failed (a crypto transaction dropped) is declined too: the shopper may pay again.
        await tx.update(payments).set({ status: 'Declined' }).where(and(eq(payments.id, payment.id), inArray(payments.status, ['Open', 'Confirming'])));
        return { outcome: 'declined', reason: null, invoiceId };
      }
      if (event.type === 'payment.confirming') {
        await tx.update(payments).set({ status: 'Confirming' }).where(and(eq(payments.id, payment.id), inArray(payments.status, ['Open', 'Declined'])));
        return { outcome: 'confirming', reason: null, invoiceId };
      }
      const [invoice] = await tx.update(invoices).set({ status: 'Paid', paidAt: context.clock.now() })
        .where(and(eq(invoices.id, payment.invoiceId), eq(invoices.status, 'Unpaid'))).returning();
      if (!invoice) {
        // Closed by a concurrent transaction (another link paid, the order cancelled) since it was read.
        const [now] = await tx.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, payment.invoiceId));
        return exception(closedInvoiceReason(now?.status ?? 'Cancelled') ?? 'invoice_paid');
      }
      await tx.update(payments).set({ status: 'Paid' }).where(eq(payments.id, payment.id));
      if (invoice.kind === 'upsell' && invoice.serviceId) {
        await tx.update(services).set({ extraConnections: sql`${services.extraConnections} + ${invoice.extraQuantity}` }).where(eq(services.id, invoice.serviceId));
        return { outcome: 'paid', reason: null, invoiceId };
      }
      if (invoice.orderId) {
        await tx.update(orders).set({ status: 'Active' }).where(eq(orders.id, invoice.orderId));
        const pending = await tx.select({ id: services.id }).from(services).where(eq(services.orderId, invoice.orderId));
        for (const service of pending) {
          await tx.update(services).set({ status: 'Active', ...newCredentials(context) }).where(eq(services.id, service.id));
        }
        const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId));
        if (order?.kind === 'reseller') await tx.update(clients).set({ reseller: true }).where(eq(clients.id, order.clientId));
        await queueServiceActive(tx, invoice.orderId);
      }
      return { outcome: 'paid', reason: null, invoiceId };
    }).then((result) => {
      if (result.outcome === 'paid') context.mailQueued?.();
      return result;
    }),
  };
}
