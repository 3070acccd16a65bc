import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/db/connect';
import { products } from '../../src/server/db/schema';
import { ROOT, spawnServer } from './support';

/** The demo's catalogue file (its merchant links go to the demo's placeholder pages, which production refuses). */
const DEMO_CATALOGUE = join(ROOT, 'src/server/catalogue/demo.yaml');

/** Keys an operator gives a production start (any value of the right shape). */
const KEYS = {
  SESSION_SECRET: 'operator-session-secret-0123456789',
  ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  WEBHOOK_SECRET_SANDBOX: 'operator-webhook-secret',
};
/** The test keys spawnServer gives, taken away: an operator's start has only what it sets. */
const NO_KEYS = { SESSION_SECRET: '', ENCRYPTION_KEY: '', WEBHOOK_SECRET_SANDBOX: '', WEBHOOK_SECRET_SANDBOXCRYPTO: '' };
/** The mail server an operator gives (never connected to: each of these starts is refused before sending). */
const MAIL = { SMTP_URL: 'smtp://mailer:secret@127.0.0.1:2525', MAIL_FROM: 'TV Checkout <no-reply@shop.example>' };

/** A hosted-link card processor as an operator configures it. */
const HOSTEDLINK = { HOSTEDLINK_URL: 'https://pay.processor.example/pay', HOSTEDLINK_SECRET: 'operator-hostedlink-secret' };
/** A CDP Ed25519 API key secret as the portal shows it (base64 of the 32-byte seed and the 32-byte public key). */
const CDP_KEY = (() => {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]).toString('base64');
})();

interface Exit {
  code: number | string;
  output: string;
  /** Whether it logged "ready in N ms" (then it was stopped). */
  ready: boolean;
}

/** Starts the real server as an operator would; stops it once ready. */
async function start(env: Record<string, string>): Promise<Exit> {
  const server = await spawnServer({ ...NO_KEYS, ...env });
  const ready = await server.ready.then(() => true, () => false);
  if (ready) await server.stop();
  return { code: await server.exited, output: server.output(), ready };
}

