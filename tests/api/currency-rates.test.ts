import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCatalogue } from '../../src/server/catalogue/apply';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from '../../src/server/catalogue/load';
import {
  BASIC_ORDER, BILLING_UNDER_TEST, Browser, createTestApp, expectCurrencyNotOffered, freshEmail, localBillingOnly, promotionUses, rows, setCurrencyRate, storeSnapshot, type Answer, type TestApp,
} from './helper';

/** What a proxy in front (COUNTRY_HEADER=cf-ipcountry) says of a visitor from Great Britain. */
const FROM_GB = { 'cf-ipcountry': 'GB' };

const invoiceCents = async (t: TestApp, invoiceid: number) =>
  (await rows<{ amount_cents: number; currency: string }>(t.db, sql`select amount_cents, currency from invoices where id = ${invoiceid}`))[0];

/** A visitor from Great Britain, identified as a guest; every call carries the proxy's country header. */
async function britishGuest(t: TestApp) {
  const browser = new Browser(t.app);
  const identified = await browser.call('authMiddleware', { body: { email: freshEmail('uk') }, headers: FROM_GB });
  expect(identified.status, identified.text).toBe(200);
  return {
    currency: () => browser.call('getCurrency', { headers: FROM_GB }),
    promotion: (code: string) => browser.call('getPromotion', { query: { code }, headers: FROM_GB }),
    order: (body: Partial<typeof BASIC_ORDER>) => browser.call('order', { body: { ...BASIC_ORDER, currency: 'GBP', ...body }, headers: FROM_GB }),
  };
}

describe('Fixed Amount promotions are converted from the default currency (reference section 3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No cache of the catalogue and rates: the last test changes a rate and must see it at once.
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8', COUNTRY_HEADER: 'cf-ipcountry', CATALOGUE_CACHE_MS: '0' });
  });
  afterAll(async () => t?.close());

  it('the store has the demo rates: EUR the default at 1, GBP at 0.85', async () => {
    expect(await rows(t.db, sql`select code, rate::text, is_default from currencies order by code`)).toEqual([
      { code: 'EUR', rate: '1.00000', is_default: true },
      { code: 'GBP', rate: '0.85000', is_default: false },
    ]);
  });

  it('getPromotion gives a Fixed Amount in every currency (SAVE5: 5 EUR, 4.25 GBP) and a Percentage none', async () => {
    const visitor = await britishGuest(t);
    expect((await visitor.currency()).body).toEqual({ country: 'GB', currency: 'GBP' });
    expect((await visitor.promotion('SAVE5')).body).toEqual({
      result: 'success',
      totalresults: 1,
      promotions: { promotion: [{ code: 'SAVE5', type: 'Fixed Amount', value: 5, amounts: { EUR: 5, GBP: 4.25 }, appliesto: '1,2,3', startdate: '2024-01-01', expirationdate: '2099-12-31', maxuses: 0, uses: expect.any(Number) }] },
    });
    expect((await visitor.promotion('WELCOME10')).body.promotions?.promotion[0]).toMatchObject({ type: 'Percentage', value: 10, amounts: null });
  });

  it('a GBP visitor ordering 1 Month with SAVE5 pays 10.99 - 4.25 = 6.74 GBP, stored on the order and its invoice, one use counted', async () => {
    const visitor = await britishGuest(t);
    const before = await promotionUses(t, 'SAVE5');
    const answer = await visitor.order({ promocode: 'SAVE5', amount: 6.74 });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ amount: 6.74, currency: 'GBP', status: 'Pending', fraud: false });
    expect(await invoiceCents(t, answer.body.invoiceid)).toEqual({ amount_cents: 674, currency: 'GBP' });
    expect(await promotionUses(t, 'SAVE5')).toBe((before ?? 0) + 1);
  });

  it.each([
    ['the value taken off as GBP, unconverted (10.99 - 5)', 5.99],
    ['no discount at all', 10.99],
    ['a cent off the converted total', 6.73],
  ])('%s is refused with 409 price_changed carrying 6.74 GBP, and nothing is written', async (_name, amount) => {
    const visitor = await britishGuest(t);
    const before = await storeSnapshot(t.db);
    const answer: Answer = await visitor.order({ promocode: 'SAVE5', amount });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toEqual({ error: { code: 'price_changed', message: expect.stringContaining('6.74 GBP'), amount: 6.74, currency: 'GBP' } });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('the same code on a EUR order takes the value as is: 12.99 - 5 = 7.99 EUR', async () => {
    const visitor = await britishGuest(t);
    const answer = await visitor.order({ promocode: 'SAVE5', amount: 7.99, currency: 'EUR' });
    // WHMCS bills the British guest in GBP only.
    if (BILLING_UNDER_TEST === 'whmcs') return expectCurrencyNotOffered(answer, 'GBP');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ amount: 7.99, currency: 'EUR' });
  });

  localBillingOnly('applyCatalogue writes the local store\'s rate table; WHMCS keeps its own rates').it('the rates are the catalogue file\'s: a store without them gets them at the next start, and a rate changed in the table is set back', async () => {
    const demo = loadCatalogueFile(DEMO_CATALOGUE_FILE);
    await t.db.execute(sql`delete from currencies`);
    await applyCatalogue(t.db, demo);
    expect(await rows(t.db, sql`select code, rate::float8 as rate, is_default from currencies order by code`)).toEqual([
      { code: 'EUR', rate: 1, is_default: true }, { code: 'GBP', rate: 0.85, is_default: false },
    ]);
    await t.db.execute(sql`update currencies set rate = 0.86 where code = 'GBP'`);
    await applyCatalogue(t.db, demo);
    expect(await rows(t.db, sql`select rate::float8 as rate from currencies where code = 'GBP'`)).toEqual([{ rate: 0.85 }]);
  });

  // Last: it changes the GBP rate.
  it('the rate is the billing\'s (the store\'s or WHMCS\'s): at 0.9, SAVE5 takes 4.50 off a GBP order and the lookup says so', async () => {
    await setCurrencyRate(t, 'GBP', 0.9);
    const visitor = await britishGuest(t);
    expect((await visitor.promotion('SAVE5')).body.promotions?.promotion[0]?.amounts).toEqual({ EUR: 5, GBP: 4.5 });
    const answer = await visitor.order({ promocode: 'SAVE5', amount: 6.49 });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ amount: 6.49, currency: 'GBP' });
  });

  it('the store keeps one default currency, at rate 1, and only positive rates', async () => {
    await expect(t.db.execute(sql`update currencies set is_default = true where code = 'GBP'`)).rejects.toThrow();
    await expect(t.db.execute(sql`update currencies set rate = 1.1 where code = 'EUR'`)).rejects.toThrow();
    await expect(t.db.execute(sql`update currencies set rate = 0 where code = 'GBP'`)).rejects.toThrow();
  });
});
