import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../db/connect';
import { affiliateClicks, idempotencyKeys } from '../../db/schema';
import { HttpError } from '../../http-error';
import type { IdempotencyClaim } from '../port';
import {
  claimWithAnswer, hasAnswer, idempotencyClaim, idempotentInTransaction, idempotentWithCommittedClaim, recordAnswer, recordProgress, releaseClaim,
  recordedAnswer, replayAnswer, staleClaimKeys, takeClaim, yieldClaim,
} from './idempotency';
import type { Executor } from './store';

const dir = mkdtempSync(join(tmpdir(), 'tvc-idempotency-'));
let store: Store;
beforeAll(async () => {
  store = await openStore({ engine: 'pglite', dataDir: join(dir, 'data'), warn: () => {} });
}, 120_000);
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A claim of its own per test: scope and key unique, the body's hash a literal. */
const newClaim = (requestHash = 'body-a'): IdempotencyClaim => ({ scope: `order:${randomUUID()}`, key: randomUUID(), requestHash });
const otherBody = (claim: IdempotencyClaim): IdempotencyClaim => ({ ...claim, requestHash: 'body-b' });

/** What a request makes in the store: one affiliate click, its referer naming the claim, so the test can count them. */
const makeRecord = async (executor: Executor, claim: IdempotencyClaim | null) => {
  const [row] = await executor.insert(affiliateClicks).values({ affId: 'idempotency-test', referer: claim?.key ?? 'no-key', ip: '192.0.2.1' }).returning({ id: affiliateClicks.id });
  return { recordId: row?.id ?? 0 };
};
const recordsOf = async (claim: IdempotencyClaim) => {
  const [row] = await store.db.select({ total: count() }).from(affiliateClicks).where(eq(affiliateClicks.referer, claim.key));
  return row?.total ?? 0;
};
const claimRow = async (claim: IdempotencyClaim) => {
  const [row] = await store.db.select().from(idempotencyKeys).where(sql`${idempotencyKeys.scope} = ${claim.scope} and ${idempotencyKeys.key} = ${claim.key}`);
  return row;
};
/** The claim as a process that died 121 s ago left it (the README: a retry takes over a claim left unanswered for 120 s). */
const ageClaim = (claim: IdempotencyClaim, seconds: number) =>
  store.db.update(idempotencyKeys).set({ createdAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(sql`${idempotencyKeys.scope} = ${claim.scope} and ${idempotencyKeys.key} = ${claim.key}`);

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(HttpError);
  return { status: (error as HttpError).statusCode, code: (error as HttpError).code };
};

describe('the claim of a request', () => {
  it('is scoped as given, keyed by the Idempotency-Key header, and tells two bodies apart by their hash', () => {
    const first = idempotencyClaim({ headers: { 'idempotency-key': 'key-1' }, body: { pid: 1, amount: 12.99 } }, 'order:7:s1');
    const same = idempotencyClaim({ headers: { 'idempotency-key': 'key-1' }, body: { pid: 1, amount: 12.99 } }, 'order:7:s1');
    const other = idempotencyClaim({ headers: { 'idempotency-key': 'key-1' }, body: { pid: 1, amount: 16.99 } }, 'order:7:s1');
    expect(first).toMatchObject({ scope: 'order:7:s1', key: 'key-1' });
    expect(same?.requestHash).toBe(first?.requestHash);
    expect(other?.requestHash).not.toBe(first?.requestHash);
    expect(idempotencyClaim({ headers: {}, body: {} }, 'order:7:s1')).toBeNull();
  });
});

describe('a request whose claim, work and answer share one transaction', () => {
  it('replays the first answer to the same key and body, without doing the work again', async () => {
    const claim = newClaim();
    const first = await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim));
    const retry = await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim));
    expect(first).toMatchObject({ statusCode: 200, replayed: false });
    expect(retry).toEqual({ statusCode: 200, body: first.body, replayed: true });
    expect(await recordsOf(claim)).toBe(1);
  });

  it('refuses the key with another body with 409 idempotency_key_reused and keeps the first answer', async () => {
    const claim = newClaim();
    const first = await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim));
    expect(await refusal(idempotentInTransaction(store.db, otherBody(claim), (tx) => makeRecord(tx, claim)))).toEqual({ status: 409, code: 'idempotency_key_reused' });
    expect(await recordsOf(claim)).toBe(1);
    expect((await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim))).body).toEqual(first.body);
  });

  it('does the work once for 10 concurrent requests under one key, and answers all of them alike', async () => {
    const claim = newClaim();
    const answers = await Promise.all(Array.from({ length: 10 }, () => idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim))));
    expect(await recordsOf(claim)).toBe(1);
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
  });

  it('stores nothing for a failed attempt: its writes are undone and the retry does the work', async () => {
    const claim = newClaim();
    const failed = idempotentInTransaction(store.db, claim, async (tx) => {
      await makeRecord(tx, claim);
      throw new HttpError(422, 'promotion_invalid', 'This promotion code has been used up.');
    });
    expect(await refusal(failed)).toEqual({ status: 422, code: 'promotion_invalid' });
    expect(await recordsOf(claim)).toBe(0);
    expect(await claimRow(claim)).toBeUndefined();
    expect((await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim))).replayed).toBe(false);
    expect(await recordsOf(claim)).toBe(1);
  });

  it('keeps a key of one scope apart from the same key of another (another client or session)', async () => {
    const claim = newClaim();
    await idempotentInTransaction(store.db, claim, (tx) => makeRecord(tx, claim));
    const elsewhere = await idempotentInTransaction(store.db, { ...claim, scope: `${claim.scope}-other` }, (tx) => makeRecord(tx, claim));
    expect(elsewhere.replayed).toBe(false);
    expect(await recordsOf(claim)).toBe(2);
  });

  it('does the work every time without a key', async () => {
    const unkeyed = async () => (await store.db.select({ total: count() }).from(affiliateClicks).where(eq(affiliateClicks.referer, 'no-key')))[0]?.total ?? 0;
    const before = await unkeyed();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await idempotentInTransaction(store.db, null, (tx) => makeRecord(tx, null))).replayed).toBe(false);
    }
    expect(await unkeyed()).toBe(before + 2);
  });
});

