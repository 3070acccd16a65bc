/**
 * Runs the billing's unfinished work (BillingPort.resumeUnfinished) on a timer: at start, then every `pollMs`.
 * Each round claims its rows in the store, so several instances on one store never take the same one; what is
 * due is decided by the injected clock inside the billing. Stopping waits for the round under way.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BillingPort } from './port';

export interface UnfinishedWorker {
  stop(): Promise<void>;
}

export function startUnfinishedWorker({ billing, pollMs, log }: { billing: Required<Pick<BillingPort, 'resumeUnfinished'>>; pollMs: number; log: FastifyBaseLogger }): UnfinishedWorker {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const round = async () => {
    const done = await billing.resumeUnfinished();
    // Counts only: the rows' own ids are in the billing's log lines.
    if (done.undone + done.undoRefused + done.applied + done.applyFailed > 0) log.info(done, 'unfinished billing work resumed');
  };

  const kick = () => {
    if (stopped || running) return;
    running = round()
      .catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'unfinished billing work could not be resumed; trying again at the next poll'))
      .finally(() => {
        running = null;
        if (stopped) return;
        timer = setTimeout(kick, pollMs);
        // A waiting poll does not keep the process alive.
        timer.unref();
      });
  };

  kick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
