import type {} from '@fastify/cookie';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from './db/connect';
import type { Executor } from './mail/outbox';
import { clients, sessions } from './db/schema';
import { forbidden, unauthenticated } from './http-error';

export const SESSION_COOKIE = 'tvc_session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session unused this long is over. */
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** And any session is over this long after it began, used or not. */
export const SESSION_ABSOLUTE_MS = 90 * DAY_MS;
/** Last use is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** Sessions past their absolute expiry are deleted by each instance at most this often. */
const PRUNE_EVERY_MS = 60 * 1000;
/** Orders remembered in a guest session; older ones drop off. */
const MAX_REMEMBERED_ORDERS = 20;
/** A cookie value as issued: 32 random bytes in base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** How a session began: a guest e-mail, a new account's sign-up (address not yet proved), a password, a mailed link. */
export type SessionOrigin = 'guest' | 'signup' | 'password' | 'link';

/**
 * A session as the routes see it. A sign-in (password or mailed link) reaches everything of its client;
 * a guest session (identified by e-mail only) and a new account's sign-up session reach only the orders
 * placed in them, so nobody reads what others bought under an address they have not proved is theirs.
 */
export interface Session {
  /** The keyed hash of the cookie's id: what the store holds. */
  id: string;
  clientId: number;
  email: string;
  /** Signed in (an account's pages open) or a guest. */
  kind: 'login' | 'guest';
  /** What of the client it reaches: everything, or the orders placed in this session. */
  reach: 'client' | 'placed';
  orders: number[];
}

/** Whether a session stands for its client (a sign-in) or only for itself (a guest, a sign-up not yet proved). */
export const reachesClient = (session: Pick<Session, 'reach'>): boolean => session.reach === 'client';

const asSession = (origin: SessionOrigin) => ({
  kind: origin === 'guest' ? 'guest' as const : 'login' as const,
  reach: origin === 'password' || origin === 'link' ? 'client' as const : 'placed' as const,
});

/**
 * What a guest session is called in answers (authMiddleware, getSession): derived from the session's stored
 * keyed hash, so it is the same for the session's life, differs for every session, and is never a client's id.
 */
export function guestHandle(session: Pick<Session, 'id'>): string {
  return `g_${createHash('sha256').update(`guest-handle:${session.id}`).digest('base64url').slice(0, 22)}`;
}

/** Sessions kept in the store, so any instance reads them and a sign-out ends them everywhere. */
export interface SessionStore {
  find(token: string): Promise<Session | null>;
  /** Writes a new session; `on` a transaction makes it part of a larger change (a sign-in link used with it). */
  create(input: { clientId: number; kind: SessionOrigin; orders?: number[] }, on?: Executor): Promise<{ token: string; session: Session }>;
  rememberOrder(session: Session, orderId: number, on?: Executor): Promise<Session>;
  revoke(id: string, on?: Executor): Promise<void>;
  /** Ends every session of a client (a changed password, an operator's action). */
  revokeClient(clientId: number, on?: Executor): Promise<void>;
}

