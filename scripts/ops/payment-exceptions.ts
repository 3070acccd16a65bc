/**
 * npm run payments:exceptions [-- --limit N] [-- --json]
 *
 * Lists the payment exceptions, newest first: payments a provider reported (verified webhooks) that the
 * checkout could not apply — invoice already paid, cancelled or refunded, link expired, another amount or
 * currency, unknown payment. Each needs the operator: refund it at the provider, or apply it by hand.
 *
 * Opens the store as the server does (DATABASE_URL, else the embedded store in DATA_DIR). The embedded
 * store is one process's at a time: stop the server first (or use the PostgreSQL store).
 */
import { desc } from 'drizzle-orm';
import { ConfigError } from '../../src/server/config';
import type { Database } from '../../src/server/db/connect';
import { runAsScript, withConfiguredStore } from './ops-script';
import { paymentExceptions } from '../../src/server/db/schema';

export type PaymentExceptionRow = typeof paymentExceptions.$inferSelect;

/** The newest `limit` exceptions, newest first. */
export async function newestPaymentExceptions(db: Database, limit: number): Promise<PaymentExceptionRow[]> {
  return db.select().from(paymentExceptions).orderBy(desc(paymentExceptions.receivedAt), desc(paymentExceptions.id)).limit(limit);
}

/** A payment-link id is a bearer token: only its start is shown, enough to find it in the payments table. */
export const shortPaymentId = (id: string | null) => (id === null ? '-' : id.length > 10 ? `${id.slice(0, 10)}…` : id);

/** One line per exception: when, why, which invoice, gateway and event, how much. */
export function formatPaymentException(row: PaymentExceptionRow): string {
  return [
    row.receivedAt.toISOString(),
    row.reason.padEnd(17),
    `invoice ${row.invoiceId ?? '-'}`.padEnd(14),
    row.gateway.padEnd(14),
    `${(row.amountCents / 100).toFixed(2)} ${row.currency}`.padStart(12),
    row.eventType.padEnd(17),
    `event ${row.eventId}`,
    `payment ${shortPaymentId(row.paymentId)}`,
  ].join('  ');
}

function parseArgs(argv: string[]): { limit: number; json: boolean } {
  let limit = 100;
  let json = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--json') json = true;
    else if (arg === '--limit' && /^\d+$/.test(argv[index + 1] ?? '') && Number(argv[index + 1]) > 0) limit = Number(argv[++index]);
    else throw new ConfigError(`Unknown argument ${arg}; use --limit N (default 100) or --json.`);
  }
  return { limit, json };
}

async function main(): Promise<void> {
  const { limit, json } = parseArgs(process.argv.slice(2));
  await withConfiguredStore(async (db) => {
    const rows = await newestPaymentExceptions(db, limit);
    if (json) {
      console.log(JSON.stringify(rows.map((row) => ({ ...row, paymentId: shortPaymentId(row.paymentId) })), null, 2));
      return;
    }
    if (rows.length === 0) {
      console.log('No payment exceptions.');
      return;
    }
    for (const row of rows) console.log(formatPaymentException(row));
    console.log(`${rows.length} payment exception${rows.length === 1 ? '' : 's'} (newest first${rows.length === limit ? `, the newest ${limit}: --limit N for more` : ''}).`);
  });
}

runAsScript(import.meta.url, 'payments:exceptions', main);
