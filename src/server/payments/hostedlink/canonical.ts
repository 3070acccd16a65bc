import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_TOLERANCE_S } from '../signature';

/**
 * The hostedlink protocol (README, "hostedlink"): both directions are signed with HMAC-SHA256 (hex,
 * lower case) keyed with HOSTEDLINK_SECRET, over a canonical string: a fixed first line naming the
 * message, then the fields in a fixed order, joined with "\n" (no trailing newline). Amounts are written
 * with exactly two decimals and a dot ("12.90"), times as Unix seconds, the return URL exactly as sent.
 */
export interface LinkFields {
  invoice: number;
  ref: string;
  amount: string;
  currency: string;
  return: string;
  expires: number;
}

export interface CallbackFields {
  id: string;
  status: 'paid' | 'declined';
  invoice: number;
  ref: string;
  amount: string;
  currency: string;
  paidAt: number;
}

export const linkCanonical = (link: LinkFields) =>
  ['hostedlink-link-v1', link.invoice, link.ref, link.amount, link.currency, link.return, link.expires].join('\n');

export const callbackCanonical = (timestamp: number, callback: CallbackFields) =>
  ['hostedlink-callback-v1', timestamp, callback.id, callback.status, callback.invoice, callback.ref, callback.amount, callback.currency, callback.paidAt].join('\n');

export const hostedlinkHmac = (secret: string, canonical: string) => createHmac('sha256', secret).update(canonical).digest('hex');

/** The query string of a link: the fields, then `sig`. */
export function signLink(secret: string, link: LinkFields): URLSearchParams {
  return new URLSearchParams({
    invoice: String(link.invoice), ref: link.ref, amount: link.amount, currency: link.currency, return: link.return, expires: String(link.expires),
    sig: hostedlinkHmac(secret, linkCanonical(link)),
  });
}

/** The fields of a link's query when its `sig` matches (the processor's check; used by the fake). */
export function verifyLink(secret: string, query: URLSearchParams): LinkFields | null {
  const invoice = Number(query.get('invoice'));
  const expires = Number(query.get('expires'));
  const fields: LinkFields = { invoice, ref: query.get('ref') ?? '', amount: query.get('amount') ?? '', currency: query.get('currency') ?? '', return: query.get('return') ?? '', expires };
  if (!Number.isSafeInteger(invoice) || !Number.isSafeInteger(expires)) return null;
  return equalHex(query.get('sig') ?? '', hostedlinkHmac(secret, linkCanonical(fields))) ? fields : null;
}

/** `Webhook-Signature: t=<unix>,v1=<hex>` of a callback; several secrets give several v1 (rotation). */
export function signCallback(secrets: string | string[], callback: CallbackFields, timestamp = Math.floor(Date.now() / 1000)): string {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${hostedlinkHmac(secret, callbackCanonical(timestamp, callback))}`)].join(',');
}

function equalHex(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && b.length > 0 && timingSafeEqual(a, b);
}

/** Checks a callback's Webhook-Signature against every v1 it carries, then its timestamp (300 s either way). */
export function verifyCallback(secret: string, header: string, callback: CallbackFields, now: number): { ok: true } | { ok: false; reason: 'invalid_signature' | 'stale_timestamp' } {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1] ?? '';
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value as string);
  if (!/^\d{1,12}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'invalid_signature' };
  const expected = hostedlinkHmac(secret, callbackCanonical(Number(t), callback));
  let matches = false;
  for (const signature of signatures) if (equalHex(signature, expected)) matches = true;
  if (!matches) return { ok: false, reason: 'invalid_signature' };
  if (Math.abs(now - Number(t)) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale_timestamp' };
  return { ok: true };
}
