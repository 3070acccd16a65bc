/**
 * Runs a billing's scheduled work in rounds on a timer: at start, then every `everyMs` after the last round ended,
 * one round at a time. Each round claims or guards its rows in the store, so several instances on one store never do
 * the same piece twice; what is due is decided by the injected clock inside the billing. Stopping waits for the
 * round under way. Serves WHMCS's unfinished work (BillingPort.resumeUnfinished) and the local billing's renewals
 * (BillingPort.renewalRound).
 */
import type { FastifyBaseLogger } from 'fastify';

export interface RoundRunnerOptions<Result extends object> {
  round: () => Promise<Result>;
  everyMs: number;
  log: FastifyBaseLogger;
  /** Whether a round did anything: only then is it logged, with its counts. */
  didWork: (result: Result) => boolean;
  /** The log line of a round that did work, and of one that failed (which says the next one tries again). */
  messages: { done: string; failed: string };
}

export interface RoundRunner<Result> {
  /** The round run at start; null when it failed. */
  readonly first: Promise<Result | null>;
  /** Runs a round now, after the one under way; null when it failed or the runner is stopped. */
  runNow(): Promise<Result | null>;
  stop(): Promise<void>;
}

export function startRoundRunner<Result extends object>({ round, everyMs, log, didWork, messages }: RoundRunnerOptions<Result>): RoundRunner<Result> {
  let stopped = false;
  let last: Promise<Result | null> = Promise.resolve(null);
  let timer: NodeJS.Timeout | null = null;

  const once = async (): Promise<Result | null> => {
    try {
      const result = await round();
      // Counts only: the rows' own ids are in the billing's log lines.
      if (didWork(result)) log.info(result as object, messages.done);
      return result;
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, messages.failed);
      return null;
    }
  };

  const runNow = (): Promise<Result | null> => {
    if (timer) clearTimeout(timer);
    const next = last.then(() => (stopped ? null : once()));
    last = next;
    void next.then(() => {
      // The next poll counts from the end of the latest round asked for.
      if (stopped || last !== next) return;
      timer = setTimeout(() => void runNow(), everyMs);
      // A waiting poll does not keep the process alive.
      timer.unref();
    });
    return next;
  };

  const first = runNow();
  return {
    first,
    runNow,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await last;
    },
  };
}
