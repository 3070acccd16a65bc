import { and, count, eq, gte, inArray } from 'drizzle-orm';
import { affiliateClicks, invoices, orders, services } from '../../db/schema';
import { queueUpsellReceipt } from '../../mail/outbox';
import type { BillingPort, InvoiceRecord } from '../port';
import { afterMail, idempotentInTransaction } from '../shared/idempotency';
import { insertPayment } from '../shared/payment-records';
import { readOrder, type LocalBillingContext } from './context';
import { placeLocalOrder } from './place-order';

type OrderCalls = Pick<BillingPort,
  'ordersFromIpSince' | 'placeOrder' | 'order' | 'changeOrderStatus' | 'invoice' | 'createUpsellInvoice' | 'recordAffiliateClick'>;

/** Orders with their services and invoice, upsell invoices, and the clicks that bring them. */
export function localOrders(context: LocalBillingContext, catalogue: Pick<BillingPort, 'product'>): OrderCalls {
  const { db } = context;
  const mailed = afterMail(context);
  return {
    async ordersFromIpSince(ip, since, atMost) {
      const recent = and(eq(orders.ip, ip), gte(orders.createdAt, since));
      // Bounded: an address that ordered thousands of times costs the check no more than the limit (orders_ip_created_idx).
      const [row] = atMost === undefined
        ? await db.select({ total: count() }).from(orders).where(recent)
        : await db.select({ total: count() }).from(db.select({ id: orders.id }).from(orders).where(recent).limit(atMost).as('recent'));
      return row?.total ?? 0;
    },

    placeOrder: (order, claim) => placeLocalOrder(context, async (pid) => (await catalogue.product(pid))?.name, order, claim),

    order: (id) => readOrder(db, id),

    changeOrderStatus: (id, from, to) => db.transaction(async (tx) => {
      const [updated] = await tx.update(orders).set({ status: to, ...(to === 'Fraud' ? { fraud: true } : {}) })
        .where(and(eq(orders.id, id), inArray(orders.status, from))).returning({ id: orders.id });
      if (!updated) return null;
      await tx.update(services).set({ status: to }).where(eq(services.orderId, id));
      await tx.update(invoices).set({ status: 'Cancelled' }).where(and(eq(invoices.orderId, id), eq(invoices.status, 'Unpaid')));
      return readOrder(tx, id);
    }),

    async invoice(id) {
      const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
      if (!row) return null;
      const { id: invoiceId, clientId, kind, orderId, serviceId, status, currency, amountCents } = row;
      return { id: invoiceId, clientId, kind, orderId, serviceId, status, currency, amountCents } satisfies InvoiceRecord;
    },

    createUpsellInvoice: (input, claim) => idempotentInTransaction(db, claim, async (tx) => {
      const [invoice] = await tx.insert(invoices).values({
        clientId: input.clientId, kind: 'upsell', serviceId: input.serviceId, extraQuantity: input.quantity, status: 'Unpaid', currency: input.currency, amountCents: input.amountCents,
        createdAt: context.clock.now(),
      }).returning();
      if (!invoice) throw new Error('Invoice was not created');
      const payment = await insertPayment(tx, invoice, input.payment.gateway, input.payment.expiresAt);
      await queueUpsellReceipt(tx, {
        invoiceId: invoice.id, clientId: input.clientId, serviceId: input.serviceId, quantity: input.quantity, amountCents: invoice.amountCents,
        currency: invoice.currency, deadline: payment.expiresAt, locale: input.locale,
      });
      return { invoiceid: invoice.id, paymentId: payment.id, amountCents: invoice.amountCents, currency: invoice.currency, deadline: payment.expiresAt.toISOString() };
    }).then(mailed),

    async recordAffiliateClick({ affId, referer, ip }) {
      await db.insert(affiliateClicks).values({ affId, referer, ip });
    },
  };
}