describe('a start as an operator makes it', () => {
  const root = mkdtempSync(join(tmpdir(), 'tvc-start-'));
  /** A valid production catalogue: the demo's, with the shop's own merchant pages, so the refusals under test are the ones reached. */
  const CATALOGUE_FILE = join(root, 'shop.yaml');
  writeFileSync(CATALOGUE_FILE, readFileSync(DEMO_CATALOGUE, 'utf8').replaceAll('/checkout/demo/', 'https://shop.example/'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const production = (env: Record<string, string>) => start({ NODE_ENV: 'production', DATA_DIR: join(root, 'never-opened'), ...env });

  it('production without keys refuses, listing every missing one on one line', async () => {
    const exit = await production({ ...MAIL, CATALOGUE_FILE, GATEWAYS: 'hostedlink', ...HOSTEDLINK });
    expect(exit.code).toBe(1);
    expect(exit.ready).toBe(false);
    expect(exit.output.trim()).toBe('TV Checkout refuses to start: Missing secrets: SESSION_SECRET, ENCRYPTION_KEY (set each, or <NAME>_FILE naming a file that holds it).');
  });

  it('production refuses once, listing every problem it has, one per line, the sandbox gateway with them', async () => {
    const exit = await production({ GATEWAYS: 'sandbox', CATALOGUE_FILE: DEMO_CATALOGUE });
    expect(exit.code).toBe(1);
    expect(exit.ready).toBe(false);
    const demoLines = readFileSync(DEMO_CATALOGUE, 'utf8').split('\n');
    const lineOf = (field: string) => demoLines.findIndex((line) => line.trimStart().startsWith(`${field}:`)) + 1;
    const placeholder = (field: string, path: string) => `CATALOGUE_FILE src/server/catalogue/demo.yaml line ${lineOf(field)}: merchant.${field} ${path} is a placeholder page of the demo, which production does not serve: link the shop's own page.`;
    const problems = [
      'Missing secrets: SESSION_SECRET, ENCRYPTION_KEY, WEBHOOK_SECRET_SANDBOX (set each, or <NAME>_FILE naming a file that holds it).',
      'SMTP_URL is not set: production mails receipts and access to shoppers; set SMTP_URL (smtp://user:password@mail.example:587) and MAIL_FROM.',
      'GATEWAYS names the sandbox gateway sandbox, whose page pays for anyone: production takes real gateways only (or set DEMO=on for a demo).',
      placeholder('logo', '/checkout/demo/logo.svg'),
      placeholder('supportUrl', '/checkout/demo/support'),
      placeholder('termsUrl', '/checkout/demo/terms'),
      placeholder('privacyUrl', '/checkout/demo/privacy'),
      placeholder('refundUrl', '/checkout/demo/refunds'),
    ];
    expect(exit.output.trim()).toBe(`TV Checkout refuses to start: ${problems.length} problems:\n${problems.map((problem, index) => `  ${index + 1}. ${problem}`).join('\n')}`);
  });

  it('production without SMTP_URL refuses, naming it', async () => {
    const exit = await production({ ...KEYS, CATALOGUE_FILE, GATEWAYS: 'hostedlink', ...HOSTEDLINK });
    expect(exit.code).toBe(1);
    expect(exit.ready).toBe(false);
    expect(exit.output.trim()).toBe('TV Checkout refuses to start: SMTP_URL is not set: production mails receipts and access to shoppers; set SMTP_URL (smtp://user:password@mail.example:587) and MAIL_FROM.');
  });

  it('production with the operator listener beyond loopback and no OPS_TOKEN refuses, naming OPS_TOKEN', async () => {
    const exit = await production({ ...KEYS, ...MAIL, CATALOGUE_FILE, GATEWAYS: 'hostedlink', ...HOSTEDLINK, OPS_PORT: '9464', OPS_HOST: '0.0.0.0' });
    expect(exit.code).toBe(1);
    expect(exit.ready).toBe(false);
    expect(exit.output.trim()).toBe('TV Checkout refuses to start: OPS_HOST is 0.0.0.0, beyond this machine, and OPS_TOKEN is not set: set OPS_TOKEN (scrapers send it as Authorization: Bearer), or leave OPS_HOST unset for 127.0.0.1.');
  });

  it('production with a sandbox gateway refuses, naming it, before any store is opened', async () => {
    const exit = await production({ ...KEYS, ...MAIL, CATALOGUE_FILE, GATEWAYS: 'sandbox' });
    expect(exit.code).toBe(1);
    expect(exit.output.trim()).toBe('TV Checkout refuses to start: GATEWAYS names the sandbox gateway sandbox, whose page pays for anyone: production takes real gateways only (or set DEMO=on for a demo).');
  });

  it('production with a catalogue file naming no merchant refuses, listing the missing fields, before any store is opened', async () => {
    const file = join(root, 'no-merchant.yaml');
    writeFileSync(file, readFileSync(CATALOGUE_FILE, 'utf8').replace(/^merchant:\n( {2}.*\n)+/m, ''));
    const exit = await production({ ...KEYS, ...MAIL, CATALOGUE_FILE: file, GATEWAYS: 'hostedlink', ...HOSTEDLINK });
    expect(exit.code).toBe(1);
    expect(exit.ready).toBe(false);
    expect(exit.output.trim()).toBe(`TV Checkout refuses to start: CATALOGUE_FILE ${file} has no merchant name, termsUrl, privacyUrl: production shows shoppers who sells and on what terms (README, "Catalogue file", merchant:).`);
  });

  it('production without a catalogue file refuses, naming CATALOGUE_FILE', async () => {
    const exit = await production({ ...KEYS, ...MAIL, GATEWAYS: 'hostedlink', ...HOSTEDLINK });
    expect(exit.code).toBe(1);
    expect(exit.output.trim()).toMatch(/^TV Checkout refuses to start: CATALOGUE_FILE is not set: production takes its products/);
  });

  it('production with the real gateways refuses, listing each of their missing variables on one line', async () => {
    const exit = await production({ ...KEYS, ...MAIL, CATALOGUE_FILE, GATEWAYS: 'coinbase-hostedlink', HOSTEDLINK_URL: HOSTEDLINK.HOSTEDLINK_URL });
    expect(exit.code).toBe(1);
    expect(exit.output.trim()).toBe('TV Checkout refuses to start: Missing payment gateway variables: COINBASE_API_KEY_ID, COINBASE_API_KEY_SECRET, COINBASE_WEBHOOK_SECRET, HOSTEDLINK_SECRET (set each, or <NAME>_FILE for a secret; see README, "Payment gateways").');
  });

  it('production with GATEWAYS=coinbase-hostedlink and their variables starts (the key secret from a _FILE)', async () => {
    const keyFile = join(root, 'cdp-key');
    writeFileSync(keyFile, `${CDP_KEY}\n`, { mode: 0o600 });
    const exit = await production({
      SESSION_SECRET: KEYS.SESSION_SECRET, ENCRYPTION_KEY: KEYS.ENCRYPTION_KEY, ...MAIL, CATALOGUE_FILE, DATA_DIR: join(root, 'real-gateways'), GATEWAYS: 'coinbase-hostedlink',
      COINBASE_API_KEY_ID: 'organizations/operator/apiKeys/checkout', COINBASE_API_KEY_SECRET_FILE: keyFile, COINBASE_WEBHOOK_SECRET: 'operator-coinbase-webhook-secret', ...HOSTEDLINK,
    });
    expect(exit.ready, exit.output).toBe(true);
  }, 60_000);

  it('TRUST_PROXY=true is refused in any mode', async () => {
    const exit = await start({ DATA_DIR: join(root, 'never-opened'), TRUST_PROXY: 'true' });
    expect(exit.code).toBe(1);
    expect(exit.output).toContain('TV Checkout refuses to start: TRUST_PROXY=true would believe every X-Forwarded-For hop a client writes');
  });

  it('the demo starts as before, and a production start on its store refuses, naming the demo account', async () => {
    const dataDir = join(root, 'demo');
    const demo = await start({ DATA_DIR: dataDir });
    expect(demo.ready, demo.output).toBe(true);
    expect(demo.output).toContain('TV Checkout (demo)');

    // The operator's file renames a plan: refused before anything is written, the store keeps the demo's name.
    const renamed = join(root, 'renamed.yaml');
    writeFileSync(renamed, readFileSync(CATALOGUE_FILE, 'utf8').replace('name: 1 Month', 'name: Operator Month'));
    const exit = await production({ DATA_DIR: dataDir, CATALOGUE_FILE: renamed, ...MAIL, SESSION_SECRET: KEYS.SESSION_SECRET, ENCRYPTION_KEY: KEYS.ENCRYPTION_KEY, GATEWAYS: 'hostedlink', ...HOSTEDLINK });
    expect(exit.code).toBe(1);
    expect(exit.output).toContain('TV Checkout refuses to start: The store holds the demo account demo@tvcheckout.test, whose password is published');
    const store = await openStore({ engine: 'pglite', dataDir });
    try {
      const [plan] = await store.db.select({ name: products.name }).from(products).where(eq(products.pid, 1));
      expect(plan?.name).toBe('1 Month');
    } finally {
      await store.close();
    }
  }, 120_000);
});
