/** The time the server acts on: the wall clock in production, a settable one in tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
