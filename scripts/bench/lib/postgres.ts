/**
 * A PostgreSQL for the benchmark: a new database on BENCH_DATABASE_URL's server, or else a throwaway cluster
 * from the Debian binaries (/usr/lib/postgresql/<version>/bin) in a temporary directory on a free loopback port.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './proc';

export interface BenchPostgres {
  /** Connection string of a new, empty database. */
  url: string;
  /** Where it came from, for the report. */
  origin: string;
  /** Drops the database, or stops and removes the throwaway cluster. */
  close(): Promise<void>;
}

/** The newest Debian PostgreSQL install's bin directory that has initdb and pg_ctl, or null. */
export function debianPostgresBin(root = '/usr/lib/postgresql'): string | null {
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((entry) => /^\d+(\.\d+)?$/.test(entry)).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')));
  return found ?? null;
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database on an existing server; the server's other databases are not touched. */
async function databaseOn(serverUrl: string, origin: string): Promise<BenchPostgres> {
  const name = `tvc_bench_${randomBytes(5).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), origin, close: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root (initdb refuses root), else as ourselves. */
function asPostgres(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

/** A throwaway cluster: initdb in a temporary directory, started on a free loopback port, removed by close(). */
async function throwawayCluster(bin: string): Promise<BenchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'tv-checkout-bench-pg-'));
  const dataDir = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const stop = () => {
    try {
      asPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Not running (it failed to start, or is already stopped).
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asPostgres(join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-instructions']);
    asPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  } catch (error) {
    stop();
    const output = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' ') ?? '';
    throw new Error(`the throwaway PostgreSQL cluster would not start (${bin}): ${output || (error as Error).message}`);
  }
  const serverUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const database = await databaseOn(serverUrl, `a throwaway cluster (${join(bin, 'postgres')} --version: ${execFileSync(join(bin, 'postgres'), ['--version']).toString().trim()}) on 127.0.0.1:${port}, default settings`)
    .catch((error: unknown) => {
      stop();
      throw error;
    });
  return {
    ...database,
    async close() {
      stop();
    },
  };
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
