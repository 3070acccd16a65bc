import { describe, expect, it } from 'vitest';
import { and, assign, createActor, fromPromise, raise, setup, type EventObject } from 'xstate';
import { machineGuardOutcomes, machineTransitions, takeStep } from '../../src/statecharts/transitions';
import { formatScenario, generatePaths, pathFromEvents, replayPath, transitionCoverage, type MachineModel } from './graph';

// A small machine with everything the real ones use: invoke (onDone, onError), after, guards with
// both outcomes, parallel regions, targetless transitions, a final child with onDone and a guarded
// eventless transition.
//
// Its transitions, counted by hand (9; toDirectedGraph, which leaves out `always`, has 8):
//   a loading → ready      on done.actor.loadItems     b loading → failed   on error.actor.loadItems
//   c failed → loading     on after 1000               d failed → loading   on flow.retry
//   e ready → done         on done.state.ready (onDone)
//   f counting (stays)     on item.add [belowTwo]      g counting → finished on flow.finish
//   h editing (stays)      on name.change              i editing → named    on always [hasName]
// Guard outcomes (4): belowTwo true/false, hasName true/false.
// Pairs reachable with the model's events (17): b⇒c b⇒d c⇒a c⇒b d⇒a d⇒b (retry loop), a⇒f a⇒g a⇒h,
//   h⇒i (one step), f⇒g f⇒h (one item.add fits: the count starts at 1), i⇒f i⇒g, g⇒h, i⇒e g⇒e.
const sampleMachine = setup({
  types: {
    context: {} as { count: number; name: string },
    events: {} as { type: 'item.add' } | { type: 'name.change'; name: string } | { type: 'flow.finish' } | { type: 'flow.retry' },
  },
  actors: { loadItems: fromPromise<number>(() => Promise.reject(new Error('not provided'))) },
  guards: { hasName: ({ context }) => context.name !== '', belowTwo: ({ context }) => context.count < 2 },
}).createMachine({
  id: 'sample',
  context: { count: 0, name: '' },
  initial: 'loading',
  states: {
    loading: {
      description: 'Loading items.',
      invoke: {
        id: 'loadItems',
        src: 'loadItems',
        onDone: { target: 'ready', actions: assign({ count: ({ event }) => event.output }), description: 'Items loaded.' },
        onError: { target: 'failed', description: 'Loading failed.' },
      },
    },
    failed: {
      id: 'failed',
      description: 'Loading failed; retry after a pause.',
      after: { 1000: { target: 'loading', description: 'Retry.' } },
      on: { 'flow.retry': { target: 'loading', description: 'Retry now.' } },
    },
    ready: {
      description: 'Editing.',
      type: 'parallel',
      states: {
        items: {
          initial: 'counting',
          states: {
            counting: {
              on: {
                'item.add': { guard: 'belowTwo', actions: assign({ count: ({ context }) => context.count + 1 }), description: 'Add one, up to two.' },
                'flow.finish': { target: 'finished', description: 'Stop counting.' },
              },
            },
            finished: { type: 'final' },
          },
        },
        name: {
          initial: 'editing',
          states: {
            editing: {
              on: { 'name.change': { actions: assign({ name: ({ event }) => event.name }), description: 'Type a name.' } },
              always: { guard: 'hasName', target: 'named' },
            },
            named: { type: 'final' },
          },
        },
      },
      onDone: { target: 'done', description: 'Both regions finished.' },
    },
    done: { type: 'final', description: 'Finished.' },
  },
});

const sampleModel: MachineModel = {
  name: 'sample',
  machine: sampleMachine,
  events: (): EventObject[] => [
    { type: 'xstate.done.actor.loadItems', output: 1 } as EventObject,
    { type: 'xstate.error.actor.loadItems', error: new Error('down') } as EventObject,
    { type: 'xstate.after.1000.failed' },
    { type: 'flow.retry' },
    { type: 'item.add' },
    { type: 'name.change', name: 'Ann' } as EventObject,
    { type: 'flow.finish' },
  ],
  describeEvent: (event) => event.type,
  expectedPaths: 0,
};

const label = {
  a: 'sample.loading → sample.ready on xstate.done.actor.loadItems',
  b: 'sample.loading → failed on xstate.error.actor.loadItems',
  c: 'failed → sample.loading on xstate.after.1000.failed',
  d: 'failed → sample.loading on flow.retry',
  e: 'sample.ready → sample.done on xstate.done.state.sample.ready',
  f: 'sample.ready.items.counting (stays) on item.add [belowTwo]',
  g: 'sample.ready.items.counting → sample.ready.items.finished on flow.finish',
  h: 'sample.ready.name.editing (stays) on name.change',
  i: 'sample.ready.name.editing → sample.ready.name.named on always [hasName]',
};

