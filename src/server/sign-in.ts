/**
 * One-time sign-in links. A shopper asks for one by address (the answer is the same whether or not the
 * address has a client); the outbox queues the mail without a token, and the token is made when the mail is
 * rendered for sending. Following it once, before it expires, proves the address and signs the browser in.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../domain/locale';
import type { Database } from './db/connect';
import { clients, signInTokens } from './db/schema';
import { enqueueMail, type SignInLinkReason } from './mail/outbox';
import { shopperLocale } from './mail/locale';
import { readSession, rememberOrder, startSession } from './session';
import type { RateCounters } from './throttle';
import { visitorOf } from './visitor';
import type { ServerConfig } from './config';
import { CARD_CSS, escapeHtml, serverPage } from './html-page';

/** A link asked for on the login panel works for this long. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** The link in "your service is active" works longer: that mail may be read hours after the payment. */
export const ACTIVATION_LINK_TTL_MS = 24 * 60 * 60_000;
/** Links mailed to one address in a window; past that the request is answered alike and nothing is sent. */
export const SIGN_IN_LINKS_PER_ADDRESS = 5;
export const SIGN_IN_LINKS_WINDOW_MS = 15 * 60_000;
/** Where a link lands when the page asked for is missing or not a checkout page. */
export const DEFAULT_LANDING = '/checkout/';
/** A token as issued: 32 random bytes in base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const decodes = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * The page a link may land on: a path of this site under /checkout/ (not the API), without a scheme, `//`,
 * backslashes, control characters or dot segments (plain or percent-encoded); anything else lands on /checkout/.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value.length > 512 || !value.startsWith(DEFAULT_LANDING)) return DEFAULT_LANDING;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value) || value.includes('//')) return DEFAULT_LANDING;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  const segments = path.split('/').map(decodes);
  if (segments.some((segment) => segment === null || segment === '.' || segment === '..' || /[/\\]/.test(segment))) return DEFAULT_LANDING;
  if (path.startsWith('/checkout/api/')) return DEFAULT_LANDING;
  return value;
}

export interface SignInLinks {
  /**
   * Makes a one-time link for a client landing on `redirectPath` (already checked); the store keeps only its
   * hash. With `orderId` (a recovery reminder) the link reaches that order only, not the client's account.
   */
  create(clientId: number, redirectPath: string, ttlMs: number, orderId?: number): Promise<string>;
  /** Uses a token once: the client, landing page and order it is bound to, or why it cannot be used. */
  use(token: string): Promise<{ clientId: number; redirectPath: string; orderId: number | null } | 'malformed' | 'unusable'>;
  /**
   * Counts a request for the address and finds its client, the same work for any address; a known address
   * under its cap gets the mail queued (before the caller answers, so an accepted request is in the store).
   */
  request(email: string, redirectPath: string, locale: Locale, reason?: SignInLinkReason): Promise<void>;
}

