/**
 * The price a Coinbase Business checkout event is compared with: a checkout priced in fiat reads back with
 * `amount`/`currency` in USDC and the price asked for in `fiatAmount`/`fiatCurrency`
 * (docs.cdp.coinbase.com/api-reference/business-api/rest-api/checkouts/create-checkout); without fiat
 * fields, `amount`/`currency` are the price. Webhooks are the checkout plus `eventType`, the event id in
 * `X-Event-Id` (docs.cdp.coinbase.com/coinbase-business/checkout-apis/webhooks, webhooks/verify-signatures).
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkoutPrice, coinbaseGateway } from './index';
import { signHook0 } from './signature';

const SECRET = 'unit-webhook-secret';
const { privateKey } = generateKeyPairSync('ed25519');
const jwk = privateKey.export({ format: 'jwk' });
const gateway = coinbaseGateway({
  apiUrl: 'http://127.0.0.1:9', apiKeyId: 'organizations/o/apiKeys/k', webhookSecret: SECRET,
  apiKeySecret: Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]).toString('base64'),
});

function deliver(checkout: Record<string, unknown>, eventType = 'checkout.payment.success') {
  const rawBody = JSON.stringify({ ...checkout, eventType });
  const headers = { 'content-type': 'application/json', 'x-event-id': 'evt-1', 'x-event-type': eventType };
  const now = Math.floor(Date.now() / 1000);
  return gateway.verifyWebhook({ headers: { ...headers, 'x-hook0-signature': signHook0(SECRET, rawBody, headers, now) }, rawBody, now });
}

const base = { id: '68f7a946db0529ea9b6d3a12', url: 'https://payments.coinbase.com/payment-links/pl_1', status: 'COMPLETED', metadata: { invoiceId: '2001', paymentId: 'pay_x' } };

describe('the price of a Coinbase checkout event', () => {
  it('priced in USD without fiat fields: amount and currency are the price', () => {
    const verdict = deliver({ ...base, amount: '12.99', currency: 'USD' });
    expect(verdict).toMatchObject({ ok: true, events: [{ id: 'coinbase:evt-1', type: 'payment.succeeded', amountCents: 1299, currency: 'USD', invoiceId: 2001, paymentId: 'pay_x' }] });
  });

  it('priced in EUR: USDC amount and currency, the price in fiatAmount and fiatCurrency, which are compared', () => {
    const verdict = deliver({ ...base, amount: '14.03', currency: 'USDC', fiatAmount: '12.99', fiatCurrency: 'EUR' });
    expect(verdict).toMatchObject({ ok: true, events: [{ amountCents: 1299, currency: 'EUR' }] });
  });

  it('priced in GBP the same way', () => {
    expect(checkoutPrice({ amount: '13.96', currency: 'USDC', fiatAmount: '10.99', fiatCurrency: 'GBP' })).toEqual({ amountCents: 1099, currency: 'GBP' });
  });

  it('priced in USDC: no fiat fields, the USDC amount is the price', () => {
    expect(checkoutPrice({ amount: '100.50', currency: 'USDC' })).toEqual({ amountCents: 10050, currency: 'USDC' });
  });

  it.each([
    ['an amount that is not a decimal string', { amount: 14.03, currency: 'USDC', fiatAmount: '12.99', fiatCurrency: 'EUR' }],
    ['a fiat amount that is not a decimal string', { amount: '14.03', currency: 'USDC', fiatAmount: 12.99, fiatCurrency: 'EUR' }],
    ['a fiat amount without its currency', { amount: '14.03', currency: 'USDC', fiatAmount: '12.99' }],
  ])('%s is refused', (_name, money) => {
    expect(deliver({ ...base, ...money })).toMatchObject({ ok: false, reason: 'bad_request' });
  });

  it('checkout.payment.expired is an expired event of the payment, dated by the checkout\'s updatedAt', () => {
    const verdict = deliver({ ...base, status: 'EXPIRED', amount: '14.03', currency: 'USDC', fiatAmount: '12.99', fiatCurrency: 'EUR', updatedAt: '2026-01-01T10:00:00.000Z' }, 'checkout.payment.expired');
    expect(verdict).toMatchObject({ ok: true, events: [{ type: 'payment.expired', paymentId: 'pay_x', createdAt: new Date('2026-01-01T10:00:00.000Z') }] });
  });
});
