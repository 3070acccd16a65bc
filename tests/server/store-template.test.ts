/**
 * The embedded store's template (src/server/db/store-template.ts): a new data directory started from it has
 * the schema a store made by initdb and the migrations has, and gets the demo seed; a missing or stale
 * template falls back to initdb with a warning. Every store here is a real PGlite data directory.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS } from '../api/helper';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { readConfig } from '../../src/server/config';
import { openStore, type Store } from '../../src/server/db/connect';
import { makeStoreTemplate } from '../../src/server/db/store-template';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-store-template-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** What the store's schema is made of, as PostgreSQL lists it: columns, constraints, indexes, sequences, applied migrations. */
async function schemaListing(store: Store) {
  const rows = async (query: ReturnType<typeof sql>) => (await store.db.execute(query) as unknown as { rows: Record<string, unknown>[] }).rows;
  return {
    columns: await rows(sql`select table_schema, table_name, column_name, data_type, column_default, is_nullable, ordinal_position
      from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema') order by 1, 2, 7`),
    constraints: await rows(sql`select n.nspname, c.conrelid::regclass::text as table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname not in ('pg_catalog', 'information_schema') order by 1, 2, 3`),
    indexes: await rows(sql`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2, 3`),
    sequences: await rows(sql`select sequence_schema, sequence_name, data_type from information_schema.sequences order by 1, 2`),
    types: await rows(sql`select n.nspname, t.typname, t.typtype from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and t.typtype in ('e', 'd', 'c') and t.typrelid = 0 order by 1, 2`),
    migrations: await rows(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`),
  };
}

/** The cluster's identifier, which initdb draws at random: a copy of the template keeps the template's. */
async function systemIdentifier(store: Store): Promise<string> {
  const result = await store.db.execute(sql`select system_identifier::text as id from pg_control_system()`) as unknown as { rows: { id: string }[] };
  return result.rows[0]?.id ?? '';
}

async function rowCount(store: Store, table: string): Promise<number> {
  const result = await store.db.execute(sql.raw(`select count(*)::int as n from ${table}`)) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? -1;
}

/** Opens a data directory, reads what `read` wants and closes it, with the warnings it printed. */
async function withStore<T>(dataDir: string, templates: string | null, read: (store: Store) => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const store = await openStore({ engine: 'pglite', dataDir, templates, warn: (message) => warnings.push(message) });
  try {
    return { value: await read(store), warnings };
  } finally {
    await store.close();
  }
}

/** The demo server's start-up writes (secrets, catalogue, demo seed) on the store, as main.ts runs them. */
async function startDemo(store: Store, dataDir: string) {
  const config = readConfig({ ...TEST_SECRETS, DATA_DIR: dataDir, DIST_DIR: join(workDir, 'no-dist') });
  const app = await buildApp({ config, store, ports: portsFromEnvironment(config) });
  await app.close();
}

const templates = join(workDir, 'templates');
let reference: Awaited<ReturnType<typeof schemaListing>>;
let templateDir = '';
let templateId = '';

beforeAll(async () => {
  // The expected schema: a data directory made the way every store was before templates, initdb then the migrations.
  reference = (await withStore(join(workDir, 'reference'), null, schemaListing)).value;
  templateDir = (await makeStoreTemplate(async (dataDir) => {
    const store = await openStore({ engine: 'pglite', dataDir, templates: null });
    await store.close();
  }, templates)).dir;
  templateId = (await withStore(join(workDir, 'template-copy-probe'), templates, systemIdentifier)).value;
}, 180_000);

describe('a new data directory started from the store template', () => {
  it('is a copy of the template (no initdb) with the schema initdb and the migrations make', async () => {
    const dataDir = join(workDir, 'from-template');
    const { value, warnings } = await withStore(dataDir, templates, async (store) => ({ schema: await schemaListing(store), id: await systemIdentifier(store) }));
    expect(warnings).toEqual([]);
    expect(value.id).toBe(templateId);
    expect(value.schema.migrations.length).toBeGreaterThanOrEqual(9);
    expect(value.schema.columns.length).toBeGreaterThan(50);
    expect(value.schema).toEqual(reference);
  });

  it('holds no rows and no key file: what is per install is written at start', async () => {
    expect(readdirSync(templateDir)).not.toContain('secrets.json');
    expect(readdirSync(templateDir)).not.toContain('server.lock');
    const { value } = await withStore(join(workDir, 'empty-copy'), templates, async (store) => ({
      clients: await rowCount(store, 'clients'), products: await rowCount(store, 'products'), sessions: await rowCount(store, 'sessions'),
    }));
    expect(value).toEqual({ clients: 0, products: 0, sessions: 0 });
  });

  it('gets the demo seed at its first start, as a store made by initdb does', async () => {
    const seeded = async (dataDir: string, from: string | null) => (await withStore(dataDir, from, async (store) => {
      await startDemo(store, dataDir);
      const result = await store.db.execute(sql`select email, reseller from clients order by email`) as unknown as { rows: { email: string; reseller: boolean }[] };
      return { clients: result.rows, services: await rowCount(store, 'services'), invoices: await rowCount(store, 'invoices'), products: await rowCount(store, 'products') };
    })).value;
    const fromTemplate = await seeded(join(workDir, 'seeded-from-template'), templates);
    expect(fromTemplate.clients).toEqual([{ email: 'demo@tvcheckout.test', reseller: false }, { email: 'reseller@tvcheckout.test', reseller: true }]);
    expect(fromTemplate).toEqual(await seeded(join(workDir, 'seeded-by-initdb'), null));
  });

  it('falls back to initdb with a warning when there is no template', async () => {
    const missing = join(workDir, 'no-templates-here');
    const { value, warnings } = await withStore(join(workDir, 'without-template'), missing, async (store) => ({ schema: await schemaListing(store), id: await systemIdentifier(store) }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('No store template');
    expect(warnings[0]).toContain('initdb');
    expect(value.id).not.toBe(templateId);
    expect(value.schema).toEqual(reference);
  });

  it('falls back to initdb with a warning when the template was made for other migrations', async () => {
    const stale = join(workDir, 'stale-templates');
    mkdirSync(stale);
    // The same files under another key: what is left in build/ after a migration is added.
    cpSync(templateDir, join(stale, '0123456789abcdef'), { recursive: true });
    const { value, warnings } = await withStore(join(workDir, 'with-stale-template'), stale, async (store) => ({ schema: await schemaListing(store), id: await systemIdentifier(store) }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('made for other migrations');
    expect(value.id).not.toBe(templateId);
    expect(value.schema).toEqual(reference);
  });

  it('an existing store that lacks the newest migration gets it at its next open', async () => {
    const dataDir = join(workDir, 'one-migration-behind');
    // A store as 0010 left it: 0011 (flow traffic: four tables of daily counts) undone and its row gone.
    const flowColumns = (listing: typeof reference) => listing.columns.filter((column) => String(column.table_name).startsWith('flow_'));
    await withStore(dataDir, templates, async (store) => {
      await store.db.execute(sql`drop table flow_transitions, flow_states, flow_vitals, flow_funnel`);
      await store.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    });
    const { value } = await withStore(dataDir, templates, schemaListing);
    // 4 + 6 + 6 + 5 columns (flow_transitions, flow_states, flow_vitals, flow_funnel), re-made as the migration makes them.
    expect(flowColumns(value)).toHaveLength(21);
    expect(value).toEqual(reference);
  });

  it('is not copied over a data directory that holds a store already', async () => {
    const dataDir = join(workDir, 'from-template');
    const { value, warnings } = await withStore(dataDir, templates, async (store) => rowCount(store, 'clients'));
    expect(warnings).toEqual([]);
    // Reopened as it was: the earlier test left it without rows; a marker row proves no copy replaces it.
    expect(value).toBe(0);
    await withStore(dataDir, templates, (store) => store.db.execute(sql`insert into rate_counters (key, hits, reset_at) values ('marker', 1, now())`));
    expect((await withStore(dataDir, templates, (store) => rowCount(store, 'rate_counters'))).value).toBe(1);
  });
});
