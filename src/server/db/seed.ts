import { count } from 'drizzle-orm';
import type { PricingTable } from '../../domain/pricing';
import { EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID } from '../../domain/constants';
import { encryptSecret, hashPassword, type ServerSecrets } from '../secrets';
import type { Database } from './connect';
import { clients, configOptions, currencies, invoices, orders, products, promotions, services } from './schema';

const NOT_SOLD = -1;
const cycles = (prices: Partial<Record<'monthly' | 'quarterly' | 'semiannually' | 'annually' | 'biennially' | 'triennially', number>>) => ({
  monthly: NOT_SOLD, quarterly: NOT_SOLD, semiannually: NOT_SOLD, annually: NOT_SOLD, biennially: NOT_SOLD, triennially: NOT_SOLD, ...prices,
});
const priced = (eur: Parameters<typeof cycles>[0], gbp: Parameters<typeof cycles>[0]): PricingTable => ({ EUR: cycles(eur), GBP: cycles(gbp) });

/** The demo accounts a newcomer can log in with (listed in the README). */
export const DEMO_ACCOUNTS = {
  client: { email: 'demo@tvcheckout.test', password: 'demo-password-1' },
  reseller: { email: 'reseller@tvcheckout.test', password: 'reseller-password-1' },
} as const;

/** The pid a new reseller's order adds: the reseller panel activation. */
export const NEW_RESELLER_PID = 13;

/**
 * Demo data: EUR is the default currency (rate 1), GBP at 0.85 EUR-to-GBP, a round demo figure, not a
 * live rate. Promotions' fixed amounts are kept in EUR and converted at this rate.
 */
export const DEMO_CURRENCIES = [
  { code: 'EUR', rate: 1, isDefault: true },
  { code: 'GBP', rate: 0.85, isDefault: false },
] as const;

/**
 * Fills an empty store with the demo catalogue, promotions and accounts; a filled store is left alone.
 * The currency rates are filled on their own when the store has none, so a store seeded before rates
 * existed gets them too.
 */
export async function seedDemo(db: Database, secrets: ServerSecrets, serverHostname: string): Promise<void> {
  const [rates] = await db.select({ total: count() }).from(currencies);
  if ((rates?.total ?? 0) === 0) await db.insert(currencies).values([...DEMO_CURRENCIES]).onConflictDoNothing();
  const [existing] = await db.select({ total: count() }).from(products);
  if ((existing?.total ?? 0) > 0) return;
  await db.transaction(async (tx) => {
    await tx.insert(configOptions).values([
      { id: EXTRA_CONNECTION_OPTION_ID, name: 'Extra connection', pricing: priced({ monthly: 4, quarterly: 11, semiannually: 20, annually: 36, biennially: 66, triennially: 90 }, { monthly: 3.5, quarterly: 9.5, semiannually: 17, annually: 31, biennially: 57, triennially: 78 }) },
      { id: PROXY_PROTECTION_OPTION_ID, name: 'Proxy protection', pricing: priced({ monthly: 2.5, quarterly: 7, semiannually: 13, annually: 24, biennially: 45, triennially: 63 }, { monthly: 2, quarterly: 6, semiannually: 11, annually: 20, biennially: 38, triennially: 54 }) },
    ]).onConflictDoNothing();
    const options = [EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID];
    await tx.insert(products).values([
      { pid: 1, group: 'retail', sortOrder: 1, name: '1 Month', description: 'Every channel and film, one month, one connection.', paytype: 'recurring', billingcycle: 'Monthly', pricing: priced({ monthly: 12.99 }, { monthly: 10.99 }), configOptionIds: options, usernameFieldId: 11, passwordFieldId: 12 },
      { pid: 2, group: 'retail', sortOrder: 2, name: '6 Months', description: 'Every channel and film for six months, billed once.', paytype: 'recurring', billingcycle: 'Semi-Annually', pricing: priced({ semiannually: 59.99 }, { semiannually: 49.99 }), configOptionIds: options, usernameFieldId: 11, passwordFieldId: 12 },
      { pid: 3, group: 'retail', sortOrder: 3, name: 'Lifetime', description: 'Pay once, watch for as long as the service runs.', paytype: 'onetime', billingcycle: 'One Time', pricing: priced({ monthly: 199 }, { monthly: 169 }), configOptionIds: options, usernameFieldId: 11, passwordFieldId: 12 },
      { pid: 10, group: 'reseller', sortOrder: 1, name: 'Reseller 50 credits', description: '50 credits to activate subscriptions for your customers.', paytype: 'onetime', billingcycle: 'One Time', pricing: priced({ monthly: 150 }, { monthly: 129 }), usernameFieldId: 21, passwordFieldId: 22 },
      { pid: 11, group: 'reseller', sortOrder: 2, name: 'Reseller 120 credits', description: '120 credits, the most chosen pack.', paytype: 'onetime', billingcycle: 'One Time', pricing: priced({ monthly: 300 }, { monthly: 259 }), usernameFieldId: 21, passwordFieldId: 22 },
      { pid: 12, group: 'reseller', sortOrder: 3, name: 'Reseller 300 credits', description: '300 credits for established resellers.', paytype: 'onetime', billingcycle: 'One Time', pricing: priced({ monthly: 650 }, { monthly: 559 }), usernameFieldId: 21, passwordFieldId: 22 },
      { pid: NEW_RESELLER_PID, group: 'reseller', sortOrder: 4, name: 'Reseller panel activation', description: 'Opens the reseller panel for a new reseller.', paytype: 'onetime', billingcycle: 'One Time', pricing: priced({ monthly: 49 }, { monthly: 42 }), usernameFieldId: 21, passwordFieldId: 22 },
    ]).onConflictDoNothing();
    await tx.insert(promotions).values([
      { code: 'WELCOME10', type: 'Percentage', value: 10, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00' },
      { code: 'SAVE5', type: 'Fixed Amount', value: 5, appliesto: '1,2,3', startdate: '2024-01-01', expirationdate: '2099-12-31' },
      { code: 'HALFYEAR20', type: 'Percentage', value: 20, appliesto: '2', startdate: '2024-01-01', expirationdate: '0000-00-00' },
      { code: 'EXPIRED15', type: 'Percentage', value: 15, appliesto: '1,2,3', startdate: '2020-01-01', expirationdate: '2020-12-31' },
      { code: 'FUTURE25', type: 'Percentage', value: 25, appliesto: '1,2,3', startdate: '2099-01-01', expirationdate: '0000-00-00' },
      { code: 'USEDUP50', type: 'Percentage', value: 50, appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 1, uses: 1 },
    ]).onConflictDoNothing();
    for (const [account, reseller, pid] of [[DEMO_ACCOUNTS.client, false, 1], [DEMO_ACCOUNTS.reseller, true, 11]] as const) {
      const [client] = await tx.insert(clients).values({ email: account.email, passwordHash: await hashPassword(account.password), reseller }).returning();
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