describe('a claim written with its answer in the statement that makes the record', () => {
  const claimed = async (claim: IdempotencyClaim, body: unknown) => {
    const { rows } = await store.db.execute(sql`with claimed as (${claimWithAnswer(claim, body)}) select count(*)::int as claimed from claimed`) as unknown as { rows: { claimed: number }[] };
    return rows[0]?.claimed;
  };

  it('claims a free key once; a key claimed before replays the answer written with it, or refuses another body', async () => {
    const claim = newClaim();
    expect(await claimed(claim, { orderid: 41 })).toBe(1);
    expect(await claimed(claim, { orderid: 42 })).toBe(0);
    expect(await replayAnswer(store.db, claim)).toEqual({ statusCode: 200, body: { orderid: 41 }, replayed: true });
    expect(await refusal(replayAnswer(store.db, otherBody(claim)))).toEqual({ status: 409, code: 'idempotency_key_reused' });
  });
});

describe('the answer recorded before a request is checked again', () => {
  it('is none for a new key or one still unanswered, the first answer for the same body, and 409 for another body', async () => {
    const claim = newClaim();
    expect(await recordedAnswer(store.db, claim)).toBeNull();
    expect(await takeClaim(store.db, claim, false)).toMatchObject({ mine: true });
    expect(await recordedAnswer(store.db, claim)).toBeNull();
    await recordAnswer(store.db, claim, { orderid: 43 });
    expect(await recordedAnswer(store.db, claim)).toEqual({ statusCode: 200, body: { orderid: 43 }, replayed: true });
    expect(await refusal(recordedAnswer(store.db, otherBody(claim)))).toEqual({ status: 409, code: 'idempotency_key_reused' });
  });
});

