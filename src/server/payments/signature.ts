import { createHmac, timingSafeEqual } from 'node:crypto';

/** Webhooks older than this (or this far in the future) are refused. */
export const SIGNATURE_TOLERANCE_S = 300;

/** The Webhook-Signature header for a raw body: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${rawBody}`)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'invalid_signature' | 'stale_timestamp' };

/**
 * Verifies a Webhook-Signature header against the raw body in constant time; any v1 may match
 * (several are sent while a secret is rolled), other schemes are ignored.
 */
export function verifyWebhook(secret: string, rawBody: string, header: string, now = Math.floor(Date.now() / 1000)): SignatureCheck {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value as string);
  if (!Number.isInteger(timestamp) || signatures.length === 0) return { ok: false, reason: 'invalid_signature' };
  const expected = Buffer.from(hmac(secret, `${timestamp}.${rawBody}`), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, reason: 'invalid_signature' };
  if (Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale_timestamp' };
  return { ok: true };
}

function hmac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}
