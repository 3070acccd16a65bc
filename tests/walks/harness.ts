/**
 * Seeded random walks over a real machine (issue 13 item 6): fast-check picks a sequence of commands
 * (a shopper's event, a server's answer to a call that is waiting, or time passing to the next timer),
 * each runs on a real actor (`createActor`) whose invoked actors are promises the walk settles and whose
 * timers run on a clock the walk moves, and after every step one invariant, written as a sentence a
 * product owner reads, must hold. A failure names the sentence, shrinks to a minimal sequence and
 * prints fast-check's seed and path.
 */
import fc from 'fast-check';
import { createActor, fromPromise, type ActorOptions, type AnyActorLogic, type AnyActorRef, type AnyMachineSnapshot, type EventObject, type PromiseActorLogic } from 'xstate';

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** A clock the walk moves by hand: a timer fires only when the walk lets time pass. */
export class WalkClock implements Clock {
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; fire: () => void }>();

  constructor(public now: number) {}

  setTimeout(fire: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { due: this.now + ms, fire });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** Delays (ms from now) of the timers still set. */
  pending(): number[] {
    return [...this.timers.values()].map((timer) => timer.due - this.now);
  }

  /** Moves the time to the earliest timer and fires it; false when no timer is set. */
  passToNextTimer(): boolean {
    const next = [...this.timers.entries()].sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
    if (!next) return false;
    this.timers.delete(next[0]);
    this.now = Math.max(this.now, next[1].due);
    next[1].fire();
    return true;
  }
}

/** One call an invoked actor made to the (walk's) server. */
export interface ServerCall {
  actor: string;
  input: unknown;
  /** The walk step during which the call started (0: on start). */
  step: number;
  /** Neither answered nor stopped (the machine left the state that invoked it). */
  open: boolean;
  /** Answered by the server; a stopped call is not: its request may still be on the server. */
  answered: boolean;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

/** An answer the walk gives to a waiting call: an output, or an error the actor rejects with. */
export type Answer = { output: unknown } | { error: unknown };

/** The server the walk plays: every invoked actor is a promise that stays open until the walk answers it. */
export class WalkServer {
  readonly calls: ServerCall[] = [];
  step = 0;

  /** A promise actor whose call waits for the walk; stopping the invoking state closes it. */
  actor<TOutput, TInput>(name: string): PromiseActorLogic<TOutput, TInput> {
    return fromPromise<TOutput, TInput>(
      ({ input, signal }) =>
        new Promise<TOutput>((resolve, reject) => {
          const call: ServerCall = { actor: name, input, step: this.step, open: true, answered: false, resolve: resolve as (output: unknown) => void, reject };
          this.calls.push(call);
          signal.addEventListener('abort', () => {
            call.open = false;
          });
        }),
    );
  }

  /** The oldest call of that actor still waiting for an answer. */
  waiting(actor: string): ServerCall | undefined {
    return this.calls.find((call) => call.open && call.actor === actor);
  }

  /** Calls of that actor started during one step. */
  startedAt(actor: string, step: number): ServerCall[] {
    return this.calls.filter((call) => call.actor === actor && call.step === step);
  }

