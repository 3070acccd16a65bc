/**
 * Recovery of unpaid orders: the reminder queued with an order (src/server/mail/outbox.ts) is checked again
 * when it comes due, its one-click opt-out link, and the resume of an order on its waiting page in a browser
 * that has nothing saved. Upsell invoices are not orders and get no reminder.
 */
import { and, eq } from 'drizzle-orm';
import { PAYMENT_DEADLINE_MS } from '../domain/constants';
import type { Locale } from '../domain/locale';
import { latestPaymentOf } from './billing/shared/payment-records';
import type { BillingPort } from './billing/port';
import type { Clock } from './clock';
import type { Database } from './db/connect';
import { invoices, orders } from './db/schema';
import { notFound } from './http-error';
import { storedLocale } from './mail/outbox';
import { fill, MAIL_TEXTS } from './mail/texts';
import { optOutLinks, type OptOutPage } from './opt-out';
import { paymentLink } from './payments/link';
import type { PaymentGateway } from './payments/port';
import { assertOwnsOrder, requireSession } from './session';
import type { Handlers } from './routes/types';

/** The reminder's resume link works this long: past the payment deadline, so a late reader still gets a fresh link. */
export const RESUME_LINK_TTL_MS = 2 * PAYMENT_DEADLINE_MS;
/** The opt-out page of an order's reminders (src/server/opt-out.ts). */
export const RECOVERY_OPT_OUT_PATH = '/checkout/recovery/opt-out';

/** What a due reminder finds: send it (with what it links to), or skip it and why. */
export type ReminderCheck =
  | { send: true; clientId: number; flow: 'order' | 'reseller'; locale: Locale; deadline: Date }
  | { send: false; reason: 'no_order' | 'not_pending' | 'not_unpaid' | 'opted_out' | 'deadline_passed' };

export interface Recovery {
  /** Reads the order again when its reminder comes due. */
  check(orderId: number): Promise<ReminderCheck>;
  /** The one-click opt-out link of an order's reminders: signed, so no one stops another order's by guessing ids. */
  optOutUrl(orderId: number): string;
  /** The opt-out page of an order's reminders: it turns them off and answers in the order's language. */
  optOutPage: OptOutPage;
  /** The order's latest payment link (by creation), if any. */
  latestPayment(invoiceId: number): Promise<{ id: string; gateway: string; expiresAt: Date } | null>;
}

export function createRecovery(db: Database, secret: string, publicUrl: string, clock: Clock): Recovery {
  // Keyed and apart from session ids, sign-in links and renewal notices' opt-outs.
  const optOut = optOutLinks(secret, publicUrl, RECOVERY_OPT_OUT_PATH, 'recovery-opt-out');

  const latestPayment = (invoiceId: number) => latestPaymentOf(db, invoiceId);

  return {
    latestPayment,

    async check(orderId) {
      const [row] = await db.select({ order: orders, invoiceId: invoices.id, invoiceStatus: invoices.status }).from(orders)
        .innerJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, 'order'))).where(eq(orders.id, orderId));
      if (!row) return { send: false, reason: 'no_order' };
      if (row.order.status !== 'Pending' || row.order.fraud) return { send: false, reason: 'not_pending' };
      if (row.invoiceStatus !== 'Unpaid') return { send: false, reason: 'not_unpaid' };
      if (!row.order.recoveryReminders) return { send: false, reason: 'opted_out' };
      const payment = await latestPayment(row.invoiceId);
      if (!payment || payment.expiresAt.getTime() <= clock.now().getTime()) return { send: false, reason: 'deadline_passed' };
      return { send: true, clientId: row.order.clientId, flow: row.order.kind === 'reseller' ? 'reseller' : 'order', locale: storedLocale(row.order.locale), deadline: payment.expiresAt };
    },

    optOutUrl: (orderId) => optOut.url(orderId),

    optOutPage: {
      links: optOut,
      async turnOff(orderId) {
        const [row] = await db.update(orders).set({ recoveryReminders: false }).where(eq(orders.id, orderId)).returning({ locale: orders.locale });
        if (!row) return null;
        const locale = storedLocale(row.locale);
        const t = MAIL_TEXTS[locale].recovery;
        return { locale, title: t.optedOutTitle, text: fill(t.optedOutText, { order: orderId }) };
      },
    },
  };
}

/** GET /checkout/api/resumeOrder: an order of the session with a payment link that works, for its waiting page. */
export function resumeOrderRoute({ billing, gateways, clock, recovery, publicUrl }: { billing: BillingPort; gateways: PaymentGateway[]; clock: Clock; recovery: Recovery; publicUrl: string }): Handlers<'resumeOrder'> {
  return {
    async resumeOrder(request) {
      const session = await requireSession(request);
      const order = await billing.order(Number(request.query.orderid));
      if (!order) throw notFound('This order does not exist.');
      assertOwnsOrder(session, order);
      let payment = await recovery.latestPayment(order.invoiceId);
      // A payment that came after the link expired or the order closed is the operator's (activate or refund):
      // the shopper who paid is shown the closed order, never a fresh link to pay again.
      const { latePayment } = await billing.invoiceProgress(order.invoiceId, clock.now());
      const payable = order.status === 'Pending' && order.invoiceStatus === 'Unpaid' && !order.fraud && !latePayment;
      const gateway = gateways.find((candidate) => candidate.module === payment?.gateway) ?? null;
      // An expired link is replaced on the same gateway, so the resumed page has one that works.
      const now = clock.now().getTime();
      if (payable && payment && gateway && payment.expiresAt.getTime() <= now) {
        payment = await billing.createPayment({ invoiceId: order.invoiceId, gateway: gateway.module, expiresAt: new Date(now + PAYMENT_DEADLINE_MS) });
      }
      // The same payment asks its provider for the same page again (idempotent per invoice and attempt).
      const link = payable && payment && gateway && payment.expiresAt.getTime() > now
        ? { url: await paymentLink(gateway, billing, publicUrl, payment.id, request.log), deadline: payment.expiresAt } : null;
      return {
        orderid: order.id, invoiceid: order.invoiceId, serviceids: order.serviceIds, flow: order.kind === 'reseller' ? 'reseller' : 'order', status: order.status,
        invoiceStatus: order.invoiceStatus, fraud: order.fraud, amount: order.amountCents / 100, currency: order.currency,
        paymentmethod: payment?.gateway ?? null,
        link: link?.url ?? null,
        deadline: link?.deadline.toISOString() ?? null,
        latePayment,
      };
    },
  };
}
