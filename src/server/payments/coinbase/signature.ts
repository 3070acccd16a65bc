import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SIGNATURE_TOLERANCE_S } from '../signature';

/**
 * CDP webhooks (Coinbase Business) sign with `X-Hook0-Signature: t=<unix>,h=<header names>,v1=<hex>`:
 * v1 = HMAC-SHA256(secret, `${t}.${h}.${values of the h headers joined with "."}.${rawBody}`), h being the
 * space-separated header names as sent (docs.cdp.coinbase.com/webhooks/verify-signatures).
 */
function signedPayload(timestamp: string, headerNames: string, headers: IncomingHttpHeaders, rawBody: string): string {
  const values = headerNames.split(' ').filter(Boolean).map((name) => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  });
  return `${timestamp}.${headerNames}.${values.join('.')}.${rawBody}`;
}

const hmac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

/** The X-Hook0-Signature a CDP webhook carries (for the fakes and tests); several secrets give several v1 (rotation). */
export function signHook0(secrets: string | string[], rawBody: string, headers: Record<string, string>, timestamp = Math.floor(Date.now() / 1000)): string {
  const names = Object.keys(headers).join(' ');
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const payload = signedPayload(String(timestamp), names, lower, rawBody);
  const v1 = (Array.isArray(secrets) ? secrets : [secrets]).map((secret) => `v1=${hmac(secret, payload)}`);
  return [`t=${timestamp}`, `v0=${hmac(Array.isArray(secrets) ? secrets[0] ?? '' : secrets, `${timestamp}.${rawBody}`)}`, `h=${names}`, ...v1].join(',');
}

export type Hook0Check = { ok: true } | { ok: false; reason: 'invalid_signature' | 'stale_timestamp' };

/** Checks an X-Hook0-Signature in constant time against every v1 it carries, then its timestamp (300 s either way). */
export function verifyHook0(secret: string, headers: IncomingHttpHeaders, rawBody: string, now: number): Hook0Check {
  const header = headers['x-hook0-signature'];
  if (typeof header !== 'string' || header === '') return { ok: false, reason: 'invalid_signature' };
  const fields = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? ['', ''] : [part.slice(0, at).trim(), part.slice(at + 1)];
  });
  const timestamp = fields.find(([name]) => name === 't')?.[1]?.trim() ?? '';
  const headerNames = fields.find(([name]) => name === 'h')?.[1] ?? '';
  const signatures = fields.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value as string);
  if (!/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return { ok: false, reason: 'invalid_signature' };
  const expected = Buffer.from(hmac(secret, signedPayload(timestamp, headerNames, headers, rawBody)), 'hex');
  let matches = false;
  // Every v1 is compared (no early exit), each in constant time.
  for (const signature of signatures) {
    const given = Buffer.from(signature.trim(), 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matches = true;
  }
  if (!matches) return { ok: false, reason: 'invalid_signature' };
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale_timestamp' };
  return { ok: true };
}
