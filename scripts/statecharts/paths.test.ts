import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import type { MachineModel } from './graph';
import { exitCodeOf, formatReports, reportPaths } from './paths';

// Two states, three transitions (one eventless, guarded), so two guard outcomes:
//   closed → open on door.open [unlocked], closed (stays) on door.knock, open → closed on always [draughty].
const door = setup({ guards: { unlocked: () => true, draughty: () => false } }).createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { 'door.open': { guard: 'unlocked', target: 'open' }, 'door.knock': {} } },
    open: { always: { guard: 'draughty', target: 'closed' } },
  },
});

const model = (events: string[], extra: Partial<MachineModel> = {}): MachineModel => ({
  name: 'door',
  machine: door,
  events: () => events.map((type) => ({ type })),
  describeEvent: (event) => event.type,
  expectedPaths: 1,
  ...extra,
});

describe('npm run paths', () => {
  it('gives per machine exactly the figures of the JSON report', () => {
    const report = reportPaths(model(['door.open', 'door.knock']));
    expect(Object.keys(report.figures)).toEqual(['machine', 'states', 'paths', 'transitions', 'guardOutcomes', 'transitionPairs', 'unreachable']);
    expect(report.figures).toMatchObject({ machine: 'door', states: 2, transitions: { walked: 2, total: 3 }, guardOutcomes: { walked: 2, total: 4 }, unreachable: [] });
  });

  it('exits 1 when a transition or guard outcome is neither walked nor listed unreachable, 0 once each is listed with its reason', () => {
    const incomplete = reportPaths(model(['door.open', 'door.knock']));
    expect(incomplete.missing).toEqual(['door.open → door.closed on always [draughty]', 'door.closed → door.open on door.open [unlocked]: false', 'door.open → door.closed on always [draughty]: true']);
    expect(exitCodeOf([incomplete])).toBe(1);
    const listed = reportPaths(
      model(['door.open', 'door.knock'], {
        expectedPaths: incomplete.figures.paths,
        unreachable: {
          'door.open → door.closed on always [draughty]': 'never draughty',
          'door.open → door.closed on always [draughty]: true': 'never draughty',
          'door.closed → door.open on door.open [unlocked]: false': 'never locked',
        },
      }),
    );
    expect(listed.missing).toEqual([]);
    expect(exitCodeOf([listed])).toBe(0);
    expect(formatReports([listed])).toContain('| door    | 2      | 2/3 (66%)');
  });

  it('exits 1 when the number of paths changed', () => {
    const report = reportPaths(model(['door.open'], { expectedPaths: 99 }));
    expect(exitCodeOf([report])).toBe(1);
  });
});
