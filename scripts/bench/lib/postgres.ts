/**
 * A PostgreSQL for the benchmark: a new database on BENCH_DATABASE_URL's server, or else a throwaway cluster
 * from the Debian binaries (/usr/lib/postgresql/<version>/bin) in a temporary directory on a free loopback port.
 */
import { createDatabase, createPostgresCluster, debianPostgresBin } from '../../lib/postgres';

export interface BenchPostgres {
  /** Connection string of a new, empty database. */
  url: string;
  /** Where it came from, for the report. */
  origin: string;
  /** Drops the database, or stops and removes the throwaway cluster. */
  close(): Promise<void>;
}

/** A new database on an existing server; the server's other databases are not touched. */
async function databaseOn(serverUrl: string, origin: string): Promise<BenchPostgres> {
  const database = await createDatabase(serverUrl, 'tvc_bench');
  return { url: database.url, origin, close: database.drop };
}

/** A throwaway cluster with the server's default settings, removed by close(). */
async function throwawayCluster(bin: string): Promise<BenchPostgres> {
  const cluster = await createPostgresCluster(bin).catch((error: unknown) => {
    throw new Error(`the throwaway PostgreSQL cluster would not start (${bin}): ${(error as Error).message.split('\n').slice(-3).join(' ')}`);
  });
  const database = await databaseOn(cluster.url(), `a throwaway cluster (${cluster.version}) on 127.0.0.1:${cluster.port}, default settings`)
    .catch(async (error: unknown) => {
      await cluster.destroy();
      throw error;
    });
  return { ...database, close: () => cluster.destroy() };
}

/**
 * BENCH_DATABASE_URL's server (a new database on it), else a throwaway cluster; null with the reason when
 * neither can be had, so the report says PostgreSQL was not measured instead of showing a figure.
 */
export async function benchPostgres(env: NodeJS.ProcessEnv = process.env): Promise<BenchPostgres | { unavailable: string }> {
  if (env.BENCH_DATABASE_URL) {
    return databaseOn(env.BENCH_DATABASE_URL, 'a new database on BENCH_DATABASE_URL\'s server')
      .catch((error: unknown) => ({ unavailable: `BENCH_DATABASE_URL is set but a database could not be created on it: ${(error as Error).message}` }));
  }
  const bin = debianPostgresBin();
  if (!bin) return { unavailable: 'BENCH_DATABASE_URL is not set and no PostgreSQL binaries were found in /usr/lib/postgresql/<version>/bin' };
  return throwawayCluster(bin).catch((error: unknown) => ({ unavailable: (error as Error).message }));
}
