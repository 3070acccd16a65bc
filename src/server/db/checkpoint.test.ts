import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openStore } from './connect';

const dir = mkdtempSync(join(tmpdir(), 'tvc-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const redo = async (store: Awaited<ReturnType<typeof openStore>>) => {
  const { rows } = await store.db.execute(sql`select redo_lsn::text as lsn from pg_control_checkpoint()`) as unknown as { rows: { lsn: string }[] };
  return rows[0]?.lsn;
};

it('the embedded store writes checkpoints while it runs (PGlite has no checkpointer), so a kill -9 leaves little to replay', async () => {
  const store = await openStore({ engine: 'pglite', dataDir: join(dir, 'data'), checkpointMs: 100, warn: () => {} });
  try {
    const before = await redo(store);
    await store.db.execute(sql`create table written (id int)`);
    await store.db.execute(sql`insert into written select generate_series(1, 1000)`);
    await expect.poll(() => redo(store), { timeout: 10_000, interval: 50 }).not.toBe(before);
  } finally {
    await store.close();
  }
}, 30_000);
