import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { inArray } from 'drizzle-orm';
import type { ServerConfig } from './config';
import type { Database } from './db/connect';
import { secrets } from './db/schema';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** Keys the server needs; generated on first start and kept in the store unless set in the environment. */
export interface ServerSecrets {
  session: string;
  encryptionKey: Buffer;
  webhook(gateway: string): string;
}

/** Loads the secrets, generating the missing ones once (safe when several instances start together). */
export async function loadSecrets(db: Database, config: ServerConfig): Promise<ServerSecrets> {
  const names = ['session', 'encryption', ...config.gateways.map((gateway) => `webhook:${gateway}`)];
  await db.insert(secrets)
    .values(names.map((name) => ({ name, value: randomBytes(32).toString('base64url') })))
    .onConflictDoNothing();
  const rows = await db.select().from(secrets).where(inArray(secrets.name, names));
  const byName = new Map(rows.map((row) => [row.name, row.value]));
  const read = (name: string) => {
    const value = byName.get(name);
    if (!value) throw new Error(`Secret ${name} is missing`);
    return value;
  };
  const encryption = config.encryptionKey ?? read('encryption');
  return {
    session: config.sessionSecret ?? read('session'),
    encryptionKey: Buffer.from(encryption, 'base64url').subarray(0, 32),
    webhook: (gateway) => process.env[`WEBHOOK_SECRET_${gateway.toUpperCase()}`] ?? read(`webhook:${gateway}`),
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
