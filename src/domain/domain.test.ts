import { describe, expect, it } from 'vitest';
import { BILLING_CYCLES, dueDateSince, isBillingCycle, pricingKey } from './billing-cycle';
import * as constants from './constants';
import { USERNAME_SHAPE, SERVICE_PASSWORD_SHAPE, generateServicePassword, generateUsername, randomDigits } from './credentials';
import { currencyForCountry, currencyRates, DEFAULT_COUNTRY, isCurrency } from './currency';
import { isMacAddress, normaliseMacAddress } from './device';
import { isValidEmail } from './email';
import { MESSAGE_TEXTS } from './messages';
import { gatewayIcon, isCryptoGateway, parseGatewayList } from './gateway';
import { pickLocale, visitorCurrency } from './locale';
import { roundMoney, sameAmount, sumMoney, toCents } from './money';
import { statusTone } from './order-status';
import { isSafeRedirectTarget } from './redirect';
import { isUserId } from './user-id';

describe('money', () => {
  it('rounds to 2 decimals, half away from zero', () => {
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(roundMoney(10)).toBe(10);
    expect(roundMoney(-1.005)).toBe(-1.01);
    expect(roundMoney(0.1 + 0.2)).toBe(0.3);
  });
  it('compares and sums to the cent', () => {
    expect(toCents(12.345)).toBe(1235);
    expect(sameAmount(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameAmount(9.99, 9.98)).toBe(false);
    expect(sumMoney(0.1, 0.2, 0.3)).toBe(0.6);
  });
});

describe('billing cycles', () => {
  it('prices One Time as monthly', () => expect(pricingKey('One Time')).toBe('monthly'));
  it('removes hyphens from cycle names', () => expect(pricingKey('Semi-Annually')).toBe('semiannually'));
  it('keeps plain cycles', () => {
    expect(pricingKey('Monthly')).toBe('monthly');
    expect(pricingKey('Annually')).toBe('annually');
  });
  it('refuses an unknown cycle, naming it', () => expect(() => pricingKey('Weekly')).toThrow(new RangeError('Unknown billing cycle: Weekly')));
  it.each([
    ['Quarterly', 'quarterly'], ['Biennially', 'biennially'], ['Triennially', 'triennially'],
  ] as const)('prices %s from the catalogue key %s', (cycle, key) => expect(pricingKey(cycle)).toBe(key));
  it('knows the seven cycles of the billing system by their own names, and nothing else', () => {
    expect([...BILLING_CYCLES]).toEqual(['Monthly', 'Quarterly', 'Semi-Annually', 'Annually', 'Biennially', 'Triennially', 'One Time']);
    for (const cycle of BILLING_CYCLES) expect(isBillingCycle(cycle)).toBe(true);
    for (const other of ['monthly', 'Semiannually', 'Weekly', '']) expect(isBillingCycle(other)).toBe(false);
  });
});

describe('the due date of a service activated before it had one', () => {
  it('is the activation day plus whole cycles, the first not before today', () => {
    expect(dueDateSince('2026-11-27', 'Monthly', '2026-11-27')).toBe('2026-12-27');
    expect(dueDateSince('2026-09-10', 'Monthly', '2026-11-27')).toBe('2026-12-10');
    expect(dueDateSince('2026-09-27', 'Monthly', '2026-11-27')).toBe('2026-11-27');
    expect(dueDateSince('2025-03-01', 'Semi-Annually', '2026-11-27')).toBe('2027-03-01');
    expect(dueDateSince('2024-02-29', 'Annually', '2026-11-27')).toBe('2027-02-28');
  });
  it('moves from each due date as renewals do: 31 January, 28 February, then the 28th', () => {
    expect(dueDateSince('2026-01-31', 'Monthly', '2026-03-15')).toBe('2026-03-28');
  });
  it('is none for a lifetime service', () => expect(dueDateSince('2026-01-31', 'One Time', '2026-11-27')).toBeNull());
});

describe('currency by country', () => {
  it('is GBP for GB', () => expect(currencyForCountry('GB')).toBe('GBP'));
  it('is GBP for gb in lower case', () => expect(currencyForCountry('gb')).toBe('GBP'));
  it('is EUR elsewhere', () => expect(currencyForCountry('DE')).toBe('EUR'));
  it('defaults to the default country MA, so EUR', () => {
    expect(DEFAULT_COUNTRY).toBe('MA');
    expect(currencyForCountry(undefined)).toBe('EUR');
  });
});

describe('currency codes', () => {
  it('knows EUR and GBP, the catalogue\'s two currencies, by their upper-case codes only', () => {
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('GBP')).toBe(true);
    for (const other of ['USD', 'eur', 'gbp', '']) expect(isCurrency(other)).toBe(false);
  });
});

