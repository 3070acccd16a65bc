import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { createStepTranslator, type TranslatedStep } from './steps';

/** A small machine with what the translation must name: an eventless start, a guard both ways, nesting, an ignored event. */
const door = setup({
  types: { context: {} as { locked: boolean }, events: {} as { type: 'open' } | { type: 'unlock' } | { type: 'knock' } },
  guards: { isUnlocked: ({ context }) => !context.locked },
}).createMachine({
  id: 'door',
  context: { locked: true },
  initial: 'booting',
  states: {
    booting: { always: { target: 'closed' } },
    closed: {
      initial: 'idle',
      states: { idle: {} },
      on: {
        open: { guard: 'isUnlocked', target: 'open' },
        unlock: { actions: assign({ locked: false }) },
      },
    },
    open: { type: 'final' },
  },
});

function run(events: Array<{ type: 'open' } | { type: 'unlock' } | { type: 'knock' }>) {
  const steps: TranslatedStep[] = [];
  const errors: string[] = [];
  const actor = createActor(door, { inspect: createStepTranslator((step) => steps.push(step), (message) => errors.push(message)) });
  actor.start();
  for (const event of events) actor.send(event);
  return { steps, errors, actor };
}

describe('inspection steps in the engine labels', () => {
  it('names the start, a guard refusing, a targetless transition and a guard letting through as `npm run paths` does', () => {
    const { steps, errors } = run([{ type: 'open' }, { type: 'knock' }, { type: 'unlock' }, { type: 'open' }]);
    expect(errors).toEqual([]);
    // The ignored knock is no step; the refused open is one (it weighs a guard).
    expect(steps.map(({ eventType, value, stateIds, transitions, guardOutcomes, pairs }) => ({ eventType, value, stateIds, transitions, guardOutcomes, pairs }))).toEqual([
      { eventType: 'xstate.init', value: { closed: 'idle' }, stateIds: ['door.closed', 'door.closed.idle'], transitions: ['door.booting → door.closed on always'], guardOutcomes: [], pairs: [] },
      { eventType: 'open', value: { closed: 'idle' }, stateIds: ['door.closed', 'door.closed.idle'], transitions: [], guardOutcomes: ['door.closed → door.open on open [isUnlocked]: false'], pairs: [] },
      {
        eventType: 'unlock',
        value: { closed: 'idle' },
        stateIds: ['door.closed', 'door.closed.idle'],
        transitions: ['door.closed (stays) on unlock'],
        guardOutcomes: [],
        pairs: ['door.booting → door.closed on always ⇒ door.closed (stays) on unlock'],
      },
      {
        eventType: 'open',
        value: 'open',
        stateIds: ['door.open'],
        transitions: ['door.closed → door.open on open [isUnlocked]'],
        guardOutcomes: ['door.closed → door.open on open [isUnlocked]: true'],
        pairs: ['door.closed (stays) on unlock ⇒ door.closed → door.open on open [isUnlocked]'],
      },
    ]);
  });

  it('tells actors of one machine apart and carries no context', () => {
    const first = run([{ type: 'unlock' }]);
    const second = run([]);
    expect(first.steps[0]!.actor).not.toBe(second.steps[0]!.actor);
    expect(Object.keys(first.steps[1]!).sort()).toEqual(['actor', 'eventType', 'guardOutcomes', 'machine', 'pairs', 'stateIds', 'transitions', 'value']);
    expect(first.steps[1]!.machine).toBe('door');
  });
});
