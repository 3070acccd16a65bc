/**
 * The server prices every row of the facts table (tests/facts/prices.ts) as the table says: the same
 * literal amounts the view walks and machine replays expect, so client and server cannot agree on a
 * wrong total (a truncated £2.30, a discount rounded down) and still pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMO_REFUSALS, checkoutFacts } from '../facts/prices';
import { BASIC_ORDER, BILLING_UNDER_TEST, createTestApp, expectCurrencyNotOffered, guest, type OrderRequest, type TestApp } from './helper';

describe('the server charges the facts table\'s amounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  // Each order comes from a new guest at its own address, so the fraud velocity rule stays out of the way.
  const order = async (body: Partial<OrderRequest>) => (await guest(t.app)).call('order', { body: { ...BASIC_ORDER, ...body } });

  const rows = checkoutFacts().map(([choices, fact]) => {
    const addons = [choices.extraConnection && 'extra connection', choices.proxyProtection && 'proxy protection'].filter(Boolean).join(' + ') || 'no add-on';
    return [`plan ${choices.pid}, ${addons}, ${choices.promo ?? 'no promo'}: ${fact.total.toFixed(2)} ${choices.currency}`, choices, fact] as const;
  });

  it.each(rows)('%s', async (_name, choices, fact) => {
    const answer = await order({
      pid: choices.pid,
      currency: choices.currency,
      amount: fact.total,
      configoptions: { '2': choices.extraConnection ? 1 : 0, '4': choices.proxyProtection ? 1 : 0 },
      ...(choices.promo ? { promocode: choices.promo } : {}),
    });
    // A new guest has no country: WHMCS bills it in EUR only.
    if (BILLING_UNDER_TEST === 'whmcs' && choices.currency === 'GBP') return expectCurrencyNotOffered(answer, 'EUR');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ amount: fact.total, currency: choices.currency, status: 'Pending' });
  });

  it.each(PROMO_REFUSALS.flatMap(({ code, pids, message }) => pids.map((pid) => [code, pid, message] as const)))(
    '%s on plan %i is refused with 422 promotion_invalid: "%s"',
    async (code, pid, message) => {
      const refused = await order({ pid, promocode: code });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body).toEqual({ error: { code: 'promotion_invalid', message } });
    },
  );
});
