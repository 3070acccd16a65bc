/** The billing's scheduled work, each kind a round runner of its own: WHMCS's unfinished work, the local billing's renewals. */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { BillingPort, RenewalRound, UnfinishedRound } from './port';
import { startRoundRunner, type RoundRunner } from './round-runner';

/** WHMCS's undos it refused and payments not yet applied there, retried every `pollMs`. */
export function startUnfinishedWork({ billing, pollMs, log }: { billing: Required<Pick<BillingPort, 'resumeUnfinished'>>; pollMs: number; log: FastifyBaseLogger }): RoundRunner<UnfinishedRound> {
  return startRoundRunner({
    round: () => billing.resumeUnfinished(), everyMs: pollMs, log,
    didWork: (done) => done.undone + done.undoRefused + done.applied + done.applyFailed > 0,
    messages: { done: 'unfinished billing work resumed', failed: 'unfinished billing work could not be resumed; trying again at the next poll' },
  });
}

/** The renewal invoices, notices, suspensions and terminations due as of the clock's day, looked for every `tickMs`. */
export function startRenewals({ billing, clock, tickMs, log }: { billing: Required<Pick<BillingPort, 'renewalRound'>>; clock: Clock; tickMs: number; log: FastifyBaseLogger }): RoundRunner<RenewalRound> {
  return startRoundRunner({
    round: () => billing.renewalRound(clock.now()), everyMs: tickMs, log,
    didWork: (done) => done.invoiced + done.reminded + done.suspended + done.terminated > 0,
    messages: { done: 'renewal round', failed: 'the renewal round failed; trying again at the next tick' },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a renewal round now, after the one under way (an operator's nudge, a test that moved the clock); null without renewal work (WHMCS) or when it failed. */
    renewalRound(): Promise<RenewalRound | null>;
  }
}
