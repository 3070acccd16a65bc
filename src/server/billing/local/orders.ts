import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import { MESSAGE_TEXTS } from '../../../domain/messages';
import { affiliateClicks, invoices, orders, promotions, services } from '../../db/schema';
import { unprocessable } from '../../http-error';
import { queueOrderReceipt, queueUpsellReceipt } from '../../mail/outbox';
import type { BillingPort, InvoiceRecord } from '../port';
import { afterMail, cents, idempotent, insertPayment, readOrder, type LocalBillingContext } from './context';

type OrderCalls = Pick<BillingPort,
  'ordersFromIpSince' | 'placeOrder' | 'order' | 'changeOrderStatus' | 'invoice' | 'createUpsellInvoice' | 'recordAffiliateClick'>;

/** Orders with their services and invoice, upsell invoices, and the clicks that bring them. */
export function localOrders(context: LocalBillingContext): OrderCalls {
  const { db } = context;
  const mailed = afterMail(context);
  return {
    async ordersFromIpSince(ip, since) {
      const [row] = await db.select({ total: count() }).from(orders).where(and(eq(orders.ip, ip), gte(orders.createdAt, since)));
      return row?.total ?? 0;
    },

    placeOrder: (order, claim) => idempotent(db, claim, async (tx) => {
      const [created] = await tx.insert(orders).values({
        clientId: order.clientId, kind: order.kind, status: order.fraud ? 'Fraud' : 'Pending', fraud: order.fraud, ip: order.ip, country: order.country,
        currency: order.currency, amountCents: order.amountCents, promocode: order.promocode, discountCents: order.discountCents ?? 0, affid: order.affid, locale: order.locale,
        createdAt: context.clock.now(), recoveryReminders: typeof order.recoveryAfterMs === 'number',
      }).returning();
      if (!created) throw new Error('Order was not created');
      const serviceRows = await tx.insert(services).values(order.items.map((item) => ({
        clientId: order.clientId, orderId: created.id, pid: item.pid, billingcycle: item.billingcycle, status: created.status,
        serverHostname: context.serverHostname, extraConnections: item.extraConnection ? 1 : 0, proxyProtection: item.proxyProtection,
      }))).returning({ id: services.id });
      // A flagged order's invoice is cancelled, as fraudOrder does, so no new payment link can pay it.
      const [invoice] = await tx.insert(invoices).values({
        clientId: order.clientId, kind: 'order', orderId: created.id, status: order.fraud ? 'Cancelled' : 'Unpaid', currency: order.currency, amountCents: order.amountCents,
        createdAt: created.createdAt,
      }).returning();
      if (!invoice) throw new Error('Invoice was not created');
      if (order.promocode) {
        // Counted only while uses are left, so concurrent orders cannot use a code beyond its maxuses.
        const counted = await tx.update(promotions).set({ uses: sql`${promotions.uses} + 1` })
          .where(sql`lower(${promotions.code}) = lower(${order.promocode}) and not ${promotions.retired} and (${promotions.maxuses} = 0 or ${promotions.uses} < ${promotions.maxuses})`)
          .returning({ code: promotions.code });
        if (counted.length === 0) throw unprocessable('promotion_invalid', MESSAGE_TEXTS['promo.exhausted']);
      }
      const payment = order.payment ? await insertPayment(tx, invoice, order.payment.gateway, order.payment.expiresAt) : null;
      // A flagged order gets no receipt: nothing is due on it, and a caller spraying orders would mail strangers.
      if (payment && !order.fraud) {
        await queueOrderReceipt(tx, {
          orderId: created.id, invoiceId: invoice.id, clientId: order.clientId, kind: order.kind, items: order.items, promocode: order.promocode,
          amountCents: created.amountCents, currency: created.currency, deadline: payment.expiresAt, locale: order.locale,
          reminderDueAt: typeof order.recoveryAfterMs === 'number' ? new Date(created.createdAt.getTime() + order.recoveryAfterMs) : null,
        });
      }
      return {
        orderid: created.id, invoiceid: invoice.id, serviceids: serviceRows.map((row) => row.id), fraud: created.fraud, status: created.status,
        amount: cents(created.amountCents), currency: created.currency, paymentId: payment?.id ?? null, deadline: payment?.expiresAt.toISOString() ?? null,
      };
    }).then(mailed),

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

    createUpsellInvoice: (input, claim) => idempotent(db, claim, async (tx) => {
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
