import { eq, sql } from 'drizzle-orm';
import { withTimeout, type Database } from '../db/connect';
import { mailOutbox } from '../db/schema';
import type { OutboxState } from './metrics';

/** A scrape never waits on a slow store for longer than this: the gauges keep their last value. */
const OUTBOX_READ_TIMEOUT_MS = 1_000;

/** The outbox's pending count and its oldest pending mail's age, in one query on the pending index. */
export function outboxStateReader(db: Database, timeoutMs = OUTBOX_READ_TIMEOUT_MS): () => Promise<OutboxState> {
  return async () => {
    const [row] = await withTimeout(db.select({
      pending: sql<number>`count(*)::int`,
      oldest: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8`,
    }).from(mailOutbox).where(eq(mailOutbox.status, 'pending')), timeoutMs);
    return { pending: Number(row?.pending ?? 0), oldestPendingSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
  };
}
