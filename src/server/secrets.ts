import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, hasProviderVariables, type ServerConfig } from './config';
import type { Database } from './db/connect';
import { secrets as legacySecrets } from './db/schema';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** Keys the server needs: from the environment in production; in demo, generated once into a 0600 file in DATA_DIR. */
export interface ServerSecrets {
  session: string;
  encryptionKey: Buffer;
  webhook(gateway: string): string;
}

/** The file in DATA_DIR holding the demo's generated keys (never a table of the store they protect). */
export const DEMO_SECRETS_FILE = 'secrets.json';

type KeyFile = Record<string, string>;

// Real gateways sign with their provider's own secret (COINBASE_WEBHOOK_SECRET, HOSTEDLINK_SECRET): see config.ts.
const secretNames = (config: ServerConfig) => ['SESSION_SECRET', 'ENCRYPTION_KEY', ...config.gateways.filter((gateway) => !hasProviderVariables(gateway)).map((gateway) => `WEBHOOK_SECRET_${gateway.toUpperCase()}`)];

function given(config: ServerConfig): KeyFile {
  const values: KeyFile = {};
  if (config.secrets.session) values.SESSION_SECRET = config.secrets.session;
  if (config.secrets.encryption) values.ENCRYPTION_KEY = config.secrets.encryption;
  for (const [gateway, secret] of Object.entries(config.secrets.webhook)) values[`WEBHOOK_SECRET_${gateway.toUpperCase()}`] = secret;
  return values;
}

/** The names of the keys production needs and the environment does not give. */
export function missingSecrets(config: ServerConfig): string[] {
  const values = given(config);
  return secretNames(config).filter((name) => !values[name]);
}

export const missingSecretsMessage = (missing: string[]) => `Missing secrets: ${missing.join(', ')} (set each, or <NAME>_FILE naming a file that holds it).`;

/** Keys an older store kept in its `secrets` table, by their environment names; the table is emptied once they are moved. */
async function takeLegacySecrets(db: Database | null, mode: ServerConfig['mode']): Promise<KeyFile> {
  if (!db) return {};
  const rows = await db.select().from(legacySecrets);
  if (rows.length === 0) return {};
  if (mode === 'production') {
    throw new ConfigError('The store still holds generated keys in its secrets table; start it once with DEMO=on to move them to DATA_DIR/secrets.json, then give them as SESSION_SECRET, ENCRYPTION_KEY and WEBHOOK_SECRET_<GATEWAY>.');
  }
  const byEnvName = (name: string) => (name === 'session' ? 'SESSION_SECRET' : name === 'encryption' ? 'ENCRYPTION_KEY' : `WEBHOOK_SECRET_${name.replace(/^webhook:/, '').toUpperCase()}`);
  return Object.fromEntries(rows.map((row) => [byEnvName(row.name), row.value]));
}

function readKeyFile(file: string): KeyFile {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${file} is not readable JSON; remove it to generate new demo keys.`);
  }
}

/**
 * The server's keys. Production takes every one from the environment and refuses the start naming the
 * missing ones. Demo takes the given ones and generates the rest once into DATA_DIR/secrets.json (0600).
 */
export async function loadSecrets(config: ServerConfig, db: Database | null = null): Promise<ServerSecrets> {
  let values = given(config);
  if (config.mode === 'production') {
    await takeLegacySecrets(db, config.mode);
    const missing = missingSecrets(config);
    if (missing.length) throw new ConfigError(missingSecretsMessage(missing));
  } else {
    const file = join(config.dataDir, DEMO_SECRETS_FILE);
    const stored = readKeyFile(file);
    const legacy = await takeLegacySecrets(db, config.mode);
    const generated = Object.fromEntries(secretNames(config).filter((name) => !stored[name] && !legacy[name]).map((name) => [name, randomBytes(32).toString('base64url')]));
    const kept = { ...generated, ...legacy, ...stored };
    if (Object.keys(generated).length || Object.keys(legacy).length) {
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
      if (db && Object.keys(legacy).length) await db.delete(legacySecrets);
    }
    values = { ...kept, ...values };
  }
  const encryptionKey = Buffer.from(values.ENCRYPTION_KEY ?? '', 'base64url'); // base64url decoding also takes standard base64
  if (encryptionKey.length < 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes in base64url (e.g. the output of: openssl rand -base64 32).');
  return {
    session: values.SESSION_SECRET as string,
    encryptionKey: encryptionKey.subarray(0, 32),
    webhook: (gateway) => {
      const secret = values[`WEBHOOK_SECRET_${gateway.toUpperCase()}`];
      if (!secret) throw new ConfigError(`Missing secret WEBHOOK_SECRET_${gateway.toUpperCase()}.`);
      return secret;
    },
  };
}

/** Encrypts a service password with AES-256-GCM: iv.tag.ciphertext, base64url. */
export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext) throw new Error('Malformed sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

/** Hashes a login password with scrypt: salt.hash, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `${salt.toString('base64url')}.${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // A fixed dummy hash keeps the timing of unknown e-mails close to that of wrong passwords.
  const [saltText, hashText] = (stored ?? 'AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').split('.');
  const expected = Buffer.from(hashText ?? '', 'base64url');
  const actual = await scryptAsync(password, Buffer.from(saltText ?? '', 'base64url'), 32);
  return stored !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}