describe('a request whose claim is committed before it calls another system', () => {
  it('replays the first answer to the same key and body, and refuses another body with 409 idempotency_key_reused', async () => {
    const claim = newClaim();
    const run = () => idempotentWithCommittedClaim(store.db, claim, async ({ record }) => store.db.transaction(async (tx) => {
      const body = await makeRecord(tx, claim);
      await record(tx, body);
      return body;
    }));
    const first = await run();
    expect(first.replayed).toBe(false);
    expect(await run()).toEqual({ statusCode: 200, body: first.body, replayed: true });
    expect(await refusal(idempotentWithCommittedClaim(store.db, otherBody(claim), async () => ({ recordId: 0 })))).toEqual({ status: 409, code: 'idempotency_key_reused' });
    expect(await recordsOf(claim)).toBe(1);
  });

  it('makes 10 concurrent requests under one key wait for the first answer: one record, one answer', async () => {
    const claim = newClaim();
    let calls = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => idempotentWithCommittedClaim(store.db, claim, async ({ record }) => {
      calls += 1;
      // The other system takes its time: the others find the claim taken and no answer yet.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return store.db.transaction(async (tx) => {
        const body = await makeRecord(tx, claim);
        await record(tx, body);
        return body;
      });
    })));
    expect(calls).toBe(1);
    expect(await recordsOf(claim)).toBe(1);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
  });

  it('frees the key of an attempt that failed before anything was kept: the retry starts afresh', async () => {
    const claim = newClaim();
    const failed = idempotentWithCommittedClaim(store.db, claim, async () => {
      throw new HttpError(409, 'currency_not_offered', 'Your account is billed in EUR. Please order in EUR.');
    });
    expect(await refusal(failed)).toEqual({ status: 409, code: 'currency_not_offered' });
    expect(await claimRow(claim)).toBeUndefined();
    let progress: Record<string, unknown> | null = null;
    await idempotentWithCommittedClaim(store.db, claim, async (attempt) => {
      progress = attempt.progress;
      return { recordId: 0 };
    });
    expect(progress).toEqual({});
  });

  it('binds the key to what an attempt made before it failed: the retry at once gets what it kept, and the kept write stands', async () => {
    const claim = newClaim();
    const failed = idempotentWithCommittedClaim(store.db, claim, async ({ keep }) => {
      expect(await keep({ whmcsOrder: { orderId: 41, invoiceId: 51, serviceIds: [61] } }, async (tx) => { await makeRecord(tx, claim); })).toBe(true);
      throw new HttpError(502, 'billing_error', 'The billing system refused the request.');
    });
    expect(await refusal(failed)).toEqual({ status: 502, code: 'billing_error' });
    expect(await recordsOf(claim)).toBe(1);
    const retry = await idempotentWithCommittedClaim(store.db, claim, async ({ progress, record }) => store.db.transaction(async (tx) => {
      await record(tx, progress);
      return progress;
    }));
    expect(retry).toEqual({ statusCode: 200, body: { whmcsOrder: { orderId: 41, invoiceId: 51, serviceIds: [61] } }, replayed: false });
  });

  it('binds nothing when the store fails while keeping: the key is freed and the write alongside undone', async () => {
    const claim = newClaim();
    const failed = idempotentWithCommittedClaim(store.db, claim, async ({ keep }) => {
      await keep({ whmcsOrder: { orderId: 41 } }, async (tx) => {
        await makeRecord(tx, claim);
        throw new Error('connection lost');
      });
      return { recordId: 0 };
    });
    await expect(failed).rejects.toThrow('connection lost');
    expect(await recordsOf(claim)).toBe(0);
    expect(await claimRow(claim)).toBeUndefined();
  });

  it('keeps nothing without a key', async () => {
    let kept: boolean | null = null;
    await idempotentWithCommittedClaim(store.db, null, async ({ keep }) => {
      kept = await keep({ whmcsOrder: { orderId: 41 } }, async () => {});
      return {};
    });
    expect(kept).toBe(false);
  });

  it('after a crash between the claim and the answer, a retry waits while the claim is fresh and takes it over after 120 s with what was recorded', async () => {
    const claim = newClaim();
    // The process that took the claim died after recording its progress.
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: true, progress: {} });
    await recordProgress(store.db, claim, { quantity: 3 });
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: false, answer: null });
    await ageClaim(claim, 119);
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: false, answer: null });
    await ageClaim(claim, 121);
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: true, progress: { quantity: 3 } });
    // Taken over: fresh again for anyone else.
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: false, answer: null });
  });

  it('a yielded claim is free for the next attempt at once, with what it recorded; a released one is forgotten', async () => {
    const yielded = newClaim();
    await takeClaim(store.db, yielded, false);
    await recordProgress(store.db, yielded, { quantity: 2 });
    await yieldClaim(store.db, yielded);
    expect(await takeClaim(store.db, yielded, false)).toEqual({ mine: true, progress: { quantity: 2 } });

    const released = newClaim();
    await takeClaim(store.db, released, false);
    await recordProgress(store.db, released, { quantity: 2 });
    await releaseClaim(store.db, released);
    expect(await takeClaim(store.db, released, false)).toEqual({ mine: true, progress: {} });
  });

  it('an answered claim is neither released, yielded nor changed by progress, and is replayed', async () => {
    const claim = newClaim('');
    await takeClaim(store.db, claim, false);
    expect(await hasAnswer(store.db, claim)).toBe(false);
    await recordAnswer(store.db, claim, { applied: true });
    await releaseClaim(store.db, claim);
    await yieldClaim(store.db, claim);
    await recordProgress(store.db, claim, { quantity: 9 });
    expect(await hasAnswer(store.db, claim)).toBe(true);
    expect(await takeClaim(store.db, claim, false)).toEqual({ mine: false, answer: { statusCode: 200, body: { applied: true }, replayed: true } });
  });

  it('lists the unanswered claims of a scope left for more than 120 s, oldest first, at most as many as asked', async () => {
    const scope = `whmcs-apply-payment-${randomUUID()}`;
    const [older, old, fresh, answered, oldest] = Array.from({ length: 5 }, () => ({ scope, key: randomUUID(), requestHash: '' }));
    for (const claim of [older, old, fresh, answered, oldest]) if (claim) await takeClaim(store.db, claim, false);
    if (!older || !old || !fresh || !answered || !oldest) throw new Error('five claims');
    await ageClaim(older, 600);
    await ageClaim(old, 300);
    await ageClaim(answered, 900);
    await recordAnswer(store.db, answered, { applied: true });
    await ageClaim(oldest, 1200);
    expect(await staleClaimKeys(store.db, scope, 20)).toEqual([oldest.key, older.key, old.key]);
    expect(await staleClaimKeys(store.db, scope, 2)).toEqual([oldest.key, older.key]);
  });
});
