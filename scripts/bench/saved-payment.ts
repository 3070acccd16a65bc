/**
 * The waiting page as a shopper sees it after paying: a real order placed through the bench server's API,
 * and the cookies the browser would then hold (the server's session, and the app's `checkout` cookie with
 * the saved payment, as src/app/actors/payment.ts's savePayment writes it).
 */
import { PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import { CHECKOUT_COOKIE, type SavedPayment } from '../../src/app/persistence';
import type { BrowserCookie } from './lighthouse';
import { request } from './lib/proc';

/** What POST /checkout/api/order answers that the saved payment keeps. */
export interface PlacedOrderAnswer {
  orderid: number;
  invoiceid: number | null;
  serviceids: number[];
  fraud: boolean;
  link: string | null;
}

/** The saved payment for an order just placed at `now` with `gateway`, as savePayment builds it (deadline one day ahead). */
export function savedPaymentOf(order: PlacedOrderAnswer, gateway: string, now: number): SavedPayment {
  return {
    flow: 'order',
    order: { orderid: order.orderid, invoiceid: order.invoiceid, serviceid: order.serviceids[0] ?? null, fraud: order.fraud },
    link: order.link,
    gateway,
    lastDate: now + PAYMENT_DEADLINE_MS,
    duration: PAYMENT_DEADLINE_MS,
  };
}

/** The `checkout` cookie's value as document.cookie holds it (src/app/cookies.ts writeCookie: URI-encoded JSON). */
export const checkoutCookieValue = (payment: SavedPayment): string => encodeURIComponent(JSON.stringify({ payment }));

/** One Set-Cookie header as a cookie for the browser at `pageUrl`; null for one that expires it. */
export function cookieOfSetCookie(header: string, pageUrl: string): BrowserCookie | null {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  const equals = pair.indexOf('=');
  if (equals <= 0) return null;
  const named = (name: string) => attributes.find((attribute) => attribute.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
  const maxAge = named('max-age');
  const expires = named('expires');
  const expired = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
  if (expired || pair.length === equals + 1) return null;
  return {
    name: pair.slice(0, equals), value: pair.slice(equals + 1), url: pageUrl, path: named('path') ?? '/',
    httpOnly: attributes.some((attribute) => attribute.toLowerCase() === 'httponly'),
  };
}

/**
 * Places one order (pid 1, sandbox, 12.99 EUR) as a new guest through the server at `base`, and gives the
 * cookies a browser would then hold for the waiting page: the server's own (later ones replace earlier ones
 * of the same name) and the `checkout` cookie with the saved payment.
 */
export async function orderForWaitingPage(base: string, now = Date.now()): Promise<{ order: PlacedOrderAnswer; cookies: BrowserCookie[] }> {
  const pageUrl = `${base}/checkout/`;
  const jar = new Map<string, BrowserCookie>();
  const keep = (headers: string[] | undefined) => {
    for (const header of headers ?? []) {
      const cookie = cookieOfSetCookie(header, pageUrl);
      if (cookie) jar.set(cookie.name, cookie);
    }
  };
  const cookieHeader = () => [...jar.values()].map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const guest = await request(`${base}/checkout/api/authMiddleware`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench-waiting@loadtest.example' }),
  });
  if (guest.status !== 200) throw new Error(`authMiddleware answered ${guest.status}: ${guest.body.slice(0, 200)}`);
  keep(guest.headers['set-cookie']);
  const gateway = 'sandbox';
  const placed = await request(`${base}/checkout/api/order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookieHeader(), 'idempotency-key': `bench-waiting-${now}` },
    body: JSON.stringify({ pid: 1, paymentmethod: gateway, amount: 12.99, currency: 'EUR' }),
  });
  if (placed.status < 200 || placed.status >= 300) throw new Error(`POST /checkout/api/order answered ${placed.status}: ${placed.body.slice(0, 200)}`);
  keep(placed.headers['set-cookie']);
  const order = JSON.parse(placed.body) as PlacedOrderAnswer;
  jar.set(CHECKOUT_COOKIE, { name: CHECKOUT_COOKIE, value: checkoutCookieValue(savedPaymentOf(order, gateway, now)), url: pageUrl, path: '/checkout' });
  return { order, cookies: [...jar.values()] };
}