describe('graph engine: counting', () => {
  it('counts every transition of the definition, always/after/onDone/onError included, with readable labels', () => {
    expect(machineTransitions(sampleMachine).map((transition) => transition.label).sort()).toEqual(Object.values(label).sort());
    expect(machineTransitions(sampleMachine)).toHaveLength(9);
    expect(machineTransitions(sampleMachine).find((transition) => transition.label === label.i)?.kind).toBe('always');
  });

  it('counts two outcomes per guarded transition', () => {
    expect(machineGuardOutcomes(sampleMachine).sort()).toEqual([`${label.f}: false`, `${label.f}: true`, `${label.i}: false`, `${label.i}: true`]);
  });

  it('walks one path: its transitions per step, guard outcomes and pairs', () => {
    const path = pathFromEvents(sampleModel, [
      { type: 'xstate.done.actor.loadItems', output: 1 },
      { type: 'name.change', name: 'Ann' },
      { type: 'item.add' },
      { type: 'item.add' },
      { type: 'flow.finish' },
    ]);
    expect(path.start).toEqual({ transitions: [], guards: [] });
    expect(path.steps.map((step) => [step.transitions, step.guards])).toEqual([
      [[label.a], [`${label.i}: false`]],
      [[label.h, label.i], [`${label.i}: true`]],
      [[label.f], [`${label.f}: true`]],
      [[], [`${label.f}: false`]],
      [[label.g, label.e], []],
    ]);
    expect(path.steps.at(-1)!.state.value).toBe('done');
    expect(path.pairs).toEqual([`${label.a} ⇒ ${label.h}`, `${label.h} ⇒ ${label.i}`, `${label.i} ⇒ ${label.f}`, `${label.f} ⇒ ${label.g}`, `${label.g} ⇒ ${label.e}`]);
  });

  it('generates paths that walk every transition and guard outcome, and counts the reachable pairs', () => {
    const coverage = transitionCoverage(sampleModel, generatePaths(sampleModel));
    expect(coverage.transitions).toEqual({ walked: 9, total: 9, missing: [] });
    expect(coverage.guardOutcomes).toEqual({ walked: 4, total: 4, missing: [] });
    expect(coverage.transitionPairs.total).toBe(17);
    expect(coverage.transitionPairs.walked).toBeLessThanOrEqual(17);
  });

  it('reports as missing what the model never reaches, unless listed unreachable with a reason', () => {
    const narrow: MachineModel = { ...sampleModel, events: () => [{ type: 'xstate.error.actor.loadItems', error: new Error('down') }] };
    const coverage = transitionCoverage(narrow, generatePaths(narrow));
    expect(coverage.transitions.walked).toBe(1);
    expect(coverage.transitions.missing).toContain(label.a);
    expect(coverage.guardOutcomes.missing).toHaveLength(4);
    const listed: MachineModel = { ...narrow, unreachable: { [label.a]: 'loading never succeeds here' } };
    const withList = transitionCoverage(listed, generatePaths(listed));
    expect(withList.transitions.missing).not.toContain(label.a);
    expect(withList.transitions.missing).toHaveLength(7);
    expect(withList.unreachable).toEqual([{ transition: label.a, reason: 'loading never succeeds here' }]);
  });

  it('fails when a transition listed unreachable is walked, or the list names no transition', () => {
    const wrong: MachineModel = { ...sampleModel, unreachable: { [label.c]: 'timers never fire' } };
    expect(() => transitionCoverage(wrong, generatePaths(wrong))).toThrow(/listed as unreachable but walked: failed → sample.loading on xstate.after.1000.failed/);
    const unknown: MachineModel = { ...sampleModel, unreachable: { 'nowhere → somewhere on nothing': 'typo' } };
    expect(() => transitionCoverage(unknown, [])).toThrow(/no transition or guard outcome/);
  });

  it('takes a raised event as a microstep of its own', () => {
    const raising = setup({ types: { events: {} as { type: 'go' } | { type: 'inner' } } }).createMachine({
      id: 'raising',
      initial: 'a',
      states: {
        a: { on: { go: { target: 'b', actions: raise({ type: 'inner' }) } } },
        b: { on: { inner: { target: 'c' } } },
        c: {},
      },
    });
    const [initial] = [createActor(raising).getSnapshot()];
    const result = takeStep(initial, { type: 'go' });
    expect(result.microsteps).toEqual([
      { event: { type: 'go' }, transitions: ['raising.a → raising.b on go'] },
      { event: { type: 'inner' }, transitions: ['raising.b → raising.c on inner'] },
    ]);
    expect(result.snapshot.value).toBe('c');
  });

  it('refuses a guard kind it cannot evaluate', () => {
    const builtin = setup({ guards: { yes: () => true } }).createMachine({ id: 'builtin', initial: 'a', states: { a: { on: { go: { guard: and(['yes']), target: 'b' } } }, b: {} } });
    expect(() => takeStep(createActor(builtin).getSnapshot(), { type: 'go' })).toThrow(/Unsupported guard kind/);
  });
});

