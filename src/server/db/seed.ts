import { count, inArray, sql } from 'drizzle-orm';
import { encryptSecret, hashPassword, type ServerSecrets } from '../secrets';
import type { Database } from './connect';
import { clients, invoices, orders, services } from './schema';

/** The demo accounts a newcomer can log in with (listed in the README). */
export const DEMO_ACCOUNTS = {
  client: { email: 'demo@tvcheckout.test', password: 'demo-password-1' },
  reseller: { email: 'reseller@tvcheckout.test', password: 'reseller-password-1' },
} as const;

/** The pid a new reseller's order adds: the reseller panel activation. */
export const NEW_RESELLER_PID = 13;

/** The demo accounts' services are of these products (1 Month, Reseller 120 credits), which the demo catalogue file defines. */
export const DEMO_ACCOUNT_PIDS = [1, 11] as const;

/**
 * Gives a new demo store its demo accounts, each with a paid order and an active service. The catalogue comes
 * from the demo catalogue file (src/server/catalogue/demo.yaml), applied before; a store that has clients
 * already is left alone.
 */
export async function seedDemoAccounts(db: Database, secrets: ServerSecrets, serverHostname: string): Promise<void> {
  // The demo accounts' addresses count as verified (a password login needs that); so on stores seeded before the rule.
  const demoEmails = Object.values(DEMO_ACCOUNTS).map((account) => account.email);
  await db.update(clients).set({ emailVerifiedAt: sql`coalesce(${clients.emailVerifiedAt}, now())` }).where(inArray(clients.email, demoEmails));
  const [existing] = await db.select({ total: count() }).from(clients);
  if ((existing?.total ?? 0) > 0) return;
  await db.transaction(async (tx) => {
    for (const [account, reseller, pid] of [[DEMO_ACCOUNTS.client, false, DEMO_ACCOUNT_PIDS[0]], [DEMO_ACCOUNTS.reseller, true, DEMO_ACCOUNT_PIDS[1]]] as const) {
      const [client] = await tx.insert(clients).values({ email: account.email, passwordHash: await hashPassword(account.password), reseller, emailVerifiedAt: new Date() }).returning();
      if (!client) throw new Error('Demo client was not created');
      // A documentation address (RFC 5737): the demo orders must not count towards the order velocity of local visitors.
      const [order] = await tx.insert(orders).values({ clientId: client.id, kind: reseller ? 'reseller' : 'retail', status: 'Active', ip: '192.0.2.1', country: 'MA', currency: 'EUR', amountCents: reseller ? 30000 : 1299 }).returning();
      if (!order) throw new Error('Demo order was not created');
      await tx.insert(services).values({
        clientId: client.id, orderId: order.id, pid, billingcycle: reseller ? 'One Time' : 'Monthly', status: 'Active',
        username: reseller ? 'TV-20000001' : 'TV-10000001', passwordEncrypted: encryptSecret(secrets.encryptionKey, reseller ? '200000000001' : '100000000001'),
        serverHostname, macAddress: reseller ? '' : '00:1A:79:00:00:01',
      });
      await tx.insert(invoices).values({ clientId: client.id, kind: 'order', orderId: order.id, status: 'Paid', currency: 'EUR', amountCents: order.amountCents, paidAt: new Date() });
    }
  });
}
