/**
 * One-time sign-in links. A shopper asks for one by address (the answer is the same whether or not the
 * address has a client); the outbox queues the mail without a token, and the token is made when the mail is
 * rendered for sending. Following it once, before it expires, proves the address and signs the browser in.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../domain/locale';
import type { Database } from './db/connect';
import { clients, signInTokens } from './db/schema';
import { enqueueMail, type SignInLinkReason } from './mail/outbox';
import { shopperLocale } from './mail/locale';
import { beginSession, readSession, setSessionCookie, type Session } from './session';
import type { Executor } from './mail/outbox';
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

/**
 * What a link is for. Only a new account's own confirmation makes the password given at sign-up usable; any
 * other link that first proves an address drops a password set before the proof (someone who could not read
 * the mail may have set it) and ends the client's other sessions.
 */
export type SignInLinkPurpose = 'sign-in' | 'confirm-sign-up';

/** What a used link is bound to. */
export interface UsedSignInLink {
  clientId: number;
  redirectPath: string;
  orderId: number | null;
  passwordDropped: boolean;
}

export interface SignInLinks {
  /**
   * Makes a one-time link for a client landing on `redirectPath` (already checked); the store keeps only its
   * hash. With `orderId` (a recovery reminder) the link reaches that order only, not the client's account.
   */
  create(clientId: number, redirectPath: string, ttlMs: number, orderId?: number, purpose?: SignInLinkPurpose): Promise<string>;
  /** Whether a token is one this server issued, unused and unexpired (a look, nothing used up). */
  usable(token: string): Promise<boolean>;
  /**
   * Uses a token once: the client, landing page and order it is bound to, or why it cannot be used. `within` runs in
   * the same transaction (the session the link begins): if it fails, nothing is used up and the link still works.
   */
  use(token: string, within?: (used: UsedSignInLink, tx: Executor) => Promise<void>): Promise<UsedSignInLink | 'malformed' | 'unusable'>;
  /**
   * Counts a request for the address and finds its client, the same work for any address; a known address
   * under its cap gets the mail queued (before the caller answers, so an accepted request is in the store).
   */
  request(email: string, redirectPath: string, locale: Locale, reason?: SignInLinkReason): Promise<void>;
}

