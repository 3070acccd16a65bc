import { and, eq, sql } from 'drizzle-orm';
import { clients, invoices, orders, paymentExceptions, payments, services, webhookEvents } from '../../db/schema';
import { queueServiceActive } from '../../mail/outbox';
import { closedInvoiceReason } from '../port';
import type { BillingPort, PaymentExceptionReason, SettleResult } from '../port';
import { insertPayment, newCredentials, readPayment, type LocalBillingContext } from './context';

type PaymentCalls = Pick<BillingPort, 'createPayment' | 'payment' | 'settlePayment'>;

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

    settlePayment: (gateway, event) => db.transaction(async (tx): Promise<SettleResult> => {
      const fresh = await tx.insert(webhookEvents).values({ id: event.id, gateway, type: event.type }).onConflictDoNothing().returning({ id: webhookEvents.id });
      if (fresh.length === 0) return { outcome: 'duplicate', reason: null, invoiceId: event.invoiceId };
      const found = await readPayment(tx, event.paymentId);
      // A payment of another gateway or another invoice is, for this event, a payment we do not know.
      const payment = found && found.gateway === gateway && found.invoiceId === event.invoiceId ? found : null;
      const invoiceId = payment?.invoiceId ?? event.invoiceId;
      const exception = async (reason: PaymentExceptionReason): Promise<SettleResult> => {
        // A declined event moved no money: nothing to refund or apply, so it is not the operator's to handle.
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
      const closed = closedInvoiceReason(payment.invoiceStatus);
      if (closed) return exception(closed);
      if (payment.expiresAt.getTime() < event.createdAt.getTime()) return exception('link_expired');
      if (payment.currency !== event.currency) return exception('currency_mismatch');
      if (payment.amountCents !== event.amountCents) return exception('amount_mismatch');
      // Money seen, not final yet: the payment settles on the provider's final event (lifecycle shows it).
      if (event.type === 'payment.confirming') return { outcome: 'ignored', reason: null, invoiceId };
      if (event.type === 'payment.failed') {
        await tx.update(payments).set({ status: 'Declined' }).where(and(eq(payments.id, payment.id), eq(payments.status, 'Open')));
        return { outcome: 'declined', reason: null, invoiceId };
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
