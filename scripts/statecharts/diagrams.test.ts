import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { diagramFilePath, eventLabel, renderDiagramFile, renderMermaid, undocumented } from './diagrams';
import { machineTransitions } from '../../src/statecharts/transitions';
import type { MachineModel } from './graph';
import { allModels } from './models/index';

describe('committed diagrams', () => {
  it('has a model for every machine file', () => {
    const machinesDir = fileURLToPath(new URL('../../machines', import.meta.url));
    const machineNames = readdirSync(machinesDir).filter((file) => file.endsWith('.machine.ts')).map((file) => file.replace('.machine.ts', ''))
      // A kebab-case file names its machine in camelCase (place-order.machine.ts: placeOrder).
      .map((name) => name.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase()));
    expect(allModels.map((model) => model.name).sort()).toEqual(machineNames.sort());
  });

  it.each(allModels.map((model) => [model.name, model] as const))('docs/statecharts/%s.md is up to date (run `npm run diagrams`)', (_name, model) => {
    const file = diagramFilePath(model);
    expect(existsSync(file), `${file} is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(renderDiagramFile(model));
  });

  it.each(allModels.map((model) => [model.name, model] as const))('%s lists in its Transitions table every transition the path engine counts (always included)', (_name, model) => {
    const section = renderDiagramFile(model).split('\n## Transitions\n')[1]!.split('\n## ')[0]!;
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toHaveLength(machineTransitions(model.machine).length);
  });

  it.each(allModels.map((model) => [model.name, model] as const))('%s describes every state, transition, guard, actor, action and delay', (_name, model) => {
    expect(undocumented(model)).toEqual([]);
  });
});

const toggleMachine = setup({
  types: { context: {} as { on: boolean }, events: {} as { type: 'switch.flip' } },
  actions: { announce: () => {} },
  guards: { allowed: () => true },
}).createMachine({
  id: 'toggle',
  description: 'A switch.',
  context: { on: false },
  type: 'parallel',
  states: {
    power: {
      description: 'Power.',
      initial: 'off',
      states: {
        off: { description: 'Off.', on: { 'switch.flip': { target: 'on', guard: 'allowed', actions: 'announce', description: 'Turn on.' } } },
        on: { description: 'On.', after: { 500: { target: 'off', description: 'Auto off.' } } },
      },
    },
    light: {
      initial: 'dark',
      states: { dark: { description: 'Dark.', on: { 'switch.flip': { actions: assign({ on: true }) } } } },
    },
  },
});

describe('diagram rendering', () => {
  it('draws nested and parallel states with guards and readable timer labels', () => {
    const mermaid = renderMermaid(toggleMachine);
    expect(mermaid).toContain('stateDiagram-v2');
    expect(mermaid).toContain('state "power" as toggle_power');
    expect(mermaid).toMatch(/state toggle_power \{\n\s+\[\*\] --> toggle_power_off/);
    expect(mermaid).toMatch(/\n\s+--\n/);
    expect(mermaid).toContain('toggle_power_off --> toggle_power_on : switch.flip [allowed]');
    expect(mermaid).toContain('toggle_power_on --> toggle_power_off : after 500 ms');
    expect(mermaid).toContain('toggle_light_dark --> toggle_light_dark : switch.flip');
  });

  it('names actor results and timers in words', () => {
    expect(eventLabel('xstate.done.actor.loadProducts')).toBe('loadProducts done');
    expect(eventLabel('xstate.error.actor.loadProducts')).toBe('loadProducts failed');
    expect(eventLabel('xstate.after.pollInterval.waiting.polling')).toBe('after pollInterval');
  });

  it('lists what lacks a description', () => {
    const model: MachineModel = { name: 'toggle', machine: toggleMachine, events: () => [], describeEvent: (e) => e.type, expectedPaths: 0, docs: { guards: { allowed: { description: 'Always.' } } } };
    expect(undocumented(model)).toEqual(['state toggle.light', 'transition toggle.light.dark on switch.flip', 'actions announce']);
    expect(renderDiagramFile(model)).toContain('| `allowed` | Always. |');
  });
});
