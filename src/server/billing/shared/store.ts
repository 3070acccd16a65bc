import type { Database } from '../../db/connect';

/** A transaction on the store, as Drizzle hands it to `db.transaction`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where a read or write runs: the store itself, or a transaction on it. */
export type Executor = Database | Transaction;
