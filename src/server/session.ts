import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHECKOUT_COOKIE_MAX_AGE_S } from '../domain/constants';
import { forbidden, unauthenticated } from './http-error';

export const SESSION_COOKIE = 'tvc_session';
/** Orders remembered in a guest session; older ones drop off. */
const MAX_REMEMBERED_ORDERS = 20;

/**
 * What the signed session cookie carries. A login session reaches everything of its client;
 * a guest session (identified by e-mail only) reaches only the orders placed in this browser.
 */
export interface Session {
  clientId: number;
  email: string;
  kind: 'login' | 'guest';
  orders: number[];
}

/** Reads the session from the signed cookie; a missing, unsigned or malformed cookie is no session. */
export function readSession(request: FastifyRequest): Session | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  try {
    const value = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as Partial<Session>;
    if (typeof value.clientId !== 'number' || typeof value.email !== 'string' || (value.kind !== 'login' && value.kind !== 'guest') || !Array.isArray(value.orders)) return null;
    return { clientId: value.clientId, email: value.email, kind: value.kind, orders: value.orders.filter((id) => typeof id === 'number') };
  } catch {
    return null;
  }
}

/** Writes the session as an HttpOnly, SameSite=Lax cookie scoped to the checkout (Secure over HTTPS). */
export function writeSession(request: FastifyRequest, reply: FastifyReply, session: Session): void {
  const value = Buffer.from(JSON.stringify({ ...session, orders: session.orders.slice(-MAX_REMEMBERED_ORDERS) })).toString('base64url');
  reply.setCookie(SESSION_COOKIE, value, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/checkout',
    maxAge: CHECKOUT_COOKIE_MAX_AGE_S,
  });
}

export function clearSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/checkout' });
}

/** The session, or 401. */
export function requireSession(request: FastifyRequest): Session {
  const session = readSession(request);
  if (!session) throw unauthenticated();
  return session;
}

/** A session from a login (not a guest e-mail), or 401. */
export function requireLogin(request: FastifyRequest): Session {
  const session = readSession(request);
  if (!session || session.kind !== 'login') throw unauthenticated('Sign in to continue.');
  return session;
}

/** Checks that an order belongs to the session: its client for a login, this browser's orders for a guest. */
export function assertOwnsOrder(session: Session, order: { id: number; clientId: number }): void {
  const owns = order.clientId === session.clientId && (session.kind === 'login' || session.orders.includes(order.id));
  if (!owns) throw forbidden();
}

/** Remembers an order placed in this browser. */
export function rememberOrder(session: Session, orderId: number): Session {
  return session.orders.includes(orderId) ? session : { ...session, orders: [...session.orders, orderId] };
}
