import { sql, type SQL } from 'drizzle-orm';
import { MESSAGE_TEXTS } from '../../../domain/messages';
import { promotions } from '../../db/schema';
import { unprocessable } from '../../http-error';
import { orderReceiptMessages, outboxValues } from '../../mail/outbox';
import type { IdempotencyClaim, NewOrder, PaymentRecord, PlacedOrder, StoredAnswer } from '../port';
import { claimWithAnswer, replayAnswer } from '../shared/idempotency';
import { newPaymentId } from '../shared/payment-records';
import type { Executor } from '../shared/store';
import { cents, type LocalBillingContext } from './context';

/** The rows of a raw query, on PGlite and on PostgreSQL alike (both drivers answer `{ rows }`). */
const rowsOf = async <Row>(executor: Executor, query: SQL): Promise<Row[]> => ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;

/** The ids of an order's rows, drawn from their sequences before it is written. */
interface Reserved {
  orderId: number;
  invoiceId: number;
  serviceIds: number[];
}

/** The names of the order's products by pid, from the billing's cached catalogue (the route priced them from it). */
async function productNames(productName: (pid: number) => Promise<string | undefined>, order: NewOrder): Promise<Record<number, string>> {
  const names: Record<number, string> = {};
  for (const item of order.items) {
    const name = await productName(item.pid);
    if (name !== undefined) names[item.pid] = name;
  }
  return names;
}

/** Thrown inside the promotion's transaction when the key was claimed by an earlier request: undoes the use counted. */
class ClaimedBefore extends Error {}

/**
 * Places an order in one statement: the Idempotency-Key's claim, the order, its services, invoice and payment link
 * and its mail, each insert drawing from the claim so that a key claimed before inserts nothing (the first answer is
 * then replayed). The ids are drawn from their sequences first, so the answer stored under the key is complete when
 * the claim is written: four round trips of the former transaction (claim, answer, receipt names and address) are
 * gone, and the order's seven inserts travel as one. A promotion's use is counted in a transaction with it.
 */
