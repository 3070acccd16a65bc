import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup, type EventObject } from 'xstate';
import { formatScenario, generatePaths, machineEdges, replayPath, transitionCoverage, type MachineModel } from './graph';

// A small machine with everything the real ones use: invoke, after, guards, parallel regions,
// targetless transitions, a final child with onDone and an eventless transition.
const sampleMachine = setup({
  types: {
    context: {} as { count: number; name: string },
    events: {} as { type: 'item.add' } | { type: 'name.change'; name: string } | { type: 'flow.finish' } | { type: 'flow.retry' },
  },
  actors: { loadItems: fromPromise<number>(() => Promise.reject(new Error('not provided'))) },
  guards: { hasName: ({ context }) => context.name !== '' },
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
                'item.add': { actions: assign({ count: ({ context }) => Math.min(context.count + 1, 2) }), description: 'Add one.' },
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

describe('graph engine', () => {
  it('lists every edge of toDirectedGraph with a readable label', () => {
    const labels = machineEdges(sampleMachine).map((edge) => edge.label);
    expect(labels).toContain('sample.loading → sample.ready on xstate.done.actor.loadItems');
    expect(labels).toContain('failed → sample.loading on xstate.after.1000.failed');
    expect(labels).toContain('sample.ready → sample.done on xstate.done.state.sample.ready');
  });

  it('generates paths that walk every transition, including timers, actor results and raised done events', () => {
    const paths = generatePaths(sampleModel);
    const coverage = transitionCoverage(sampleModel, paths);
    expect(coverage.missing).toEqual([]);
    expect(coverage.walked).toBe(coverage.total);
    expect(coverage.total).toBe(machineEdges(sampleMachine).length);
  });

  it('drops paths that are prefixes of longer ones and is deterministic', () => {
    const scenarios = generatePaths(sampleModel).map((path) => formatScenario(sampleModel, path));
    expect(scenarios).toEqual(generatePaths(sampleModel).map((path) => formatScenario(sampleModel, path)));
    for (const scenario of scenarios) {
      expect(scenarios.filter((other) => other !== scenario && other.startsWith(`${scenario} → `))).toEqual([]);
    }
    expect(scenarios).toContain('xstate.done.actor.loadItems → name.change → flow.finish');
  });

  it('reports edges the model never reaches', () => {
    const narrow: MachineModel = { ...sampleModel, events: () => [{ type: 'xstate.error.actor.loadItems', error: new Error('down') } as EventObject] };
    const coverage = transitionCoverage(narrow, generatePaths(narrow));
    expect(coverage.walked).toBe(1);
    expect(coverage.missing).toContain('sample.loading → sample.ready on xstate.done.actor.loadItems');
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
      expectedPaths: 2,
    };
    const paths = generatePaths(model);
    expect(paths.map((path) => formatScenario(model, path))).toEqual(['unlocked door: door.open', 'locked door: door.unlock']);
    expect(transitionCoverage(model, paths)).toEqual({ walked: 2, total: 2, missing: [] });
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
