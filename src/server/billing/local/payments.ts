import { and, eq, sql } from 'drizzle-orm';
import { clients, invoices, orders, services } from '../../db/schema';
import { queueServiceActive } from '../../mail/outbox';
import type { BillingPort, SettleResult } from '../port';
import { hasConfirmingPayment, insertPayment, readInvoiceProgress, readPayment, recordPaymentEvent } from '../shared/payment-records';
import { dueDateAtActivation, newCredentials, type LocalBillingContext } from './context';

type PaymentCalls = Pick<BillingPort, 'createPayment' | 'payment' | 'invoiceProgress' | 'paymentConfirming' | 'settlePayment'>;

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

    invoiceProgress: (invoiceId, now) => readInvoiceProgress(db, invoiceId, now),

    paymentConfirming: (invoiceId) => hasConfirmingPayment(db, invoiceId),

    settlePayment: (gateway, event) => db.transaction(async (tx): Promise<SettleResult> => {
      const { result, paidInvoice: invoice } = await recordPaymentEvent(tx, gateway, event, context.clock.now());
      if (!invoice) return result;
      const { invoiceId } = result;
      if (invoice.kind === 'upsell' && invoice.serviceId) {
        await tx.update(services).set({ extraConnections: sql`${services.extraConnections} + ${invoice.extraQuantity}` }).where(eq(services.id, invoice.serviceId));
        return { outcome: 'paid', reason: null, invoiceId };
      }
      if (invoice.kind === 'renewal' && invoice.serviceId && invoice.periodStart && invoice.periodEnd) {
        // The period paid for follows the old due date, not the payment's; a suspended service runs again at once.
        await tx.update(services).set({ nextDueDate: invoice.periodEnd, status: sql`case when ${services.status} = 'Suspended' then 'Active' else ${services.status} end` })
          .where(and(eq(services.id, invoice.serviceId), eq(services.nextDueDate, invoice.periodStart)));
        return { outcome: 'paid', reason: null, invoiceId };
      }
      if (invoice.orderId) {
        await tx.update(orders).set({ status: 'Active' }).where(eq(orders.id, invoice.orderId));
        const pending = await tx.select({ id: services.id, billingcycle: services.billingcycle, nextDueDate: services.nextDueDate }).from(services).where(eq(services.orderId, invoice.orderId));
        for (const service of pending) {
          await tx.update(services).set({ status: 'Active', nextDueDate: dueDateAtActivation(context, service), ...newCredentials(context) }).where(eq(services.id, service.id));
        }
        const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId));
        if (order?.kind === 'reseller') await tx.update(clients).set({ reseller: true }).where(eq(clients.id, order.clientId));
        await queueServiceActive(tx, invoice.orderId);
      }
      return result;
    }).then((result) => {
      if (result.outcome === 'paid') context.mailQueued?.();
      return result;
    }),
  };
}
