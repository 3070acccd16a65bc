/**
 * The Idempotency-Key, for both billings: the same key with the same body replays the first answer, the same key
 * with another body is 409 `idempotency_key_reused`, and the key stays bound to what its first request made. Every
 * read and write of the `idempotency_keys` table is here. A claim holds status 0 until its answer is recorded.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { idempotencyKeys } from '../../db/schema';
import { conflict } from '../../http-error';
import type { IdempotencyClaim, StoredAnswer } from '../port';
import type { Executor, Transaction } from './store';

/** A claim with no answer left by a process that died is taken over after this (one WHMCS call takes at most 30 s). */
export const STALE_CLAIM_SECONDS = 120;
/** How long a retry waits for the answer of the attempt holding its key. */
const CLAIM_WAIT_MS = 45_000;
const UNANSWERED = 0;

/** The claim of an Idempotency-Key, scoped to the client and the operation; the body's hash detects reuse. */
export function idempotencyClaim(request: { headers: IncomingHttpHeaders; body: unknown }, scope: string): IdempotencyClaim | null {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return null;
  return { scope, key, requestHash: createHash('sha256').update(JSON.stringify(request.body)).digest('hex') };
}

export const keyReused = () => conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
export const requestInProgress = () => conflict('request_in_progress', 'This request is still being processed. Please try again in a moment.');

const keyOf = (claim: Pick<IdempotencyClaim, 'scope' | 'key'>) => and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key));
const unansweredKeyOf = (claim: Pick<IdempotencyClaim, 'scope' | 'key'>) => and(keyOf(claim), eq(idempotencyKeys.statusCode, UNANSWERED));

