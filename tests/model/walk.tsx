/**
 * The view walk: every path `generatePaths(model)` makes for a machine is replayed through the real
 * app — the shopper's events as clicks and typing, actor results as answers of the fake `fetch`,
 * timers as fake-timer advances — and after each step the test checks what the shopper sees and that
 * the machine's actor inside the app took exactly the path's step (event, state, context, transitions,
 * guard outcomes). What it walks is collected per machine; every transition and guard outcome of the
 * statechart must be walked, or listed unreachable in the model.
 */
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Actor, StateMachine, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine, type InspectionEvent, type StateValue } from 'xstate';
import { recordWalked } from '../../scripts/statecharts/coverage-record';
import { formatScenario, generatePaths, type MachineModel, type ModelPath, type PathState, type PathStep } from '../../scripts/statecharts/graph';
import { machineGuardOutcomes, machineTransitions, takeInitialStep, takeStep, transitionPairs } from '../../src/statecharts/transitions';
import { renderApp, type RenderAppOptions, type RenderedApp } from '../support/render-app';
import { reportCoverage, type ViewCoverageRow } from './coverage';
import { clearScreens, saveScreen } from './screens';
import { controlledApi, type ControlledApiOptions, type ControlledApi } from './api';
import { flush, settle } from './settle';

/** One step the machine's actor took inside the app: an event that took a transition or evaluated a guard. */
export interface WalkedStep {
  event: AnyEventObject;
  value: StateValue;
  context: unknown;
  /** Labels of the transitions taken, in order (as the engine counts them). */
  transitions: string[];
  /** Guard outcomes evaluated (as the engine counts them). */
  guards: string[];
}