export async function placeLocalOrder(context: LocalBillingContext, productName: (pid: number) => Promise<string | undefined>, order: NewOrder, claim: IdempotencyClaim | null): Promise<StoredAnswer<PlacedOrder> & { payment?: PaymentRecord }> {
  const { db } = context;
  // Literal sequence names (serial's own): pg_get_serial_sequence looked each up in the catalogue on every order.
  const [reserved] = await rowsOf<Reserved>(db, sql`
    select nextval('orders_id_seq')::int as "orderId", nextval('invoices_id_seq')::int as "invoiceId",
      array(select nextval('services_id_seq')::int from generate_series(1, ${order.items.length}::int)) as "serviceIds"`);
  if (!reserved) throw new Error('No ids were drawn for the order');
  const serviceIds = [...reserved.serviceIds].sort((a, b) => a - b);
  const createdAt = context.clock.now();
  const status = order.fraud ? 'Fraud' as const : 'Pending' as const;
  const payment = order.payment ? { id: newPaymentId(), ...order.payment } : null;
  const body: PlacedOrder = {
    orderid: reserved.orderId, invoiceid: reserved.invoiceId, serviceids: serviceIds, fraud: order.fraud, status,
    amount: cents(order.amountCents), currency: order.currency, paymentId: payment?.id ?? null, deadline: payment?.expiresAt.toISOString() ?? null,
  };
  // A flagged order gets no receipt: nothing is due on it, and a caller spraying orders would mail strangers.
  const mail = payment && !order.fraud
    ? orderReceiptMessages({
      orderId: reserved.orderId, invoiceId: reserved.invoiceId, clientId: order.clientId, kind: order.kind, items: order.items, promocode: order.promocode,
      amountCents: order.amountCents, currency: order.currency, deadline: payment.expiresAt, locale: order.locale,
      reminderDueAt: typeof order.recoveryAfterMs === 'number' ? new Date(createdAt.getTime() + order.recoveryAfterMs) : null,
    }, await productNames(productName, order)).map(outboxValues)
    : [];
  const services = order.items.map((item, index) => ({
    id: serviceIds[index], pid: item.pid, billingcycle: item.billingcycle, extra_connections: item.extraConnection ? 1 : 0, proxy_protection: item.proxyProtection,
  }));
  const mailRows = mail.map((row) => ({
    message_key: row.messageKey, kind: row.kind, locale: row.locale, payload: row.payload, message_id: row.messageId,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
  }));

  const claimed = claim ? claimWithAnswer(claim, body) : sql`select 1 as claimed`;
  const paymentInsert = payment
    ? sql`, new_payment as (
        insert into payments (id, invoice_id, gateway, currency, amount_cents, status, expires_at)
        select ${payment.id}::text, ${reserved.invoiceId}::int, ${payment.gateway}::text, ${order.currency}::text, ${order.amountCents}::int, 'Open', ${payment.expiresAt.toISOString()}::timestamptz
        from claimed)`
    : sql``;
  const write = sql`
    with claimed as (${claimed}),
    new_order as (
      insert into orders (id, client_id, kind, status, fraud, ip, country, currency, amount_cents, promocode, discount_cents, affid, locale, created_at, recovery_reminders)
      select ${reserved.orderId}::int, ${order.clientId}::int, ${order.kind}::text, ${status}::text, ${order.fraud}::boolean, ${order.ip}::text, ${order.country}::text,
        ${order.currency}::text, ${order.amountCents}::int, ${order.promocode}::text, ${order.discountCents ?? 0}::int, ${order.affid}::text, ${order.locale}::text,
        ${createdAt.toISOString()}::timestamptz, ${typeof order.recoveryAfterMs === 'number'}::boolean
      from claimed returning id),
    new_services as (
      insert into services (id, client_id, order_id, pid, billingcycle, status, server_hostname, extra_connections, proxy_protection)
      select s.id, ${order.clientId}::int, ${reserved.orderId}::int, s.pid, s.billingcycle, ${status}::text, ${context.serverHostname}::text, s.extra_connections, s.proxy_protection
      from claimed, jsonb_to_recordset(${JSON.stringify(services)}::jsonb) as s(id int, pid int, billingcycle text, extra_connections int, proxy_protection boolean)
      returning id),
    new_invoice as (
      -- A flagged order's invoice is cancelled, as fraudOrder does, so no new payment link can pay it.
      insert into invoices (id, client_id, kind, order_id, status, currency, amount_cents, created_at)
      select ${reserved.invoiceId}::int, ${order.clientId}::int, 'order', ${reserved.orderId}::int, ${order.fraud ? 'Cancelled' : 'Unpaid'}::text, ${order.currency}::text,
        ${order.amountCents}::int, ${createdAt.toISOString()}::timestamptz
      from claimed returning id)
    ${paymentInsert},
    new_mail as (
      insert into mail_outbox (message_key, kind, recipient, locale, payload, message_id, next_attempt_at)
      -- The recipient is the client's address, read here rather than by a query of its own.
      select m.message_key, m.kind, (select email from clients where id = ${order.clientId}::int), m.locale, m.payload, m.message_id, coalesce(m.next_attempt_at, now())
      from claimed, jsonb_to_recordset(${JSON.stringify(mailRows)}::jsonb)
        as m(message_key text, kind text, locale text, payload jsonb, message_id text, next_attempt_at timestamptz)
      on conflict (message_key) do nothing returning id)
    select count(*)::int as claimed from claimed`;

  const placed = async (executor: Executor) => {
    const [row] = await rowsOf<{ claimed: number }>(executor, write);
    return (row?.claimed ?? 0) > 0;
  };
  let written: boolean;
  if (order.promocode) {
    const code = order.promocode;
    written = await db.transaction(async (tx) => {
      // Counted only while uses are left, so concurrent orders cannot use a code beyond its maxuses.
      const counted = await tx.update(promotions).set({ uses: sql`${promotions.uses} + 1` })
        .where(sql`lower(${promotions.code}) = lower(${code}) and not ${promotions.retired} and (${promotions.maxuses} = 0 or ${promotions.uses} < ${promotions.maxuses})`)
        .returning({ code: promotions.code });
      if (counted.length === 0) throw unprocessable('promotion_invalid', MESSAGE_TEXTS['promo.exhausted']);
      if (!await placed(tx)) throw new ClaimedBefore();
      return true;
    }).catch((error: unknown) => {
      if (error instanceof ClaimedBefore) return false;
      throw error;
    });
  } else {
    written = await placed(db);
  }
  if (!written) {
    if (!claim) throw new Error('Order was not created');
    return replayAnswer<PlacedOrder>(db, claim);
  }
  context.mailQueued?.();
  // The link as readPayment would read it back: made now, open, on the invoice just made.
  const paymentRecord: PaymentRecord | undefined = payment ? {
    id: payment.id, invoiceId: reserved.invoiceId, gateway: payment.gateway, currency: order.currency, amountCents: order.amountCents, status: 'Open',
    expiresAt: payment.expiresAt, returnPath: order.kind === 'reseller' ? '/checkout/resellers/waiting' : '/checkout/waiting',
    invoiceStatus: 'Unpaid', invoiceKind: 'order', orderId: reserved.orderId, orderStatus: status,
  } : undefined;
  return { statusCode: 200, body, replayed: false, ...(paymentRecord ? { payment: paymentRecord } : {}) };
}