/** Claims the key with no answer yet; false when it was claimed before (a concurrent claim's transaction is waited for). */
async function insertClaim(executor: Executor, claim: IdempotencyClaim): Promise<boolean> {
  const inserted = await executor.insert(idempotencyKeys)
    .values({ scope: claim.scope, key: claim.key, requestHash: claim.requestHash, statusCode: UNANSWERED, response: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

/** The answer stored under a key claimed before: replayed to the same request, refused for another one. */
export async function replayAnswer<T>(executor: Executor, claim: IdempotencyClaim): Promise<StoredAnswer<T>> {
  const [stored] = await executor.select().from(idempotencyKeys).where(keyOf(claim));
  if (!stored || stored.requestHash !== claim.requestHash) throw keyReused();
  return { statusCode: stored.statusCode, body: stored.response as T, replayed: true };
}

/** The answer already recorded under the claim's key for the same body; null while there is none; another body is refused. */
export async function recordedAnswer<T>(executor: Executor, claim: IdempotencyClaim): Promise<StoredAnswer<T> | null> {
  const [stored] = await executor.select().from(idempotencyKeys).where(keyOf(claim));
  if (!stored || stored.statusCode === UNANSWERED) return null;
  if (stored.requestHash !== claim.requestHash) throw keyReused();
  return { statusCode: stored.statusCode, body: stored.response as T, replayed: true };
}

/** Stores the request's answer under its claim: every later request with the key and body gets it replayed. */
export async function recordAnswer(executor: Executor, claim: IdempotencyClaim, body: unknown): Promise<void> {
  await executor.update(idempotencyKeys).set({ statusCode: 200, response: body as object }).where(keyOf(claim));
}

/** A replayed answer queued nothing; a fresh one may have (the mail worker's nudge). */
export const afterMail = (context: { mailQueued?: () => void }) => <T extends { replayed: boolean }>(answer: T): T => {
  if (!answer.replayed) context.mailQueued?.();
  return answer;
};

// ---------------------------------------------------------------------------------------------------
// A request whose every write is in the store: the claim, the work and the answer share one transaction.

/**
 * Runs `work` once per idempotency key: the first answer is stored in the same transaction and replayed
 * to every retry with the same body; concurrent retries wait on the key's row lock. A failed attempt
 * (an HttpError thrown by `work`) rolls back and stores nothing.
 */
export async function idempotentInTransaction<T>(db: Database, claim: IdempotencyClaim | null, work: (tx: Transaction) => Promise<T>): Promise<StoredAnswer<T>> {
  return db.transaction(async (tx) => {
    if (claim && !(await insertClaim(tx, claim))) return replayAnswer<T>(tx, claim);
    const body = await work(tx);
    if (claim) await recordAnswer(tx, claim, body);
    return { statusCode: 200, body, replayed: false };
  });
}

/**
 * The claim written with its answer, as the first step of the one statement that writes what it answers
 * (`… returning 1 as claimed`: a row only when the key was free, so a key claimed before writes nothing and
 * its first answer is replayed with `replayAnswer`). The key is bound to the order from the moment it is claimed.
 */
export function claimWithAnswer(claim: IdempotencyClaim, body: unknown): SQL {
  return sql`insert into idempotency_keys (scope, key, request_hash, status_code, response)
        values (${claim.scope}::text, ${claim.key}::text, ${claim.requestHash}::text, 200, ${JSON.stringify(body)}::jsonb)
        on conflict do nothing returning 1 as claimed`;
}

// ---------------------------------------------------------------------------------------------------
// A request that calls a system outside the store (WHMCS): its claim is committed BEFORE that call.

/** `progress`: what an earlier holder of the claim recorded before it failed or died (the order it placed, the quantity it set). */
export type ClaimState<T> = { mine: true; progress: Record<string, unknown> } | { mine: false; answer: StoredAnswer<T> | null };

/** Takes the claim, or waits for the holder's answer; a claim left by a dead process (no answer after STALE_CLAIM_SECONDS) is taken over. */
export async function takeClaim<T>(db: Database, claim: IdempotencyClaim, wait: boolean): Promise<ClaimState<T>> {
  const started = Date.now();
  for (;;) {
    if (await insertClaim(db, claim)) return { mine: true, progress: {} };
    const [stored] = await db.select().from(idempotencyKeys).where(keyOf(claim));
    if (stored) {
      if (stored.requestHash !== claim.requestHash) throw keyReused();
      if (stored.statusCode !== UNANSWERED) return { mine: false, answer: { statusCode: stored.statusCode, body: stored.response as T, replayed: true } };
      const taken = await db.update(idempotencyKeys).set({ createdAt: sql`now()` })
        .where(and(unansweredKeyOf(claim), sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`))
        .returning({ key: idempotencyKeys.key });
      if (taken.length > 0) return { mine: true, progress: (stored.response ?? {}) as Record<string, unknown> };
      if (!wait) return { mine: false, answer: null };
    }
    if (Date.now() - started > CLAIM_WAIT_MS) throw requestInProgress();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Frees a claim with no answer, forgetting it: the key may make a new record. */
export async function releaseClaim(db: Database, claim: IdempotencyClaim): Promise<void> {
  await db.delete(idempotencyKeys).where(unansweredKeyOf(claim));
}

/** Frees a claim with no answer for the next attempt at once, keeping what it recorded on the way. */
export async function yieldClaim(db: Database, claim: IdempotencyClaim): Promise<void> {
  await db.update(idempotencyKeys).set({ createdAt: new Date(0) }).where(unansweredKeyOf(claim));
}

/** Records, under a claim with no answer, what its attempt fixed before changing the outside system (a retry reuses it). */
export async function recordProgress(db: Database, claim: IdempotencyClaim, progress: Record<string, unknown>): Promise<void> {
  await db.update(idempotencyKeys).set({ response: progress }).where(unansweredKeyOf(claim));
}

/** Whether the claim's attempt finished (its answer is recorded). */
export async function hasAnswer(db: Database, claim: Pick<IdempotencyClaim, 'scope' | 'key'>): Promise<boolean> {
  const [done] = await db.select({ statusCode: idempotencyKeys.statusCode }).from(idempotencyKeys).where(keyOf(claim));
  return done?.statusCode === 200;
}

/** The keys of the scope whose claims have no answer and are older than STALE_CLAIM_SECONDS, oldest first. */
export async function staleClaimKeys(db: Database, scope: string, limit: number): Promise<string[]> {
  const rows = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.statusCode, UNANSWERED), sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`))
    .orderBy(asc(idempotencyKeys.createdAt)).limit(limit);
  return rows.map((row) => row.key);
}

/** What a request under a committed claim is given. */
export interface ClaimedAttempt<T> {
  /** What an earlier attempt under the key kept for a retry (empty for a first attempt). */
  progress: Record<string, unknown>;
  /** Stores the answer in the transaction that finishes the request. */
  record: (tx: Transaction, body: T) => Promise<void>;
  /**
   * Binds the key to what the request made outside the store (`progress` names it) and frees it at once for a
   * retry, which finishes that record instead of making another; `alongside` runs in the same transaction.
   * False without a key (nothing can be bound); a failure of the store is thrown and binds nothing.
   */
  keep: (progress: Record<string, unknown>, alongside: (tx: Transaction, claim: IdempotencyClaim) => Promise<void>) => Promise<boolean>;
}

/** Runs `work` once per key: concurrent retries wait for the first answer; a failure before anything was kept frees the key. */
export async function idempotentWithCommittedClaim<T>(db: Database, claim: IdempotencyClaim | null, work: (attempt: ClaimedAttempt<T>) => Promise<T>): Promise<StoredAnswer<T>> {
  let progress: Record<string, unknown> = {};
  if (claim) {
    const state = await takeClaim<T>(db, claim, true);
    if (!state.mine && state.answer) return state.answer;
    if (state.mine) progress = state.progress;
  }
  let kept = false;
  const keep: ClaimedAttempt<T>['keep'] = async (next, alongside) => {
    if (!claim) return false;
    await db.transaction(async (tx) => {
      // Free at once for the retry (no wait for the stale-claim time), with the record named.
      await tx.update(idempotencyKeys).set({ response: next, createdAt: new Date(0) }).where(unansweredKeyOf(claim));
      await alongside(tx, claim);
    });
    kept = true;
    return true;
  };
  try {
    const body = await work({ progress, record: async (tx, answer) => { if (claim) await recordAnswer(tx, claim, answer); }, keep });
    return { statusCode: 200, body, replayed: false };
  } catch (error) {
    if (claim && !kept) await releaseClaim(db, claim).catch(() => undefined);
    throw error;
  }
}