/** Value and context, without the context fields a step draws afresh each time (as listed by the walk). */
const serializedWithout = (unrepeatable: string[]) => (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({ value: snapshot.value, context: { ...(snapshot.context as Record<string, unknown>), ...Object.fromEntries(unrepeatable.map((key) => [key, '(drawn afresh)'])) } });

/**
 * Watches the app's actors through `inspect` and keeps the steps of the first actor of the machine
 * the app starts (the walked one). Each snapshot is re-derived with the engine's public step
 * function from the previous snapshot and the event (`takeStep`; the start with `takeInitialStep`
 * on the actor's input), which must land on the actor's own snapshot: that gives the transitions
 * and guard outcomes of the step.
 */
export function createRecorder(machineId: string, unrepeatable: string[] = []) {
  const serialized = serializedWithout(unrepeatable);
  const steps: WalkedStep[] = [];
  const errors: string[] = [];
  let initial: WalkedStep | undefined;
  let walked: Actor<AnyStateMachine> | null = null;
  let previous: AnyMachineSnapshot | undefined;

  const inspect = (event: InspectionEvent) => {
    const actorRef = event.actorRef;
    if (event.type === '@xstate.actor' && walked === null && actorRef instanceof Actor && isMachine(actorRef.logic) && actorRef.logic.id === machineId) {
      walked = actorRef as Actor<AnyStateMachine>;
    }
    if (walked === null || actorRef !== walked || event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as AnyMachineSnapshot;
    try {
      const result = previous === undefined ? takeInitialStep(walked.logic, walked.options.input) : takeStep(previous, event.event);
      if (serialized(result.snapshot) !== serialized(snapshot)) {
        errors.push(`takeStep on ${event.event.type} gives ${serialized(result.snapshot)}, the app's actor is in ${serialized(snapshot)}`);
      }
      const step = { event: event.event, value: snapshot.value, context: snapshot.context, transitions: result.transitions, guards: result.guards };
      // Events no transition takes and no guard weighs are not moves of the statechart (as in the engine).
      if (previous === undefined) initial = step;
      else if (step.transitions.length || step.guards.length) steps.push(step);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    previous = snapshot;
  };

  return {
    inspect,
    steps,
    /** What the engine's step function could not reproduce; a walk fails on any. */
    errors,
    /** The actor's start (its transitions are the eventless ones taken before any event). */
    get initial(): WalkedStep | undefined {
      return initial;
    },
    /** The walked actor, once the app started it. */
    get actor(): AnyActorRef | null {
      return walked;
    },
    /** Sends an event to the walked actor directly: only for events no view sends (each one is a reported defect). */
    send(event: AnyEventObject) {
      if (!walked) throw new Error(`No ${machineId} actor to send ${event.type} to`);
      walked.send(event);
    },
  };
}

const isMachine = (logic: unknown): logic is AnyStateMachine => logic instanceof StateMachine;

export type Recorder = ReturnType<typeof createRecorder>;

/** Where the walked actor is against the path: steps matched in order, steps it took besides (with why). */
interface Alignment {
  matched: number;
  extras: string[];
  error?: string;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const json = (value: unknown) => JSON.stringify(value);

/** What a page of the walk holds: the rendered app, its fake API and the shopper. */
export interface Page {
  rendered: RenderedApp;
  api: ControlledApi;
  user: ReturnType<typeof userEvent.setup>;
  recorder: Recorder;
  /** Says why a step is not driven one-to-one by a shopper's action; printed with the coverage table. */
  note: (reason: string) => void;
  /** Lets the app's actor take steps the path does not have (matched by `when`) in this walk, for the reason given. */
  allow: (reason: string, when: (walked: WalkedStep) => boolean) => void;
}

/** How one machine is walked through the views. */
export interface ViewWalk<P extends Page = Page> {
  model: MachineModel;
  /** Opens the app where this machine runs, for the path's start (input), with `base` wired in. */
  open: (path: ModelPath, base: (options: Omit<RenderAppOptions, 'fetch' | 'inspect'> & { api?: ControlledApiOptions }) => Promise<Page>) => Promise<P>;
  /** Performs one step as the shopper does it (or as the server answers, or as time passes). */
  perform: (step: PathStep, page: P, index: number, steps: PathStep[]) => Promise<void>;
  /** Asserts what the shopper sees in the step's state. */
  see: (state: PathState, page: P, step: PathStep) => Promise<void>;
  /** The part of the context that is compared with the path's (what the views show and send). */
  project: (value: StateValue, context: unknown) => unknown;
  /** A step the app's actor takes that the path does not have, with the reason it may (else null). */
  extra?: (walked: WalkedStep, previous: WalkedStep | undefined, steps: PathStep[]) => string | null;
  /** The path's steps in the order the app takes them, when it cannot take them as generated. */
  arrange?: (path: ModelPath, page: P) => PathStep[];
  /** Events no view sends: they are sent to the app's actor directly, and reported as defects. */
  noUi?: Record<string, string>;
  /**
   * A step whose input no view offers (e.g. a gateway not in the list, a copy button the page does
   * not show): the reason, else null. It is sent to the app's actor directly (the guard that refuses
   * it is walked on the app's own actor) and listed with the table, apart from the defects of `noUi`.
   */
  offView?: (step: PathStep) => string | null;
  /**
   * Context fields a step draws afresh (e.g. a random Idempotency-Key), with why: re-deriving the
   * actor's step with `takeStep` compares everything else.
   */
  unrepeatable?: Record<string, string>;
}

/**
 * Timers the walk controls. React's and happy-dom's own scheduling stays real, and so does Date
 * (a frozen Date keeps a cookie deleted with Max-Age=0 alive in happy-dom): pages that show time
 * read the clock the walk gives the app (`now`).
 */
const FAKED = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] as const;

/** One test per generated path, then the coverage of the machine's transitions through the views. */
export function describeViewWalk<P extends Page>(walk: ViewWalk<P>): void {
  const { model } = walk;
  const paths = generatePaths(model);
  const allTransitions = machineTransitions(model.machine).map((transition) => transition.label);
  const allOutcomes = machineGuardOutcomes(model.machine);
  const unreachable = model.unreachable ?? {};
  const throughViews = new Set<string>();
  const direct = new Map<string, string>();
  const offView = new Set<string>();
  const notes = new Map<string, number>();
  const pairsThroughViews = new Set<string>();

  describe(`${model.name} machine: every path through the views`, () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: [...FAKED] });
    });
    afterEach(() => vi.useRealTimers());

    it('generates the expected number of paths (a changed statechart changes this)', () => {
      expect(paths.length).toBe(model.expectedPaths);
    });

    it('walks the expected number of transition pairs along those paths (a changed target changes this)', () => {
      expect(new Set(paths.flatMap((path) => path.pairs)).size).toBe(model.expectedPairs?.walked);
    });
    clearScreens(model.name);

    it.each(paths.map((path) => [formatScenario(model, path), path] as const))('%s', async (_scenario, path) => {
      const recorder = createRecorder(model.name, Object.keys(walk.unrepeatable ?? {}));
      const allowed: Allowance[] = [];
      const base = async ({ api: apiOptions, ...options }: Omit<RenderAppOptions, 'fetch' | 'inspect'> & { api?: ControlledApiOptions }): Promise<Page> => {
        const api = controlledApi(apiOptions);
        const rendered = await renderApp({ ...options, fetch: api.fetch, inspect: recorder.inspect });
        const user = userEvent.setup({ delay: null });
        return {
          rendered,
          api,
          user,
          recorder,
          note: (reason) => notes.set(reason, (notes.get(reason) ?? 0) + 1),
          allow: (reason, when) => allowed.push({ reason, when }),
        };
      };
      const page = await walk.open(path, base);
      try {
        const steps = walk.arrange?.(path, page) ?? path.steps;
        const directSteps = new Set<number>();
        const offViewSteps = new Set<number>();
        // The actor's steps caused by events sent to it directly (not through a view).
        const sentToActor = new Set<WalkedStep>();
        for (const [index, step] of steps.entries()) {
          const noUi = walk.noUi?.[step.event.type];
          const offView = walk.offView?.(step);
          const walkedBefore = recorder.steps.length;
          if (offView) {
            // No view offers this input: the refusing guard is walked on the app's own actor.
            offViewSteps.add(index);
            page.note(`sent to the actor, no view offers it: ${offView}`);
            recorder.send(step.event);
          } else if (noUi) {
            // No view sends this event (a reported defect): it goes to the app's own actor.
            directSteps.add(index);
            recorder.send(step.event);
          } else {
            await walk.perform(step, page, index, steps);
          }
          const alignment = await settle(() => {
            const current = align(walk, steps, recorder.steps, recorder.initial, allowed);
            return current.error !== undefined || current.matched > index ? current : false;
          }, `the ${model.name} actor to take step ${index + 1} (${model.describeEvent(step.event)})`);
          expect(alignment.error, `step ${index + 1} (${model.describeEvent(step.event)})`).toBeUndefined();
          if (offView || noUi) for (const walked of recorder.steps.slice(walkedBefore)) sentToActor.add(walked);
          // Unless the same action also delivered the next steps, the actor is in the step's state now.
          if (alignment.matched === index + 1) {
            const snapshot = recorder.actor!.getSnapshot() as AnyMachineSnapshot;
            expect(snapshot.value).toEqual(step.state.value);
            expect(walk.project(snapshot.value, snapshot.context)).toEqual(walk.project(step.state.value, step.state.context));
          }
          await walk.see(step.state, page, step);
          // Numbered as the studio numbers the path and its steps (an arranged walk keeps each step's own number).
          saveScreen(model.name, paths.indexOf(path) + 1, path.steps.indexOf(step) + 1, document.body, document.documentElement.lang || 'en');
        }
        await flush();
        expect(recorder.errors).toEqual([]);
        // The app's actor starts as the path does (eventless transitions at the start included).
        expect({ transitions: recorder.initial?.transitions, guards: recorder.initial?.guards }).toEqual(path.start);
        for (const label of [...path.start.transitions, ...path.start.guards]) throughViews.add(label);
        const final = align(walk, steps, recorder.steps, recorder.initial, allowed);
        expect(final.error).toBeUndefined();
        expect(final.matched).toBe(steps.length);
        for (const reason of final.extras) page.note(reason);
        expect(page.api.violations).toEqual([]);
        for (const reason of page.api.offContract.map((answer) => `${answer.operation} answered off-contract: ${answer.reason}`)) page.note(reason);
        // Pairs as the app's actor took them through the views: a step sent to the actor directly breaks the sequence.
        const sequences: string[][] = [[...(recorder.initial?.transitions ?? [])]];
        for (const walked of recorder.steps) {
          if (sentToActor.has(walked)) sequences.push([]);
          else sequences.at(-1)!.push(...walked.transitions);
        }
        for (const pair of sequences.flatMap(transitionPairs)) pairsThroughViews.add(pair);
        steps.forEach((step, index) => {
          for (const label of [...step.transitions, ...step.guards]) {
            if (directSteps.has(index)) direct.set(label, step.event.type);
            else if (offViewSteps.has(index)) offView.add(label);
            else throughViews.add(label);
          }
        });
      } finally {
        page.rendered.unmount();
      }
    });

    it('walks every transition and guard outcome of the machine through the views', () => {
      const directOnly = [...direct].filter(([label]) => !throughViews.has(label));
      const row: ViewCoverageRow = {
        machine: model.name,
        walked: allTransitions.filter((label) => throughViews.has(label)).length,
        total: allTransitions.length,
        guardOutcomes: { walked: allOutcomes.filter((label) => throughViews.has(label)).length, total: allOutcomes.length },
        unreachable: Object.keys(unreachable).length,
        paths: paths.length,
        expectedPaths: model.expectedPaths,
        direct: [...new Set(directOnly.map(([, event]) => event))].map((event) => ({ event, reason: walk.noUi?.[event] ?? '' })),
        offView: [...allTransitions, ...allOutcomes].filter((label) => offView.has(label) && !throughViews.has(label)).length,
        missing: [...allTransitions, ...allOutcomes].filter((label) => !throughViews.has(label) && !direct.has(label) && !offView.has(label) && !(label in unreachable)),
        notes: [...notes].map(([reason, count]) => `${reason} (${count}×)`),
      };
      reportCoverage(row);
      // coverage/statecharts/view-walks/<machine>.json: what the views walked (not what was sent to the actor directly).
      recordWalked('view-walks', model.name, {
        transitions: allTransitions.filter((label) => throughViews.has(label)),
        guardOutcomes: allOutcomes.filter((label) => throughViews.has(label)),
        pairs: [...pairsThroughViews],
      });
      expect(row.missing).toEqual([]);
      // Every transition and guard outcome is walked through the views, but those of events no view
      // sends (reported defects), of inputs no view offers (sent to the actor) and those the model
      // lists unreachable.
      expect(row.walked + row.guardOutcomes.walked + directOnly.length + row.offView + row.unreachable).toBe(row.total + row.guardOutcomes.total);
      expect(row.direct.map((entry) => entry.event).sort()).toEqual(Object.keys(walk.noUi ?? {}).sort());
    });
  });
}

