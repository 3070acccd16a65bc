import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseTrustProxy, readConfig } from './config';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    expect([undefined, '', 'false', '0'].map(parseTrustProxy)).toEqual([false, false, false, false]);
  });

  it('takes a hop count or a list of addresses and CIDR ranges', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
  });

  it('never trusts every hop: true and * are refused with what to give instead', () => {
    for (const value of ['true', '*']) expect(() => parseTrustProxy(value)).toThrow(/number of proxies in front.*or their addresses/);
    expect(() => parseTrustProxy('true')).toThrow(ConfigError);
  });

  it('refuses what is not an address or a range', () => {
    expect(() => parseTrustProxy('proxy.internal')).toThrow('not an address: proxy.internal');
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow('not an address: 10.0.0.0/33');
    expect(() => parseTrustProxy('10.0.0.1,10.0.0.0/8/1')).toThrow('not an address: 10.0.0.0/8/1');
  });
});

describe('modes and keys', () => {
  it('production is NODE_ENV=production unless DEMO=on; anything else is the demo', () => {
    expect(readConfig({ NODE_ENV: 'production' }).mode).toBe('production');
    expect(readConfig({ NODE_ENV: 'production', DEMO: 'on' }).mode).toBe('demo');
    expect(readConfig({}).mode).toBe('demo');
    expect(readConfig({ NODE_ENV: 'development' }).mode).toBe('demo');
  });

  it('reads a key from <NAME>_FILE, without its trailing newline, and names an unreadable file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tvc-config-'));
    writeFileSync(join(dir, 'session'), 'from-a-file\n');
    const config = readConfig({ SESSION_SECRET_FILE: join(dir, 'session'), WEBHOOK_SECRET_SANDBOX: 'direct' });
    expect(config.secrets.session).toBe('from-a-file');
    expect(config.secrets.webhook).toEqual({ sandbox: 'direct' });
    expect(() => readConfig({ ENCRYPTION_KEY_FILE: join(dir, 'missing') })).toThrow(`ENCRYPTION_KEY_FILE names ${join(dir, 'missing')}, which cannot be read (ENOENT).`);
  });

  it('refuses a request timeout that is not a positive whole number', () => {
    expect(readConfig({}).requestTimeoutMs).toBe(30_000);
    expect(() => readConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow('REQUEST_TIMEOUT_MS must be a positive whole number, got 0.');
  });
});
