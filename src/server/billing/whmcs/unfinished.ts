import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { payments, whmcsUndos } from '../../db/schema';
import { conflict } from '../../http-error';
import type { BillingPort, IdempotencyClaim, StoredAnswer, UnfinishedRound } from '../port';
import { idempotentWithCommittedClaim, releaseClaim, staleClaimKeys } from '../shared/idempotency';
import type { Transaction } from '../shared/store';
import { collection, text, toId, WhmcsRefusal } from './client';
import { describeWhmcsError, type WhmcsBillingContext } from './context';
import { APPLY_PAYMENT_SCOPE } from './payments';

/** A shopper retries a failed submit within minutes; after this the WHMCS record of an unfinished request is undone. */
export const UNFINISHED_UNDO_AFTER_MS = 30 * 60_000;
/** How long an undo's attempt holds its row (one WHMCS call takes at most 30 s). */
const UNDO_LEASE_MS = 2 * 60_000;
/** A refused undo is retried after this, doubled per attempt, at most hourly. */
const UNDO_RETRY_MS = 60_000;
const UNDO_MAX_RETRY_MS = 60 * 60_000;
/** Undos and payment applications taken per round of the job. */
const RESUME_BATCH = 20;

export type UndoAction = 'CancelOrder' | 'CancelInvoice';
type UndoRow = typeof whmcsUndos.$inferSelect;

/** What the first attempt of a key recorded once WHMCS took it (`whmcsOrder`, `whmcsInvoice`), and how to record it. */
export interface Attempt<T> {
  progress: Record<string, unknown>;
  record: (tx: Transaction, body: T) => Promise<void>;
  /**
   * After WHMCS took the request and a later step failed: the key keeps `progress` (a retry with it finishes the
   * record instead of making another) and the record is undone after a grace time unless a retry finishes it. Without
   * a key nothing can finish it: it is undone now.
   */
  keepUnfinished: (progress: Record<string, unknown>, action: UndoAction, whmcsId: number) => Promise<void>;
}

/**
 * What the checkout still owes WHMCS: the undo of a record WHMCS took for a request that was not finished (a row is
 * written first, then the undo is tried; one WHMCS refuses is retried by the job), and payments not yet applied there.
 */
