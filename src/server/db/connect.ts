import { readFileSync } from 'node:fs';
import { createRequire as requireFrom } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Pool, PoolClient } from 'pg';
import { ConfigError } from '../config';
import { createPrivateDir, secureDataDir } from './data-dir';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';
import { MIGRATIONS_FOLDER, startFromTemplate, STORE_TEMPLATES_ROOT } from './store-template';
import { inSpan } from '../tracing/span';

/** The store, whichever engine runs it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Store {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** Queries the store runs at once: PGlite one, PostgreSQL its pool's connections (the store gate's default scales with it). */
  connections: number;
  /** Runs `work` while no other instance on this store runs its own (start-up writes such as the demo seed). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Runs a trivial query; rejects when the store does not answer within timeoutMs. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = MIGRATIONS_FOLDER;

/** Each transaction of the store is a span of the request that runs it (its statements' values stay out of it). */
function traceTransactions(db: Database, engine: Store['engine']): Database {
  const transaction = db.transaction.bind(db);
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': 'transaction', 'checkout.store': engine };
  db.transaction = ((work, config) => inSpan('store transaction', attributes, () => transaction(work, config))) as Database['transaction'];
  return db;
}

/** Connections of the PostgreSQL pool. */
export const POSTGRES_POOL_SIZE = 10;

/** Every instance migrating one PostgreSQL database takes this advisory lock first, so they migrate one by one. */
const MIGRATION_LOCK_KEY = 7_265_812_011;
/** Likewise for the rows an instance writes as it starts (demo seed, catalogue). */
const STARTUP_LOCK_KEY = 7_265_812_012;

/** Runs `work` on a connection of its own holding a PostgreSQL advisory lock, released after. */
async function withAdvisoryLock<T>(client: PoolClient, key: number, work: () => Promise<T>): Promise<T> {
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    const result = await work();
    await client.query('SELECT pg_advisory_unlock($1)', [key]);
    client.release();
    return result;
  } catch (error) {
    // Destroyed rather than pooled: closing the session also frees the advisory lock.
    client.release(true);
    throw error;
  }
}

export type StoreOptions =
  | {
    engine: 'postgres';
    databaseUrl: string;
    /** How long a start waits for a PostgreSQL that does not answer yet (default 30 s). */
    waitMs?: number;
    warn?: (message: string) => void;
  }
  | {
    engine: 'pglite';
    dataDir: string;
    warn?: (message: string) => void;
    /** Where the built templates are (a new data directory starts as a copy of the current one); null: always initdb. */
    templates?: string | null;
    /** How often the store writes a checkpoint (PGLITE_CHECKPOINT_MS by default). */
    checkpointMs?: number;
  }
  /** An in-memory PGlite, optionally started from a dump (tests copy one migrated, seeded template). */
  | { engine: 'memory'; from?: Blob };

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED',
  // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down)
  '57P01', '57P02', '57P03',
]);
const CONNECTION_ERROR_MESSAGE = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|the database system is (starting up|shutting down)|store did not answer/i;

/**
 * Whether an error means the store cannot be reached right now (a lost or restarting PostgreSQL), as opposed
 * to a fault of the request or the code. Follows the chain of causes (Drizzle wraps the driver's error).
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && CONNECTION_ERROR_MESSAGE.test(message)) return true;
  }
  return false;
}

/** The server a connection string points at, without its password, for messages. */
function describeServer(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`The store did not answer within ${timeoutMs} ms.`)), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A connection of its own, once PostgreSQL answers; retried with back-off while it cannot be reached. */
async function connectWhenUp(pool: Pool, databaseUrl: string, waitMs: number, warn: (message: string) => void): Promise<PoolClient> {
  const deadline = Date.now() + waitMs;
  let delay = 100;
  let warned = false;
  for (;;) {
    try {
      return await pool.connect();
    } catch (error) {
      if (!isStoreUnavailable(error)) {
        throw new ConfigError(`${describeServer(databaseUrl)} refused the connection: ${(error as Error).message}.`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ConfigError(`${describeServer(databaseUrl)} did not answer within ${waitMs / 1000} s (${(error as Error).message}); start it, or set DATABASE_WAIT_MS to wait longer.`);
      }
      if (!warned) warn(`Waiting up to ${Math.ceil(left / 1000)} s for ${describeServer(databaseUrl)} (${(error as Error).message}).`);
      warned = true;
      await new Promise((done) => setTimeout(done, Math.min(delay, left)));
      delay = Math.min(delay * 2, 2_000);
    }
  }
}

async function openPostgres(databaseUrl: string, waitMs: number, warn: (message: string) => void): Promise<Store> {
  // Loaded only for PostgreSQL: the embedded store's start does not pay for the pg driver.
  const [{ default: pg }, { drizzle: drizzlePostgres }, { migrate: migratePostgres }] = await Promise.all([
    import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator'),
  ]);
  // A lost connection fails the request waiting for it (answered 503) instead of hanging it.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POSTGRES_POOL_SIZE, connectionTimeoutMillis: 5_000, keepAlive: true });
  // An idle connection dropped by a restarting PostgreSQL is reported here; unhandled, it would end the process.
  let lastPoolError = 0;
  const onConnectionLost = (error: Error) => {
    if (Date.now() - lastPoolError > 10_000) warn(`PostgreSQL connection lost (${error.message}); requests answer 503 until it is back.`);
    lastPoolError = Date.now();
  };
  pool.on('error', onConnectionLost);
  // A connection checked out between two queries (inside a transaction) reports its loss on itself, not the pool.
  pool.on('connect', (client) => client.on('error', onConnectionLost));
  try {
    const client = await connectWhenUp(pool, databaseUrl, waitMs, warn);
    // Instances starting together on one database migrate one after the other; the rest find it done.
    await withAdvisoryLock(client, MIGRATION_LOCK_KEY, () => migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder }));
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const db = drizzlePostgres(pool, { schema });
  return {
    db: traceTransactions(db as unknown as Database, 'postgres'),
    engine: 'postgres',
    connections: POSTGRES_POOL_SIZE,
    exclusive: async (work) => withAdvisoryLock(await pool.connect(), STARTUP_LOCK_KEY, work),
    ping: async (timeoutMs = 2_000) => {
      await withTimeout(pool.query('SELECT 1'), timeoutMs);
    },
    close: () => pool.end(),
  };
}

