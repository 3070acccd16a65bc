import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** A CDP API key's JWTs live this long (the CDP SDKs' default, and what Coinbase accepts). */
export const CDP_JWT_TTL_S = 120;

/** A CDP secret API key ready to sign: EC keys sign ES256, Ed25519 keys EdDSA. */
export interface CdpSigningKey {
  keyId: string;
  alg: 'ES256' | 'EdDSA';
  key: KeyObject;
}

/**
 * Reads a CDP API key secret as the portal gives it: an EC key in PEM ("-----BEGIN EC PRIVATE KEY-----",
 * escaped newlines allowed), or an Ed25519 key as base64 of 64 bytes (32-byte seed, then the 32-byte public key).
 */
export function cdpSigningKey(keyId: string, secret: string): CdpSigningKey {
  const text = secret.trim().replace(/\\n/g, '\n');
  if (text.startsWith('-----BEGIN')) {
    const key = createPrivateKey(text);
    if (key.asymmetricKeyType !== 'ec') throw new Error(`The CDP API key secret is a ${key.asymmetricKeyType} key; CDP keys are EC (P-256) or Ed25519.`);
    return { keyId, alg: 'ES256', key };
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 64) throw new Error('The CDP API key secret is neither an EC PEM key nor a base64 Ed25519 key of 64 bytes.');
  const key = createPrivateKey({ format: 'jwk', key: { kty: 'OKP', crv: 'Ed25519', d: bytes.subarray(0, 32).toString('base64url'), x: bytes.subarray(32).toString('base64url') } });
  return { keyId, alg: 'EdDSA', key };
}

/**
 * The Bearer JWT of one request, as the CDP authentication docs describe it: header `alg`, `kid` = key id,
 * `typ` JWT and a random `nonce`; claims `iss` "cdp", `sub` = key id, `nbf` now, `exp` now + 120 s and
 * `uris` ["METHOD host/path"] naming this very request.
 */
export async function cdpBearer(signing: CdpSigningKey, method: string, url: URL, now = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ iss: 'cdp', sub: signing.keyId, nbf: now, exp: now + CDP_JWT_TTL_S, uris: [`${method.toUpperCase()} ${url.host}${url.pathname}`] })
    .setProtectedHeader({ alg: signing.alg, kid: signing.keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
    .sign(signing.key);
}