export function whmcsUnfinished(context: WhmcsBillingContext, applyPayment: (paymentId: string) => Promise<void>) {
  const { whmcs, db, config, clock } = context;

  const undoOf = (action: UndoAction, whmcsId: number) => and(eq(whmcsUndos.action, action), eq(whmcsUndos.whmcsId, whmcsId));
  const afterMs = (ms: number) => new Date(clock.now().getTime() + ms);

  /** Leases the next due undo (one UPDATE over a FOR UPDATE SKIP LOCKED pick, so two instances never take the same row). */
  const leaseUndo = async (only?: number): Promise<UndoRow | null> => {
    const due = db.select({ id: whmcsUndos.id }).from(whmcsUndos)
      .where(and(eq(whmcsUndos.status, 'pending'), lte(whmcsUndos.nextAttemptAt, clock.now()), only === undefined ? undefined : eq(whmcsUndos.id, only)))
      .orderBy(asc(whmcsUndos.nextAttemptAt), asc(whmcsUndos.id)).limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db.update(whmcsUndos)
      .set({ leaseToken: randomBytes(16).toString('hex'), attempts: sql`${whmcsUndos.attempts} + 1`, nextAttemptAt: afterMs(UNDO_LEASE_MS) })
      .where(inArray(whmcsUndos.id, due)).returning();
    return row ?? null;
  };

  /** WHMCS's status of an order (GetOrders), or null when it has none by that id. */
  const whmcsOrderStatus = async (orderId: number) => {
    const answer = await whmcs.read('GetOrders', { id: orderId, limitnum: 1 });
    const row = collection(answer, 'orders', 'order').find((candidate) => toId(candidate.id) === orderId);
    return row ? text(row.status) : null;
  };

  /** Tries one leased undo: done once WHMCS accepts it (or shows it already undone), else due again later. */
  const attemptUndo = async (row: UndoRow): Promise<boolean> => {
    const ours = and(eq(whmcsUndos.id, row.id), eq(whmcsUndos.leaseToken, row.leaseToken ?? ''));
    try {
      if (row.action === 'CancelOrder') {
        try {
          await whmcs.write('CancelOrder', { orderid: row.whmcsId, cancelsub: true, noemail: true });
        } catch (error) {
          // "Not Pending": already cancelled or flagged (an earlier attempt whose answer was lost, or the operator) is what we wanted.
          if (!(error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
          const status = await whmcsOrderStatus(row.whmcsId);
          if (status !== 'Cancelled' && status !== 'Fraud') throw error;
        }
      } else {
        await whmcs.write('UpdateInvoice', { invoiceid: row.whmcsId, status: 'Cancelled' });
      }
    } catch (error) {
      const retryInMs = Math.min(UNDO_RETRY_MS * 2 ** Math.max(0, row.attempts - 1), UNDO_MAX_RETRY_MS);
      await db.update(whmcsUndos).set({ leaseToken: null, lastError: describeWhmcsError(error), nextAttemptAt: afterMs(retryInMs) }).where(ours);
      config.log?.error({ undo: row.id, action: row.action, whmcsId: row.whmcsId, reason: row.reason, attempts: row.attempts, retryInMs, whmcs: describeWhmcsError(error) },
        'WHMCS did not accept an undo; it will be retried (npm run whmcs:unfinished lists it)');
      return false;
    }
    await db.update(whmcsUndos).set({ status: 'done', doneAt: clock.now(), leaseToken: null, lastError: null }).where(ours);
    config.log?.warn({ undo: row.id, action: row.action, whmcsId: row.whmcsId, reason: row.reason, attempts: row.attempts }, 'WHMCS accepted an undo');
    return true;
  };

  /** Owes WHMCS an undo due now and tries it at once; a refusal leaves it to the job. */
  const undoNow = async (action: UndoAction, whmcsId: number, reason: UndoRow['reason']) => {
    const [row] = await db.insert(whmcsUndos).values({ action, whmcsId, reason, nextAttemptAt: clock.now() })
      .onConflictDoUpdate({
        target: [whmcsUndos.action, whmcsUndos.whmcsId], set: { reason, nextAttemptAt: clock.now(), claimScope: null, claimKey: null },
        where: eq(whmcsUndos.status, 'pending'),
      }).returning({ id: whmcsUndos.id });
    const leased = row ? await leaseUndo(row.id) : null;
    if (leased) await attemptUndo(leased);
  };

  /** In the transaction that finishes a request: its record is no longer to be undone. False when an undo ran or runs. */
  const supersedeUndo = async (tx: Transaction, action: UndoAction, whmcsId: number) => {
    const superseded = await tx.update(whmcsUndos).set({ status: 'superseded', doneAt: clock.now() })
      .where(and(undoOf(action, whmcsId), eq(whmcsUndos.status, 'pending'), or(isNull(whmcsUndos.leaseToken), lt(whmcsUndos.nextAttemptAt, clock.now()))))
      .returning({ id: whmcsUndos.id });
    if (superseded.length > 0) return true;
    const [row] = await tx.select({ status: whmcsUndos.status }).from(whmcsUndos).where(undoOf(action, whmcsId));
    return !row;
  };

  /** A retry of a request whose record the job has undone: the key is freed for a new attempt, and the shopper told. */
  const refuseUndone = async (claim: IdempotencyClaim | null, action: UndoAction, whmcsId: number) => {
    const [row] = await db.select({ status: whmcsUndos.status }).from(whmcsUndos).where(undoOf(action, whmcsId));
    if (row?.status !== 'done') return;
    if (claim) await releaseClaim(db, claim);
    throw conflict('order_cancelled', 'This purchase was not completed in time and has been cancelled. Please start it again.');
  };

  /** Runs `work` once per key: concurrent retries wait for the first answer; a failure before WHMCS took anything frees the key. */
  const idempotent = <T>(claim: IdempotencyClaim | null, work: (attempt: Attempt<T>) => Promise<T>): Promise<StoredAnswer<T>> =>
    idempotentWithCommittedClaim<T>(db, claim, ({ progress, record, keep }) => work({
      progress, record,
      async keepUnfinished(next, action, whmcsId) {
        let kept: boolean;
        try {
          kept = await keep(next, async (tx, bound) => {
            await tx.insert(whmcsUndos).values({
              action, whmcsId, reason: 'unfinished', claimScope: bound.scope, claimKey: bound.key, nextAttemptAt: afterMs(config.unfinishedUndoAfterMs ?? UNFINISHED_UNDO_AFTER_MS),
            }).onConflictDoNothing();
          });
        } catch (error) {
          // The store failed too: the key cannot be bound, so the record is undone now (a refusal is only logged).
          config.log?.error({ action, whmcsId, err: describeWhmcsError(error) }, 'WHMCS record of a failed request could not be kept for a retry; undoing it now');
          await undoNow(action, whmcsId, 'unfinished').catch((undoError: unknown) => {
            config.log?.error({ action, whmcsId, err: describeWhmcsError(undoError) }, 'WHMCS record left for the operator: neither kept nor undone');
          });
          return;
        }
        // Without a key nothing can finish the record: it is undone now.
        if (!kept) await undoNow(action, whmcsId, 'unfinished');
      },
    }));

  const calls: Pick<BillingPort, 'resumeUnfinished'> = {
    async resumeUnfinished(): Promise<UnfinishedRound> {
      const round: UnfinishedRound = { undone: 0, undoRefused: 0, applied: 0, applyFailed: 0 };
      for (let taken = 0; taken < RESUME_BATCH; taken += 1) {
        const row = await leaseUndo();
        if (!row) break;
        if (await attemptUndo(row)) round.undone += 1;
        else round.undoRefused += 1;
      }
      // Payments whose application in WHMCS failed or was cut short and that no delivery has taken up since.
      for (const paymentId of await staleClaimKeys(db, APPLY_PAYMENT_SCOPE, RESUME_BATCH)) {
        const [payment] = await db.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
        try {
          await applyPayment(paymentId);
          round.applied += 1;
        } catch (error) {
          round.applyFailed += 1;
          // The invoice, not the payment id: that id is the bearer token of the payment link.
          config.log?.error({ invoiceId: payment?.invoiceId ?? null, whmcs: describeWhmcsError(error) }, 'payment not yet applied in WHMCS; it will be retried (npm run whmcs:unfinished lists it)');
        }
      }
      return round;
    },
  };

  return { calls, idempotent, undoNow, supersedeUndo, refuseUndone };
}

export type WhmcsUnfinished = ReturnType<typeof whmcsUnfinished>;
