/**
 * npm run renewals:due [-- --days N] [-- --json]
 *
 * Lists the services falling due within N days (default RENEWAL_INVOICE_DAYS), soonest first, with their renewal
 * invoice: the service, its client's id (never an e-mail address), the plan and cycle, its status and due date, and
 * the invoice's id, status and amount (or that none is issued yet). It asks the billing port, as the server does:
 * the local billing lists its own renewals; with BILLING=whmcs the adapter answers where WHMCS lists them (WHMCS
 * issues, reminds and suspends by itself).
 *
 * Opens the store as the server does (DATABASE_URL, else the embedded store in DATA_DIR). The embedded
 * store is one process's at a time: stop the server first (or use the PostgreSQL store).
 */
import { addDays, calendarDate } from '../../src/domain/billing-cycle';
import type { DueRenewal } from '../../src/server/billing/port';
import { systemClock } from '../../src/server/clock';
import { ConfigError } from '../../src/server/config';
import { portsFromEnvironment } from '../../src/server/ports';
import { loadSecrets } from '../../src/server/secrets';
import { runAsScript, withConfiguredStore } from './ops-script';

/** One line per service: due date, service, client, plan and cycle, status, and its invoice or that none is issued yet. */
export function formatDueRenewal(row: DueRenewal): string {
  const invoice = row.invoiceId === null
    ? 'no invoice yet'
    : `invoice ${row.invoiceId} ${row.invoiceStatus ?? ''} ${row.amountCents === null ? '' : `${(row.amountCents / 100).toFixed(2)} ${row.currency ?? ''}`}`.trim();
  return [
    row.nextDueDate, `service ${row.serviceId}`.padEnd(14), `client ${row.clientId}`.padEnd(13), `${row.productName} (${row.billingcycle})`.padEnd(28),
    row.status.padEnd(10), invoice,
  ].join('  ');
}

function parseArgs(argv: string[], defaultDays: number): { days: number; json: boolean } {
  let days = defaultDays;
  let json = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--json') json = true;
    else if (arg === '--days' && /^\d+$/.test(argv[index + 1] ?? '')) days = Number(argv[(index += 1)]);
    else throw new ConfigError(`Unknown argument ${arg}; use --days N (a whole number of days), --json, or nothing.`);
  }
  return { days, json };
}

async function main(): Promise<void> {
  await withConfiguredStore(async (db, config) => {
    const { days, json } = parseArgs(process.argv.slice(2), config.renewals.invoiceDays);
    const billing = portsFromEnvironment(config).billing({ config, db, secrets: await loadSecrets(config, db), clock: systemClock, mailQueued: () => {} });
    try {
      const today = calendarDate(systemClock.now());
      // Due within N days: on a day before today + N + 1.
      const due = await billing.dueRenewals(addDays(today, days + 1));
      if (json) {
        console.log(JSON.stringify({ today, days, services: due }, null, 2));
        return;
      }
      for (const row of due) console.log(formatDueRenewal(row));
      console.log(`${due.length} service${due.length === 1 ? '' : 's'} falling due by ${addDays(today, days)} (within ${days} day${days === 1 ? '' : 's'}).`);
    } finally {
      await billing.close?.();
    }
  });
}

runAsScript(import.meta.url, 'renewals:due', main);
