import { describe, expect, it } from 'vitest';
import type { CurrencyRates } from './currency';
import {
  acceptPromotion, convertPromotion, hasUsesLeft, isoDate, isWithinDates, promotionAppliesTo, promotionDiscount, promotionRefusal, type Promotion,
} from './promotion';

const promo = (overrides: Partial<Promotion> = {}): Promotion => ({
  code: 'SAVE10', type: 'Percentage', value: 10, appliesto: '1,2', startdate: '2026-01-01', expirationdate: '2026-12-31', maxuses: 0, uses: 0, amounts: null, ...overrides,
});

const rates: CurrencyRates = { EUR: 1, GBP: 0.85 };

describe('promotion validity', () => {
  it('applies only to listed products', () => {
    expect(promotionAppliesTo(promo(), 2)).toBe(true);
    expect(promotionAppliesTo(promo(), 3)).toBe(false);
    expect(promotionAppliesTo(promo({ appliesto: '' }), 1)).toBe(false);
    expect(promotionAppliesTo(promo({ appliesto: '12' }), 1)).toBe(false);
  });
  it('reads a product list written with spaces after the commas', () => {
    expect(promotionAppliesTo(promo({ appliesto: '1, 2' }), 2)).toBe(true);
    expect(promotionAppliesTo(promo({ appliesto: ' 1 ,2' }), 1)).toBe(true);
    expect(promotionAppliesTo(promo({ appliesto: '1, 2' }), 3)).toBe(false);
  });
  it('reads start and expiry dates that carry a time of day by their day', () => {
    const timed = promo({ startdate: '2026-01-01 00:00:00', expirationdate: '2026-12-31 00:00:00' });
    expect(isWithinDates(timed, '2026-01-01')).toBe(true);
    expect(isWithinDates(timed, '2026-12-31')).toBe(true);
    expect(promotionRefusal(timed, 1, '2025-12-31')).toBe('notStarted');
    expect(promotionRefusal(timed, 1, '2027-01-01')).toBe('expired');
    expect(isWithinDates(promo({ startdate: '0000-00-00 00:00:00', expirationdate: '0000-00-00 00:00:00' }), '1999-01-01')).toBe(true);
  });
  it('is valid from start to expiry, both days included', () => {
    expect(isWithinDates(promo(), '2026-01-01')).toBe(true);
    expect(isWithinDates(promo(), '2026-12-31')).toBe(true);
    expect(isWithinDates(promo(), '2025-12-31')).toBe(false);
    expect(isWithinDates(promo(), '2027-01-01')).toBe(false);
  });
  it('treats 0000-00-00 as unbounded', () => {
    const open = promo({ startdate: '0000-00-00', expirationdate: '0000-00-00' });
    expect(isWithinDates(open, '1999-01-01')).toBe(true);
    expect(isWithinDates(open, '2999-01-01')).toBe(true);
    expect(isWithinDates(promo({ expirationdate: '0000-00-00 00:00:00' }), '2999-01-01')).toBe(true);
  });
  it('stops once uses reach maxuses; 0 is unlimited', () => {
    expect(hasUsesLeft({ maxuses: 0, uses: 999 })).toBe(true);
    expect(hasUsesLeft({ maxuses: 5, uses: 4 })).toBe(true);
    expect(hasUsesLeft({ maxuses: 5, uses: 5 })).toBe(false);
    expect(hasUsesLeft({ maxuses: 5, uses: 6 })).toBe(false);
    expect(hasUsesLeft({})).toBe(true);
    expect(hasUsesLeft({ maxuses: 1 })).toBe(true);
  });
  it('names why it is refused', () => {
    expect(promotionRefusal(promo(), 1, '2026-06-01')).toBeNull();
    expect(promotionRefusal(promo(), 3, '2026-06-01')).toBe('notApplicable');
    expect(promotionRefusal(promo(), 1, '2025-06-01')).toBe('notStarted');
    expect(promotionRefusal(promo(), 1, '2027-06-01')).toBe('expired');
    expect(promotionRefusal(promo({ maxuses: 1, uses: 1 }), 1, '2026-06-01')).toBe('exhausted');
  });
});

