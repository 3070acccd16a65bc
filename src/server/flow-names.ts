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

const sameTargets = (declared: string[], reported: string[]) => declared.length === reported.length && declared.every((target, index) => target === reported[index]);

function namesOf(transitions: MachineTransition[], states: Set<string>): MachineNames {
  return {
    states,
    transitionLabel(reported) {
      const found = transitions.find((declared) => declared.source === reported.source && declared.eventType === reported.event
        && declared.guard === reported.guard && sameTargets(declared.targets, reported.targets));
      return found?.label ?? null;
    },
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
