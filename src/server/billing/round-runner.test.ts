import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { UnfinishedRound } from './port';
import { startRoundRunner } from './round-runner';
import { startUnfinishedWork } from './scheduled-work';

const NOTHING: UnfinishedRound = { undone: 0, undoRefused: 0, applied: 0, applyFailed: 0 };
const lines: { level: string; object: object; message: string }[] = [];
const log = {
  info: (object: object, message: string) => lines.push({ level: 'info', object, message }),
  warn: (object: object, message: string) => lines.push({ level: 'warn', object, message }),
} as unknown as FastifyBaseLogger;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the round runner, as the unfinished-work job runs on it', () => {
  it('runs a round at start and then every poll, one at a time, and none after stop() (which waits for the round under way)', async () => {
    let rounds = 0;
    let running = 0;
    let overlapped = false;
    let finished = 0;
    const worker = startUnfinishedWork({
      billing: {
        async resumeUnfinished() {
          rounds += 1;
          running += 1;
          if (running > 1) overlapped = true;
          await sleep(15);
          running -= 1;
          finished += 1;
          return NOTHING;
        },
      },
      pollMs: 5, log,
    });
    await sleep(120);
    expect(rounds).toBeGreaterThanOrEqual(3);
    await worker.stop();
    expect(finished).toBe(rounds);
    const atStop = rounds;
    await sleep(60);
    expect(rounds).toBe(atStop);
    expect(overlapped).toBe(false);
  });

  it('keeps polling after a round fails, logging the failure without the rows, and logs a round that did something', async () => {
    lines.length = 0;
    let rounds = 0;
    const worker = startUnfinishedWork({
      billing: {
        async resumeUnfinished() {
          rounds += 1;
          if (rounds === 1) throw new Error('store unavailable');
          return rounds === 2 ? { ...NOTHING, undone: 1 } : NOTHING;
        },
      },
      pollMs: 5, log,
    });
    await sleep(80);
    await worker.stop();
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([{ level: 'warn', object: { err: 'store unavailable' }, message: expect.stringContaining('next poll') }]);
    expect(lines.filter((line) => line.level === 'info')).toEqual([{ level: 'info', object: { ...NOTHING, undone: 1 }, message: 'unfinished billing work resumed' }]);
  });

  it('runs a round asked for now after the one under way, answers what it did, and answers null once stopped', async () => {
    let rounds = 0;
    let running = 0;
    let overlapped = false;
    const worker = startRoundRunner({
      round: async () => {
        rounds += 1;
        running += 1;
        if (running > 1) overlapped = true;
        await sleep(20);
        running -= 1;
        return { ...NOTHING, applied: rounds };
      },
      everyMs: 60_000, log, didWork: () => false, messages: { done: 'done', failed: 'failed' },
    });
    const [first, asked] = await Promise.all([worker.first, worker.runNow()]);
    expect(first).toEqual({ ...NOTHING, applied: 1 });
    expect(asked).toEqual({ ...NOTHING, applied: 2 });
    expect(overlapped).toBe(false);
    await worker.stop();
    expect(await worker.runNow()).toBeNull();
    expect(rounds).toBe(2);
  });
});
