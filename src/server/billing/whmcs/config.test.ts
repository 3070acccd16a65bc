import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readBillingConfig } from '../../config';

const WHMCS = {
  BILLING: 'whmcs', WHMCS_API_URL: 'https://billing.example/includes/api.php', WHMCS_API_IDENTIFIER: 'ident', WHMCS_API_SECRET: 'secret',
  WHMCS_RETAIL_GID: '1', WHMCS_RESELLER_GID: '2', WHMCS_RESELLER_CLIENT_GROUP: '3',
};

describe('BILLING configuration', () => {
  it('is the local store unless BILLING=whmcs', () => {
    expect(readBillingConfig({})).toEqual({ kind: 'local' });
    expect(readBillingConfig({ BILLING: 'local', WHMCS_API_URL: 'ignored' })).toEqual({ kind: 'local' });
  });

  it('reads every WHMCS variable', () => {
    expect(readBillingConfig({ ...WHMCS, WHMCS_API_ACCESSKEY: 'k3y!', WHMCS_RETRY_POLL_MS: '5000' })).toEqual({
      kind: 'whmcs', url: 'https://billing.example/includes/api.php', identifier: 'ident', secret: 'secret', accesskey: 'k3y!',
      retailGid: 1, resellerGid: 2, resellerClientGroup: 3, retryPollMs: 5000,
    });
  });

  it('retries unfinished WHMCS work every minute unless WHMCS_RETRY_POLL_MS says otherwise, and refuses a poll that is not a positive whole number', () => {
    expect(readBillingConfig(WHMCS)).toMatchObject({ retryPollMs: 60_000 });
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_RETRY_POLL_MS: '0' })).toThrow(ConfigError);
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_RETRY_POLL_MS: 'soon' })).toThrow(ConfigError);
  });

  it('refuses BILLING=whmcs with any required variable missing, naming it', () => {
    for (const name of ['WHMCS_API_URL', 'WHMCS_API_IDENTIFIER', 'WHMCS_API_SECRET', 'WHMCS_RETAIL_GID', 'WHMCS_RESELLER_GID', 'WHMCS_RESELLER_CLIENT_GROUP']) {
      const env: Record<string, string> = { ...WHMCS };
      delete env[name];
      expect(() => readBillingConfig(env)).toThrow(ConfigError);
      expect(() => readBillingConfig(env)).toThrow(`${name} is not set`);
    }
  });

  it('refuses an unknown BILLING, a non-URL and a group that is not an id', () => {
    expect(() => readBillingConfig({ BILLING: 'stripe' })).toThrow('BILLING must be local or whmcs, got stripe.');
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_API_URL: 'billing.example' })).toThrow(ConfigError);
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_RETAIL_GID: 'retail' })).toThrow('WHMCS_RETAIL_GID must be a WHMCS id');
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_API_ACCESSKEY: 'bad key' })).toThrow(ConfigError);
  });

  it('refuses plain http to a remote WHMCS in production (the secret travels with every call), not on loopback', () => {
    expect(() => readBillingConfig({ ...WHMCS, WHMCS_API_URL: 'http://billing.example/includes/api.php' }, 'production')).toThrow('WHMCS_API_URL must be https:// in production');
    expect(readBillingConfig({ ...WHMCS, WHMCS_API_URL: 'http://127.0.0.1:8090/includes/api.php' }, 'production')).toMatchObject({ kind: 'whmcs' });
    expect(readBillingConfig({ ...WHMCS, WHMCS_API_URL: 'http://billing.example/includes/api.php' }, 'demo')).toMatchObject({ kind: 'whmcs' });
  });

  it('reads the secret from WHMCS_API_SECRET_FILE like other secrets', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'whmcs-')), 'secret');
    writeFileSync(file, 'from-file\n');
    const env: Record<string, string> = { ...WHMCS, WHMCS_API_SECRET_FILE: file };
    delete env.WHMCS_API_SECRET;
    expect(readBillingConfig(env)).toMatchObject({ secret: 'from-file' });
  });
});
