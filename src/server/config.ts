import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { join, resolve } from 'node:path';
import { PAYMENT_DEADLINE_MS } from '../domain/constants';
import { parseGatewayList } from '../domain/gateway';
import { projectRoot } from './project-root';

/**
 * Demo: what `npm start` gives a newcomer (demo data, sandbox gateways, generated keys). Production:
 * `NODE_ENV=production` unless `DEMO=on`; it fails closed.
 */
export type ServerMode = 'demo' | 'production';

/** Which proxies in front are trusted: none, the nearest N hops, or these addresses and CIDR ranges. */
export type TrustedProxies = false | number | string[];

/** Keys as given in the environment (or in files it names); in demo the missing ones are generated. */
export interface GivenSecrets {
  session: string | null;
  encryption: string | null;
  /** WEBHOOK_SECRET_<GATEWAY> by gateway module. */
  webhook: Record<string, string>;
}

/** Server configuration, read from environment variables with working defaults. */
export interface ServerConfig {
  mode: ServerMode;
  port: number;
  host: string;
  /** Origin used in links handed to shoppers and gateways. */
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL connection string; when unset the embedded PGlite store in dataDir is used. */
  databaseUrl: string | null;
  /** How long a start waits for a PostgreSQL that does not answer yet before it gives up. */
  databaseWaitMs: number;
  gateways: string[];
  serverHostname: string;
  /** Proxies whose X-Forwarded-For, X-Forwarded-Proto and country header are believed. */
  trustProxy: TrustedProxies;
  /** Header carrying the visitor's country, set by a trusted proxy (e.g. cf-ipcountry). */
  countryHeader: string | null;
  rateLimit: boolean;
  fraud: { maxOrdersPerIpPerHour: number; blockedIps: string[]; blockedCountries: string[]; countLoopback: boolean };
  secrets: GivenSecrets;
  /** The operator's catalogue (YAML or JSON) for the local store; the demo's own file when unset in demo. */
  catalogueFile: string | null;
  /** The reseller panel activation: added to a new reseller's order by the server, never to an existing reseller's. */
  resellerActivationPid: number;
  /** The reseller panel's address shown on the reseller success page; null (not shown) when production names none. */
  resellerPanelUrl: string | null;
  /** A request whose head and body have not arrived within this time is closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time (longer than a proxy's usual 60 s idle timeout). */
  keepAliveTimeoutMs: number;
  /** On SIGTERM or SIGINT, how long requests in flight may take to finish before their connections are closed. */
  shutdownDeadlineMs: number;
  distDir: string;
  logLevel: string;
  /** How long catalogue reads (products, options, currency rates) are served from memory. */
  catalogueTtlMs: number;
  /**
   * Past these, requests are answered 503 overloaded at once instead of queueing; 0 turns a check off. The store
   * gate (src/server/store-gate.ts): at most `storeConcurrency` requests use the store at once, the next wait at
   * most `storeWaitMs` for their turn; null takes the engine's default (STORE_GATE_DEFAULTS).
   */
  loadShedding: {
    enabled: boolean; maxEventLoopDelayMs: number; maxHeapUsedBytes: number; maxEventLoopUtilization: number;
    storeConcurrency: number | null; storeWaitMs: number | null;
  };
  mail: MailConfig;
  /** Variables of the real payment providers (read whatever GATEWAYS says; required only for the configured ones). */
  providers: ProvidersConfig;
  /** BILLING: the local store (default) or a WHMCS installation. */
  billing: BillingConfig;
  renewals: RenewalsConfig;
  /** The operator listener (GET /metrics): OPS_PORT (null: none), OPS_HOST, and OPS_TOKEN for any address but loopback. */
  ops: { port: number | null; host: string; token: string | null };
  flowAnalytics: FlowAnalyticsConfig;
}

