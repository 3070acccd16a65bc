/**
 * The overload measure's arithmetic (DESIGN.md section 9, "Overload"): what became of each request offered at a
 * fixed rate, summed up per level, and the budgets checked. Pure, so it has tests of its own.
 */
import { percentile } from './stats';

/** One request of an open-loop run: its status (0: no answer, an error or the client's timeout), its error code, and its latency from its scheduled send. */
export interface Outcome {
  status: number;
  /** The `error.code` of a non-2xx JSON answer, when there was one. */
  code: string | null;
  ms: number;
}

export interface LevelFigures {
  /** Multiple of the knee offered. */
  level: number;
  rate: number;
  offered: number;
  /** 2xx answers. */
  accepted: number;
  /** 503 `overloaded` answers. */
  shed: number;
  /** Any other answer (another status or error code). */
  other: number;
  /** No answer within the client's timeout, or a connection error. */
  unanswered: number;
  acceptedP50: number;
  acceptedP99: number;
  refusedP99: number;
  /** Whether each refusal carried Retry-After (counted by the caller). */
  retryAfterMissing: number;
}

export function summariseLevel(level: number, rate: number, outcomes: readonly Outcome[], retryAfterMissing = 0): LevelFigures {
  const accepted = outcomes.filter((outcome) => outcome.status >= 200 && outcome.status < 300);
  const shed = outcomes.filter((outcome) => outcome.status === 503 && outcome.code === 'overloaded');
  const unanswered = outcomes.filter((outcome) => outcome.status === 0).length;
  return {
    level, rate,
    offered: outcomes.length,
    accepted: accepted.length,
    shed: shed.length,
    other: outcomes.length - accepted.length - shed.length - unanswered,
    unanswered,
    acceptedP50: percentile(accepted.map((outcome) => outcome.ms), 50),
    acceptedP99: percentile(accepted.map((outcome) => outcome.ms), 99),
    refusedP99: percentile(shed.map((outcome) => outcome.ms), 99),
    retryAfterMissing,
  };
}

/** DESIGN.md section 9: refused within 50 ms (p99). */
export const REFUSED_P99_LIMIT_MS = 50;
/** DESIGN.md section 9: accepted p99 within 10 × the unloaded p99. */
export const ACCEPTED_P99_FACTOR = 10;

/**
 * The overload budgets at one level: refusals answered within the limit (none refused passes, as nothing was
 * kept waiting), every request answered one way or the other, and the accepted p99 within 10 × unloaded.
 */
export function overloadVerdict(figures: LevelFigures, unloadedP99: number): { refused: boolean; accepted: boolean } {
  const refused = figures.shed === 0 ? figures.unanswered === 0 : figures.refusedP99 <= REFUSED_P99_LIMIT_MS && figures.retryAfterMissing === 0;
  const accepted = figures.unanswered === 0 && figures.accepted > 0 && figures.acceptedP99 <= ACCEPTED_P99_FACTOR * unloadedP99;
  return { refused, accepted };
}
