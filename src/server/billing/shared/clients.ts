import { clients } from '../../db/schema';
import type { Client } from '../port';

/** A client as the port gives it, from its row in the store (the local billing's, or WHMCS's mirror). */
export const toClient = (row: typeof clients.$inferSelect): Client => ({
  id: row.id, email: row.email, passwordHash: row.passwordHash, reseller: row.reseller, emailVerified: row.emailVerifiedAt !== null,
});
