import { createHmac } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { eq, lte, sql } from 'drizzle-orm';
import type { Database } from './db/connect';
import { rateCounters } from './db/schema';
import { HttpError } from './http-error';

/** Failed sign-ins one account may have in a window before it is locked until the window ends. */
export const SIGN_IN_FAILURES_ALLOWED = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Expired counters are deleted by each instance at most this often. */
const PRUNE_EVERY_MS = 60 * 1000;

export interface CounterHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends (at least 1). */
  ttlMs: number;
}

/** Fixed-window counters in the store's `rate_counters`, so every instance on the store counts together. */
export interface RateCounters {
  /** Counts one hit on `key`; a window of `windowMs` starts at the first hit after the last one ended. */
  hit(key: string, windowMs: number): Promise<CounterHit>;
  /** Forgets a key's hits. */
  clear(key: string): Promise<void>;
}

export function createRateCounters(db: Database, now: () => number = Date.now): RateCounters {
  let prunedAt = -Infinity;
  // The store's clock decides when windows end, so instances with skewed clocks agree.
  const expired = sql`${rateCounters.resetAt} <= now()`;
  return {
    async hit(key, windowMs) {
      const newReset = sql`now() + ${Math.trunc(windowMs)}::integer * interval '1 millisecond'`;
      // One atomic statement per hit: concurrent hits on any instance each get their own count.
      const [row] = await db.insert(rateCounters).values({ key, hits: 1, resetAt: newReset })
        .onConflictDoUpdate({
          target: rateCounters.key,
          set: {
            hits: sql`case when ${expired} then 1 else ${rateCounters.hits} + 1 end`,
            resetAt: sql`case when ${expired} then excluded.reset_at else ${rateCounters.resetAt} end`,
          },
        })
        .returning({ hits: rateCounters.hits, ttlMs: sql<number>`greatest(1, ceil(extract(epoch from (${rateCounters.resetAt} - now())) * 1000))::integer` });
      if (!row) throw new Error(`rate counter ${key} was not written`);
      if (now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now();
        await db.delete(rateCounters).where(lte(rateCounters.resetAt, sql`now()`));
      }
      return row;
    },

    async clear(key) {
      await db.delete(rateCounters).where(eq(rateCounters.key, key));
    },
  };
}

/**
 * The store class for @fastify/rate-limit: per-IP counters kept in `rate_counters` under
 * `ip:<method> <route>:<keyed hash of the address>`, one row per address and route; no address is kept in clear.
 */
export function rateLimitStore(counters: RateCounters, secret: string): FastifyRateLimitStoreCtor {
  // Keyed, so a copy of the store cannot be checked against a list of addresses.
  const addressKey = (address: string) => createHmac('sha256', secret).update(`ip:${address}`).digest('hex');
  class StoreCounters implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'ip:') {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.hit(this.prefix + addressKey(key), timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, the route itself under routeInfo.
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      const method = Array.isArray(route.method) ? route.method.join(',') : route.method ?? '';
      return new StoreCounters(`ip:${method} ${route.url ?? ''}:`);
    }
  }
  return StoreCounters as unknown as FastifyRateLimitStoreCtor;
}

export const tooManyAttempts = (seconds: number) => new HttpError(429, 'rate_limited', `Too many attempts. Try again in ${seconds} s.`);

/**
 * Failed sign-ins per account, whatever the address they come from and whichever call (`auth`,
 * `resellerAuth`) makes them. Unknown addresses are counted and locked exactly like known ones.
 */
export interface SignInThrottle {
  /**
   * Counts an attempt on `email` before its password is checked (so parallel guesses cannot slip
   * past the limit); past the limit it sets Retry-After and throws 429 `rate_limited`.
   */
  attempt(email: string, reply: FastifyReply): Promise<void>;
  /** A correct password: the account's failures are forgotten. */
  succeeded(email: string): Promise<void>;
}

export function createSignInThrottle(counters: RateCounters, secret: string): SignInThrottle {
  // Keyed, so a copy of the store cannot be checked against a list of addresses.
  const keyOf = (email: string) => `signin:${createHmac('sha256', secret).update(`signin:${email.trim().toLowerCase()}`).digest('hex')}`;
  return {
    async attempt(email, reply) {
      const { hits, ttlMs } = await counters.hit(keyOf(email), SIGN_IN_WINDOW_MS);
      if (hits <= SIGN_IN_FAILURES_ALLOWED) return;
      const seconds = Math.ceil(ttlMs / 1000);
      reply.header('retry-after', String(seconds));
      throw tooManyAttempts(seconds);
    },

    async succeeded(email) {
      await counters.clear(keyOf(email));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    signInThrottle: SignInThrottle;
  }
}
