import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { openStore, type Store } from '../../src/server/db/connect';
import { DEMO_SECRETS_FILE, decryptSecret, encryptSecret, loadSecrets } from '../../src/server/secrets';
import { rows } from './helper';

/** Every path under a folder with its permission bits. */
function modes(dir: string): { path: string; mode: number; folder: boolean }[] {
  const found = [{ path: dir, mode: statSync(dir).mode & 0o777, folder: true }];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push({ path, mode: statSync(path).mode & 0o777, folder: entry.isDirectory() });
  }
  return found;
}

// The embedded store's own files; the PostgreSQL pass of .ci/run has no data directory to check.
describe.skipIf(Boolean(process.env.DATABASE_URL))('the embedded store\'s data directory and the demo keys', () => {
  const root = mkdtempSync(join(tmpdir(), 'tvc-data-dir-'));
  const dataDir = join(root, 'data');
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ engine: 'pglite', dataDir });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is created 0700 with every file in it 0600, and stays so after a close', async () => {
    const opened = modes(dataDir);
    expect(opened.length).toBeGreaterThan(100);
    expect(opened.filter((entry) => entry.mode !== (entry.folder ? 0o700 : 0o600))).toEqual([]);
    await store.db.execute(sql`create table written_after_open (x int)`);
    await store.close();
    expect(modes(dataDir).filter((entry) => entry.mode !== (entry.folder ? 0o700 : 0o600))).toEqual([]);
    store = await openStore({ engine: 'pglite', dataDir });
  }, 60_000);

  it('the demo generates its keys once into DATA_DIR/secrets.json (0600), never into the store, and keeps them', async () => {
    const config = readConfig({ DATA_DIR: dataDir });
    const first = await loadSecrets(config, store.db);
    const file = join(dataDir, DEMO_SECRETS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8'))).sort()).toEqual(['ENCRYPTION_KEY', 'SESSION_SECRET', 'WEBHOOK_SECRET_SANDBOX', 'WEBHOOK_SECRET_SANDBOXCRYPTO']);
    expect(await rows(store.db, sql`select * from secrets`)).toEqual([]);
    const again = await loadSecrets(config, store.db);
    expect(again.session).toBe(first.session);
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(again.webhook('sandbox')).toBe(first.webhook('sandbox'));
  });

  it('keys an older store kept in its table move to the file, so passwords sealed with them still open', async () => {
    rmSync(join(dataDir, DEMO_SECRETS_FILE));
    const oldKey = Buffer.alloc(32, 9);
    const sealed = encryptSecret(oldKey, '123456789012');
    await store.db.execute(sql`insert into secrets (name, value) values ('session', 'old-session'), ('encryption', ${oldKey.toString('base64url')}), ('webhook:sandbox', 'old-webhook')`);
    const moved = await loadSecrets(readConfig({ DATA_DIR: dataDir }), store.db);
    expect(decryptSecret(moved.encryptionKey, sealed)).toBe('123456789012');
    expect(moved.session).toBe('old-session');
    expect(moved.webhook('sandbox')).toBe('old-webhook');
    expect(await rows(store.db, sql`select * from secrets`)).toEqual([]);
    expect(existsSync(join(dataDir, DEMO_SECRETS_FILE))).toBe(true);
  });

  it('production takes keys from the environment only: the missing ones are listed, and none is written', async () => {
    const productionDir = join(root, 'production');
    const config = readConfig({ NODE_ENV: 'production', DATA_DIR: productionDir, GATEWAYS: 'sandbox', SESSION_SECRET: 's3cret' });
    await expect(loadSecrets(config, store.db)).rejects.toThrow('Missing secrets: ENCRYPTION_KEY, WEBHOOK_SECRET_SANDBOX (set each, or <NAME>_FILE naming a file that holds it).');
    expect(existsSync(join(productionDir, DEMO_SECRETS_FILE))).toBe(false);
  });
});