describe('promotion discount', () => {
  it('takes a percentage of the amount, rounded, in any currency', () => {
    expect(promotionDiscount(promo({ value: 15 }), 19.99, 'EUR')).toBe(3);
    expect(promotionDiscount(promo({ value: 10 }), 12.35, 'GBP')).toBe(1.24);
  });
  it('never takes more than the amount, even for a percentage above 100 a billing system may hold', () => {
    expect(promotionDiscount(promo({ value: 150 }), 11, 'EUR')).toBe(11);
    expect(promotionDiscount(promo({ value: 100 }), 12.99, 'EUR')).toBe(12.99);
  });
  it('takes the fixed amount of the order\'s currency, never more than the amount', () => {
    const fixed = promo({ type: 'Fixed Amount', value: 5, amounts: { EUR: 5, GBP: 4.25 } });
    expect(promotionDiscount(fixed, 12, 'EUR')).toBe(5);
    expect(promotionDiscount(fixed, 12, 'GBP')).toBe(4.25);
    expect(promotionDiscount(fixed, 3.1, 'GBP')).toBe(3.1);
    expect(promotionDiscount(promo({ type: 'Fixed Amount', value: 50, amounts: { EUR: 50, GBP: 42.5 } }), 12, 'EUR')).toBe(12);
  });
  it('refuses a fixed amount that was never converted, rather than take its value as any currency', () => {
    expect(() => promotionDiscount(promo({ type: 'Fixed Amount', value: 5, amounts: null }), 12, 'GBP')).toThrow(/amounts per currency/);
  });
});

describe('converting a promotion', () => {
  it('gives a fixed amount in every currency: value (default currency) × rate, rounded to 2 decimals', () => {
    const { amounts: _amounts, ...stored } = promo({ type: 'Fixed Amount', value: 5 });
    expect(convertPromotion(stored, rates)).toEqual({ ...stored, amounts: { EUR: 5, GBP: 4.25 } });
    expect(convertPromotion({ ...stored, value: 2.99 }, rates).amounts).toEqual({ EUR: 2.99, GBP: 2.54 });
    expect(convertPromotion({ ...stored, value: 0.05 }, { EUR: 1, GBP: 0.9 }).amounts).toEqual({ EUR: 0.05, GBP: 0.05 });
    expect(convertPromotion({ ...stored, value: 10 }, { EUR: 1, GBP: 0.86543 }).amounts).toEqual({ EUR: 10, GBP: 8.65 });
  });
  it('leaves a percentage alone: it has no amounts', () => {
    const { amounts: _amounts, ...stored } = promo({ value: 10 });
    expect(convertPromotion(stored, rates)).toEqual({ ...stored, amounts: null });
  });
});

describe('accepting a lookup', () => {
  it('needs exactly one result that lists the product', () => {
    expect(acceptPromotion({ totalresults: 1, promotions: [promo()] }, 1, '2026-06-01')).toEqual({ promotion: promo() });
    expect(acceptPromotion({ totalresults: 2, promotions: [promo(), promo()] }, 1, '2026-06-01')).toEqual({ refusal: 'notApplicable' });
    expect(acceptPromotion({ totalresults: 0, promotions: [] }, 1, '2026-06-01')).toEqual({ refusal: 'notApplicable' });
    expect(acceptPromotion({ totalresults: 1, promotions: [] }, 1, '2026-06-01')).toEqual({ refusal: 'notApplicable' });
    expect(acceptPromotion({ totalresults: 1, promotions: [promo()] }, 3, '2026-06-01')).toEqual({ refusal: 'notApplicable' });
  });
});

describe('isoDate', () => {
  it('writes the local date as YYYY-MM-DD', () => expect(isoDate(new Date(2026, 0, 5, 12))).toBe('2026-01-05'));
});