/** The anonymous flow traffic (POST /flowEvents, GET /flowStats on the operator listener). */
export interface FlowAnalyticsConfig {
  /** FLOW_ANALYTICS (on by default, `off` turns it off): off, the app sends nothing and the server counts nothing. */
  enabled: boolean;
  /** FLOW_MIN_COUNT (default 5): counts under it read only as "fewer than N". */
  minCount: number;
}

/** When the local billing invoices, reminds, suspends and terminates a service that falls due (README, "Renewals"). */
export interface RenewalsConfig {
  /** RENEWAL_INVOICE_DAYS (default 7): the renewal invoice is issued this many days before the due date. */
  invoiceDays: number;
  /** RENEWAL_GRACE_DAYS (default 3): unpaid this many days after the due date, the service is suspended. */
  graceDays: number;
  /** RENEWAL_TERMINATE_DAYS (default 30): unpaid this many days after the due date, the service is terminated. */
  terminateDays: number;
  /** RENEWAL_TICK_MS (default 60 s): how often the scheduler looks for renewal work. */
  tickMs: number;
}

/** Where catalogue, clients, orders, invoices and services live. */
export type BillingConfig = { kind: 'local' } | WhmcsConfig;

/** BILLING=whmcs: the API endpoint and credentials, the product groups and the reseller client group. */
export interface WhmcsConfig {
  kind: 'whmcs';
  /** WHMCS_API_URL: the full URL of includes/api.php. */
  url: string;
  identifier: string;
  secret: string;
  accesskey: string | null;
  retailGid: number;
  resellerGid: number;
  resellerClientGroup: number;
  /** WHMCS_RETRY_POLL_MS: how often undos WHMCS refused and payments not yet applied there are tried again. */
  retryPollMs: number;
}

/** The real gateways' settings; a secret may also come from <NAME>_FILE. */
export interface ProvidersConfig {
  coinbase: { apiUrl: string; apiKeyId: string | null; apiKeySecret: string | null; webhookSecret: string | null };
  hostedlink: { url: string | null; secret: string | null; name: string; currencies: string[] };
}

/** Coinbase Business's API: the sandbox for a demo, the live API in production, unless COINBASE_API_URL says otherwise. */
export const COINBASE_SANDBOX_API_URL = 'https://business.coinbase.com/sandbox';
export const COINBASE_LIVE_API_URL = 'https://business.coinbase.com';

function readProvidersConfig(env: NodeJS.ProcessEnv, mode: ServerMode): ProvidersConfig {
  const hostedlinkCurrencies = (env.HOSTEDLINK_CURRENCIES ?? 'EUR-GBP').split('-').map((code) => code.trim().toUpperCase()).filter(Boolean);
  const wrong = hostedlinkCurrencies.filter((code) => !/^[A-Z]{3}$/.test(code));
  if (wrong.length || hostedlinkCurrencies.length === 0) throw new ConfigError(`HOSTEDLINK_CURRENCIES must be hyphen-separated ISO 4217 codes (EUR-GBP), got ${env.HOSTEDLINK_CURRENCIES}.`);
  return {
    coinbase: {
      apiUrl: (env.COINBASE_API_URL || (mode === 'production' ? COINBASE_LIVE_API_URL : COINBASE_SANDBOX_API_URL)).replace(/\/$/, ''),
      apiKeyId: env.COINBASE_API_KEY_ID || null,
      apiKeySecret: fromEnvOrFile(env, 'COINBASE_API_KEY_SECRET'),
      webhookSecret: fromEnvOrFile(env, 'COINBASE_WEBHOOK_SECRET'),
    },
    hostedlink: {
      url: env.HOSTEDLINK_URL || null,
      secret: fromEnvOrFile(env, 'HOSTEDLINK_SECRET'),
      name: env.HOSTEDLINK_NAME || 'Card',
      currencies: hostedlinkCurrencies,
    },
  };
}