describe('currency rates', () => {
  it('reads the rate of every currency the catalogue is priced in', () => {
    expect(currencyRates([{ code: 'GBP', rate: 0.85, isDefault: false }, { code: 'EUR', rate: 1, isDefault: true }])).toEqual({ EUR: 1, GBP: 0.85 });
  });
  it.each([
    ['missing', [{ code: 'EUR', rate: 1, isDefault: true }]],
    ['zero', [{ code: 'EUR', rate: 1, isDefault: true }, { code: 'GBP', rate: 0, isDefault: false }]],
    ['not a number', [{ code: 'EUR', rate: 1, isDefault: true }, { code: 'GBP', rate: Number.NaN, isDefault: false }]],
  ] as const)('refuses a store whose GBP rate is %s, rather than guess one', (_name, currencies) => {
    expect(() => currencyRates(currencies)).toThrow('The store has no usable rate for GBP.');
  });
});

describe('e-mail shape', () => {
  it.each(['a@b.c', 'shopper@example.com', ' first.last+tv@mail.example.org ', 'ann@xn--mnchen-3ya.de', 'jo@münchen.de', 'x@a-b.co.uk', 'me@host42.io'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  // The spec's shape, and addresses no mail server accepts: an empty domain label, a top label without a letter, a label edged with a hyphen, over-long parts.
  it.each(['', 'plain', 'a@b', '@b.c', 'a@.c', 'a@b.', 'a b@c.d', 'a@@b.c', 'a@b.c d', 'a@b.c@d', 'a@.....', 'a@b..c', 'a@1.2', 'a@127.0.0.1', 'a@-b.c', 'a@b-.c', 'a@b.-c', `${'l'.repeat(65)}@b.c`, `a@${'d'.repeat(64)}.c`, `a@${'d.'.repeat(130)}com`])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('redirect target', () => {
  it.each(['/', '/upsell', '/de-de/success', '/path/with-dash_under~tilde%20@at'])('keeps %s', (target) => {
    expect(isSafeRedirectTarget(target)).toBe(true);
  });
  it('never takes a value that is not a string, even one that prints as a path', () => {
    expect(isSafeRedirectTarget(['/upsell'] as unknown as string)).toBe(false);
  });
  it.each(['//evil.example', 'https://evil.example', 'https:evil.example/x', 'upsell', 'x/upsell', '/a?b=c', '/a#b', '/a.b', '/a b', '', null, undefined])('ignores %j', (target) => {
    expect(isSafeRedirectTarget(target)).toBe(false);
  });
});

describe('credentials', () => {
  it('makes usernames of TV- and 8 digits', () => {
    for (let i = 0; i < 50; i++) expect(generateUsername()).toMatch(USERNAME_SHAPE);
  });
  it('makes passwords of 12 digits', () => {
    for (let i = 0; i < 50; i++) expect(generateServicePassword()).toMatch(SERVICE_PASSWORD_SHAPE);
  });
  it('draws from the random source and skips bytes that would bias digits', () => {
    const bytes = [255, 250, 3, 13, 249];
    const source = (buffer: Uint8Array) => buffer.map(() => bytes.shift() ?? 0);
    expect(randomDigits(3, source)).toBe('339');
  });
  it('holds a username or password of another shape for not one of ours', () => {
    for (const username of ['TV-1234567', 'TV-123456789', 'xTV-12345678', 'TV-12345678x', 'tv-12345678']) expect(USERNAME_SHAPE.test(username)).toBe(false);
    for (const password of ['12345678901', '1234567890123', 'x123456789012', '123456789012x']) expect(SERVICE_PASSWORD_SHAPE.test(password)).toBe(false);
  });
  it('does not repeat itself', () => {
    const passwords = new Set(Array.from({ length: 200 }, generateServicePassword));
    expect(passwords.size).toBe(200);
  });
});

describe('device address', () => {
  it('accepts MAG addresses in either case and with dashes', () => {
    expect(isMacAddress('00:1A:79:12:34:56')).toBe(true);
    expect(isMacAddress('00-1a-79-ab-cd-ef')).toBe(true);
    expect(normaliseMacAddress(' 00-1a-79-ab-cd-ef ')).toBe('00:1A:79:AB:CD:EF');
  });
  it.each(['', '00:1A:79:12:34', '00:1A:79:12:34:5G', '001A79123456', '00:1A:79:12:34:56:78', 'G00:1A:79:12:34:56', '00:1A:79:12:34:56G'])('refuses %j', (value) => {
    expect(isMacAddress(value)).toBe(false);
  });
});

describe('gateways', () => {
  it.each([['highriskshop', 'card'], ['laucharge', 'card'], ['mercuryo', 'card'], ['CreditCard', 'card'], ['Bitcoin', 'coin'], ['Cryptocurrency', 'coin']])('%s shows a %s icon', (type, icon) => {
    expect(gatewayIcon(type)).toBe(icon);
  });
  it.each([['CreditCard', false], ['highriskshop', false], ['laucharge', false], ['mercuryo', false], ['Bitcoin', true], ['Cryptocurrency', true]] as const)(
    '%s is paid in crypto: %s',
    (type, crypto) => expect(isCryptoGateway(type)).toBe(crypto),
  );
  it('reads a hyphen-separated list, first is default', () => {
    expect(parseGatewayList('sandbox-sandboxcrypto')).toEqual(['sandbox', 'sandboxcrypto']);
    expect(parseGatewayList(' a -- b ')).toEqual(['a', 'b']);
  });
});

describe('order status tone', () => {
  it('is green for Active, grey for Cancelled, amber otherwise', () => {
    expect(statusTone('Active')).toBe('success');
    expect(statusTone('Cancelled')).toBe('muted');
    expect(statusTone('Pending')).toBe('warning');
    expect(statusTone('Fraud')).toBe('warning');
  });
});

describe('locale', () => {
  it('lets the browserLang cookie win', () => {
    expect(pickLocale({ cookie: 'de-de', country: 'ES', browserLanguages: ['nl-NL'] })).toBe('de-de');
  });
  it('reads the browserLang cookie whatever its case, as language tags are (BCP 47)', () => {
    expect(pickLocale({ cookie: 'DE-DE', country: 'ES', browserLanguages: ['nl-NL'] })).toBe('de-de');
    expect(pickLocale({ cookie: 'en-GB' })).toBe('en-gb');
  });
  it('is Spanish for visitors from ES', () => expect(pickLocale({ country: 'ES', browserLanguages: ['en-US'] })).toBe('es-es'));
  it('follows the browser languages', () => {
    expect(pickLocale({ browserLanguages: ['nl-NL', 'en'] })).toBe('nl-nl');
    expect(pickLocale({ browserLanguages: ['pt-BR'] })).toBe('pt-pt');
    expect(pickLocale({ browserLanguages: ['en-GB'] })).toBe('en-gb');
    expect(pickLocale({ browserLanguages: ['en-US', 'de-DE'] })).toBe('en-en');
  });
  it('defaults to en-en', () => {
    expect(pickLocale({})).toBe('en-en');
    expect(pickLocale({ cookie: 'xx-yy', browserLanguages: ['ja'] })).toBe('en-en');
  });
  it('shows GBP in en-gb, else the currency of the country', () => {
    expect(visitorCurrency('en-gb', 'FR')).toBe('GBP');
    expect(visitorCurrency('de-de', 'GB')).toBe('GBP');
    expect(visitorCurrency('en-en', 'ES')).toBe('EUR');
  });
});

describe('user id', () => {
  // The contract: Id is an integer from 1; GuestHandle is g_ and 22 characters of base64url.
  it.each([1, 42, 'g_4nq0c2ZkVwQ8mX1bTf7sLw', 'g_AAAAAAAAAAAAAAAAAAAA-_'])('takes %j for a user', (value) => expect(isUserId(value)).toBe(true));
  it.each([0, -1, 1.5, '1', '', 'g_4nq0c2ZkVwQ8mX1bTf7sL', 'g_4nq0c2ZkVwQ8mX1bTf7sLwx', 'x_4nq0c2ZkVwQ8mX1bTf7sLw', 'xg_4nq0c2ZkVwQ8mX1bTf7sLw', 'g_4nq0c2ZkVwQ8mX1bTf7s.w', null, undefined])(
    'takes %j for no user',
    (value) => expect(isUserId(value)).toBe(false),
  );
});

describe('message texts the spec gives word for word', () => {
  it.each([
    ['email.invalid', 'Please enter a Valid Email.'],
    ['reseller.passwordMismatch', 'Not the same password'],
    ['promo.notApplicable', 'This Coupon is not available for this product.'],
    ['copy.done', 'Copied!'],
  ] as const)('%s reads %j', (key, text) => expect(MESSAGE_TEXTS[key]).toBe(text));
});

describe('business constants the spec states', () => {
  it.each([
    ['PAYMENT_DEADLINE_MS', 86_400_000, 'a payment link is valid one day'],
    ['CHECKOUT_COOKIE_MAX_AGE_S', 2_592_000, 'state cookie checkout: 30 days (2592000 s)'],
    ['LANGUAGE_COOKIE_MAX_AGE_S', 31_536_000, 'browserLang cookie 365 days'],
    ['AFFILIATE_COOKIE_MAX_AGE_S', 7_776_000, 'affiliate cookie 7776000 s (90 days)'],
    ['CHUNK_RELOAD_GUARD_MS', 60_000, 'chunk-reload guard 60 s'],
    ['MIN_LOADING_MS', 200, 'fetch minimum display delay 200 ms'],
    ['COPIED_HINT_MS', 2_500, 'a "Copied!" hint shows for 2.5 seconds'],
    ['HTTP_TIMEOUT_MS', 30_000, 'HTTP timeout 30000 ms'],
  ] as const)('%s is %d: %s', (name, value, _fact) => expect(constants[name]).toBe(value));
});