interface Allowance {
  reason: string;
  when: (walked: WalkedStep) => boolean;
}

function align<P extends Page>(walk: ViewWalk<P>, steps: PathStep[], walked: WalkedStep[], initial: WalkedStep | undefined, allowed: Allowance[]): Alignment {
  const extras: string[] = [];
  let matched = 0;
  for (const [index, actual] of walked.entries()) {
    const expected = steps[matched];
    if (expected && sameStep(walk, actual, expected)) {
      matched++;
      continue;
    }
    const reason = walk.extra?.(actual, index > 0 ? walked[index - 1] : initial, steps) ?? allowed.find((allowance) => allowance.when(actual))?.reason;
    if (reason) {
      extras.push(reason);
      continue;
    }
    return { matched, extras, error: mismatch(walk, actual, expected) };
  }
  return { matched, extras };
}

function sameStep<P extends Page>(walk: ViewWalk<P>, actual: WalkedStep, expected: PathStep): boolean {
  return (
    actual.event.type === expected.event.type &&
    json(actual.value) === json(expected.state.value) &&
    json(actual.transitions) === json(expected.transitions) &&
    sameSet(actual.guards, expected.guards) &&
    json(walk.project(actual.value, actual.context)) === json(walk.project(expected.state.value, expected.state.context))
  );
}

