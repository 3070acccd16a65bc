/**
 * The local billing's scheduled renewal work, as of a day. Each step finds what is due in one statement and
 * changes it with its notice in one transaction, guarded so that instances running it at once do it once: an
 * invoice by the unique index on (service, period start), a suspension or termination by an UPDATE conditional
 * on the status it changes, a notice by its outbox key.
 */
import { and, eq, inArray, isNull, lte, notExists, sql, type SQL } from 'drizzle-orm';
import { addCycle, addDays, BILLING_CYCLES, calendarDate, cycleMonths, dueDateSince } from '../../../domain/billing-cycle';
import { EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID } from '../../../domain/constants';
import { toCents } from '../../../domain/money';
import { quoteRenewal } from '../../../domain/pricing';
import { promotionAppliesTo, type Promotion } from '../../../domain/promotion';
import { clients, configOptions, invoices, mailOutbox, orders, products, promotions, services } from '../../db/schema';
import { enqueueMails, renewalNotice, type RenewalStage } from '../../mail/outbox';
import { RENEWABLE_STATUSES, type BillingPort, type RenewalRound } from '../port';
import { pricedPromotion } from '../promotions';
import type { Executor } from '../shared/store';
import type { LocalBillingContext } from './context';

/** The catalogue's reads a renewal is priced with (the store's currency rates, for a Fixed Amount promotion). */
export type RenewalCatalogue = Pick<BillingPort, 'currencies'>;

const RECURRING_CYCLES = BILLING_CYCLES.filter((cycle) => cycleMonths(cycle) !== null);
const renewable = () => inArray(services.status, [...RENEWABLE_STATUSES]);

/**
 * Active recurring services activated before renewals existed have no due date: they get their activation day (the
 * order invoice's payment, else the service's creation) plus whole cycles, the first not before today.
 */
async function dateUndatedServices({ db }: LocalBillingContext, today: string): Promise<void> {
  const undated = await db.select({ id: services.id, billingcycle: services.billingcycle, createdAt: services.createdAt, paidAt: invoices.paidAt })
    .from(services)
    .leftJoin(invoices, and(eq(invoices.orderId, services.orderId), eq(invoices.kind, 'order')))
    .where(and(eq(services.status, 'Active'), isNull(services.nextDueDate), inArray(services.billingcycle, RECURRING_CYCLES)));
  const dated = undated.flatMap((row) => {
    const due = dueDateSince(calendarDate(row.paidAt ?? row.createdAt), row.billingcycle, today);
    return due ? [sql`(${row.id}::int, ${due}::date)`] : [];
  });
  if (dated.length === 0) return;
  await db.execute(sql`update services set next_due_date = dated.due from (values ${sql.join(dated, sql`, `)}) as dated(id, due)
    where services.id = dated.id and services.next_due_date is null`);
}

/** The facts of the renewal notices of the invoices `where` selects, with their recipient and the order's locale. */
async function noticeFacts(executor: Executor, where: SQL | undefined) {
  const rows = await executor.select({
    invoiceId: invoices.id, serviceId: services.id, productName: products.name, billingcycle: services.billingcycle, amountCents: invoices.amountCents,
    currency: invoices.currency, dueDate: invoices.periodStart, periodEnd: invoices.periodEnd, to: clients.email, locale: orders.locale,
  })
    .from(invoices)
    .innerJoin(services, eq(services.id, invoices.serviceId))
    .innerJoin(orders, eq(orders.id, services.orderId))
    .innerJoin(products, eq(products.pid, services.pid))
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(and(eq(invoices.kind, 'renewal'), where));
  return rows.flatMap(({ dueDate, periodEnd, ...facts }) => (dueDate && periodEnd ? [{ ...facts, dueDate, periodEnd }] : []));
}

/** Queues the notices of a stage not queued before; answers how many were new. */
async function queueNotices(executor: Executor, facts: Awaited<ReturnType<typeof noticeFacts>>, stageOf: (row: (typeof facts)[number]) => RenewalStage): Promise<number> {
  const messages = facts.map((row) => renewalNotice(stageOf(row), row));
  if (messages.length === 0) return 0;
  // Read first, so a notice already queued costs no insert (nor an outbox id) at every round of its window.
  const queued = await executor.select({ key: mailOutbox.messageKey }).from(mailOutbox).where(inArray(mailOutbox.messageKey, messages.map((message) => message.key)));
  return enqueueMails(executor, messages.filter((message) => !queued.some((row) => row.key === message.key)));
}

/** The open renewal invoice of a service for its current due date, joined to the service. */
const unpaidForDueDate = and(eq(invoices.serviceId, services.id), eq(invoices.kind, 'renewal'), eq(invoices.status, 'Unpaid'), eq(invoices.periodStart, services.nextDueDate));

/** Unpaid `terminateDays` after the due date: the invoice is cancelled, the service terminated, with its notice. */
async function terminate({ db, renewals }: LocalBillingContext, today: string): Promise<number> {
  return db.transaction(async (tx) => {
    const cancelled = await tx.update(invoices).set({ status: 'Cancelled' }).from(services)
      .where(and(unpaidForDueDate, renewable(), lte(invoices.periodStart, addDays(today, -renewals.terminateDays))))
      .returning({ invoiceId: invoices.id, serviceId: services.id });
    if (cancelled.length === 0) return 0;
    await tx.update(services).set({ status: 'Terminated' }).where(and(inArray(services.id, cancelled.map((row) => row.serviceId)), renewable()));
    await queueNotices(tx, await noticeFacts(tx, inArray(invoices.id, cancelled.map((row) => row.invoiceId))), () => 'terminated');
    return cancelled.length;
  });
}

