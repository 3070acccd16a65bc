import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { addDays } from '../../../domain/billing-cycle';
import { invoices, products, services } from '../../db/schema';
import { isRenewable, RENEWABLE_STATUSES, type BillingPort, type RenewalInvoice } from '../port';
import { readService, type LocalBillingContext } from './context';
import { renewalRound, type RenewalCatalogue } from './renewal-round';

type RenewalCalls = Required<Pick<BillingPort, 'renewal' | 'renewalRound' | 'dueRenewals'>>;

const renewalInvoice = (row: typeof invoices.$inferSelect): RenewalInvoice | null => (row.periodStart && row.periodEnd ? {
  invoiceId: row.id, status: row.status, currency: row.currency, amountCents: row.amountCents, periodStart: row.periodStart, periodEnd: row.periodEnd,
} : null);

/** Renewals on the local billing: due dates, renewal invoices, reminders, suspension and termination. */
export function localRenewals(context: LocalBillingContext, catalogue: RenewalCatalogue): RenewalCalls {
  const { db } = context;
  return {
    async renewal(serviceId) {
      const service = await readService(context, db, serviceId);
      if (!service) return null;
      const [open] = await db.select().from(invoices)
        .where(and(eq(invoices.serviceId, serviceId), eq(invoices.kind, 'renewal'), eq(invoices.status, 'Unpaid')))
        .orderBy(asc(invoices.periodStart)).limit(1);
      const invoice = open ? renewalInvoice(open) : null;
      // While none is open, the next is issued invoiceDays before the due date (by the round of that day).
      const invoiceDate = !invoice && isRenewable(service) && service.nextDueDate ? addDays(service.nextDueDate, -context.renewals.invoiceDays) : null;
      return { service, invoice, invoiceDate };
    },

    renewalRound: (now) => renewalRound(context, catalogue, now),

    async dueRenewals(until) {
      const rows = await db.select({ service: services, productName: products.name, invoice: invoices })
        .from(services)
        .innerJoin(products, eq(products.pid, services.pid))
        .leftJoin(invoices, and(eq(invoices.serviceId, services.id), eq(invoices.kind, 'renewal'), eq(invoices.periodStart, services.nextDueDate)))
        .where(and(inArray(services.status, [...RENEWABLE_STATUSES]), lt(services.nextDueDate, until)))
        .orderBy(asc(services.nextDueDate), asc(services.id));
      return rows.flatMap(({ service, productName, invoice }) => (service.nextDueDate ? [{
        serviceId: service.id, clientId: service.clientId, productName, billingcycle: service.billingcycle, status: service.status, nextDueDate: service.nextDueDate,
        invoiceId: invoice?.id ?? null, invoiceStatus: invoice?.status ?? null, amountCents: invoice?.amountCents ?? null, currency: invoice?.currency ?? null,
      }] : []));
    },
  };
}
