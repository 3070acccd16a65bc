/**
 * npm run whmcs:unfinished [-- --json]
 *
 * Lists what the checkout still owes WHMCS, oldest first: undos WHMCS has not accepted yet (CancelOrder of an
 * order, UpdateInvoice Cancelled of an upsell invoice, taken by WHMCS for a request that was not finished or
 * was priced differently), and payments recorded here but not yet applied there (AddInvoicePayment, then
 * AcceptOrder or the extra connections). The server retries both (WHMCS_RETRY_POLL_MS); a line that stays
 * needs the operator in WHMCS: cancel the order or invoice, or add the payment and accept the order, by hand.
 *
 * Opens the store as the server does (DATABASE_URL, else the embedded store in DATA_DIR). The embedded
 * store is one process's at a time: stop the server first (or use the PostgreSQL store).
 */
import { and, asc, eq } from 'drizzle-orm';
import { ConfigError } from '../../src/server/config';
import type { InvoiceKind } from '../../src/server/billing/port';
import type { Database } from '../../src/server/db/connect';
import { runAsScript, withConfiguredStore } from './ops-script';
import { idempotencyKeys, invoices, payments, whmcsUndos } from '../../src/server/db/schema';
import { APPLY_PAYMENT_SCOPE } from '../../src/server/billing/whmcs';
import { shortPaymentId } from './payment-exceptions';

export type PendingUndo = Pick<typeof whmcsUndos.$inferSelect, 'action' | 'whmcsId' | 'reason' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'createdAt'>;
export interface UnappliedPayment { paymentId: string; invoiceId: number; invoiceKind: InvoiceKind; orderId: number | null; gateway: string; amountCents: number; currency: string; since: Date }

/** The undos WHMCS has not accepted yet (due or waiting for a retry), oldest first. */
export async function pendingWhmcsUndos(db: Database): Promise<PendingUndo[]> {
  return db.select({
    action: whmcsUndos.action, whmcsId: whmcsUndos.whmcsId, reason: whmcsUndos.reason, attempts: whmcsUndos.attempts,
    nextAttemptAt: whmcsUndos.nextAttemptAt, lastError: whmcsUndos.lastError, createdAt: whmcsUndos.createdAt,
  }).from(whmcsUndos).where(eq(whmcsUndos.status, 'pending')).orderBy(asc(whmcsUndos.createdAt), asc(whmcsUndos.id));
}

/** Paid payments whose application in WHMCS has not finished (its claim holds no answer), oldest first. */
export async function unappliedWhmcsPayments(db: Database): Promise<UnappliedPayment[]> {
  return db.select({
    paymentId: payments.id, invoiceId: payments.invoiceId, invoiceKind: invoices.kind, orderId: invoices.orderId, gateway: payments.gateway,
    amountCents: payments.amountCents, currency: payments.currency, since: payments.createdAt,
  }).from(idempotencyKeys)
    .innerJoin(payments, eq(payments.id, idempotencyKeys.key))
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(idempotencyKeys.scope, APPLY_PAYMENT_SCOPE), eq(idempotencyKeys.statusCode, 0)))
    .orderBy(asc(payments.createdAt));
}

/** One line per undo: since when, what, which WHMCS id, why, how often tried, when next, WHMCS's last word. */
export function formatPendingUndo(row: PendingUndo): string {
  const target = row.action === 'CancelOrder' ? `order ${row.whmcsId}` : `invoice ${row.whmcsId}`;
  return [
    row.createdAt.toISOString(), 'undo'.padEnd(7), row.action.padEnd(13), target.padEnd(16), row.reason.padEnd(13),
    `attempts ${row.attempts}`.padEnd(12), `next ${row.nextAttemptAt.toISOString()}`, row.lastError ? `last: ${row.lastError}` : '',
  ].join('  ').trimEnd();
}

/** One line per payment: since when, which invoice (and order), gateway, amount, and the start of the link id. */
export function formatUnappliedPayment(row: UnappliedPayment): string {
  return [
    row.since.toISOString(), 'payment'.padEnd(7), `invoice ${row.invoiceId}`.padEnd(14), (row.orderId === null ? row.invoiceKind : `order ${row.orderId}`).padEnd(14),
    row.gateway.padEnd(14), `${(row.amountCents / 100).toFixed(2)} ${row.currency}`.padStart(12), `payment ${shortPaymentId(row.paymentId)}`,
  ].join('  ');
}

function parseArgs(argv: string[]): { json: boolean } {
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else throw new ConfigError(`Unknown argument ${arg}; use --json or nothing.`);
  }
  return { json };
}

async function main(): Promise<void> {
  const { json } = parseArgs(process.argv.slice(2));
  await withConfiguredStore(async (db) => {
    const undos = await pendingWhmcsUndos(db);
    const unapplied = await unappliedWhmcsPayments(db);
    if (json) {
      console.log(JSON.stringify({ undos, payments: unapplied.map((row) => ({ ...row, paymentId: shortPaymentId(row.paymentId) })) }, null, 2));
      return;
    }
    if (undos.length === 0 && unapplied.length === 0) {
      console.log('Nothing unfinished in WHMCS.');
      return;
    }
    for (const row of undos) console.log(formatPendingUndo(row));
    for (const row of unapplied) console.log(formatUnappliedPayment(row));
    console.log(`${undos.length} undo${undos.length === 1 ? '' : 's'} and ${unapplied.length} payment${unapplied.length === 1 ? '' : 's'} not yet accepted by WHMCS (oldest first).`);
  });
}

runAsScript(import.meta.url, 'whmcs:unfinished', main);
