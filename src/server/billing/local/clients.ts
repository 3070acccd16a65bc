import { eq } from 'drizzle-orm';
import { clients } from '../../db/schema';
import type { BillingPort } from '../port';
import { toClient } from '../shared/clients';
import type { LocalBillingContext } from './context';

type ClientCalls = Pick<BillingPort, 'clientByEmail' | 'clientById' | 'createClient' | 'guestClient'>;

/** Clients by e-mail (stored lower-case, trimmed): a guest's is created without a password. */
export function localClients({ db }: LocalBillingContext): ClientCalls {
  return {
    async clientByEmail(email) {
      const [row] = await db.select().from(clients).where(eq(clients.email, email.trim().toLowerCase()));
      return row ? toClient(row) : null;
    },

    async clientById(id) {
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      return row ? toClient(row) : null;
    },

    async createClient(input) {
      const [row] = await db.insert(clients).values({ email: input.email.trim().toLowerCase(), passwordHash: input.passwordHash, reseller: input.reseller })
        .onConflictDoNothing().returning();
      return row ? toClient(row) : null;
    },

    async guestClient(email) {
      const normalised = email.trim().toLowerCase();
      await db.insert(clients).values({ email: normalised }).onConflictDoNothing();
      const [row] = await db.select().from(clients).where(eq(clients.email, normalised));
      if (!row) throw new Error('Guest client was not created');
      return toClient(row);
    },
  };
}
