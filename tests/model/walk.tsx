/**
 * The view walk: every path `generatePaths(model)` makes for a machine is replayed through the real
 * app — the shopper's events as clicks and typing, actor results as answers of the fake `fetch`,
 * timers as fake-timer advances — and after each step the test checks what the shopper sees and that
 * the machine's actor inside the app took exactly the path's step (event, state, context, transitions).
 * The transitions it takes are collected per machine; every one of the statechart must be walked.
 */
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, AnyStateMachine, AnyTransitionDefinition, InspectionEvent, StateValue } from 'xstate';
import { formatScenario, generatePaths, machineEdges, type MachineModel, type ModelPath, type PathState, type PathStep } from '../../scripts/statecharts/graph';
import { renderApp, type RenderAppOptions, type RenderedApp } from '../../src/app/testing';
import { reportCoverage, type ViewCoverageRow } from './coverage';
import { controlledApi, type ControlledApiOptions, type ControlledApi } from './api';
import { flush, settle } from './settle';

/** One step the machine's actor took inside the app: an event handled by at least one transition. */
export interface WalkedStep {
  event: AnyEventObject;
  value: StateValue;
  context: unknown;
  /** Ids of the `toDirectedGraph` edges of the transitions taken (as the engine's coverage counts them). */
  edges: string[];
}

/**
 * Watches the app's actors through `inspect` and keeps the steps of the first actor of the machine
 * the app starts (the walked one); transitions are matched to edges by identity, through the
 * `_transitions` of each microstep (what `machine.getTransitionData` selected).
 */
export function createRecorder(machineId: string) {
  const edgeIndex = new WeakMap<object, Map<AnyTransitionDefinition, string[]>>();
  const steps: WalkedStep[] = [];
  let initial: WalkedStep | undefined;
  let walked: AnyActorRef | null = null;
  let microsteps: string[] = [];

  const edgesOf = (logic: AnyStateMachine, transitions: AnyTransitionDefinition[]) => {
    let index = edgeIndex.get(logic);
    if (!index) {
      index = new Map();
      for (const edge of machineEdges(logic)) index.set(edge.transition, [...(index.get(edge.transition) ?? []), edge.id]);
      edgeIndex.set(logic, index);
    }
    return transitions.flatMap((transition) => index.get(transition) ?? []);
  };

  const inspect = (event: InspectionEvent) => {
    const actorRef = event.actorRef as AnyActorRef & { logic?: AnyStateMachine };
    const logic = actorRef.logic;
    if (event.type === '@xstate.actor' && walked === null && logic?.config?.id === machineId && typeof logic.getTransitionData === 'function') {
      walked = actorRef;
    }
    if (walked === null || event.actorRef !== walked) return;
    if (event.type === '@xstate.microstep') {
      microsteps.push(...edgesOf(logic!, (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions));
    }
    if (event.type === '@xstate.snapshot') {
      const snapshot = event.snapshot as AnyMachineSnapshot;
      const edges = [...new Set(microsteps)];
      microsteps = [];
      const step = { event: event.event, value: snapshot.value, context: snapshot.context, edges };
      // The start and events no transition takes are not moves of the statechart (as in the engine).
      if (edges.length) steps.push(step);
      else initial ??= step;
    }
  };

  return {
    inspect,
    steps,
    /** The actor's first snapshot. */
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
  const allEdges = machineEdges(model.machine);
  const throughViews = new Set<string>();
  const direct = new Map<string, string>();
  const notes = new Map<string, number>();

  describe(`${model.name} machine: every path through the views`, () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: [...FAKED] });
    });
    afterEach(() => vi.useRealTimers());

    it('generates the expected number of paths (a changed statechart changes this)', () => {
      expect(paths.length).toBe(model.expectedPaths);
    });

    it.each(paths.map((path) => [formatScenario(model, path), path] as const))('%s', async (_scenario, path) => {
      const recorder = createRecorder(model.name);
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
        for (const [index, step] of steps.entries()) {
          const noUi = walk.noUi?.[step.event.type];
          if (noUi) {
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
          // Unless the same action also delivered the next steps, the actor is in the step's state now.
          if (alignment.matched === index + 1) {
            const snapshot = recorder.actor!.getSnapshot() as AnyMachineSnapshot;
            expect(snapshot.value).toEqual(step.state.value);
            expect(walk.project(snapshot.value, snapshot.context)).toEqual(walk.project(step.state.value, step.state.context));
          }
          await walk.see(step.state, page, step);
        }
        await flush();
        const final = align(walk, steps, recorder.steps, recorder.initial, allowed);
        expect(final.error).toBeUndefined();
        expect(final.matched).toBe(steps.length);
        for (const reason of final.extras) page.note(reason);
        expect(page.api.violations).toEqual([]);
        for (const reason of page.api.offContract.map((answer) => `${answer.operation} answered off-contract: ${answer.reason}`)) page.note(reason);
        steps.forEach((step, index) => {
          for (const id of step.edges) {
            if (directSteps.has(index)) direct.set(id, step.event.type);
            else throughViews.add(id);
          }
        });
      } finally {
        page.rendered.unmount();
      }
    });

    it('walks every transition of the machine through the views', () => {
      const directOnly = [...direct].filter(([id]) => !throughViews.has(id));
      const row: ViewCoverageRow = {
        machine: model.name,
        walked: allEdges.filter((edge) => throughViews.has(edge.id)).length,
        total: allEdges.length,
        paths: paths.length,
        expectedPaths: model.expectedPaths,
        direct: [...new Set(directOnly.map(([, event]) => event))].map((event) => ({ event, reason: walk.noUi?.[event] ?? '' })),
        missing: allEdges.filter((edge) => !throughViews.has(edge.id) && !direct.has(edge.id)).map((edge) => edge.label),
        notes: [...notes].map(([reason, count]) => `${reason} (${count}×)`),
      };
      reportCoverage(row);
      expect(row.missing).toEqual([]);
      // Every transition is walked through the views, but those of events no view sends (reported defects).
      expect(row.walked + directOnly.length).toBe(row.total);
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
    sameSet(actual.edges, expected.edges) &&
    json(walk.project(actual.value, actual.context)) === json(walk.project(expected.state.value, expected.state.context))
  );
}

function mismatch<P extends Page>(walk: ViewWalk<P>, actual: WalkedStep, expected: PathStep | undefined): string {
  const took = `the app's actor took ${actual.event.type} → ${json(actual.value)} ${json(walk.project(actual.value, actual.context))} via ${actual.edges.join(', ')}`;
  if (!expected) return `${took}, after the end of the path`;
  return `${took}; the path expects ${expected.event.type} → ${json(expected.state.value)} ${json(walk.project(expected.state.value, expected.state.context))} via ${expected.edges.join(', ')}`;
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