export function createSignInLinks(db: Database, secret: string, publicUrl: string, counters: RateCounters, mailQueued: () => void): SignInLinks {
  // Keyed (and apart from session ids), so neither a copy of the store nor a guess of its hashes yields a link.
  const hash = (token: string) => createHmac('sha256', secret).update(`sign-in-link:${token}`).digest('base64url');
  const addressKey = (email: string) => `signin-link:${createHmac('sha256', secret).update(`signin-link:${email}`).digest('hex')}`;

  return {
    async create(clientId, redirectPath, ttlMs, orderId) {
      const token = randomBytes(32).toString('base64url');
      await db.insert(signInTokens).values({
        tokenHash: hash(token), clientId, redirectPath, orderId: orderId ?? null, expiresAt: sql`now() + ${Math.trunc(ttlMs)}::integer * interval '1 millisecond'`,
      });
      // Links a day past their end go when a new one is made, so the table does not grow without end.
      await db.delete(signInTokens).where(lt(signInTokens.expiresAt, sql`now() - interval '1 day'`));
      return `${publicUrl}/checkout/api/signIn?token=${token}`;
    },

    async use(token) {
      if (!TOKEN_SHAPE.test(token)) return 'malformed';
      return db.transaction(async (tx) => {
        // One statement checks and uses the token, so two clicks at once sign in once.
        const [row] = await tx.update(signInTokens).set({ usedAt: sql`now()` })
          .where(and(eq(signInTokens.tokenHash, hash(token)), isNull(signInTokens.usedAt), gt(signInTokens.expiresAt, sql`now()`)))
          .returning({ clientId: signInTokens.clientId, redirectPath: signInTokens.redirectPath, orderId: signInTokens.orderId });
        if (!row) return 'unusable' as const;
        await tx.update(clients).set({ emailVerifiedAt: sql`coalesce(${clients.emailVerifiedAt}, now())` }).where(eq(clients.id, row.clientId));
        return row;
      });
    },

    async request(email, redirectPath, locale, reason = 'requested') {
      const address = email.trim().toLowerCase();
      // The same two statements for every address, known or not, so the answer's timing tells nothing.
      const { hits } = await counters.hit(addressKey(address), SIGN_IN_LINKS_WINDOW_MS);
      const [client] = await db.select({ id: clients.id, email: clients.email }).from(clients).where(eq(clients.email, address));
      if (!client || hits > SIGN_IN_LINKS_PER_ADDRESS) return;
      // A key of its own per request: each asked-for link is its own message.
      await enqueueMail(db, {
        key: `sign-in-link:${randomBytes(16).toString('hex')}`,
        to: client.email,
        locale,
        payload: { kind: 'sign-in-link', clientId: client.id, redirectPath, reason },
      });
      mailQueued();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    signInLinks: SignInLinks;
  }
}

/** The page for a link that cannot sign anyone in: what happened and how to get a new one. */
export function unusableLinkPage(title: string, text: string, demo: boolean): string {
  return serverPage({
    title, site: 'TV Checkout', css: `${CARD_CSS}\nmain{max-width:28rem}\na{font-weight:600}`, demo,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>
<p>To get a new link, open the checkout, choose “Log in” and then “E-mail me a sign-in link”. A new link works once, for 15 minutes.</p>
<p><a href="/checkout/">Go to the checkout</a></p>`,
  });
}

/**
 * A recovery reminder's link opens its one order: a browser already reaching it keeps its session (the order
 * is added to a guest session of the same client); any other gets a guest session that reaches that order only.
 */
async function resumeOrderSession(request: FastifyRequest, reply: FastifyReply, clientId: number, orderId: number): Promise<void> {
  const current = await readSession(request);
  if (current && current.clientId === clientId) {
    await rememberOrder(request, current, orderId);
    return;
  }
  await startSession(request, reply, { clientId, kind: 'guest', orders: [orderId] });
}

/** POST /checkout/api/signInLink and GET /checkout/api/signIn. */
export function signInRoutes(config: ServerConfig) {
  return {
    async signInLink(request: FastifyRequest<{ Body: { email: string; redirect?: string } }>, reply: FastifyReply) {
      const { country } = visitorOf(request, config);
      // Queued before the 202, so an accepted request is in the store; a known address costs one insert more (about 0.4 ms).
      await request.server.signInLinks.request(request.body.email, safeRedirect(request.body.redirect), shopperLocale(request, country));
      return reply.code(202).send({ accepted: true });
    },

    async signIn(request: FastifyRequest<{ Querystring: { token: string } }>, reply: FastifyReply) {
      reply.header('cache-control', 'no-store');
      const used = await request.server.signInLinks.use(request.query.token);
      if (used === 'malformed' || used === 'unusable') {
        const [status, title] = used === 'malformed' ? [400, 'This sign-in link is not complete'] : [410, 'This sign-in link cannot be used any more'];
        const text = used === 'malformed'
          ? 'The link was cut short or changed on its way. Sign-in links work only exactly as they were sent.'
          : 'A sign-in link works once, and only for a limited time. This one has been used or has expired.';
        return reply.code(status).type('text/html; charset=utf-8').send(unusableLinkPage(title, text, config.mode === 'demo'));
      }
      if (used.orderId === null) await startSession(request, reply, { clientId: used.clientId, kind: 'link' });
      else await resumeOrderSession(request, reply, used.clientId, used.orderId);
      return reply.code(303).header('location', used.redirectPath).send();
    },
  };
}
