/**
 * WHMCS's billing automation for renewals (README "Renewals", with its sources): the daily cron issues a renewal
 * invoice before a service's next due date and suspends a service overdue past the suspend days; a paid invoice
 * moves each of its services' next due date one cycle on and unsuspends a service the cron suspended.
 */
import type { InvoiceRow, ServiceRow } from './seed';
import type { FakeStore } from './store';
import { addDays, addMonths, CYCLE_MONTHS } from './values';

/** The reason the cron suspends with; only a service suspended for it is unsuspended by a payment. */
export const OVERDUE_ON_PAYMENT = 'Overdue on Payment';

/** One run of the cron, with the Automation Settings it reads. */
export interface CronRun {
  /** The day the cron runs (YYYY-MM-DD). */
  date: string;
  /** Invoice Generation: a renewal invoice is issued this many days before the next due date. */
  invoiceDays: number;
  /** Suspend Days (with Enable Suspension): a service this many days past its due date is suspended; left out, none is. */
  suspendDays?: number;
}

/** What a cron run did: the invoices it issued and the services it suspended. */
export interface CronReport {
  invoiced: number[];
  suspended: number[];
}

export function fakeRenewals(store: FakeStore, settings: { autoUnsuspend: boolean }) {
  const { state, nextId, currencyById, findClient, lastItemId, hostingDescription } = store;
  const recurring = (service: ServiceRow) => CYCLE_MONTHS[service.billingcycle] !== undefined;
  const invoicedFor = (service: ServiceRow, duedate: string) => state.invoices.some((invoice) =>
    invoice.status !== 'Cancelled' && invoice.duedate === duedate && invoice.items.some((item) => item.type === 'Hosting' && item.relid === service.id));

  const issueRenewal = (service: ServiceRow, date: string): number => {
    const id = nextId(state.invoices);
    state.invoices.push({
      id, userid: service.clientid, date, duedate: service.nextduedate, datepaid: '0000-00-00 00:00:00', status: 'Unpaid', paymentmethod: service.paymentmethod,
      currencyCode: currencyById(findClient(String(service.clientid))?.currency ?? 0)?.code ?? 'EUR', notes: '',
      items: [{ id: lastItemId() + 1, type: 'Hosting', relid: service.id, description: hostingDescription(service.pid, service.nextduedate, service.billingcycle), amount: service.recurringamount, taxed: 0 }],
    });
    return id;
  };

  const runCron = ({ date, invoiceDays, suspendDays }: CronRun): CronReport => {
    const report: CronReport = { invoiced: [], suspended: [] };
    for (const service of state.services) {
      if (service.status !== 'Active' || !recurring(service) || addDays(date, invoiceDays) < service.nextduedate) continue;
      // One invoice per service per due date.
      if (!invoicedFor(service, service.nextduedate)) report.invoiced.push(issueRenewal(service, date));
    }
    if (suspendDays === undefined) return report;
    for (const service of state.services) {
      // A paid renewal has moved the due date on: a due date this far behind the cron's day is unpaid.
      if (service.status !== 'Active' || !recurring(service) || addDays(service.nextduedate, suspendDays) > date) continue;
      service.status = 'Suspended';
      service.suspensionreason = OVERDUE_ON_PAYMENT;
      report.suspended.push(service.id);
    }
    return report;
  };

  /** An invoice just paid: each service it bills moves one cycle on from its current due date, whatever the payment's date. */
  const invoicePaid = (invoice: InvoiceRow) => {
    for (const item of invoice.items) {
      const service = item.type === 'Hosting' ? state.services.find((row) => row.id === item.relid) : undefined;
      const months = service ? CYCLE_MONTHS[service.billingcycle] : undefined;
      if (!service || months === undefined) continue;
      service.nextduedate = addMonths(service.nextduedate, months);
      if (settings.autoUnsuspend && service.status === 'Suspended' && service.suspensionreason === OVERDUE_ON_PAYMENT) {
        service.status = 'Active';
        service.suspensionreason = '';
      }
    }
  };

  return { runCron, invoicePaid };
}

export type FakeRenewals = ReturnType<typeof fakeRenewals>;