/** Unpaid `graceDays` after the due date: the service is suspended, with its notice. */
async function suspend({ db, renewals }: LocalBillingContext, today: string): Promise<number> {
  return db.transaction(async (tx) => {
    const suspended = await tx.update(services).set({ status: 'Suspended' }).from(invoices)
      .where(and(unpaidForDueDate, eq(services.status, 'Active'), lte(services.nextDueDate, addDays(today, -renewals.graceDays))))
      .returning({ invoiceId: invoices.id });
    if (suspended.length === 0) return 0;
    await queueNotices(tx, await noticeFacts(tx, inArray(invoices.id, suspended.map((row) => row.invoiceId))), () => 'suspended');
    return suspended.length;
  });
}

/** What prices the renewals of these orders: the add-on options and their promotions that recur, priced at the store's rates. */
async function renewalPricing({ db }: LocalBillingContext, catalogue: RenewalCatalogue, promocodes: string[]) {
  const [options, recurring] = await Promise.all([
    db.select().from(configOptions).where(inArray(configOptions.id, [EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID])),
    promocodes.length === 0 ? [] : db.select().from(promotions)
      .where(and(eq(promotions.recurring, true), inArray(sql`lower(${promotions.code})`, promocodes.map((code) => code.toLowerCase())))),
  ]);
  const priced = await Promise.all(recurring.map(async (row) => [row.code.toLowerCase(), await pricedPromotion(catalogue, row)] as const));
  const promotionsByCode = new Map<string, Promotion>(priced);
  const option = (id: number) => options.find((row) => row.id === id) ?? null;
  return {
    extraConnection: option(EXTRA_CONNECTION_OPTION_ID), proxyProtection: option(PROXY_PROTECTION_OPTION_ID),
    promotion: (code: string | null) => (code ? promotionsByCode.get(code.toLowerCase()) ?? null : null),
  };
}

/** `invoiceDays` before the due date: one renewal invoice for the next period, with its notice. */
async function issueInvoices(context: LocalBillingContext, catalogue: RenewalCatalogue, today: string, now: Date): Promise<number> {
  const { db, renewals } = context;
  const issuedBefore = db.select({ id: invoices.id }).from(invoices)
    .where(and(eq(invoices.serviceId, services.id), eq(invoices.kind, 'renewal'), eq(invoices.periodStart, services.nextDueDate)));
  const due = await db.select({
    id: services.id, clientId: services.clientId, pid: services.pid, billingcycle: services.billingcycle, extraConnections: services.extraConnections,
    proxyProtection: services.proxyProtection, nextDueDate: services.nextDueDate, currency: orders.currency, promocode: orders.promocode, pricing: products.pricing,
  })
    .from(services)
    .innerJoin(orders, eq(orders.id, services.orderId))
    .innerJoin(products, eq(products.pid, services.pid))
    .where(and(renewable(), lte(services.nextDueDate, addDays(today, renewals.invoiceDays)), notExists(issuedBefore)));
  if (due.length === 0) return 0;
  const pricing = await renewalPricing(context, catalogue, due.flatMap((service) => (service.promocode ? [service.promocode] : [])));
  const rows = due.flatMap((service) => {
    const periodStart = service.nextDueDate;
    const periodEnd = periodStart ? addCycle(periodStart, service.billingcycle) : null;
    const promotion = pricing.promotion(service.promocode);
    const amount = quoteRenewal({
      product: { pid: service.pid, billingcycle: service.billingcycle, pricing: service.pricing }, currency: service.currency,
      extraConnections: service.extraConnections, extraConnection: pricing.extraConnection, proxyProtection: service.proxyProtection ? pricing.proxyProtection : null,
      promotion: promotion && promotionAppliesTo(promotion, service.pid) ? promotion : null,
    });
    // A cycle the catalogue no longer sells in the order's currency is not invoiced (renewals:due lists it without one).
    if (amount === null || !periodStart || !periodEnd) return [];
    return [{
      clientId: service.clientId, kind: 'renewal' as const, serviceId: service.id, status: 'Unpaid' as const, currency: service.currency, amountCents: toCents(amount),
      createdAt: now, periodStart, periodEnd,
    }];
  });
  if (rows.length === 0) return 0;
  return db.transaction(async (tx) => {
    const issued = await tx.insert(invoices).values(rows).onConflictDoNothing().returning({ id: invoices.id });
    if (issued.length === 0) return 0;
    await queueNotices(tx, await noticeFacts(tx, inArray(invoices.id, issued.map((row) => row.id))), () => 'invoice');
    return issued.length;
  });
}

/** The day before the due date and from it until the service is suspended: the reminders of its open invoice. */
async function remind({ db }: LocalBillingContext, today: string): Promise<number> {
  const open = await noticeFacts(db, and(
    eq(invoices.status, 'Unpaid'), eq(services.status, 'Active'), eq(services.nextDueDate, invoices.periodStart), lte(invoices.periodStart, addDays(today, 1)),
  ));
  return queueNotices(db, open, (row) => (row.dueDate > today ? 'due-soon' : 'due'));
}

/** One round as of `now`: the furthest stage first, so a service long unpaid is terminated, not first suspended. */
export async function renewalRound(context: LocalBillingContext, catalogue: RenewalCatalogue, now: Date): Promise<RenewalRound> {
  const today = calendarDate(now);
  await dateUndatedServices(context, today);
  const terminated = await terminate(context, today);
  const suspended = await suspend(context, today);
  const invoiced = await issueInvoices(context, catalogue, today, now);
  const reminded = await remind(context, today);
  if (terminated + suspended + invoiced + reminded > 0) context.mailQueued?.();
  return { invoiced, reminded, suspended, terminated };
}
