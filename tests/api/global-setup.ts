import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildIfStale } from '../../scripts/lib/build-if-stale';
import { buildApp } from '../../src/server/app';
import { portsFromEnvironment } from '../../src/server/ports';
import { readConfig } from '../../src/server/config';
import { TEST_SECRETS } from './helper';
import { dumpStore, openStore } from '../../src/server/db/connect';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated, seeded in-memory PGlite store; null when the suite runs on PostgreSQL (DATABASE_URL). */
    storeTemplate: string | null;
    /** A stand-in for the built SPA (index.html and one asset), so the history fallback is checked on a real file. */
    distDir: string;
    /** Names this run's PostgreSQL databases (tvc_test_<runId>_…), so the teardown drops only its own leftovers. */
    runId: string;
  }
}

/** The SPA page the fake dist serves; tests recognise the history fallback by this title. */
export const TEST_SPA_TITLE = 'TV Checkout (test build)';

/**
 * Builds the store every API test file starts from, once: a copy of the built store template (initdb and
 * migrations, made by build:server) seeded, then dumped; loading the dump takes well under a second.
 * On PostgreSQL each file creates its own database instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The SPA and its render bundle (dist/, dist/ssr) for the files that serve real pages, built here once: two files building it at once would each read the other's half-written build.
  buildIfStale({ only: ['SPA'], prefix: '[api tests] ' });
  const workDir = mkdtempSync(join(tmpdir(), 'tvc-api-tests-'));
  const distDir = join(workDir, 'dist');
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  writeFileSync(join(distDir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${TEST_SPA_TITLE}</title></head><body><div id="root"></div><script type="module" src="/checkout/assets/app.js"></script></body></html>`);
  writeFileSync(join(distDir, 'assets', 'app.js'), 'console.log("test build");\n');
  project.provide('distDir', distDir);
  const runId = randomBytes(4).toString('hex');
  project.provide('runId', runId);

  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    project.provide('storeTemplate', null);
  } else {
    // A data directory: it starts as a copy of the built store template when there is one (no initdb), then the seed.
    const store = await openStore({ engine: 'pglite', dataDir: join(workDir, 'seeded-store') });
    const config = readConfig({ DIST_DIR: distDir, ...TEST_SECRETS });
    const app = await buildApp({ config, store, ports: portsFromEnvironment(config) });
    await app.close();
    const template = join(workDir, 'store-template.tar');
    writeFileSync(template, Buffer.from(await (await dumpStore(store)).arrayBuffer()));
    await store.close();
    project.provide('storeTemplate', template);
  }
  return async () => {
    rmSync(workDir, { recursive: true, force: true });
    if (databaseUrl) await dropLeftoverDatabases(databaseUrl, runId);
  };
}

/** Drops the databases of this run that a crashed test file left behind (each file drops its own in afterAll). */
async function dropLeftoverDatabases(databaseUrl: string, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`tvc_test_${runId}_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
