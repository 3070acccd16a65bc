import { describe, expect, it } from 'vitest';
import type { SavedStateStore } from '../../src/app/persistence';
import { readPayment } from '../../src/app/saved-payment';
import { checkoutCookieValue, cookieOfSetCookie, savedPaymentOf } from './saved-payment';

const ORDER = { orderid: 7, invoiceid: 12, serviceids: [31, 32], fraud: false, link: 'http://127.0.0.1:3000/checkout/sandbox/pay/12' };

describe('the saved payment the waiting page is measured with', () => {
  it('is the order placed, its first service and a deadline one day ahead', () => {
    expect(savedPaymentOf(ORDER, 'sandbox', 1_000)).toEqual({
      flow: 'order', order: { orderid: 7, invoiceid: 12, serviceid: 31, fraud: false },
      link: 'http://127.0.0.1:3000/checkout/sandbox/pay/12', gateway: 'sandbox', lastDate: 86_401_000, duration: 86_400_000,
    });
  });

  it('goes into the checkout cookie as URI-encoded JSON that the app reads back', () => {
    const payment = savedPaymentOf({ ...ORDER, serviceids: [], link: null }, 'sandbox', 0);
    const value = checkoutCookieValue(payment);
    expect(value).toBe('%7B%22payment%22%3A%7B%22flow%22%3A%22order%22%2C%22order%22%3A%7B%22orderid%22%3A7%2C%22invoiceid%22%3A12%2C%22serviceid%22%3Anull%2C%22fraud%22%3Afalse%7D%2C%22link%22%3Anull%2C%22gateway%22%3A%22sandbox%22%2C%22lastDate%22%3A86400000%2C%22duration%22%3A86400000%7D%7D');
    const store: SavedStateStore = { read: () => JSON.parse(decodeURIComponent(value)) as ReturnType<SavedStateStore['read']>, update: () => {}, clear: () => {} };
    expect(readPayment(store)).toEqual(payment);
  });

  it('reads the server\'s Set-Cookie headers as browser cookies, and drops ones that expire a cookie', () => {
    expect(cookieOfSetCookie('sid=abc.def; Path=/checkout; HttpOnly; SameSite=Lax', 'http://127.0.0.1:3000/checkout/')).toEqual({
      name: 'sid', value: 'abc.def', url: 'http://127.0.0.1:3000/checkout/', path: '/checkout', httpOnly: true,
    });
    expect(cookieOfSetCookie('lang=en', 'http://h/checkout/')).toEqual({ name: 'lang', value: 'en', url: 'http://h/checkout/', path: '/', httpOnly: false });
    expect(cookieOfSetCookie('sid=; Max-Age=0; Path=/', 'http://h/')).toBeNull();
    expect(cookieOfSetCookie('sid=x; Max-Age=0; Path=/', 'http://h/')).toBeNull();
    expect(cookieOfSetCookie('sid=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/', 'http://h/')).toBeNull();
  });
});