function mismatch<P extends Page>(walk: ViewWalk<P>, actual: WalkedStep, expected: PathStep | undefined): string {
  const took = `the app's actor took ${actual.event.type} → ${json(actual.value)} ${json(walk.project(actual.value, actual.context))} via ${actual.transitions.join(', ')} (guards ${actual.guards.join(', ')})`;
  if (!expected) return `${took}, after the end of the path`;
  return `${took}; the path expects ${expected.event.type} → ${json(expected.state.value)} ${json(walk.project(expected.state.value, expected.state.context))} via ${expected.transitions.join(', ')} (guards ${expected.guards.join(', ')})`;
}

/** The first element found by `find` once it is there (the walk never waits on fake timers). */
export function shown<T>(find: () => T, what: string): Promise<Exclude<T, false>> {
  return settle(find, what);
}

/**
 * Replaces a field's value in one input event: select all, then paste (or delete). The model's event
 * carries the whole value; typing key by key would send one event per character.
 */
export async function enter(page: Page, field: HTMLElement, value: string): Promise<void> {
  await page.user.click(field);
  await page.user.keyboard('{Control>}a{/Control}');
  if (value === '') await page.user.keyboard('{Delete}');
  else await page.user.paste(value);
}

/**
 * `offView` for inputs a guard refuses and no view offers: a step of one of these event types that
 * takes no transition and only sees guards false gets the event type's reason.
 */
export function refusedInputs(reasons: Record<string, string>): (step: PathStep) => string | null {
  return (step) => {
    const reason = reasons[step.event.type];
    if (!reason || step.transitions.length || !step.guards.length || !step.guards.every((guard) => guard.endsWith(': false'))) return null;
    return `${step.event.type}: ${reason}`;
  };
}
