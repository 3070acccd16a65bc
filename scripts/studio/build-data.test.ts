import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import type { MachineModel } from '../statecharts/graph';
import type { Box, Point } from '../../studio/src/data';
import { machineData, summarizeValue } from './build-data';
import { fileFor } from './serve';

/** A lamp: a parallel state (power and a bulb that loads), a timer, a final state, a targetless transition. */
const lampMachine = setup({
  types: { context: {} as { flips: number }, events: {} as { type: 'flip' } | { type: 'break' } },
  actors: { warmUp: fromPromise(async () => 'warm') },
  // The count stops at 2, so the walk's snapshots are few.
  actions: { countFlip: assign({ flips: ({ context }) => Math.min(2, context.flips + 1) }) },
  guards: { intact: () => true },
}).createMachine({
  id: 'lamp',
  context: { flips: 0 },
  initial: 'working',
  states: {
    working: {
      type: 'parallel',
      on: { break: 'broken' },
      states: {
        power: {
          initial: 'off',
          states: {
            off: { on: { flip: { target: 'on', guard: 'intact', actions: 'countFlip' } } },
            on: { after: { 1000: 'off' }, on: { flip: { actions: 'countFlip' } } },
          },
        },
        bulb: {
          initial: 'warming',
          states: {
            warming: { invoke: { src: 'warmUp', onDone: 'lit' } },
            lit: {},
          },
        },
      },
    },
    broken: { type: 'final' },
  },
});

const lampModel: MachineModel = {
  name: 'lamp',
  machine: lampMachine.provide({ actors: { warmUp: fromPromise(() => new Promise<string>(() => {})) } }),
  events: () => [{ type: 'flip' }, { type: 'break' }, { type: 'xstate.after.1000.lamp.working.power.on' }, { type: 'xstate.done.actor.0.lamp.working.bulb.warming', output: 'warm' }],
  describeEvent: (event) => event.type,
  expectedPaths: 0,
};