/** The variables each real gateway cannot work without, by module. */
const PROVIDER_VARIABLES: Record<string, (providers: ProvidersConfig) => Record<string, string | null>> = {
  coinbase: ({ coinbase }) => ({ COINBASE_API_KEY_ID: coinbase.apiKeyId, COINBASE_API_KEY_SECRET: coinbase.apiKeySecret, COINBASE_WEBHOOK_SECRET: coinbase.webhookSecret }),
  hostedlink: ({ hostedlink }) => ({ HOSTEDLINK_URL: hostedlink.url, HOSTEDLINK_SECRET: hostedlink.secret }),
};

/** True for a gateway with its own provider variables (not WEBHOOK_SECRET_<GATEWAY>). */
export const hasProviderVariables = (module: string) => module in PROVIDER_VARIABLES;

/** The variables the configured real gateways need and the environment does not give. */
export function missingProviderVariables(config: Pick<ServerConfig, 'gateways' | 'providers'>): string[] {
  return config.gateways.flatMap((module) => Object.entries(PROVIDER_VARIABLES[module]?.(config.providers) ?? {}).filter(([, value]) => !value).map(([name]) => name));
}

export const missingProviderVariablesMessage = (missing: string[]) => `Missing payment gateway variables: ${missing.join(', ')} (set each, or <NAME>_FILE for a secret; see README, "Payment gateways").`;

/** E-mail: the outbox is always written; a worker sends it over SMTP when `smtpUrl` is set. */
export interface MailConfig {
  /** SMTP_URL (or SMTP_URL_FILE): smtp:// (STARTTLS when offered) or smtps:// (TLS from the start); null keeps mail in the outbox. */
  smtpUrl: string | null;
  /** MAIL_FROM: the sender, e.g. `TV Checkout <no-reply@example.com>`; required with SMTP_URL. */
  from: string;
  /** How often the worker looks for due messages (it is also nudged right after a message is queued). */
  pollMs: number;
  /** The first retry's delay; each further one doubles, up to an hour. */
  retryMs: number;
  /** MAIL_CREDENTIALS=on puts the service username and password into the "service active" mail. */
  credentials: boolean;
  /** RECOVERY_AFTER_MIN (default 60): an order still unpaid this long after it was placed gets one reminder. */
  recoveryAfterMs: number;
}

/** A configuration the server refuses to start with; the message is the one line an operator reads. */
export class ConfigError extends Error {}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** A value from `NAME`, or from the file `NAME_FILE` names (trailing newline dropped); null when neither is set. */
export function fromEnvOrFile(env: NodeJS.ProcessEnv, name: string): string | null {
  const direct = env[name];
  if (direct) return direct;
  const file = env[`${name}_FILE`];
  if (!file) return null;
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '') || null;
  } catch (error) {
    throw new ConfigError(`${name}_FILE names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** TRUST_PROXY: unset/false, a hop count, or a comma-separated list of addresses and CIDRs; never "trust every hop". */
export function parseTrustProxy(value: string | undefined): TrustedProxies {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === '*') {
    throw new ConfigError('TRUST_PROXY=true would believe every X-Forwarded-For hop a client writes; give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1).');
  }
  const entries = list(text);
  const invalid = entries.filter((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    return family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits));
  });
  if (invalid.length) throw new ConfigError(`TRUST_PROXY must be a hop count or proxy addresses/CIDRs; not an address: ${invalid.join(', ')}.`);
  return entries;
}

const positiveInteger = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive whole number, got ${env[name]}.`);
  return value;
};

