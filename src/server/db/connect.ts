import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { projectRoot } from '../project-root';
import { secureDataDir } from './data-dir';
import * as schema from './schema';

/** The store, whichever engine runs it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Store {
  db: Database;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = join(projectRoot, 'src/server/db/migrations');

export type StoreOptions =
  | { engine: 'postgres'; databaseUrl: string }
  | { engine: 'pglite'; dataDir: string }
  /** An in-memory PGlite, optionally started from a dump (tests copy one migrated, seeded template). */
  | { engine: 'memory'; from?: Blob };

/** Opens the store and brings its schema up to date with the migrations. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.engine === 'postgres') {
    // Loaded only for PostgreSQL: the embedded store's start does not pay for the pg driver.
    const [{ default: pg }, { drizzle: drizzlePostgres }, { migrate: migratePostgres }] = await Promise.all([
      import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePostgres(pool, { schema });
    await migratePostgres(db, { migrationsFolder });
    return { db: db as unknown as Database, engine: 'postgres', close: () => pool.end() };
  }
  const dataDir = options.engine === 'pglite' ? options.dataDir : null;
  if (dataDir) secureDataDir(dataDir);
  const client = dataDir
    ? await PGlite.create({ dataDir })
    : await PGlite.create(options.engine === 'memory' && options.from ? { loadDataDir: options.from } : {});
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  if (dataDir) secureDataDir(dataDir);
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    async close() {
      await client.close();
      if (dataDir) secureDataDir(dataDir);
    },
  };
}

/** Dumps an in-memory PGlite store so tests can start copies of it. */
export async function dumpStore(store: Store): Promise<Blob> {
  const client = (store.db as unknown as { $client: PGlite }).$client;
  return client.dumpDataDir('none');
}