const empty = mkdtempSync(join(tmpdir(), 'studio-data-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const inside = (point: Point, box: Box) => point.x >= box.x - 1 && point.x <= box.x + box.width + 1 && point.y >= box.y - 1 && point.y <= box.y + box.height + 1;
const contains = (outer: Box, inner: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

describe('the studio data of a machine', async () => {
  const data = await machineData(lampModel, { coverageDir: empty, snapshotDir: empty });

  it('lists the states with their types, parents, initial children and invoked actors', () => {
    expect(data.states.map((state) => [state.id, state.type, state.parent])).toEqual([
      ['lamp', 'compound', null],
      ['lamp.working', 'parallel', 'lamp'],
      ['lamp.working.power', 'compound', 'lamp.working'],
      ['lamp.working.power.off', 'atomic', 'lamp.working.power'],
      ['lamp.working.power.on', 'atomic', 'lamp.working.power'],
      ['lamp.working.bulb', 'compound', 'lamp.working'],
      ['lamp.working.bulb.warming', 'atomic', 'lamp.working.bulb'],
      ['lamp.working.bulb.lit', 'atomic', 'lamp.working.bulb'],
      ['lamp.broken', 'final', 'lamp'],
    ]);
    expect(data.states.find((state) => state.id === 'lamp.working.power')!.initial).toEqual(['lamp.working.power.off']);
    expect(data.states.find((state) => state.id === 'lamp.working.bulb.warming')!.invoke).toEqual(['warmUp']);
    expect(data.figures.states).toBe(8);
  });

  it('gives each transition its kind, event in words, guard, actions and delay', () => {
    const byKind = Object.fromEntries(data.transitions.map((transition) => [`${transition.source} ${transition.event}`, transition]));
    expect(byKind['lamp.working.power.off flip']).toMatchObject({ kind: 'on', guard: 'intact', actions: ['countFlip'], targets: ['lamp.working.power.on'] });
    expect(byKind['lamp.working.power.on after 1000 ms']).toMatchObject({ kind: 'after', delay: '1000 ms', targets: ['lamp.working.power.off'] });
    expect(byKind['lamp.working.power.on flip']).toMatchObject({ kind: 'on', targets: [] });
    expect(byKind['lamp.working.bulb.warming 0.lamp.working.bulb.warming done']).toMatchObject({ kind: 'onDone', targets: ['lamp.working.bulb.lit'] });
    expect(data.transitions).toHaveLength(5);
  });

  it('lays every state inside its parent and every edge from its source to its target', () => {
    for (const state of data.states) if (state.parent) expect(contains(data.layout.nodes[state.parent]!, data.layout.nodes[state.id]!), state.id).toBe(true);
    for (const transition of data.transitions) {
      const edge = data.layout.edges[transition.id]!;
      const targets = transition.targets.length ? transition.targets : [transition.source];
      expect(edge.lines).toHaveLength(targets.length);
      edge.lines.forEach((line, index) => {
        expect(inside(line[0]!, data.layout.nodes[transition.source]!), `${transition.id} starts at its source`).toBe(true);
        expect(inside(line.at(-1)!, data.layout.nodes[targets[index]!]!), `${transition.id} ends at its target`).toBe(true);
      });
      expect(edge.label.width).toBeGreaterThan(0);
    }
  });

  it('computes the machine-tests layer from the paths when npm test has written none', () => {
    expect(data.layers.map((layer) => layer.layer)).toEqual(['machine-tests']);
    expect(new Set(data.layers[0]!.transitions)).toEqual(new Set(data.transitions.map((transition) => transition.id)));
    expect(data.layers[0]!.guardOutcomes).toEqual(['lamp.working.power.off → lamp.working.power.on on flip [intact]: true']);
  });

  it('reads a layer npm test wrote instead, and the others beside it', async () => {
    const coverageDir = mkdtempSync(join(tmpdir(), 'studio-coverage-'));
    try {
      const flip = data.transitions.find((transition) => transition.event === 'flip' && transition.guard)!.id;
      for (const layer of ['machine-tests', 'browser-journeys']) {
        mkdirSync(join(coverageDir, layer));
        writeFileSync(join(coverageDir, layer, 'lamp.json'), JSON.stringify({ machine: 'lamp', layer, transitions: [flip], guardOutcomes: [], pairs: [] }));
      }
      const recorded = await machineData(lampModel, { coverageDir, snapshotDir: empty });
      expect(recorded.layers.map((layer) => [layer.layer, layer.transitions, layer.source])).toEqual([
        ['machine-tests', [flip], 'coverage/statecharts/machine-tests/lamp.json'],
        ['browser-journeys', [flip], 'coverage/statecharts/browser-journeys/lamp.json'],
      ]);
    } finally {
      rmSync(coverageDir, { recursive: true, force: true });
    }
  });

  it('steps each scenario from the start, with the active states and what changed in the context', () => {
    const flipped = data.scenarios.find((scenario) => scenario.steps[1]?.words === 'flip')!;
    expect(flipped.steps[0]!.words).toBe('start');
    expect(flipped.steps[0]!.active).toEqual(expect.arrayContaining(['lamp.working', 'lamp.working.power.off', 'lamp.working.bulb.warming']));
    expect(flipped.steps[0]!.context).toEqual([{ key: 'flips', value: '0', changed: false }]);
    expect(flipped.steps[1]!.active).toContain('lamp.working.power.on');
    expect(flipped.steps[1]!.transitions).toEqual(['lamp.working.power.off → lamp.working.power.on on flip [intact]']);
    expect(flipped.steps[1]!.context).toEqual([{ key: 'flips', value: '1', changed: true }]);
    expect(flipped.snapshots).toEqual([]);
  });
});

describe('context values in short', () => {
  it('names list items, cuts long JSON to one line', () => {
    expect(summarizeValue([{ name: '1 Month' }, { name: '6 Months' }])).toBe('2 items: 1 Month, 6 Months');
    expect(summarizeValue([])).toBe('0 items');
    expect(summarizeValue('ann@example.com')).toBe('"ann@example.com"');
    expect(summarizeValue({ text: 'x'.repeat(300) })).toHaveLength(140);
    expect(summarizeValue(null)).toBe('null');
  });
});

describe('the studio server', () => {
  it('serves files inside its folder only', () => {
    const root = mkdtempSync(join(tmpdir(), 'studio-root-'));
    try {
      writeFileSync(join(root, 'index.html'), '<!doctype html>');
      expect(fileFor(root, '/')).toBe(join(root, 'index.html'));
      expect(fileFor(root, '/index.html?x=1')).toBe(join(root, 'index.html'));
      expect(fileFor(root, '/../package.json')).toBeNull();
      expect(fileFor(root, '/%2e%2e/package.json')).toBeNull();
      expect(fileFor(root, '/missing.js')).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
