import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A CDP secret API key as the portal hands it out, and its public half for the fake. */
export interface CdpTestKey {
  keyId: string;
  /** COINBASE_API_KEY_SECRET: EC PEM or base64 Ed25519 (seed + public key). */
  secret: string;
  publicKey: KeyObject;
}

export function cdpTestKey(kind: 'ed25519' | 'ec', keyId = `organizations/test-org/apiKeys/${kind}-key`): CdpTestKey {
  if (kind === 'ec') {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { keyId, secret: privateKey.export({ type: 'sec1', format: 'pem' }).toString(), publicKey: createPublicKey(privateKey) };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const secret = Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]).toString('base64');
  return { keyId, secret, publicKey };
}
