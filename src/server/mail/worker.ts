/**
 * Sends the outbox. A row is claimed by moving its next_attempt_at to the end of a lease under a fresh
 * token (one UPDATE over a FOR UPDATE SKIP LOCKED pick, so two instances never claim the same row), sent
 * outside any transaction, then marked sent under that token with its recipient and payload blanked. A
 * crash before the mark leaves the row to be taken again once the lease has run out. The one repeat that
 * cannot be ruled out is a send the server accepted whose answer was lost (or a crash right after it): the
 * repeat carries the same Message-ID, by which receivers drop it.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { NO_METRICS, timedCall, type ShopMetrics } from '../ops/metrics';
import { mailOutbox } from '../db/schema';
import type { OutboxRow } from './outbox';
import type { RenderedMail } from './templates';
import { describeMailError, isPermanentMailError, type MailTransport } from './transport';

/** How long a claimed row is left to its sender; far longer than one SMTP attempt's timeouts add up to. */
export const MAIL_LEASE_MS = 5 * 60_000;
/** Retries double from MAIL_RETRY_MS up to this. */
export const MAIL_MAX_RETRY_MS = 60 * 60_000;
/** After this many attempts a message is given up (marked failed) and logged for the operator. */
export const MAIL_MAX_ATTEMPTS = 30;

export interface MailWorkerOptions {
  db: Database;
  transport: MailTransport;
  /** Null: the message is no longer to be sent (marked skipped). */
  render(row: OutboxRow): Promise<RenderedMail | null>;
  pollMs: number;
  retryMs: number;
  leaseMs?: number;
  log: FastifyBaseLogger;
  /** Sends timed as upstream smtp, mails sent, attempts failed by SMTP error code. */
  metrics?: ShopMetrics;
}

export interface MailWorker {
  /** Looks for due mail now (called after a transaction that queued one has committed). */
  nudge(): void;
  /** Stops polling and waits for the attempt under way. */
  stop(): Promise<void>;
}

const interval = (ms: number) => sql`now() + ${`${Math.max(0, Math.round(ms))} milliseconds`}::interval`;

/** The delay before attempt `attempts + 1`: retryMs, doubled per attempt made, at most an hour. */
export function retryDelay(retryMs: number, attempts: number): number {
  return Math.min(retryMs * 2 ** Math.max(0, attempts - 1), MAIL_MAX_RETRY_MS);
}

export function startMailWorker({ db, transport, render, pollMs, retryMs, leaseMs = MAIL_LEASE_MS, log, metrics = NO_METRICS }: MailWorkerOptions): MailWorker {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  /** Claims the next due message for this attempt, or null when none is due. */
  const claim = async (): Promise<OutboxRow | null> => {
    const due = db.select({ id: mailOutbox.id }).from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db.update(mailOutbox)
      .set({ leaseToken: randomBytes(16).toString('hex'), attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: interval(leaseMs) })
      .where(inArray(mailOutbox.id, due))
      .returning();
    return row ?? null;
  };

  const ours = (row: OutboxRow) => and(eq(mailOutbox.id, row.id), eq(mailOutbox.leaseToken, row.leaseToken ?? ''));

  /** Sends one claimed message; false when the SMTP server could not be reached (the round stops there). */
  const deliver = async (row: OutboxRow): Promise<boolean> => {
    let rendered: RenderedMail | null;
    try {
      rendered = await render(row);
      if (!row.recipient) throw Object.assign(new Error('No recipient'), { code: 'ENORECIPIENT' });
    } catch (error) {
      await fail(row, error, false);
      return true;
    }
    if (!rendered) {
      // Checked when due and no longer wanted (e.g. the order was paid): kept as skipped, without address or payload.
      await db.update(mailOutbox).set({ status: 'skipped', recipient: null, payload: null, leaseToken: null }).where(ours(row));
      log.info({ mail: row.id, kind: row.kind }, 'mail skipped: no longer to be sent');
      return true;
    }
    try {
      const mail = { ...rendered, to: row.recipient, messageId: row.messageId };
      await timedCall(metrics, 'smtp', 'send', () => transport.send(mail));
    } catch (error) {
      await fail(row, error, isPermanentMailError(error));
      // Not reached, or refused as a whole: the next rows would fare the same; they wait for the next round.
      const { code } = error as { code?: unknown };
      return code === 'EENVELOPE' || code === 'EMESSAGE';
    }
    const marked = await db.update(mailOutbox)
      .set({ status: 'sent', sentAt: sql`now()`, recipient: null, payload: null, lastError: null, leaseToken: null })
      .where(ours(row)).returning({ id: mailOutbox.id });
    metrics.mailSent();
    if (marked.length === 0) log.warn({ mail: row.id, kind: row.kind }, 'mail sent after its lease ran out; it may be sent again');
    else log.info({ mail: row.id, kind: row.kind, attempts: row.attempts }, 'mail sent');
    return true;
  };

  const fail = async (row: OutboxRow, error: unknown, permanent: boolean) => {
    const reason = describeMailError(error);
    // The code alone (EAUTH, ECONNECTION, …): the rest of the description may carry a status the label does not need.
    metrics.mailFailed(reason.split(' ')[0] ?? 'ERROR');
    const givingUp = permanent || row.attempts >= MAIL_MAX_ATTEMPTS;
    const delay = retryDelay(retryMs, row.attempts);
    await db.update(mailOutbox)
      .set({ lastError: reason, leaseToken: null, ...(givingUp ? { status: 'failed' as const } : { nextAttemptAt: interval(delay) }) })
      .where(ours(row));
    if (givingUp) log.error({ mail: row.id, kind: row.kind, attempts: row.attempts, error: reason }, 'mail given up');
    else log.warn({ mail: row.id, kind: row.kind, attempts: row.attempts, error: reason, retryInMs: delay }, 'mail not sent; it will be retried');
  };

  const drain = async () => {
    while (!stopped) {
      const row = await claim();
      if (!row) return;
      if (!(await deliver(row))) return;
    }
  };

  const schedule = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(kick, pollMs);
    // A waiting poll does not keep the process alive.
    timer.unref();
  };

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => log.warn({ err: error }, 'mail outbox could not be read; trying again at the next poll'))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          kick();
        } else {
          schedule();
        }
      });
  }

  // Mail left by an earlier run (a crash between write and send, an outage) goes out at start.
  kick();
  return {
    nudge: kick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