const nonNegativeInteger = (env: NodeJS.ProcessEnv, name: string) => {
  const value = Number(env[name]);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number (0 turns it off), got ${env[name]}.`);
  return value;
};

/** The sender's address part (`Name <a@b>` or `a@b`); null when MAIL_FROM names no address. */
export function mailFromAddress(from: string): string | null {
  const address = (/<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  return /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(address) ? address : null;
}

/** The latest a recovery reminder may be due: before the one-day payment deadline. */
const RECOVERY_AFTER_MAX_MIN = PAYMENT_DEADLINE_MS / 60_000 - 1;

/** MAIL_FROM in demo without SMTP: what the demo outbox page shows as the sender. */
const DEMO_MAIL_FROM = 'TV Checkout <no-reply@tvcheckout.test>';

function readMailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const smtpUrl = fromEnvOrFile(env, 'SMTP_URL');
  if (smtpUrl) {
    let url: URL | null = null;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = null;
    }
    // The URL is not echoed: it may hold the SMTP password.
    if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
      throw new ConfigError('SMTP_URL must be smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://… (TLS from the start).');
    }
    if (url.search) throw new ConfigError('SMTP_URL takes no query options (certificate checks stay on): give only smtp(s)://[user:password@]host[:port].');
    if (!env.MAIL_FROM) throw new ConfigError('MAIL_FROM is not set: with SMTP_URL give the sender, e.g. MAIL_FROM="TV Checkout <no-reply@example.com>".');
  }
  const from = env.MAIL_FROM || DEMO_MAIL_FROM;
  if (!mailFromAddress(from)) throw new ConfigError(`MAIL_FROM must be an address (a@example.com) or Name <a@example.com>, got ${from}.`);
  return {
    smtpUrl,
    from,
    pollMs: positiveInteger(env, 'MAIL_POLL_MS', 5_000),
    retryMs: positiveInteger(env, 'MAIL_RETRY_MS', 30_000),
    credentials: env.MAIL_CREDENTIALS === 'on',
    // A reminder due after the payment deadline (24 hours) would never be sent.
    recoveryAfterMs: nonNegativeNumber(env, 'RECOVERY_AFTER_MIN', 60, RECOVERY_AFTER_MAX_MIN) * 60_000,
  };
}

const nonNegativeNumber = (env: NodeJS.ProcessEnv, name: string, fallback: number, max = Infinity) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0 || value > max) throw new ConfigError(`${name} must be a number from 0${max === Infinity ? '' : ` to ${max}`}, got ${env[name]}.`);
  return value;
};

/** BILLING and, for BILLING=whmcs, every WHMCS_ variable it needs; a missing or wrong one is refused. */
export function readBillingConfig(env: NodeJS.ProcessEnv, mode: ServerMode = 'demo'): BillingConfig {
  const kind = env.BILLING ?? 'local';
  if (kind === 'local') return { kind: 'local' };
  if (kind !== 'whmcs') throw new ConfigError(`BILLING must be local or whmcs, got ${kind}.`);
  const required = (name: string, value: string | null | undefined) => {
    if (!value) throw new ConfigError(`${name} is not set: BILLING=whmcs needs WHMCS_API_URL, WHMCS_API_IDENTIFIER, WHMCS_API_SECRET (or WHMCS_API_SECRET_FILE), WHMCS_RETAIL_GID, WHMCS_RESELLER_GID and WHMCS_RESELLER_CLIENT_GROUP.`);
    return value;
  };
  const url = required('WHMCS_API_URL', env.WHMCS_API_URL);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw new ConfigError(`WHMCS_API_URL must be the http(s) URL of includes/api.php, got ${url}.`);
  // The API secret goes with every call: in production only over TLS, unless WHMCS is on this machine.
  if (mode === 'production' && parsed.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) {
    throw new ConfigError(`WHMCS_API_URL must be https:// in production (the API secret is sent with every call), got ${parsed.origin}.`);
  }
  const id = (name: string) => {
    const value = required(name, env[name]);
    if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be a WHMCS id (a whole number), got ${value}.`);
    return Number(value);
  };
  const accesskey = fromEnvOrFile(env, 'WHMCS_API_ACCESSKEY');
  if (accesskey && !/^[A-Za-z0-9!@#$%.()*[\]\-_]+$/.test(accesskey)) {
    throw new ConfigError('WHMCS_API_ACCESSKEY may hold only letters, digits and !@#$%.()*[]-_ (as WHMCS allows).');
  }
  return {
    kind: 'whmcs', url,
    identifier: required('WHMCS_API_IDENTIFIER', fromEnvOrFile(env, 'WHMCS_API_IDENTIFIER')),
    secret: required('WHMCS_API_SECRET', fromEnvOrFile(env, 'WHMCS_API_SECRET')),
    accesskey,
    retailGid: id('WHMCS_RETAIL_GID'), resellerGid: id('WHMCS_RESELLER_GID'), resellerClientGroup: id('WHMCS_RESELLER_CLIENT_GROUP'),
    retryPollMs: positiveInteger(env, 'WHMCS_RETRY_POLL_MS', 60_000),
  };
}

/** RESELLER_PANEL_URL: an http(s) address; the demo shows a demo panel's when unset. */
function readResellerPanelUrl(env: NodeJS.ProcessEnv, mode: ServerMode): string | null {
  const value = env.RESELLER_PANEL_URL;
  if (!value) return mode === 'demo' ? 'https://panel.tvcheckout.test/' : null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new ConfigError(`RESELLER_PANEL_URL must be an http(s) address, got ${value}.`);
  return url.href;
}

/** Reads the configuration from an environment (process.env by default); a wrong value throws a ConfigError. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got ${env.PORT}.`);
  const mode: ServerMode = env.NODE_ENV === 'production' && env.DEMO !== 'on' ? 'production' : 'demo';
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const gateways = parseGatewayList(env.GATEWAYS ?? 'sandbox-sandboxcrypto');
  const webhook: Record<string, string> = {};
  for (const gateway of gateways.filter((module) => !hasProviderVariables(module))) {
    const secret = fromEnvOrFile(env, `WEBHOOK_SECRET_${gateway.toUpperCase()}`);
    if (secret) webhook[gateway] = secret;
  }
  return {
    mode,
    port,
    host: env.HOST ?? '127.0.0.1',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir: resolve(env.DATA_DIR ?? './.data'),
    databaseUrl: env.DATABASE_URL || null,
    databaseWaitMs: nonNegativeNumber(env, 'DATABASE_WAIT_MS', 30_000),
    gateways,
    serverHostname: env.SERVER_HOSTNAME ?? 'stream.tvcheckout.test',
    trustProxy,
    countryHeader: trustProxy !== false && env.COUNTRY_HEADER ? env.COUNTRY_HEADER.toLowerCase() : null,
    rateLimit: env.RATE_LIMIT !== 'off',
    fraud: {
      maxOrdersPerIpPerHour: Number(env.FRAUD_MAX_ORDERS_PER_IP_PER_HOUR ?? 5),
      blockedIps: list(env.FRAUD_BLOCKED_IPS),
      blockedCountries: list(env.FRAUD_BLOCKED_COUNTRIES).map((code) => code.toUpperCase()),
      // A newcomer's own test orders come from loopback; in production every address counts.
      countLoopback: mode === 'production',
    },
    secrets: { session: fromEnvOrFile(env, 'SESSION_SECRET'), encryption: fromEnvOrFile(env, 'ENCRYPTION_KEY'), webhook },
    catalogueFile: env.CATALOGUE_FILE ? resolve(env.CATALOGUE_FILE) : null,
    resellerActivationPid: positiveInteger(env, 'RESELLER_ACTIVATION_PID', 13),
    resellerPanelUrl: readResellerPanelUrl(env, mode),
    requestTimeoutMs: positiveInteger(env, 'REQUEST_TIMEOUT_MS', 30_000),
    keepAliveTimeoutMs: positiveInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000),
    shutdownDeadlineMs: positiveInteger(env, 'SHUTDOWN_DEADLINE_MS', 10_000),
    distDir: env.DIST_DIR ? resolve(env.DIST_DIR) : join(projectRoot, 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    catalogueTtlMs: Number(env.CATALOGUE_CACHE_MS ?? 30_000),
    loadShedding: {
      enabled: env.LOAD_SHEDDING !== 'off',
      maxEventLoopDelayMs: nonNegativeNumber(env, 'LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS', 500),
      // Near V8's heap limit the process spends its time collecting garbage, then dies out of memory.
      maxHeapUsedBytes: nonNegativeNumber(env, 'LOAD_SHEDDING_MAX_HEAP_MB', Math.floor(getHeapStatistics().heap_size_limit * 0.9 / 2 ** 20)) * 2 ** 20,
      maxEventLoopUtilization: nonNegativeNumber(env, 'LOAD_SHEDDING_MAX_EVENT_LOOP_UTILIZATION', 0, 1),
      // 0 turns the store gate off; unset, the engine's default.
      storeConcurrency: env.LOAD_SHEDDING_STORE_CONCURRENCY === undefined || env.LOAD_SHEDDING_STORE_CONCURRENCY === '' ? null : nonNegativeInteger(env, 'LOAD_SHEDDING_STORE_CONCURRENCY'),
      storeWaitMs: env.LOAD_SHEDDING_STORE_WAIT_MS === undefined || env.LOAD_SHEDDING_STORE_WAIT_MS === '' ? null : positiveInteger(env, 'LOAD_SHEDDING_STORE_WAIT_MS', 1),
    },
    mail: readMailConfig(env),
    providers: readProvidersConfig(env, mode),
    billing: readBillingConfig(env, mode),
    renewals: readRenewalsConfig(env),
    ops: readOpsConfig(env),
    flowAnalytics: readFlowAnalyticsConfig(env),
  };
}

