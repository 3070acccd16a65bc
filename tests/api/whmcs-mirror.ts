/** The checkout's own tables as they stand beside a (fake) WHMCS: the mirrors of WHMCS's ids, and nothing of the local store's demo. */
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/connect';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { clients, invoices, orders, services } from '../../src/server/db/schema';
import { DEMO_RESELLER_CLIENT_GROUP, DEMO_RESELLER_GID, type WhmcsFake } from '../support/whmcs-fake';

/**
 * Empties the tables that mirror WHMCS (and what points at them). A test that inserts a client, order or
 * service of its own gets an id from 1,000,000 on, never one of WHMCS's.
 */
export async function clearLocalBilling(db: Database): Promise<void> {
  await db.execute(sql`truncate table clients, orders, services, invoices, payments, sessions, sign_in_tokens, mail_outbox, webhook_events, idempotency_keys, payment_exceptions restart identity cascade`);
  for (const table of ['clients', 'orders', 'services', 'invoices']) {
    await db.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), 1000000, false)`);
  }
}

/**
 * The mirror rows the checkout holds for WHMCS's demo accounts once it has seen them (as the local
 * template holds the demo accounts' rows): their clients, orders and services, with WHMCS's ids.
 */
export async function mirrorWhmcsDemo(db: Database, fake: WhmcsFake): Promise<void> {
  const demoEmails: string[] = Object.values(DEMO_ACCOUNTS).map((account) => account.email);
  const seeded = fake.state.clients.filter((client) => demoEmails.includes(client.email.toLowerCase()));
  for (const client of seeded) {
    await db.insert(clients).values({ id: client.id, email: client.email.toLowerCase(), reseller: client.groupid === DEMO_RESELLER_CLIENT_GROUP }).onConflictDoNothing();
    for (const service of fake.state.services.filter((row) => row.clientid === client.id)) {
      const group = fake.state.products.find((product) => product.pid === service.pid)?.gid === DEMO_RESELLER_GID ? 'reseller' : 'retail';
      await db.insert(orders).values({ id: service.orderid, clientId: client.id, kind: group, status: 'Active', ip: '192.0.2.1', country: 'MA', currency: 'EUR', amountCents: 0 }).onConflictDoNothing();
      await db.insert(services).values({
        id: service.id, clientId: client.id, orderId: service.orderid, pid: service.pid, billingcycle: service.billingcycle, status: 'Active', serverHostname: service.serverhostname,
      }).onConflictDoNothing();
      const order = fake.state.orders.find((row) => row.id === service.orderid);
      const invoice = fake.state.invoices.find((row) => row.id === order?.invoiceid);
      if (invoice) {
        await db.insert(invoices).values({
          id: invoice.id, clientId: client.id, kind: 'order', orderId: service.orderid, status: 'Paid', currency: 'EUR', amountCents: Math.round(Number(order?.amount ?? 0) * 100),
        }).onConflictDoNothing();
      }
    }
  }
}