export function createSessionStore(db: Database, secret: string, now: () => number = Date.now): SessionStore {
  // Keyed, so neither a copy of the store nor a guess of its hashes yields a cookie.
  const hash = (token: string) => createHmac('sha256', secret).update(token).digest('base64url');
  let prunedAt = -Infinity;
  // Every API call reads its session and every order remembers one: built once, not per request (the builder cost as much as the query).
  const sessionById = db.select({ session: sessions, email: clients.email }).from(sessions)
    .innerJoin(clients, eq(clients.id, sessions.clientId)).where(eq(sessions.idHash, sql.placeholder('id'))).prepare('session_by_id');
  // Appended in the statement, so two orders placed at once in one session are both remembered (the newest MAX_REMEMBERED_ORDERS).
  const appendOrderOn = (on: Executor, id: unknown, orderId: unknown) => on.update(sessions)
    .set({ orders: sql`(array_append(${sessions.orders}, ${orderId}::int))[greatest(cardinality(${sessions.orders}) - ${MAX_REMEMBERED_ORDERS - 2}, 1):]` })
    .where(and(eq(sessions.idHash, sql`${id}`), sql`not (${orderId}::int = any(${sessions.orders}))`))
    .returning({ orders: sessions.orders });
  const appendOrder = appendOrderOn(db, sql.placeholder('id'), sql.placeholder('orderId')).prepare('session_append_order');

  return {
    async find(token) {
      if (!TOKEN_SHAPE.test(token)) return null;
      const id = hash(token);
      const [row] = await sessionById.execute({ id });
      if (!row) return null;
      const at = now();
      if (row.session.idleExpiresAt.getTime() <= at || row.session.absoluteExpiresAt.getTime() <= at) {
        await db.delete(sessions).where(eq(sessions.idHash, id));
        return null;
      }
      if (at - row.session.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        await db.update(sessions).set({ lastUsedAt: new Date(at), idleExpiresAt: new Date(at + SESSION_IDLE_MS) }).where(eq(sessions.idHash, id));
      }
      return { id, clientId: row.session.clientId, email: row.email, ...asSession(row.session.kind), orders: row.session.orders };
    },

    async create({ clientId, kind, orders = [] }, on = db) {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      const id = hash(token);
      await on.insert(sessions).values({
        idHash: id, clientId, kind, orders, createdAt: new Date(at), lastUsedAt: new Date(at),
        idleExpiresAt: new Date(at + SESSION_IDLE_MS), absoluteExpiresAt: new Date(at + SESSION_ABSOLUTE_MS),
      });
      // Expired sessions of anyone go now and then as new ones begin, so the table does not grow without end.
      if (at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        await on.delete(sessions).where(lt(sessions.absoluteExpiresAt, new Date(at)));
      }
      const [client] = await on.select({ email: clients.email }).from(clients).where(eq(clients.id, clientId));
      return { token, session: { id, clientId, email: client?.email ?? '', ...asSession(kind), orders } };
    },

    async rememberOrder(session, orderId, on = db) {
      if (session.orders.includes(orderId)) return session;
      const [row] = on === db ? await appendOrder.execute({ id: session.id, orderId }) : await appendOrderOn(on, session.id, orderId);
      return { ...session, orders: row?.orders ?? [...session.orders, orderId].slice(-MAX_REMEMBERED_ORDERS) };
    },

    async revoke(id, on = db) {
      await on.delete(sessions).where(eq(sessions.idHash, id));
    },

    async revokeClient(clientId, on = db) {
      await on.delete(sessions).where(eq(sessions.clientId, clientId));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
  }
  interface FastifyRequest {
    /** This request's session, read once. */
    sessionRead?: Promise<Session | null>;
  }
}

/** The session of the request's cookie; a missing, unknown, expired or malformed cookie is no session. */
export function readSession(request: FastifyRequest): Promise<Session | null> {
  const token = request.cookies[SESSION_COOKIE];
  request.sessionRead ??= token ? request.server.sessions.find(token) : Promise.resolve(null);
  return request.sessionRead;
}

const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: request.protocol === 'https',
  path: '/checkout',
});

/**
 * Begins a new session for a client (the previous one of this browser ends: a sign-in rotates the id)
 * and sets its cookie, HttpOnly and SameSite=Lax, Secure over HTTPS.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, input: { clientId: number; kind: SessionOrigin; orders?: number[] }): Promise<Session> {
  const begun = await beginSession(request, await readSession(request), input);
  return setSessionCookie(request, reply, begun);
}

/**
 * Writes a new session in place of `current` (the browser's, read before): with `on` a transaction, in it, so the
 * session stands or falls with the change it belongs to. The cookie is set afterwards (setSessionCookie).
 */
export async function beginSession(request: FastifyRequest, current: Session | null, input: { clientId: number; kind: SessionOrigin; orders?: number[] }, on?: Executor): Promise<{ token: string; session: Session }> {
  if (current) await request.server.sessions.revoke(current.id, on);
  return request.server.sessions.create(input, on);
}

/** Sets the cookie of a session written by beginSession (HttpOnly, SameSite=Lax, Secure over HTTPS). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, { token, session }: { token: string; session: Session }): Session {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: SESSION_ABSOLUTE_MS / 1000 });
  request.sessionRead = Promise.resolve(session);
  return session;
}

/** Ends the browser's session in the store (its cookie then opens nothing, anywhere) and clears the cookie. */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const current = await readSession(request);
  if (current) await request.server.sessions.revoke(current.id);
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  request.sessionRead = Promise.resolve(null);
}

/** The session, or 401. */
export async function requireSession(request: FastifyRequest): Promise<Session> {
  const session = await readSession(request);
  if (!session) throw unauthenticated();
  return session;
}

/** A session from a login (not a guest e-mail), or 401. */
export async function requireLogin(request: FastifyRequest): Promise<Session> {
  const session = await readSession(request);
  if (!session || session.kind !== 'login') throw unauthenticated('Sign in to continue.');
  return session;
}

/** Checks that an order belongs to the session: its client for a login, this browser's orders for a guest. */
export function assertOwnsOrder(session: Session, order: { id: number; clientId: number }): void {
  const owns = order.clientId === session.clientId && (session.reach === 'client' || session.orders.includes(order.id));
  if (!owns) throw forbidden();
}

/** Remembers an order placed in this browser's session. */
export function rememberOrder(request: FastifyRequest, session: Session, orderId: number): Promise<Session> {
  return request.server.sessions.rememberOrder(session, orderId);
}
