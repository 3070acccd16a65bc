import { buildApp } from './app';
import { readConfig } from './config';
import { openStore } from './db/connect';

const startedAt = performance.now();
const config = readConfig();
const store = await openStore(config.databaseUrl
  ? { engine: 'postgres', databaseUrl: config.databaseUrl }
  : { engine: 'pglite', dataDir: config.dataDir });
const app = await buildApp({ config, store, logger: true });
await app.listen({ port: config.port, host: config.host });
app.log.info(`TV Checkout on ${config.publicUrl}/checkout/ (${store.engine}${store.engine === 'pglite' ? ` in ${config.dataDir}` : ''}), ready in ${Math.round(performance.now() - startedAt)} ms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await store.close();
    process.exit(0);
  });
}
