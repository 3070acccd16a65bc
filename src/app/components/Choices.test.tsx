import { describe, expect, it } from 'vitest';
import { defaultGatewayFor } from './Choices';

describe('the gateway an upsell or reseller order starts with', () => {
  const gateways = [
    { module: 'hostedlink', displayname: 'Card', type: 'CreditCard', currencies: ['EUR'] },
    { module: 'coinbase', displayname: 'Crypto', type: 'Cryptocurrency', currencies: ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] },
    { module: 'sandbox', displayname: 'Card (sandbox)', type: 'CreditCard' },
  ];

  it('is the default when it takes the currency', () => {
    expect(defaultGatewayFor(gateways, 'hostedlink', 'EUR')).toBe('hostedlink');
  });

  it('is the first gateway taking the currency when the default does not', () => {
    expect(defaultGatewayFor(gateways, 'hostedlink', 'GBP')).toBe('coinbase');
  });

  it('counts a gateway that names no currencies as taking any', () => {
    expect(defaultGatewayFor(gateways.slice(2), 'sandbox', 'GBP')).toBe('sandbox');
  });
});
