import { and, asc, eq } from 'drizzle-orm';
import { addCycle, calendarDate } from '../../../domain/billing-cycle';
import { generateServicePassword, generateUsername } from '../../../domain/credentials';
import type { Clock } from '../../clock';
import type { RenewalsConfig } from '../../config';
import type { Database } from '../../db/connect';
import { invoices, orders, products, services } from '../../db/schema';
import { decryptSecret, encryptSecret } from '../../secrets';
import type { OrderRecord, ServiceRecord } from '../port';
import type { Executor } from '../shared/store';

/** What every module of the local billing shares: the store, the keys and settings it needs, the clock. */
export interface LocalBillingContext {
  db: Database;
  encryptionKey: Buffer;
  serverHostname: string;
  catalogueTtlMs: number;
  clock: Clock;
  /** When a service that falls due is invoiced, suspended and terminated (RENEWAL_*). */
  renewals: RenewalsConfig;
  /** Called once a transaction that may have queued mail has committed (the mail worker's nudge). */
  mailQueued?: () => void;
}

export const cents = (amountCents: number) => amountCents / 100;

export async function readOrder(executor: Executor, id: number): Promise<OrderRecord | null> {
  const [order] = await executor.select().from(orders).where(eq(orders.id, id));
  if (!order) return null;
  const [invoice] = await executor.select().from(invoices).where(and(eq(invoices.orderId, id), eq(invoices.kind, 'order')));
  const serviceRows = await executor.select({ id: services.id }).from(services).where(eq(services.orderId, id)).orderBy(asc(services.id));
  if (!invoice) throw new Error(`Order ${id} has no invoice`);
  return {
    id: order.id, clientId: order.clientId, kind: order.kind, status: order.status, fraud: order.fraud, currency: order.currency,
    amountCents: order.amountCents, invoiceId: invoice.id, invoiceStatus: invoice.status, serviceIds: serviceRows.map((row) => row.id),
  };
}

export async function readService(context: LocalBillingContext, executor: Executor, id: number): Promise<ServiceRecord | null> {
  const [row] = await executor.select({ service: services, productName: products.name, productGroup: products.group })
    .from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.id, id));
  if (!row) return null;
  const { passwordEncrypted, ...service } = row.service;
  return {
    id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, billingcycle: service.billingcycle, status: service.status,
    username: service.username, password: passwordEncrypted ? decryptSecret(context.encryptionKey, passwordEncrypted) : null,
    serverHostname: service.serverHostname, macAddress: service.macAddress, extraConnections: service.extraConnections, notes: service.notes,
    productName: row.productName, productGroup: row.productGroup, nextDueDate: service.nextDueDate,
  };
}

/** Credentials for a service that has none yet; the password is sealed before it is stored. */
export const newCredentials = (context: LocalBillingContext) => ({
  username: generateUsername(), passwordEncrypted: encryptSecret(context.encryptionKey, generateServicePassword()),
});

/** The due date of a service being activated: the one it has, else one cycle from today (none for One Time). */
export const dueDateAtActivation = (context: LocalBillingContext, service: { billingcycle: string; nextDueDate: string | null }): string | null =>
  service.nextDueDate ?? addCycle(calendarDate(context.clock.now()), service.billingcycle);
