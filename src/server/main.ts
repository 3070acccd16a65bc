import { ConfigError, readConfig } from './config';
import { openStore } from './db/connect';
import { watchProcessFaults } from './process-faults';
import { startTracing } from './tracing/start';

// First: an unhandled rejection is logged and counted (the server keeps serving); an uncaught exception ends it (code 1).
const faults = watchProcessFaults();

// Everything the server writes (data directory, generated keys) is readable by its own user only.
process.umask(0o077);

/** A configuration the server refuses ends the process with one line saying why. */
function refuse(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`TV Checkout refuses to start: ${error.message}`);
  process.exit(1);
}

const startedAt = performance.now();
/** The rest of the server, evaluated (imported) while the store opens: PGlite waits for its files meanwhile. */
const loadServer = () => Promise.all([import('./app'), import('./catalogue/load'), import('./production'), import('./merchant'), import('./log'), import('./ports'), import('./shutdown'), import('fastify'), import('./ops/listener'),
  // prom-client takes a tenth of a second to load: with an operator listener (the demo opens one by default) it loads here too, not after the store.
  demoOps || config.ops.port !== null ? import('./ops/registry') : null]);
const config = (() => {
  try {
    return readConfig();
  } catch (error) {
    return refuse(error);
  }
})();
// The demo opens the operator listener on loopback even without OPS_PORT, so `npm run studio` has a source (OPS_PORT=off: none); production has no default.
const demoOps = config.mode === 'demo' && config.ops.port === null && process.env.OPS_PORT !== 'off';
/** The catalogue file and the checks of a configuration the server refuses, before the store is opened: every problem in one refusal. */
const checkConfig = async (server: Awaited<ReturnType<typeof loadServer>>) => {
  const [, { loadCatalogueFile }, { unsafeConfigProblems, refusal }, { merchantProblems }] = server;
  const problems: string[] = [];
  let file;
  try {
    file = config.catalogueFile ? loadCatalogueFile(config.catalogueFile) : undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message);
  }
  problems.push(...unsafeConfigProblems(config));
  // Production's file must say who sells (the app checks again).
  if (file) problems.push(...merchantProblems(config.mode, file));
  if (problems.length) return refuse(refusal(problems));
  return file;
};
// Before any server module loads: the instrumentations patch node:http and hook Fastify as those are first required.
const tracing = await startTracing(process.env, config.port);
// Production and a named catalogue file have something to refuse: checked first. The demo with its own catalogue has not.
const checkedFirst = config.mode === 'production' || config.catalogueFile ? await loadServer() : null;
const namedCatalogue = checkedFirst ? await checkConfig(checkedFirst) : undefined;
const warn = (message: string) => console.warn(`TV Checkout: ${message}`);
// Waits for PostgreSQL up to DATABASE_WAIT_MS; a data directory another server holds is refused.
const opening = openStore(config.databaseUrl
  ? { engine: 'postgres', databaseUrl: config.databaseUrl, waitMs: config.databaseWaitMs, warn }
  : { engine: 'pglite', dataDir: config.dataDir, warn });
opening.catch(() => {});
const server = checkedFirst ?? await loadServer();
const [{ checkoutApp, serverOptions }, { catalogueForStart }, , , { terminalLogStream }, { portsFromEnvironment }, { stopOnSignals }, { default: Fastify }, { startOpsListener, DEMO_OPS_PORT }] = server;
// The demo's own catalogue is read while the store opens (a fault in it is the build's, not the operator's).
const catalogue = namedCatalogue ?? (() => {
  try {
    return catalogueForStart(config);
  } catch (error) {
    return refuse(error);
  }
})();
const store = await opening.catch(refuse);
// Readable lines at a terminal, JSON lines everywhere else (and always in production).
const prettyLog = await terminalLogStream({ mode: config.mode });
const app = Fastify(serverOptions(config, prettyLog ? { stream: prettyLog } : true));
const opsConfig: typeof config.ops = demoOps ? { port: DEMO_OPS_PORT, host: '127.0.0.1', token: null } : config.ops;
try {
  await app.register(checkoutApp, { config: { ...config, ops: opsConfig }, store, catalogue, ports: portsFromEnvironment(config) });
} catch (error) {
  await store.close();
  refuse(error);
}
faults.useLog(app.log);
// The operator listener (OPS_PORT), apart from the shop's port; it closes with the app.
const ops = opsConfig.port === null || !app.metrics ? null : await startOpsListener({ ...opsConfig, port: opsConfig.port }, app.metrics.registry, app.log, app.flowStats).catch(async (error: unknown) => {
  // The demo's own port taken (another demo, say): the shop starts without it.
  if (demoOps) {
    app.log.warn({ err: error }, `operator listener not opened: 127.0.0.1:${DEMO_OPS_PORT} is not free (set OPS_PORT for another port)`);
    return null;
  }
  await app.close();
  await store.close();
  throw error;
});
if (ops) app.addHook('onClose', () => ops.close());
// SIGTERM and SIGINT drain and stop cleanly from here on (before it, the default: the process ends at once).
stopOnSignals({ app, closeStore: async () => { await store.close(); await tracing?.shutdown(); }, deadlineMs: config.shutdownDeadlineMs });
await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
  // A port in use, say: the store is closed (its lock released) before the fault ends the process.
  await app.close();
  await store.close();
  throw error;
});
if (ops) app.log.info(`operator listener on http://${opsConfig.host.includes(':') ? `[${opsConfig.host}]` : opsConfig.host}:${ops.address.port}/metrics`);
app.log.info(`TV Checkout (${config.mode}) on ${config.publicUrl}/checkout/ (${store.engine}${store.engine === 'pglite' ? ` in ${config.dataDir}` : ''}), ready in ${Math.round(performance.now() - startedAt)} ms`);
