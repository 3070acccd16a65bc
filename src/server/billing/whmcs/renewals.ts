import { and, eq, ne } from 'drizzle-orm';
import { addCycle } from '../../../domain/billing-cycle';
import { isCurrency, type Currency } from '../../../domain/currency';
import { invoices } from '../../db/schema';
import { isRenewable, type BillingPort, type RenewalInvoice, type ServiceRecord } from '../port';
import { collection, text, toId, whmcsDay, WhmcsRefusal } from './client';
import type { WhmcsBillingContext } from './context';
import type { WhmcsInvoice, WhmcsInvoices } from './invoices';
import type { WhmcsServices } from './services';

type RenewalCalls = Pick<BillingPort, 'renewal' | 'dueRenewals'>;

/** GetInvoices page size, and the pages read at most: a client has a few unpaid invoices, and the calls stay bounded. */
const INVOICE_PAGE = 100;
const INVOICE_PAGES = 3;

/** An unpaid invoice as GetInvoices lists it: the due date orders them, the currency is only there (not in GetInvoice). */
interface ListedInvoice { id: number; dueDate: string; currency: string }

/** Why `npm run renewals:due` lists nothing itself over WHMCS: which invoice renews which service is known only invoice by invoice. */
const DUE_RENEWALS_IN_WHMCS = 'With BILLING=whmcs, WHMCS issues and lists the renewals: see Billing > Invoices (Unpaid, Overdue) and the services\' Next Due Date in WHMCS\'s admin area.';

/** Renewals over WHMCS: WHMCS issues the invoices, reminds and suspends; its unpaid renewal invoices are paid through the checkout. */
export function whmcsRenewals(context: WhmcsBillingContext, { getInvoice, syncInvoice }: WhmcsInvoices, services: Pick<WhmcsServices, 'calls' | 'mirrorService'>): RenewalCalls {
  const { whmcs, db } = context;

  /** The client's Unpaid invoices (overdue ones included), the oldest due first. */
  const unpaidInvoices = async (clientId: number): Promise<ListedInvoice[]> => {
    const listed: Record<string, unknown>[] = [];
    for (let page = 0; page < INVOICE_PAGES; page += 1) {
      const answer = await whmcs.read('GetInvoices', { userid: clientId, status: 'Unpaid', orderby: 'duedate', order: 'asc', limitstart: page * INVOICE_PAGE, limitnum: INVOICE_PAGE });
      const rows = collection(answer, 'invoices', 'invoice');
      listed.push(...rows);
      if (rows.length < INVOICE_PAGE || listed.length >= (toId(answer.totalresults) ?? 0)) break;
    }
    return listed.flatMap((row) => {
      const id = toId(row.id);
      const dueDate = whmcsDay(row.duedate);
      return id !== null && dueDate !== null ? [{ id, dueDate, currency: text(row.currencycode) }] : [];
    }).sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id - b.id);
  };

  /** Whether an unpaid invoice pays one more period of the service: a Hosting item for it, not an order's or an upsell's invoice. */
  const renewsService = async (listed: ListedInvoice, service: ServiceRecord): Promise<WhmcsInvoice | null> => {
    const [mirrored] = await db.select({ kind: invoices.kind, serviceId: invoices.serviceId }).from(invoices).where(eq(invoices.id, listed.id));
    if (mirrored && (mirrored.kind !== 'renewal' || mirrored.serviceId !== service.id)) return null;
    const found = await getInvoice(listed.id);
    const bills = found?.items.some((item) => item.type === 'Hosting' && item.relid === service.id);
    return found && found.status === 'Unpaid' && bills ? found : null;
  };

  /**
   * The invoice's mirror row (kind renewal, its period), so a payment link can point at it; its amount and period follow
   * WHMCS's while it is unpaid. A renewal WHMCS no longer holds open for the same period (an operator's reissue) gives
   * the period up to this one.
   */
  const mirrorRenewal = async (found: WhmcsInvoice, currency: Currency, service: ServiceRecord, periodStart: string, periodEnd: string, now: Date) => {
    if (!(await services.mirrorService(service))) throw new WhmcsRefusal('GetClientsProducts', `service ${service.id} cannot be mirrored`);
    const holders = await db.select({ id: invoices.id }).from(invoices)
      .where(and(eq(invoices.kind, 'renewal'), eq(invoices.serviceId, service.id), eq(invoices.periodStart, periodStart), ne(invoices.id, found.id)));
    for (const holder of holders) {
      const synced = await syncInvoice(holder.id);
      if (synced?.status === 'Cancelled' || synced?.status === 'Refunded') await db.update(invoices).set({ periodStart: null, periodEnd: null }).where(eq(invoices.id, holder.id));
    }
    await db.insert(invoices).values({
      id: found.id, clientId: service.clientId, kind: 'renewal', serviceId: service.id, status: 'Unpaid', currency, amountCents: found.balanceCents, periodStart, periodEnd, createdAt: now,
    }).onConflictDoUpdate({
      target: invoices.id, set: { currency, amountCents: found.balanceCents, periodStart, periodEnd }, where: and(eq(invoices.kind, 'renewal'), eq(invoices.status, 'Unpaid')),
    });
    const [row] = await db.select().from(invoices).where(eq(invoices.id, found.id));
    if (!row) throw new Error(`Invoice ${found.id} has no mirror row`);
    return row;
  };

  /** The oldest unpaid invoice that renews the service, mirrored; null when none is open. */
  const openRenewal = async (service: ServiceRecord, now: Date): Promise<RenewalInvoice | null> => {
    for (const listed of await unpaidInvoices(service.clientId)) {
      const found = await renewsService(listed, service);
      const periodStart = found?.dueDate ?? null;
      const periodEnd = periodStart && addCycle(periodStart, service.billingcycle);
      if (!found || !periodStart || !periodEnd) continue;
      if (!isCurrency(listed.currency)) throw new WhmcsRefusal('GetInvoices', `invoice ${found.id} is in ${listed.currency || 'no currency'}, not one the checkout takes`);
      const row = await mirrorRenewal(found, listed.currency, service, periodStart, periodEnd, now);
      // A payment recorded here and not yet applied in WHMCS keeps the mirror Paid: the invoice is not offered again.
      return { invoiceId: row.id, status: row.status, currency: row.currency, amountCents: row.amountCents, periodStart: row.periodStart ?? periodStart, periodEnd: row.periodEnd ?? periodEnd };
    }
    return null;
  };

  return {
    async renewal(serviceId, now) {
      const service = await services.calls.service(serviceId);
      if (!service) return null;
      // Only a renewable service's unpaid Hosting invoice renews it: a Pending one's is its order's first invoice.
      const open = isRenewable(service);
      // WHMCS issues the next invoice on its own schedule (its Invoice Generation setting): the day is not known here.
      return { service, invoice: open ? await openRenewal(service, now) : null, invoiceDate: null };
    },
    // Which invoice renews which service is known only invoice by invoice (GetInvoice's items): not a bounded number of calls.
    dueRenewals: () => Promise.reject(new Error(DUE_RENEWALS_IN_WHMCS)),
  };
}
