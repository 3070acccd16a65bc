import { and, asc, eq } from 'drizzle-orm';
import { generateServicePassword, generateUsername } from '../../../domain/credentials';
import type { Clock } from '../../clock';
import type { Database } from '../../db/connect';
import { idempotencyKeys, invoices, orders, products, services } from '../../db/schema';
import { conflict } from '../../http-error';
import { decryptSecret, encryptSecret } from '../../secrets';
import type { IdempotencyClaim, OrderRecord, ServiceRecord, StoredAnswer } from '../port';
import type { Executor, Transaction } from '../shared/store';

/** What every module of the local billing shares: the store, the keys and settings it needs, the clock. */
export interface LocalBillingContext {
  db: Database;
  encryptionKey: Buffer;
  serverHostname: string;
  catalogueTtlMs: number;
  clock: Clock;
  /** Called once a transaction that may have queued mail has committed (the mail worker's nudge). */
  mailQueued?: () => void;
}

export const cents = (amountCents: number) => amountCents / 100;

/** A replayed answer queued nothing; a fresh one may have. */
export const afterMail = (context: LocalBillingContext) => <T extends { replayed: boolean }>(answer: T): T => {
  if (!answer.replayed) context.mailQueued?.();
  return answer;
};

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
    productName: row.productName, productGroup: row.productGroup,
  };
}

/** Credentials for a service that has none yet; the password is sealed before it is stored. */
export const newCredentials = (context: LocalBillingContext) => ({
  username: generateUsername(), passwordEncrypted: encryptSecret(context.encryptionKey, generateServicePassword()),
});

/**
 * Runs `work` once per idempotency key: the first answer is stored in the same transaction and replayed
 * to every retry with the same body; concurrent retries wait on the key's row lock. A failed attempt
 * (an HttpError thrown by `work`) rolls back and stores nothing.
 */
export async function idempotent<T>(db: Database, claim: IdempotencyClaim | null, work: (tx: Transaction) => Promise<T>): Promise<StoredAnswer<T>> {
  return db.transaction(async (tx) => {
    if (claim) {
      const inserted = await tx.insert(idempotencyKeys)
        .values({ scope: claim.scope, key: claim.key, requestHash: claim.requestHash, statusCode: 0, response: {} })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length === 0) {
        const [stored] = await tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
        if (!stored || stored.requestHash !== claim.requestHash) {
          throw conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
        }
        return { statusCode: stored.statusCode, body: stored.response as T, replayed: true };
      }
    }
    const body = await work(tx);
    if (claim) {
      await tx.update(idempotencyKeys).set({ statusCode: 200, response: body as object })
        .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
    }
    return { statusCode: 200, body, replayed: false };
  });
}
