import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { cdpBearer, cdpSigningKey } from './jwt';

/** CDP keys as the portal shows them: an EC PEM, or base64 of the Ed25519 seed and public key. */
function ecKey() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { secret: privateKey.export({ type: 'sec1', format: 'pem' }).toString(), publicKey: createPublicKey(privateKey) };
}
function ed25519Key() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return { secret: Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]).toString('base64'), publicKey };
}

describe('the CDP API-key JWT of a request', () => {
  it.each([['an EC key', ecKey, 'ES256'], ['an Ed25519 key', ed25519Key, 'EdDSA']] as const)('with %s: alg %s, kid and nonce; iss cdp, sub, nbf, exp 120 s later, uris naming the request', async (_name, makeKey, alg) => {
    const key = makeKey();
    const signing = cdpSigningKey('organizations/o/apiKeys/k', key.secret);
    const token = await cdpBearer(signing, 'post', new URL('https://business.coinbase.com/sandbox/api/v1/checkouts'), 1_748_788_200);
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg, kid: 'organizations/o/apiKeys/k', typ: 'JWT' });
    expect(header.nonce).toMatch(/^[0-9a-f]{32}$/);
    const { payload } = await jwtVerify(token, key.publicKey, { currentDate: new Date(1_748_788_210_000) });
    expect(payload).toEqual({ iss: 'cdp', sub: 'organizations/o/apiKeys/k', nbf: 1_748_788_200, exp: 1_748_788_320, uris: ['POST business.coinbase.com/sandbox/api/v1/checkouts'] });
  });

  it('a fresh nonce each time', async () => {
    const signing = cdpSigningKey('k', ed25519Key().secret);
    const url = new URL('https://business.coinbase.com/api/v1/checkouts/0123456789abcdef01234567');
    const [a, b] = await Promise.all([cdpBearer(signing, 'GET', url), cdpBearer(signing, 'GET', url)]);
    expect(decodeProtectedHeader(a).nonce).not.toBe(decodeProtectedHeader(b).nonce);
  });

  it('refuses a secret that is neither an EC PEM nor 64 bytes of base64', () => {
    expect(() => cdpSigningKey('k', 'c2hvcnQ=')).toThrow(/neither an EC PEM key nor a base64 Ed25519 key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => cdpSigningKey('k', rsa)).toThrow(/is a rsa key/);
  });
});
