/**
 * The names flow traffic may carry, from the machines' own definitions: each machine's state node ids and its
 * transitions, labelled as `npm run paths` and the studio label them. The one server module that reads machines/.
 */
import { getStateNodes } from 'xstate/graph';
import { allMachines } from '../../machines/all';
import { machineTransitions, type MachineTransition } from '../statecharts/transitions';
import type { FlowTransition } from '../domain/flow-traffic';

export interface MachineNames {
  /** Ids of every state node, the root (the machine's id) included. */
  states: ReadonlySet<string>;
  /** The transition's label when the definition has it (source, event, targets and guard all match), else null. */
  transitionLabel(transition: FlowTransition): string | null;
}

/** One key per transition of a definition: what a report names it by (the label adds only a #n to repeats, which no report can tell apart). */
const definitionKey = (source: string, event: string, targets: readonly string[], guard: string | undefined) => JSON.stringify([source, event, targets, guard ?? null]);

function namesOf(transitions: MachineTransition[], states: Set<string>): MachineNames {
  // A batch holds up to 200 steps: each is found by key, not by a walk over the machine's transitions.
  const labels = new Map<string, string>();
  for (const declared of transitions) {
    const key = definitionKey(declared.source, declared.eventType, declared.targets, declared.guard);
    if (!labels.has(key)) labels.set(key, declared.label);
  }
  return {
    states,
    transitionLabel: (reported) => labels.get(definitionKey(reported.source, reported.event, reported.targets, reported.guard)) ?? null,
  };
}

let known: ReadonlyMap<string, MachineNames> | null = null;

/** The names of every machine, by machine id (built once, on first use). */
export function flowNames(): ReadonlyMap<string, MachineNames> {
  known ??= new Map(allMachines.map((machine) => {
    const states = new Set([machine.root.id, ...getStateNodes(machine.root).map((node) => node.id)]);
    return [machine.id, namesOf(machineTransitions(machine), states)];
  }));
  return known;
}
