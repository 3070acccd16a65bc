/**
 * Recovery of unpaid orders: the reminder queued with an order (src/server/mail/outbox.ts) is checked again
 * when it comes due, its one-click opt-out link, and the resume of an order on its waiting page in a browser
 * that has nothing saved. Upsell invoices are not orders and get no reminder.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAYMENT_DEADLINE_MS } from '../domain/constants';
import type { Locale } from '../domain/locale';
import { latestPaymentOf } from './billing/shared/payment-records';
import type { BillingPort } from './billing/port';
import type { Clock } from './clock';
import type { Database } from './db/connect';
import { invoices, orders } from './db/schema';
import { CARD_CSS, escapeHtml, serverPage } from './html-page';
import { notFound } from './http-error';
import { storedLocale } from './mail/outbox';
import { fill, MAIL_TEXTS } from './mail/texts';
import { localePath } from './mail/templates';
import { paymentLink } from './payments/link';
import type { PaymentGateway } from './payments/port';
import { assertOwnsOrder, requireSession } from './session';
import type { Handlers } from './routes/types';

/** The reminder's resume link works this long: past the payment deadline, so a late reader still gets a fresh link. */
export const RESUME_LINK_TTL_MS = 2 * PAYMENT_DEADLINE_MS;
/** The opt-out page, outside the API (a page a person opens, and a POST a mail client sends). */
export const RECOVERY_OPT_OUT_PATH = '/checkout/recovery/opt-out';
const OPT_OUT_TOKEN = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/;

/** What a due reminder finds: send it (with what it links to), or skip it and why. */
export type ReminderCheck =
  | { send: true; clientId: number; flow: 'order' | 'reseller'; locale: Locale; deadline: Date }
  | { send: false; reason: 'no_order' | 'not_pending' | 'not_unpaid' | 'opted_out' | 'deadline_passed' };

export interface Recovery {
  /** Reads the order again when its reminder comes due. */
  check(orderId: number): Promise<ReminderCheck>;
  /** The one-click opt-out link of an order's reminders: signed, so no one stops another order's by guessing ids. */
  optOutUrl(orderId: number): string;
  /** Turns an order's reminders off from its link's token; null for a token that is not one of ours. */
  optOut(token: string): Promise<{ orderId: number; locale: Locale } | null>;
  /** The order's latest payment link (by creation), if any. */
  latestPayment(invoiceId: number): Promise<{ id: string; gateway: string; expiresAt: Date } | null>;
}

export function createRecovery(db: Database, secret: string, publicUrl: string, clock: Clock): Recovery {
  // Keyed and apart from session ids and sign-in links.
  const sign = (orderId: number) => createHmac('sha256', secret).update(`recovery-opt-out:${orderId}`).digest('base64url');

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

    optOutUrl: (orderId) => `${publicUrl}${RECOVERY_OPT_OUT_PATH}?token=${orderId}.${sign(orderId)}`,

    async optOut(token) {
      const match = OPT_OUT_TOKEN.exec(token);
      if (!match) return null;
      const orderId = Number(match[1]);
      const given = Buffer.from(match[2] ?? '');
      const expected = Buffer.from(sign(orderId));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const [row] = await db.update(orders).set({ recoveryReminders: false }).where(eq(orders.id, orderId)).returning({ locale: orders.locale });
      return row ? { orderId, locale: storedLocale(row.locale) } : null;
    },
  };
}

/**
 * GET and POST /checkout/recovery/opt-out?token=…: the link in every reminder and its RFC 8058 one-click
 * POST (body List-Unsubscribe=One-Click). Both turn the order's reminders off and answer a small page in
 * the order's language; a token that is not ours answers 400 and changes nothing.
 */
export async function recoveryOptOutPages(app: FastifyInstance, deps: { recovery: Recovery; demo: boolean }): Promise<void> {
  // A mail client's one-click POST is a form body; only this scope reads form bodies.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const page = (locale: Locale, title: string, text: string) => serverPage({
    title, site: 'TV Checkout', css: `${CARD_CSS}\nmain{max-width:28rem}\na{font-weight:600}`, demo: deps.demo, lang: MAIL_TEXTS[locale].tag,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(localePath(locale, ''))}">${escapeHtml(MAIL_TEXTS[locale].recovery.backToCheckout)}</a></p>`,
  });
  const handle = async (request: FastifyRequest<{ Querystring: { token?: unknown } }>, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const done = await deps.recovery.optOut(token);
    if (!done) {
      const t = MAIL_TEXTS['en-en'].recovery;
      return reply.code(400).send(page('en-en', t.invalidTitle, t.invalidText));
    }
    const t = MAIL_TEXTS[done.locale].recovery;
    request.log.info({ order: done.orderId }, 'recovery reminders turned off');
    return reply.code(200).send(page(done.locale, t.optedOutTitle, fill(t.optedOutText, { order: done.orderId })));
  };
  app.get(RECOVERY_OPT_OUT_PATH, handle);
  app.post(RECOVERY_OPT_OUT_PATH, handle);
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
