/**
 * The signature formats against their documents, computed here by hand (node:crypto), not by the code
 * under test: CDP's X-Hook0-Signature (docs.cdp.coinbase.com/webhooks/verify-signatures) and the
 * hostedlink canonical strings the README gives a processor.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyHook0 } from './coinbase/signature';
import { signLink, verifyCallback } from './hostedlink/canonical';

const hex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

describe('X-Hook0-Signature as CDP documents it', () => {
  const secret = 'whsec-test';
  const body = '{"id":"69163c762331ed43dc64a6ef","eventType":"checkout.payment.success","amount":"12.99","currency":"EUR"}';
  const headers = { 'content-type': 'application/json', 'x-event-id': 'b7c1e2d4-0000-4000-8000-000000000001', 'x-event-type': 'checkout.payment.success' };
  const t = 1_748_788_200;
  // {t}.{h}.{header values joined with "."}.{raw body}
  const documented = hex(secret, `${t}.content-type x-event-id x-event-type.application/json.b7c1e2d4-0000-4000-8000-000000000001.checkout.payment.success.${body}`);

  it('accepts a signature built by the documented formula, with v0 and h in the documented order', () => {
    const header = `t=${t},v0=${hex(secret, `${t}.${body}`)},h=content-type x-event-id x-event-type,v1=${documented}`;
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': header }, body, t)).toEqual({ ok: true });
  });

  it('accepts any of several v1 (a secret being rolled) and refuses when none matches', () => {
    const rolled = `t=${t},h=content-type x-event-id x-event-type,v1=${hex('old', 'x')},v1=${documented}`;
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': rolled }, body, t)).toEqual({ ok: true });
    const none = `t=${t},h=content-type x-event-id x-event-type,v1=${hex('old', 'x')}`;
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': none }, body, t)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  it('refuses a changed signed header, a v0 alone, and a timestamp more than 300 s either way', () => {
    const header = `t=${t},h=content-type x-event-id x-event-type,v1=${documented}`;
    expect(verifyHook0(secret, { ...headers, 'x-event-type': 'checkout.payment.failed', 'x-hook0-signature': header }, body, t)).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': `t=${t},v0=${hex(secret, `${t}.${body}`)}` }, body, t)).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': header }, body, t + 300)).toEqual({ ok: true });
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': header }, body, t + 301)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyHook0(secret, { ...headers, 'x-hook0-signature': header }, body, t - 301)).toEqual({ ok: false, reason: 'stale_timestamp' });
  });
});

describe('hostedlink canonical strings as the README writes them', () => {
  const secret = 'processor-secret';

  it('signs a link over "hostedlink-link-v1" and the fields in order, joined with line feeds', () => {
    const query = signLink(secret, { invoice: 2001, ref: 'pay_abc', amount: '12.90', currency: 'EUR', return: 'https://shop.example/checkout/waiting', expires: 1_748_874_600 });
    expect(query.get('sig')).toBe(hex(secret, 'hostedlink-link-v1\n2001\npay_abc\n12.90\nEUR\nhttps://shop.example/checkout/waiting\n1748874600'));
    expect([...query.keys()]).toEqual(['invoice', 'ref', 'amount', 'currency', 'return', 'expires', 'sig']);
  });

  it('verifies a callback signed over "hostedlink-callback-v1", t and the callback fields in order', () => {
    const callback = { id: 'evt-123', status: 'paid' as const, invoice: 2001, ref: 'pay_abc', amount: '12.90', currency: 'EUR', paidAt: 1_748_788_190 };
    const t = 1_748_788_200;
    const v1 = hex(secret, `hostedlink-callback-v1\n${t}\nevt-123\npaid\n2001\npay_abc\n12.90\nEUR\n1748788190`);
    expect(verifyCallback(secret, `t=${t},v1=${v1}`, callback, t)).toEqual({ ok: true });
    expect(verifyCallback(secret, `t=${t},v1=${v1}`, { ...callback, amount: '12.9' }, t)).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(verifyCallback(secret, `t=${t},v1=${v1}`, callback, t + 301)).toEqual({ ok: false, reason: 'stale_timestamp' });
  });
});