  answer(call: ServerCall, answer: Answer): void {
    call.open = false;
    call.answered = true;
    if ('output' in answer) call.resolve(answer.output);
    else call.reject(answer.error);
  }
}

/** Lets every settled promise reach its machine (xstate delivers done and error events in microtasks). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One step of a walk, as an invariant sees it. */
export interface Step<TWorld> {
  index: number;
  label: string;
  kind: 'user' | 'answer' | 'time';
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
  world: TWorld;
  server: WalkServer;
  /** The walk's clock after the step (the real time, which the machine reads only now and then). */
  now: number;
}

/** A sentence a product owner reads, and the check that it holds after a step (null, or what broke it). */
export interface Invariant<TWorld> {
  sentence: string;
  broken(step: Step<TWorld>): string | null;
}

/** A walk in progress: the real actor, its server, its clock, and what the machine's tests track. */
export interface Walk<TWorld> {
  actor: ReturnType<typeof createActor<AnyActorLogic>>;
  server: WalkServer;
  clock: WalkClock;
  world: TWorld;
  steps: string[];
  invariant: Invariant<TWorld>;
  /** Called after every step, before the invariant, to keep what the world remembers. */
  observe(step: Step<TWorld>): void;
}

export type WalkCommand<TWorld> = fc.AsyncCommand<Walk<TWorld>, Walk<TWorld>, false>;

/** Runs one step on the real actor, then checks the invariant. */
async function runStep<TWorld>(walk: Walk<TWorld>, kind: Step<TWorld>['kind'], label: string, act: () => void): Promise<void> {
  walk.server.step += 1;
  const before = walk.actor.getSnapshot() as AnyMachineSnapshot;
  act();
  await settle();
  const after = walk.actor.getSnapshot() as AnyMachineSnapshot;
  walk.steps.push(label);
  const step: Step<TWorld> = { index: walk.server.step, label, kind, before, after, world: walk.world, server: walk.server, now: walk.clock.now };
  walk.observe(step);
  const broken = walk.invariant.broken(step);
  if (broken) {
    throw new Error(`Broken: "${walk.invariant.sentence}"\n  at step ${step.index} (${label}): ${broken}\n  steps: ${walk.steps.map((text, i) => `${i + 1}. ${text}`).join('; ')}`);
  }
}

const isRunning = (walk: Walk<unknown>) => walk.actor.getSnapshot().status === 'active';

/**
 * The shopper sends an event (also one the current state ignores: a click is never refused by the walk),
 * to the machine or, with `to`, to the child the view talks to (a placeOrder's price confirmation).
 */
export function userCommand<TWorld>(event: EventObject & Record<string, unknown>, label: string, to?: (snapshot: AnyMachineSnapshot) => AnyActorRef | undefined): WalkCommand<TWorld> {
  return {
    check: (walk) => isRunning(walk as Walk<unknown>),
    run: (walk) =>
      runStep(walk, 'user', label, () => {
        const target = to ? to(walk.actor.getSnapshot() as AnyMachineSnapshot) : walk.actor;
        target?.send(event);
      }),
    toString: () => label,
  };
}

/** One possible answer of the server to a call of one actor; it may depend on what was asked. */
export interface AnswerPlan<TWorld> {
  label: string;
  answer: (input: never, walk: Walk<TWorld>) => Answer;
}

/** Per actor, the answers the server may give (good and hostile). */
export type AnswerPlans<TWorld> = Record<string, fc.Arbitrary<AnswerPlan<TWorld>>>;

/**
 * The server answers one of the calls that wait (picked by `pick`), with the planned answer for that
 * call's actor: one command for every actor keeps most generated steps applicable.
 */
export function serverAnswers<TWorld>(plans: AnswerPlans<TWorld>): fc.Arbitrary<WalkCommand<TWorld>> {
  const actors = Object.keys(plans);
  return fc.record({ pick: fc.nat({ max: 7 }), plan: fc.record(plans) }).map(({ pick, plan }) => {
    // Which call it answers depends on the calls waiting then: the failure message lists the exact steps of the failing run.
    const label = `the server answers waiting call #${pick}`;
    const open = (walk: Walk<TWorld>) => walk.server.calls.filter((call) => call.open && actors.includes(call.actor));
    return {
      check: (walk) => open(walk).length > 0,
      run: (walk) => {
        const calls = open(walk);
        const call = calls[pick % calls.length]!;
        const chosen = plan[call.actor]!;
        return runStep(walk, 'answer', `${call.actor}: ${chosen.label}`, () => walk.server.answer(call, chosen.answer(call.input as never, walk)));
      },
      toString: () => label,
    };
  });
}

/** Time passes until the next timer (a countdown tick, a poll) fires. */
export function timeCommand<TWorld>(): WalkCommand<TWorld> {
  return {
    check: (walk) => isRunning(walk as Walk<unknown>) && walk.clock.pending().length > 0,
    run: (walk) => {
      const delay = Math.min(...walk.clock.pending());
      return runStep(walk, 'time', `${delay} ms pass`, () => walk.clock.passToNextTimer());
    },
    toString: () => 'time passes to the next timer',
  };
}

/** A machine under walks: how to start one walk, the commands to pick from, and its invariants. */
export interface WalkSpec<TWorld, TStart> {
  machine: string;
  /** The starting situations (input, logged-in user …). */
  start: fc.Arbitrary<TStart>;
  /** Builds the real actor (not yet started) for one walk. */
  begin(start: TStart, server: WalkServer, clock: WalkClock): Omit<Walk<TWorld>, 'invariant' | 'steps' | 'server' | 'clock'>;
  /** What the shopper (and time) may do. */
  commands: fc.Arbitrary<WalkCommand<TWorld>>[];
  /** What the server may answer, per actor. */
  answers: AnswerPlans<TWorld>;
  invariants: Invariant<TWorld>[];
  /** The promises that something good happens (tests/walks/progress.ts). */
  progress?: Progress<TWorld, TStart>[];
  /** The clock reading when a walk starts. */
  startTime: number;
}

/** One move that finishes a walk: the server answering a call, the shopper's click, time passing. */
export interface FinishMove {
  kind: Step<unknown>['kind'];
  label: string;
  act: () => void;
}

/**
 * A promise that something good happens: from these starts, the server answering only well, whatever the
 * shopper does meanwhile, the walk reaches its goal once finished (every call answered well, the shopper's
 * last move made, time passed), in at most MAX_STEPS more steps.
 */
export interface Progress<TWorld, TStart> {
  sentence: string;
  /** The starts the promise is about. */
  start: fc.Arbitrary<TStart>;
  /** The server's good answers, per actor: the only answers of the walk. */
  answers: Record<string, AnswerPlan<TWorld>>;
  /** The next move that finishes the walk, or null when none is left. */
  finish(walk: Walk<TWorld>): FinishMove | null;
  /** What is not reached once the walk is finished (null: the promise holds). */
  missing(walk: Walk<TWorld>): string | null;
}

/** The finishing move that answers the oldest waiting call of a planned actor with its planned answer, or null. */
export function answerWaitingCall<TWorld>(walk: Walk<TWorld>, plans: Record<string, AnswerPlan<TWorld>>): FinishMove | null {
  const call = walk.server.calls.find((candidate) => candidate.open && candidate.actor in plans);
  if (!call) return null;
  const plan = plans[call.actor]!;
  return { kind: 'answer', label: `${call.actor}: ${plan.label}`, act: () => walk.server.answer(call, plan.answer(call.input as never, walk)) };
}

/** The finishing move that lets time pass to the next timer, or null when none is set. */
export function timePasses<TWorld>(walk: Walk<TWorld>): FinishMove | null {
  if (!walk.clock.pending().length) return null;
  return { kind: 'time', label: `${Math.min(...walk.clock.pending())} ms pass`, act: () => walk.clock.passToNextTimer() };
}

/** Most steps one walk takes (commands whose check fails are skipped, so walks are often shorter). */
export const MAX_STEPS = 50;

/** A walk of the spec's machine from one start, checked against one invariant, with the actor started as step 0. */
async function openWalk<TWorld, TStart>(spec: WalkSpec<TWorld, TStart>, start: TStart, invariant: Invariant<TWorld>): Promise<Walk<TWorld>> {
  const server = new WalkServer();
  const clock = new WalkClock(spec.startTime);
  const walk: Walk<TWorld> = { ...spec.begin(start, server, clock), server, clock, invariant, steps: [] };
  // The actor starts during step 0: the calls made on start belong to it.
  await runStep(walk, 'user', 'the page opens', () => walk.actor.start());
  return walk;
}

/** The property "this invariant holds after every step of every walk" for one machine. */
export function walkProperty<TWorld, TStart>(spec: WalkSpec<TWorld, TStart>, invariant: Invariant<TWorld>) {
  // The walk comes first so fast-check shrinks it first (shrinking the start first left long walks unshrunk).
  return fc.asyncProperty(fc.commands([...spec.commands, ...Array.from({ length: Math.max(2, Math.ceil(spec.commands.length / 2)) }, () => serverAnswers(spec.answers))], { maxCommands: MAX_STEPS, size: 'max' }), spec.start, async (commands, start) => {
    const walk = await openWalk(spec, start, invariant);
    try {
      await fc.asyncModelRun(() => ({ model: walk, real: walk }), commands);
    } finally {
      walk.actor.stop();
    }
  });
}

/** The property "every walk from these starts, answered well, reaches the goal once finished" for one machine. */
export function progressProperty<TWorld, TStart>(spec: WalkSpec<TWorld, TStart>, progress: Progress<TWorld, TStart>) {
  const goodAnswers = Object.fromEntries(Object.entries(progress.answers).map(([actor, plan]) => [actor, fc.constant(plan)]));
  const unchecked: Invariant<TWorld> = { sentence: progress.sentence, broken: () => null };
  return fc.asyncProperty(fc.commands([...spec.commands, serverAnswers(goodAnswers), serverAnswers(goodAnswers)], { maxCommands: MAX_STEPS, size: 'max' }), progress.start, async (commands, start) => {
    const walk = await openWalk(spec, start, unchecked);
    try {
      await fc.asyncModelRun(() => ({ model: walk, real: walk }), commands);
      for (let moves = 0; moves < MAX_STEPS; moves++) {
        const move = progress.finish(walk);
        if (!move) break;
        await runStep(walk, move.kind, move.label, move.act);
      }
      const missing = progress.missing(walk);
      if (missing) throw new Error(`Not reached: "${progress.sentence}"\n  ${missing}\n  steps: ${walk.steps.map((text, i) => `${i + 1}. ${text}`).join('; ')}`);
    } finally {
      walk.actor.stop();
    }
  });
}

/** Every promise of one machine (its invariants, then its progress) as a named property. */
export function walkPromises(spec: WalkSpec<never, never>) {
  return [
    ...spec.invariants.map((invariant) => ({ sentence: invariant.sentence, property: walkProperty(spec, invariant) })),
    ...(spec.progress ?? []).map((progress) => ({ sentence: progress.sentence, property: progressProperty(spec, progress) })),
  ];
}