export function createSignInLinks(db: Database, secret: string, publicUrl: string, counters: RateCounters, mailQueued: () => void): SignInLinks {
  // Keyed (and apart from session ids), so neither a copy of the store nor a guess of its hashes yields a link.
  // The purpose is bound into the hash, so the store needs no column for it and a token cannot change purpose.
  const hash = (token: string, purpose: SignInLinkPurpose = 'sign-in') => createHmac('sha256', secret)
    .update(purpose === 'sign-in' ? `sign-in-link:${token}` : `${purpose}:${token}`).digest('base64url');
  const hashes = (token: string) => [hash(token, 'sign-in'), hash(token, 'confirm-sign-up')];
  const addressKey = (email: string) => `signin-link:${createHmac('sha256', secret).update(`signin-link:${email}`).digest('hex')}`;

  return {
    async create(clientId, redirectPath, ttlMs, orderId, purpose = 'sign-in') {
      const token = randomBytes(32).toString('base64url');
      await db.insert(signInTokens).values({
        tokenHash: hash(token, purpose), clientId, redirectPath, orderId: orderId ?? null, expiresAt: sql`now() + ${Math.trunc(ttlMs)}::integer * interval '1 millisecond'`,
      });
      // Links a day past their end go when a new one is made, so the table does not grow without end.
      await db.delete(signInTokens).where(lt(signInTokens.expiresAt, sql`now() - interval '1 day'`));
      return `${publicUrl}/checkout/api/signIn?token=${token}`;
    },

    async usable(token) {
      if (!TOKEN_SHAPE.test(token)) return false;
      const [row] = await db.select({ clientId: signInTokens.clientId }).from(signInTokens)
        .where(and(inArray(signInTokens.tokenHash, hashes(token)), isNull(signInTokens.usedAt), gt(signInTokens.expiresAt, sql`now()`)));
      return row !== undefined;
    },

    async use(token, within) {
      if (!TOKEN_SHAPE.test(token)) return 'malformed';
      return db.transaction(async (tx) => {
        // One statement checks and uses the token, so two clicks at once sign in once.
        const [row] = await tx.update(signInTokens).set({ usedAt: sql`now()` })
          .where(and(inArray(signInTokens.tokenHash, hashes(token)), isNull(signInTokens.usedAt), gt(signInTokens.expiresAt, sql`now()`)))
          .returning({ clientId: signInTokens.clientId, redirectPath: signInTokens.redirectPath, orderId: signInTokens.orderId, tokenHash: signInTokens.tokenHash });
        if (!row) return 'unusable' as const;
        const confirmsSignUp = row.tokenHash === hash(token, 'confirm-sign-up');
        // A password given before the address was proved survives only its own confirmation link.
        const dropped = confirmsSignUp ? [] : await tx.update(clients).set({ passwordHash: null })
          .where(and(eq(clients.id, row.clientId), isNull(clients.emailVerifiedAt), isNotNull(clients.passwordHash)))
          .returning({ id: clients.id });
        await tx.update(clients).set({ emailVerifiedAt: sql`coalesce(${clients.emailVerifiedAt}, now())` }).where(eq(clients.id, row.clientId));
        const used: UsedSignInLink = { clientId: row.clientId, redirectPath: row.redirectPath, orderId: row.orderId, passwordDropped: dropped.length > 0 };
        await within?.(used, tx);
        return used;
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

/** The page a usable link opens: one button that posts the token, so a scanner's GET uses nothing up. */
export function continueSignInPage(token: string, demo: boolean): string {
  return serverPage({
    title: 'Continue signing in', site: 'TV Checkout', css: `${CARD_CSS}\nmain{max-width:28rem}\nbutton{font:inherit;font-weight:600;padding:.75rem 1.5rem;border-radius:8px}`, demo,
    body: `<h1>Continue signing in</h1><p>You opened a sign-in link for TV Checkout. Press the button to sign in on this device.</p>
<form method="post" action="/checkout/api/signIn"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit" autofocus>Continue signing in</button></form>
<p><small>If you did not ask to sign in, close this page: nothing happens without the button.</small></p>`,
  });
}

/** A post that comes from a page of another site (a browser says so in Sec-Fetch-Site or Origin). */
function crossSite(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin !== new URL(publicUrl).origin && origin !== `${request.protocol}://${request.host}`;
}

/**
 * The session a used link gives, written in the link's transaction: a sign-in link begins a new session of its
 * client; a recovery reminder's link opens its one order (a browser already reaching that client keeps its session,
 * the order added to it; any other gets a guest session that reaches that order only). Null when the browser's
 * session was kept.
 */
async function linkSession(request: FastifyRequest, current: Session | null, used: UsedSignInLink, tx: Executor): Promise<{ token: string; session: Session } | null> {
  // A password someone set before the address was proved is gone: so is every session of that client, this browser's too.
  if (used.passwordDropped) await request.server.sessions.revokeClient(used.clientId, tx);
  const kept = used.passwordDropped && current?.clientId === used.clientId ? null : current;
  if (used.orderId === null) return beginSession(request, kept, { clientId: used.clientId, kind: 'link' }, tx);
  if (kept && kept.clientId === used.clientId) {
    await request.server.sessions.rememberOrder(kept, used.orderId, tx);
    return null;
  }
  return beginSession(request, kept, { clientId: used.clientId, kind: 'guest', orders: [used.orderId] }, tx);
}

/** POST /checkout/api/signInLink, GET /checkout/api/signIn (the confirm page) and POST /checkout/api/signIn (uses the token). */
export function signInRoutes(config: ServerConfig) {
  const demo = config.mode === 'demo';
  const unusablePage = (reply: FastifyReply, why: 'malformed' | 'unusable') => {
    const [status, title] = why === 'malformed' ? [400, 'This sign-in link is not complete'] : [410, 'This sign-in link cannot be used any more'];
    const text = why === 'malformed'
      ? 'The link was cut short or changed on its way. Sign-in links work only exactly as they were sent.'
      : 'A sign-in link works once, and only for a limited time. This one has been used or has expired.';
    return reply.code(status).type('text/html; charset=utf-8').send(unusableLinkPage(title, text, demo));
  };

  return {
    async signInLink(request: FastifyRequest<{ Body: { email: string; redirect?: string } }>, reply: FastifyReply) {
      const { country } = visitorOf(request, config);
      // Queued before the 202, so an accepted request is in the store; a known address costs one insert more (about 0.4 ms).
      await request.server.signInLinks.request(request.body.email, safeRedirect(request.body.redirect), shopperLocale(request, country));
      return reply.code(202).send({ accepted: true });
    },

    async signIn(request: FastifyRequest<{ Querystring: { token: string } }>, reply: FastifyReply) {
      reply.header('cache-control', 'no-store');
      const { token } = request.query;
      if (!TOKEN_SHAPE.test(token)) return unusablePage(reply, 'malformed');
      if (!(await request.server.signInLinks.usable(token))) return unusablePage(reply, 'unusable');
      return reply.code(200).type('text/html; charset=utf-8').send(continueSignInPage(token, demo));
    },

    async useSignInLink(request: FastifyRequest<{ Body: { token: string } }>, reply: FastifyReply) {
      reply.header('cache-control', 'no-store');
      if (crossSite(request, config.publicUrl)) {
        return reply.code(403).type('text/html; charset=utf-8').send(unusableLinkPage('Open the link from your mail', 'This sign-in was sent from another site, so it was not used. Open the sign-in link from your mail and press “Continue signing in” there.', demo));
      }
      // Read before the transaction: the embedded store runs one transaction at a time on its one connection.
      const current = await readSession(request);
      let begun: { token: string; session: Session } | null = null;
      // The token is used and the session written in one transaction: a failure in between leaves the link unused.
      const used = await request.server.signInLinks.use(request.body.token, async (link, tx) => {
        begun = await linkSession(request, current, link, tx);
      });
      if (used === 'malformed' || used === 'unusable') return unusablePage(reply, used);
      if (used.passwordDropped) request.sessionRead = Promise.resolve(null);
      if (begun) setSessionCookie(request, reply, begun);
      return reply.code(303).header('location', used.redirectPath).send();
    },
  };
}