/**
 * Whether an embedded store has every migration of the journal applied, by the rule drizzle's migrator
 * applies them (each one newer than the newest applied): then opening skips the migrator's own statements.
 */
async function hasEveryMigration(client: PGlite): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const { rows } = await client.query<{ at: string | null }>('select max(created_at)::text as at from drizzle.__drizzle_migrations');
    return rows[0]?.at != null && Number(rows[0].at) >= newest;
  } catch {
    // No migrations table yet: a store made by initdb just now.
    return false;
  }
}

/**
 * PGlite's WebAssembly, its compile started, and its file bundle, read as the store starts opening: the
 * compile runs on V8's background threads while the rest of the server loads (PGlite would start it later).
 */
function preloadPglite(): { pgliteWasmModule: Promise<WebAssembly.Module>; fsBundle: Blob } {
  const dist = dirname(requireFrom(import.meta.url).resolve('@electric-sql/pglite'));
  return { pgliteWasmModule: WebAssembly.compile(readFileSync(join(dist, 'pglite.wasm'))), fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]) };
}

/**
 * PostgreSQL's buffer pool inside PGlite: 64 MB holds the whole demo store several times over, and PGlite's
 * default (128 MB) alone makes the process ~100 MB larger (VmRSS 313 -> 211 MB for an open store).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB'];

/**
 * PGlite is PostgreSQL in single-user mode: no checkpointer process, so no checkpoint every
 * checkpoint_timeout, only at close and when max_wal_size (1 GB) of WAL has piled up. After a kill -9 the
 * next start would replay everything written since. The store checkpoints itself this often instead.
 */
export const PGLITE_CHECKPOINT_MS = 5 * 60_000;

/** Opens the store and brings its schema up to date with the migrations. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.engine === 'postgres') {
    return openPostgres(options.databaseUrl, options.waitMs ?? 30_000, options.warn ?? console.warn);
  }
  const { pgliteWasmModule, fsBundle } = preloadPglite();
  pgliteWasmModule.catch(() => {});
  const embedded = options.engine === 'pglite' ? options : null;
  const dataDir = embedded?.dataDir ?? null;
  if (dataDir) createPrivateDir(dataDir);
  const lock = embedded ? await lockDataDir(embedded.dataDir, embedded.warn) : null;
  try {
    // A new data directory starts as a copy of the built, migrated template instead of running initdb.
    if (embedded && embedded.templates !== null) startFromTemplate(embedded.dataDir, embedded.warn ?? console.warn, embedded.templates ?? STORE_TEMPLATES_ROOT);
    const artifacts = { pgliteWasmModule: await pgliteWasmModule, fsBundle, startParams: PGLITE_START_PARAMS };
    const client = dataDir
      ? await PGlite.create({ dataDir, ...artifacts })
      : await PGlite.create(options.engine === 'memory' && options.from ? { loadDataDir: options.from, ...artifacts } : artifacts);
    const db = drizzlePglite(client, { schema });
    if (!await hasEveryMigration(client)) await migratePglite(db, { migrationsFolder });
    if (dataDir) secureDataDir(dataDir);
    // Queued behind any transaction in progress (PGlite runs one statement at a time); never holds the process open.
    const checkpoints = dataDir ? setInterval(() => void client.exec('CHECKPOINT').catch(() => {}), embedded?.checkpointMs ?? PGLITE_CHECKPOINT_MS) : null;
    checkpoints?.unref();
    return {
      db: traceTransactions(db as unknown as Database, 'pglite'),
      engine: 'pglite',
      connections: 1,
      // One process per PGlite store (the data directory is locked): nothing to serialise with.
      exclusive: (work) => work(),
      ping: async (timeoutMs = 2_000) => {
        await withTimeout(db.execute(sql`SELECT 1`), timeoutMs);
      },
      close: async () => {
        if (checkpoints) clearInterval(checkpoints);
        try {
          await client.close();
          if (dataDir) secureDataDir(dataDir);
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** Dumps an in-memory PGlite store so tests can start copies of it. */
export async function dumpStore(store: Store): Promise<Blob> {
  const client = (store.db as unknown as { $client: PGlite }).$client;
  return client.dumpDataDir('none');
}
