import { describe, expect, it } from 'vitest';
import { operationPolicy } from './openapi';
import { contractOperations, shareableInRender } from './operations';

const policyOf = (operationId: string) => {
  const operation = contractOperations().find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is not in the contract`);
  return operation.policy;
};

describe('the policy the server reads from the contract', () => {
  it('limits log-in to 10 a minute, promo lookup and order creation to 30 (DESIGN §6.7: auth, promo lookup and order creation are rate limited)', () => {
    expect(policyOf('auth').rateLimit).toEqual({ max: 10, timeWindow: '1 minute' });
    expect(policyOf('getPromotion').rateLimit).toEqual({ max: 30, timeWindow: '1 minute' });
    expect(policyOf('order').rateLimit).toEqual({ max: 30, timeWindow: '1 minute' });
    expect(policyOf('getProducts').rateLimit).toBeUndefined();
  });

  it('answers the catalogue from memory and the client\'s services through the store gate', () => {
    expect(policyOf('getProducts').answeredFromMemory).toBe(true);
    expect(policyOf('health').answeredFromMemory).toBe(true);
    expect(policyOf('getClientProducts').answeredFromMemory).toBeUndefined();
  });

  it('lets the provider\'s webhook and the sign-in link\'s button through the cross-site check, and no other post', () => {
    expect(policyOf('paymentWebhook').crossSiteAllowed).toBe(true);
    expect(policyOf('useSignInLink').crossSiteAllowed).toBe(true);
    expect(policyOf('order').crossSiteAllowed).toBeUndefined();
  });

  it('sends the client\'s services and the session no-store, and the catalogue cacheable', () => {
    expect(policyOf('getClientProducts').private).toBe(true);
    expect(policyOf('getSession').private).toBe(true);
    expect(policyOf('getProducts').private).toBeUndefined();
  });

  it('lets a cached page embed the catalogue, gateways and merchant, never the session', () => {
    const shareable = shareableInRender(contractOperations());
    expect(shareable.has('/checkout/api/getProducts')).toBe(true);
    expect(shareable.has('/checkout/api/getGateway')).toBe(true);
    expect(shareable.has('/checkout/api/merchant')).toBe(true);
    expect(shareable.has('/checkout/api/session')).toBe(false);
    expect(shareable.has('/checkout/api/getClientProducts')).toBe(false);
  });
});

describe('reading an operation\'s extensions', () => {
  it('refuses an extension it does not know, so a misspelt rule is not silently dropped', () => {
    expect(() => operationPolicy({ operationId: 'auth', 'x-privat': true }, 'post', '/checkout/api/auth')).toThrow(/unknown extension x-privat/);
  });

  it('refuses a rate limit without a count and a window', () => {
    expect(() => operationPolicy({ 'x-rate-limit': { max: 10 } }, 'post', '/checkout/api/auth')).toThrow(/x-rate-limit is/);
    expect(() => operationPolicy({ 'x-rate-limit': { max: 0, per: '1 minute' } }, 'post', '/checkout/api/auth')).toThrow(/x-rate-limit is/);
    expect(operationPolicy({ 'x-rate-limit': { max: 5, per: '2 minutes' } }, 'post', '/checkout/api/auth')).toEqual({ rateLimit: { max: 5, timeWindow: '2 minutes' } });
  });

  it('refuses a shareable answer on a path with parameters, which a page\'s recorded answer would never match', () => {
    expect(() => operationPolicy({ 'x-shareable-in-render': true }, 'get', '/checkout/api/webhooks/{gateway}')).toThrow(/without path parameters/);
  });
});
