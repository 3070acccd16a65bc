/**
 * Throwaway PostgreSQL for tests and the benchmark: a cluster from the Debian binaries
 * (/usr/lib/postgresql/<version>/bin) in a temporary directory on a free loopback port, and new databases
 * on a server, so nothing else on the machine is touched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

/** The newest Debian PostgreSQL install's bin directory that has initdb and pg_ctl, or null. */
export function debianPostgresBin(root = '/usr/lib/postgresql'): string | null {
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((entry) => /^\d+(\.\d+)?$/.test(entry)).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')));
  return found ?? null;
}

/** Runs one statement on a server (CREATE DATABASE cannot run in a transaction, so each gets its own connection). */
export async function adminStatement(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database named `<prefix>_<random>` on a server; drop() removes it, whoever is still connected. */
export async function createDatabase(serverUrl: string, prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminStatement(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => adminStatement(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface PostgresCluster {
  port: number;
  /** The server's version line, for reports. */
  version: string;
  /** A connection string for a database of this cluster (default postgres). */
  url(database?: string): string;
  start(): Promise<void>;
  /** A fast shutdown, as an operator's restart does: sessions are ended, committed data is kept. */
  stop(): Promise<void>;
  query(sql: string, database?: string): string;
  destroy(): Promise<void>;
}

/** initdb refuses to run as root: as root the cluster belongs to the postgres user. */
function asPostgres(command: string, args: string[], cwd: string): string {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const run = spawnSync(file, argv, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/**
 * A new cluster in a temporary directory, trusting 127.0.0.1 only, on a free port; started. `settings` are
 * extra server settings (tests turn fsync off; the benchmark keeps the defaults).
 */
export async function createPostgresCluster(bin: string, settings: string[] = []): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'tvc-pg-'));
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const options = [`-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir}`, ...settings.map((setting) => `-c ${setting}`)].join(' ');
  const pgCtl = (args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args], dir);
  const cluster: PostgresCluster = {
    port,
    version: execFileSync(join(bin, 'postgres'), ['--version']).toString().trim(),
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => { pgCtl(['start', '-w', '-t', '30', '-l', join(dir, 'log'), '-o', options]); },
    stop: async () => { pgCtl(['stop', '-w', '-m', 'fast']); },
    query: (sql, database = 'postgres') => asPostgres(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], dir),
    destroy: async () => {
      try {
        pgCtl(['stop', '-w', '-m', 'immediate']);
      } catch { /* already stopped */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], dir);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}
