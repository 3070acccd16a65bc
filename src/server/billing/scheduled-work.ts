/** The billing's scheduled work, each kind a round runner of its own: WHMCS's unfinished work. */
import type { FastifyBaseLogger } from 'fastify';
import type { BillingPort, UnfinishedRound } from './port';
import { startRoundRunner, type RoundRunner } from './round-runner';

/** WHMCS's undos it refused and payments not yet applied there, retried every `pollMs`. */
export function startUnfinishedWork({ billing, pollMs, log }: { billing: Required<Pick<BillingPort, 'resumeUnfinished'>>; pollMs: number; log: FastifyBaseLogger }): RoundRunner<UnfinishedRound> {
  return startRoundRunner({
    round: () => billing.resumeUnfinished(), everyMs: pollMs, log,
    didWork: (done) => done.undone + done.undoRefused + done.applied + done.applyFailed > 0,
    messages: { done: 'unfinished billing work resumed', failed: 'unfinished billing work could not be resumed; trying again at the next poll' },
  });
}