describe('graph engine: paths', () => {
  it('drops paths that are prefixes of longer ones and is deterministic', () => {
    const scenarios = generatePaths(sampleModel).map((path) => formatScenario(sampleModel, path));
    expect(scenarios).toEqual(generatePaths(sampleModel).map((path) => formatScenario(sampleModel, path)));
    for (const scenario of scenarios) {
      expect(scenarios.filter((other) => other !== scenario && other.startsWith(`${scenario} → `))).toEqual([]);
    }
    expect(scenarios).toContain('xstate.done.actor.loadItems → name.change → flow.finish');
  });

  it('replays a path on a real actor and asserts each step', () => {
    const path = generatePaths(sampleModel).find((candidate) => candidate.steps.at(-1)?.state.value === 'done')!;
    const seen: unknown[] = [];
    replayPath(sampleModel, path, (snapshot, step) => {
      expect(snapshot.value).toEqual(step.state.value);
      seen.push(snapshot.value);
    });
    expect(seen.at(-1)).toBe('done');
  });

  it('fails a replay whose actor diverges from the generated path', () => {
    const path = generatePaths(sampleModel)[0]!;
    const changed = { ...path, steps: path.steps.map((step) => ({ ...step, state: { ...step.state, context: { count: 99 } } })) };
    expect(() => replayPath(sampleModel, changed, () => {})).toThrow(/step 1/);
  });

  it('walks from several named inputs and replays each path with its own input', () => {
    const doorMachine = setup({ types: { context: {} as { locked: boolean }, input: {} as { locked: boolean }, events: {} as { type: 'door.unlock' } | { type: 'door.open' } } }).createMachine({
      id: 'door',
      context: ({ input }) => ({ locked: input.locked }),
      initial: 'closed',
      states: {
        closed: {
          on: {
            'door.unlock': { guard: ({ context }) => context.locked, actions: assign({ locked: false }) },
            'door.open': { guard: ({ context }) => !context.locked, target: 'open' },
          },
        },
        open: {},
      },
    });
    const model: MachineModel = {
      name: 'door',
      machine: doorMachine,
      inputs: [{ name: 'unlocked door', input: { locked: false } }, { name: 'locked door', input: { locked: true } }],
      events: () => [{ type: 'door.unlock' }, { type: 'door.open' }],
      describeEvent: (event) => event.type,
      expectedPaths: 4,
    };
    const paths = generatePaths(model);
    // One path per state value, one for the unlock transition, then the guards seen false:
    // door.unlock on an unlocked door, door.open on a locked one.
    expect(paths.map((path) => formatScenario(model, path))).toEqual(['unlocked door: door.open', 'locked door: door.unlock', 'unlocked door: door.unlock', 'locked door: door.open']);
    const coverage = transitionCoverage(model, paths);
    expect(coverage.transitions).toEqual({ walked: 2, total: 2, missing: [] });
    expect(coverage.guardOutcomes).toEqual({ walked: 4, total: 4, missing: [] });
    for (const path of paths) replayPath(model, path, (snapshot, step) => expect(snapshot.value).toEqual(step.state.value));
  });

  it('refuses a model whose snapshots grow without bound', () => {
    const unbounded = setup({ types: { context: {} as { n: number } } }).createMachine({
      context: { n: 0 },
      on: { tick: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
    });
    const model: MachineModel = { name: 'unbounded', machine: unbounded, events: () => [{ type: 'tick' }], describeEvent: (e) => e.type, expectedPaths: 0, maxSnapshots: 50 };
    expect(() => generatePaths(model)).toThrow(/more than 50 distinct snapshots/);
  });
});
