import { buildApp } from './app';
import { loadCatalogueFile } from './catalogue/load';
import { ConfigError, readConfig } from './config';
import { openStore } from './db/connect';
import { terminalLogStream } from './log';
import { portsFromEnvironment } from './ports';
import { refuseUnsafeConfig } from './production';

// Everything the server writes (data directory, generated keys) is readable by its own user only.
process.umask(0o077);

/** A configuration the server refuses ends the process with one line saying why. */
function refuse(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`TV Checkout refuses to start: ${error.message}`);
  process.exit(1);
}

const startedAt = performance.now();
const { config, catalogue } = (() => {
  try {
    const read = readConfig();
    // A named catalogue file is read and checked before anything else is refused or opened, so its fault is the line printed.
    const file = read.catalogueFile ? loadCatalogueFile(read.catalogueFile) : undefined;
    refuseUnsafeConfig(read);
    return { config: read, catalogue: file };
  } catch (error) {
    return refuse(error);
  }
})();
const warn = (message: string) => console.warn(`TV Checkout: ${message}`);
// Waits for PostgreSQL up to DATABASE_WAIT_MS; a data directory another server holds is refused.
const store = await openStore(config.databaseUrl
  ? { engine: 'postgres', databaseUrl: config.databaseUrl, waitMs: config.databaseWaitMs, warn }
  : { engine: 'pglite', dataDir: config.dataDir, warn }).catch(refuse);
// Readable lines at a terminal, JSON lines everywhere else (and always in production).
const prettyLog = await terminalLogStream({ mode: config.mode });
const app = await buildApp({ config, store, catalogue, logger: prettyLog ? { stream: prettyLog } : true, ...portsFromEnvironment(config) }).catch(async (error: unknown) => {
  await store.close();
  return refuse(error);
});
await app.listen({ port: config.port, host: config.host });
app.log.info(`TV Checkout (${config.mode}) on ${config.publicUrl}/checkout/ (${store.engine}${store.engine === 'pglite' ? ` in ${config.dataDir}` : ''}), ready in ${Math.round(performance.now() - startedAt)} ms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await store.close();
    process.exit(0);
  });
}
