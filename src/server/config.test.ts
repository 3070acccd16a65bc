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

  it('SHUTDOWN_DEADLINE_MS: 10 s for requests in flight to finish on SIGTERM unless set; a positive whole number', () => {
    expect(readConfig({}).shutdownDeadlineMs).toBe(10_000);
    expect(readConfig({ SHUTDOWN_DEADLINE_MS: '2500' }).shutdownDeadlineMs).toBe(2_500);
    expect(() => readConfig({ SHUTDOWN_DEADLINE_MS: 'soon' })).toThrow('SHUTDOWN_DEADLINE_MS must be a positive whole number, got soon.');
  });

  it('RESELLER_PANEL_URL: the demo panel by default in the demo, none in production, and only an http(s) address', () => {
    expect(readConfig({}).resellerPanelUrl).toBe('https://panel.tvcheckout.test/');
    expect(readConfig({ NODE_ENV: 'production' }).resellerPanelUrl).toBeNull();
    expect(readConfig({ NODE_ENV: 'production', RESELLER_PANEL_URL: 'https://panel.example.net/reseller' }).resellerPanelUrl).toBe('https://panel.example.net/reseller');
    expect(() => readConfig({ RESELLER_PANEL_URL: 'javascript:alert(1)' })).toThrow('RESELLER_PANEL_URL must be an http(s) address, got javascript:alert(1).');
    expect(() => readConfig({ RESELLER_PANEL_URL: 'panel.example.net' })).toThrow(ConfigError);
  });
});

describe('mail', () => {
  it('without SMTP_URL keeps mail in the outbox, from the demo sender; the defaults poll every 5 s and retry after 30 s', () => {
    expect(readConfig({}).mail).toEqual({ smtpUrl: null, from: 'TV Checkout <no-reply@tvcheckout.test>', pollMs: 5_000, retryMs: 30_000, credentials: false, recoveryAfterMs: 60 * 60_000 });
  });

  it('RECOVERY_AFTER_MIN is 60 minutes by default, takes 0 and fractions, and is refused at or past the one-day payment deadline or when not a number', () => {
    expect(readConfig({ RECOVERY_AFTER_MIN: '0' }).mail.recoveryAfterMs).toBe(0);
    expect(readConfig({ RECOVERY_AFTER_MIN: '0.5' }).mail.recoveryAfterMs).toBe(30_000);
    expect(readConfig({ RECOVERY_AFTER_MIN: '1439' }).mail.recoveryAfterMs).toBe(1439 * 60_000);
    expect(() => readConfig({ RECOVERY_AFTER_MIN: '1440' })).toThrow('RECOVERY_AFTER_MIN must be a number from 0 to 1439, got 1440.');
    for (const wrong of ['-1', 'soon']) expect(() => readConfig({ RECOVERY_AFTER_MIN: wrong }), wrong).toThrow(ConfigError);
  });

  it('takes SMTP_URL (or SMTP_URL_FILE) with MAIL_FROM, MAIL_POLL_MS, MAIL_RETRY_MS and MAIL_CREDENTIALS=on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tvc-config-'));
    writeFileSync(join(dir, 'smtp'), 'smtps://user:secret@mail.example\n');
    expect(readConfig({ SMTP_URL_FILE: join(dir, 'smtp'), MAIL_FROM: 'shop@example.com', MAIL_POLL_MS: '250', MAIL_RETRY_MS: '1000', MAIL_CREDENTIALS: 'on' }).mail)
      .toEqual({ smtpUrl: 'smtps://user:secret@mail.example', from: 'shop@example.com', pollMs: 250, retryMs: 1_000, credentials: true, recoveryAfterMs: 60 * 60_000 });
  });

  it('refuses SMTP_URL without MAIL_FROM, a URL that is not smtp(s)://, query options (they could turn certificate checks off), and a MAIL_FROM without an address', () => {
    expect(() => readConfig({ SMTP_URL: 'smtp://mail.example:587' })).toThrow('MAIL_FROM is not set: with SMTP_URL give the sender, e.g. MAIL_FROM="TV Checkout <no-reply@example.com>".');
    expect(() => readConfig({ SMTP_URL: 'http://user:pw@mail.example', MAIL_FROM: 'a@example.com' })).toThrow(ConfigError);
    // The message does not echo the URL: it may hold the SMTP password.
    expect(() => readConfig({ SMTP_URL: 'http://user:pw@mail.example', MAIL_FROM: 'a@example.com' })).not.toThrow(/pw/);
    expect(() => readConfig({ SMTP_URL: 'smtp://mail.example?tls.rejectUnauthorized=false', MAIL_FROM: 'a@example.com' })).toThrow('SMTP_URL takes no query options (certificate checks stay on): give only smtp(s)://[user:password@]host[:port].');
    expect(() => readConfig({ MAIL_FROM: 'TV Checkout' })).toThrow('MAIL_FROM must be an address (a@example.com) or Name <a@example.com>, got TV Checkout.');
  });
});
