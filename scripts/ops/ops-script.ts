/** What every operator listing shares: the store the environment names, and running as a script (tests import the listing's functions). */
import { pathToFileURL } from 'node:url';
import { readConfig, type ServerConfig } from '../../src/server/config';
import { openStore, type Database } from '../../src/server/db/connect';

/** Opens the store of this environment (DATABASE_URL, else DATA_DIR's embedded one), hands it and the configuration to `work`, closes it. */
export async function withConfiguredStore(work: (db: Database, config: ServerConfig) => Promise<void>): Promise<void> {
  const config = readConfig();
  const store = await openStore(config.databaseUrl ? { engine: 'postgres', databaseUrl: config.databaseUrl } : { engine: 'pglite', dataDir: config.dataDir });
  try {
    await work(store.db, config);
  } finally {
    await store.close();
  }
}

/** Runs `main` when `moduleUrl` is the file node was asked to run; a failure is one line on stderr and exit code 1. */
export function runAsScript(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().catch((error: unknown) => {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
