import { join, resolve } from 'node:path';
import { parseGatewayList } from '../domain/gateway';
import { projectRoot } from './project-root';

/** Server configuration, read from environment variables with working defaults. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Origin used in links handed to shoppers and gateways. */
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL connection string; when unset the embedded PGlite store in dataDir is used. */
  databaseUrl: string | null;
  gateways: string[];
  serverHostname: string;
  /** Trust X-Forwarded-For (and the country header) from a proxy in front of the server. */
  trustProxy: boolean;
  /** Header carrying the visitor's country, set by a trusted proxy (e.g. cf-ipcountry). */
  countryHeader: string | null;
  rateLimit: boolean;
  fraud: { maxOrdersPerIpPerHour: number; blockedIps: string[]; blockedCountries: string[] };
  sessionSecret: string | null;
  encryptionKey: string | null;
  distDir: string;
  logLevel: string;
  /** How long catalogue reads (products, options, currency rates) are served from memory. */
  catalogueTtlMs: number;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** Reads the configuration from an environment (process.env by default). */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const trustProxy = env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1';
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir: resolve(env.DATA_DIR ?? './.data'),
    databaseUrl: env.DATABASE_URL || null,
    gateways: parseGatewayList(env.GATEWAYS ?? 'sandbox-sandboxcrypto'),
    serverHostname: env.SERVER_HOSTNAME ?? 'stream.tvcheckout.test',
    trustProxy,
    countryHeader: trustProxy && env.COUNTRY_HEADER ? env.COUNTRY_HEADER.toLowerCase() : null,
    rateLimit: env.RATE_LIMIT !== 'off',
    fraud: {
      maxOrdersPerIpPerHour: Number(env.FRAUD_MAX_ORDERS_PER_IP_PER_HOUR ?? 5),
      blockedIps: list(env.FRAUD_BLOCKED_IPS),
      blockedCountries: list(env.FRAUD_BLOCKED_COUNTRIES).map((code) => code.toUpperCase()),
    },
    sessionSecret: env.SESSION_SECRET || null,
    encryptionKey: env.ENCRYPTION_KEY || null,
    distDir: env.DIST_DIR ? resolve(env.DIST_DIR) : join(projectRoot, 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    catalogueTtlMs: Number(env.CATALOGUE_CACHE_MS ?? 30_000),
  };
}
