import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Currency } from '../../../domain/currency';
import { clients } from '../../db/schema';
import type { BillingPort, Client } from '../port';
import { toClient } from '../shared/clients';
import type { WhmcsCatalogue } from './catalogue';
import { collection, requireId, text, toId, WhmcsRefusal } from './client';
import type { WhmcsBillingContext } from './context';

type ClientCalls = Pick<BillingPort, 'clientByEmail' | 'clientById' | 'validateLogin' | 'createClient' | 'guestClient'>;

/** Clients are WHMCS's; the mirror row keeps what the checkout adds (a password set here, the address proved). */
export function whmcsClients(context: WhmcsBillingContext, catalogue: Pick<WhmcsCatalogue, 'currencyId'>): ClientCalls {
  const { whmcs, db, config } = context;

  const mirrorClient = async (id: number, email: string, reseller: boolean | null) => {
    await db.insert(clients).values({ id, email: email.trim().toLowerCase(), reseller: reseller ?? false }).onConflictDoNothing();
    if (reseller) await db.update(clients).set({ reseller: true }).where(eq(clients.id, id));
    const [row] = await db.select().from(clients).where(eq(clients.id, id));
    return row ? toClient(row) : null;
  };

  /** The WHMCS client with exactly this address: GetClients searches by prefix with _ and % as wildcards, so the hits are filtered. */
  const findWhmcsClient = async (email: string) => {
    const wanted = email.trim().toLowerCase();
    const answer = await whmcs.read('GetClients', { search: wanted, limitnum: 100 });
    const hit = collection(answer, 'clients', 'client').find((row) => text(row.email).trim().toLowerCase() === wanted);
    if (!hit) return null;
    return { id: requireId(hit.id, 'GetClients', 'id'), email: wanted, reseller: toId(hit.groupid) === config.resellerClientGroup };
  };

  const addClient = async (email: string, currency: Currency | undefined) => {
    const currencyId = currency ? await catalogue.currencyId(currency) : undefined;
    try {
      const answer = await whmcs.write('AddClient', {
        // WHMCS bills a client in one currency, set when it is added (the shopper's country's).
        currency: currencyId,
        firstname: 'TV Checkout', lastname: 'Client', email: email.trim().toLowerCase(), skipvalidation: true, noemail: true,
        // The shopper never uses this password: the checkout signs its own clients in.
        password2: randomBytes(24).toString('base64url'),
      });
      return requireId(answer.clientid, 'AddClient', 'clientid');
    } catch (error) {
      if (error instanceof WhmcsRefusal && /already exists/i.test(error.whmcsMessage)) return null;
      throw error;
    }
  };

  const clientByEmail = async (email: string): Promise<Client | null> => {
    const found = await findWhmcsClient(email);
    return found ? mirrorClient(found.id, found.email, found.reseller) : null;
  };

  return {
    clientByEmail,

    async clientById(id) {
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      if (row && !row.email.endsWith('@invalid')) return toClient(row);
      try {
        const answer = await whmcs.read('GetClientsDetails', { clientid: id });
        const details = (answer.client && typeof answer.client === 'object' ? answer.client : answer) as Record<string, unknown>;
        const email = text(details.email);
        if (!email) return null;
        if (row) await db.update(clients).set({ email: email.toLowerCase() }).where(eq(clients.id, id));
        return mirrorClient(id, email, toId(details.groupid) === config.resellerClientGroup);
      } catch (error) {
        if (error instanceof WhmcsRefusal && /not found/i.test(error.whmcsMessage)) return null;
        throw error;
      }
    },

    async validateLogin(email, password) {
      try {
        // Its userid is a USER's id (8.x): the e-mail already named the client.
        const answer = await whmcs.read('ValidateLogin', { email: email.trim().toLowerCase(), password2: password });
        return toId(answer.userid) !== null;
      } catch (error) {
        if (error instanceof WhmcsRefusal && /invalid/i.test(error.whmcsMessage)) return false;
        throw error;
      }
    },

    async createClient(input) {
      if (await findWhmcsClient(input.email)) return null;
      const id = await addClient(input.email, input.currency);
      if (id === null) return null;
      await db.insert(clients).values({ id, email: input.email.trim().toLowerCase(), passwordHash: input.passwordHash, reseller: input.reseller }).onConflictDoNothing();
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      return row ? toClient(row) : null;
    },

    async guestClient(email, currency) {
      const found = await clientByEmail(email);
      if (found) return found;
      const id = await addClient(email, currency);
      // Added by a concurrent request since the search: that one is the client.
      const client = id === null ? await clientByEmail(email) : await mirrorClient(id, email, false);
      if (!client) throw new Error('Guest client was not created');
      return client;
    },
  };
}