/** OPS_PORT opens the operator listener (unset: none, but the demo's on 9464; `off`: none at all) on OPS_HOST, loopback unless it says otherwise. */
function readOpsConfig(env: NodeJS.ProcessEnv): ServerConfig['ops'] {
  const value = env.OPS_PORT;
  // `off`: no listener at all, not even the demo's default one.
  const port = value === undefined || value === '' || value === 'off' ? null : Number(value);
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new ConfigError(`OPS_PORT must be a port number, got ${value}.`);
  return { port, host: env.OPS_HOST || '127.0.0.1', token: fromEnvOrFile(env, 'OPS_TOKEN') || null };
}

function readRenewalsConfig(env: NodeJS.ProcessEnv): RenewalsConfig {
  const renewals = {
    invoiceDays: positiveInteger(env, 'RENEWAL_INVOICE_DAYS', 7),
    graceDays: Number(env.RENEWAL_GRACE_DAYS ?? 3),
    terminateDays: positiveInteger(env, 'RENEWAL_TERMINATE_DAYS', 30),
    tickMs: positiveInteger(env, 'RENEWAL_TICK_MS', 60_000),
  };
  if (!Number.isInteger(renewals.graceDays) || renewals.graceDays < 0) throw new ConfigError(`RENEWAL_GRACE_DAYS must be a whole number of days (0 suspends on the due date), got ${env.RENEWAL_GRACE_DAYS}.`);
  if (renewals.terminateDays <= renewals.graceDays) {
    throw new ConfigError(`RENEWAL_TERMINATE_DAYS (${renewals.terminateDays}) must be more than RENEWAL_GRACE_DAYS (${renewals.graceDays}): a service is suspended before it is terminated.`);
  }
  return renewals;
}

function readFlowAnalyticsConfig(env: NodeJS.ProcessEnv): FlowAnalyticsConfig {
  const switched = env.FLOW_ANALYTICS ?? 'on';
  if (switched !== 'on' && switched !== 'off') throw new ConfigError(`FLOW_ANALYTICS must be on or off, got ${switched}.`);
  return { enabled: switched === 'on', minCount: positiveInteger(env, 'FLOW_MIN_COUNT', 5) };
}
