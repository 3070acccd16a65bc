/**
 * The transitions of a machine's definition and one step of a machine on xstate's public API only:
 * `getMicrosteps` / `getInitialMicrosteps` give xstate's own microsteps; this module re-selects the
 * transitions of each microstep (evaluating every candidate guard in xstate's order, so each guard's
 * outcome is known) and throws when its selection does not reproduce xstate's result.
 */
import {
  getInitialMicrosteps,
  getMicrosteps,
  getStateNodes as activeStateNodes,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type StateValue,
} from 'xstate';
import { getStateNodes as descendantStateNodes } from 'xstate/graph';

/** What kind of definition entry a transition is. */
export type TransitionKind = 'on' | 'always' | 'after' | 'onDone' | 'onError';

/** One TransitionDefinition of the machine: an `on`, `always`, `after`, `onDone` or `onError` entry (each guarded branch). */
export interface MachineTransition {
  /** Readable and unique in the machine, e.g. `checkout.loading → checkout.autoOrder.loadingProduct on always [autoOrderAsUser]`. */
  label: string;
  kind: TransitionKind;
  /** Id of the state node that declares it. */
  source: string;
  /** The event type, or `always` for an eventless transition. */
  eventType: string;
  /** The guard's name, when guarded. */
  guard?: string;
  /** Ids of the target state nodes; empty for a targetless transition. */
  targets: string[];
  definition: AnyTransitionDefinition;
}

/** The two outcomes of a guarded transition's guard, as labels: `<transition label>: true` / `: false`. */
export const guardOutcomeLabel = (transition: string, outcome: boolean): string => `${transition}: ${outcome}`;

/** Two transitions taken one directly after the other, as a label: `first ⇒ second`. */
export const pairKey = (first: string, second: string): string => `${first} ⇒ ${second}`;

/** The pairs of a sequence of transitions taken in order (each transition with the next one). */
export function transitionPairs(sequence: string[]): string[] {
  return sequence.slice(1).map((label, index) => pairKey(sequence[index]!, label));
}

/** One microstep: the event processed and the transitions taken (labels, in xstate's order). */
export interface Microstep {
  event: AnyEventObject;
  transitions: string[];
}

/** What one event (or the start) did to the machine. */
export interface StepResult {
  /** The snapshot after the whole macrostep. */
  snapshot: AnyMachineSnapshot;
  microsteps: Microstep[];
  /** Labels of the transitions taken, in order, over every microstep. */
  transitions: string[];
  /** Guard outcomes evaluated on the way (labels from `guardOutcomeLabel`), without repeats, in order. */
  guards: string[];
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

function kindOf(eventType: string): TransitionKind {
  if (eventType.startsWith('xstate.after.')) return 'after';
  if (eventType.startsWith('xstate.done.')) return 'onDone';
  if (eventType.startsWith('xstate.error.')) return 'onError';
  return 'on';
}

interface TransitionIndex {
  list: MachineTransition[];
  byDefinition: Map<AnyTransitionDefinition, MachineTransition>;
  nodes: AnyStateNode[];
}

const indexes = new WeakMap<AnyStateMachine, TransitionIndex>();

function indexOf(machine: AnyStateMachine): TransitionIndex {
  const cached = indexes.get(machine);
  if (cached) return cached;
  const nodes = [machine.root, ...descendantStateNodes(machine.root)];
  const list: MachineTransition[] = [];
  const byDefinition = new Map<AnyTransitionDefinition, MachineTransition>();
  const labels = new Map<string, number>();
  const add = (node: AnyStateNode, eventType: string, definition: AnyTransitionDefinition) => {
    const guard = guardName(definition.guard);
    const targets = (definition.target ?? []).map((target: AnyStateNode) => target.id);
    const move = targets.length ? `${node.id} → ${targets.join(', ')}` : `${node.id} (stays)`;
    let label = `${move} on ${eventType}${guard ? ` [${guard}]` : ''}`;
    const seen = labels.get(label) ?? 0;
    labels.set(label, seen + 1);
    if (seen) label = `${label} #${seen + 1}`;
    const transition: MachineTransition = { label, kind: eventType === 'always' ? 'always' : kindOf(eventType), source: node.id, eventType, ...(guard ? { guard } : {}), targets, definition };
    list.push(transition);
    byDefinition.set(definition, transition);
  };
  for (const node of nodes) {
    for (const [eventType, definitions] of node.transitions) for (const definition of definitions) add(node, eventType, definition);
    for (const definition of node.always ?? []) add(node, 'always', definition);
  }
  const index = { list, byDefinition, nodes };
  indexes.set(machine, index);
  return index;
}

/** Every transition of the machine's definition, in document order. */
export function machineTransitions(machine: AnyStateMachine): MachineTransition[] {
  return indexOf(machine).list;
}

/** Every guard outcome of the machine (true and false per guarded transition), as labels. */
export function machineGuardOutcomes(machine: AnyStateMachine): string[] {
  return machineTransitions(machine)
    .filter((transition) => transition.guard !== undefined)
    .flatMap((transition) => [guardOutcomeLabel(transition.label, true), guardOutcomeLabel(transition.label, false)]);
}

type GuardArgs = { context: unknown; event: AnyEventObject };
type GuardImplementation = ((args: GuardArgs, params: unknown) => boolean) & { check?: unknown };

/** Evaluates a guard the way xstate does for the guard kinds the machines use; throws on any other kind. */
function checkGuard(machine: AnyStateMachine, guard: unknown, context: unknown, event: AnyEventObject): boolean {
  const args = { context, event };
  if (typeof guard === 'function') {
    if ('check' in guard) throw new Error(`Unsupported guard kind: built-in guard ${guard.name || ''} (and/or/not/stateIn)`);
    return Boolean((guard as GuardImplementation)(args, undefined));
  }
  const type = typeof guard === 'string' ? guard : typeof guard === 'object' && guard !== null && 'type' in guard ? String(guard.type) : undefined;
  if (type === undefined) throw new Error(`Unsupported guard kind: ${JSON.stringify(guard)}`);
  const implementation = (machine.implementations.guards as Record<string, unknown>)[type];
  if (typeof implementation !== 'function' || 'check' in implementation) throw new Error(`Unsupported guard kind for '${type}': not a plain guard function`);
  const params =
    typeof guard === 'object' && guard !== null && 'params' in guard
      ? typeof guard.params === 'function'
        ? (guard.params as (args: GuardArgs) => unknown)(args)
        : guard.params
      : undefined;
  return Boolean((implementation as GuardImplementation)(args, params));
}

type GuardRecorder = (definition: AnyTransitionDefinition, outcome: boolean) => void;

function matchesDescriptor(eventType: string, descriptor: string): boolean {
  if (descriptor === eventType || descriptor === '*') return true;
  if (!descriptor.endsWith('.*')) return false;
  const parts = eventType.split('.');
  return descriptor.slice(0, -2).split('.').every((part, index) => parts[index] === part);
}

/** xstate's candidates of a node for an event type: the exact ones, then wildcards (longest first). */
function candidatesOf(node: AnyStateNode, eventType: string): AnyTransitionDefinition[] {
  const exact = node.transitions.get(eventType) ?? [];
  const wildcards = [...node.transitions.keys()]
    .filter((descriptor) => descriptor !== eventType && matchesDescriptor(eventType, descriptor))
    .sort((a, b) => b.length - a.length)
    .flatMap((descriptor) => node.transitions.get(descriptor) ?? []);
  return [...exact, ...wildcards];
}

/** The first enabled candidate of one node (xstate's `StateNode.next`), recording each guard evaluated. */
function firstEnabled(node: AnyStateNode, snapshot: AnyMachineSnapshot, event: AnyEventObject, record: GuardRecorder): AnyTransitionDefinition[] | undefined {
  for (const candidate of candidatesOf(node, event.type)) {
    if (candidate.guard === undefined) return [candidate];
    const outcome = checkGuard(snapshot.machine, candidate.guard, snapshot.context, event);
    record(candidate, outcome);
    if (outcome) return [candidate];
  }
  return undefined;
}

/** The transitions an event enables, selected as xstate's `transitionNode` does over the state value. */
function selectForEvent(snapshot: AnyMachineSnapshot, event: AnyEventObject, record: GuardRecorder): AnyTransitionDefinition[] {
  const visit = (node: AnyStateNode, value: StateValue): AnyTransitionDefinition[] | undefined => {
    if (typeof value === 'string') {
      const inner = firstEnabled(node.states[value]!, snapshot, event, record);
      return inner?.length ? inner : firstEnabled(node, snapshot, event, record);
    }
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const inner = visit(node.states[keys[0]!]!, value[keys[0]!]!);
      return inner?.length ? inner : firstEnabled(node, snapshot, event, record);
    }
    const all: AnyTransitionDefinition[] = [];
    for (const key of keys) {
      const sub = value[key];
      if (!sub) continue;
      all.push(...(visit(node.states[key]!, sub) ?? []));
    }
    return all.length ? all : firstEnabled(node, snapshot, event, record);
  };
  return visit(snapshot.machine.root, snapshot.value) ?? [];
}

const properAncestors = (node: AnyStateNode): AnyStateNode[] => {
  const ancestors: AnyStateNode[] = [];
  for (let parent = node.parent; parent; parent = parent.parent) ancestors.push(parent);
  return ancestors;
};

const isDescendant = (child: AnyStateNode, ancestor: AnyStateNode): boolean => properAncestors(child).includes(ancestor);

const activeNodes = (snapshot: AnyMachineSnapshot): Set<AnyStateNode> => new Set(activeStateNodes(snapshot.machine.root, snapshot.value));

const atomicNodes = (snapshot: AnyMachineSnapshot): AnyStateNode[] =>
  [...activeNodes(snapshot)].filter((node) => node.type === 'atomic' || node.type === 'final').sort((a, b) => a.order - b.order);

/** The eventless transitions enabled now (xstate's `selectEventlessTransitions`), recording each guard evaluated. */
function selectEventless(snapshot: AnyMachineSnapshot, event: AnyEventObject, record: GuardRecorder): AnyTransitionDefinition[] {
  const enabled = new Set<AnyTransitionDefinition>();
  for (const atomic of atomicNodes(snapshot)) {
    chain: for (const node of [atomic, ...properAncestors(atomic)]) {
      for (const transition of node.always ?? []) {
        let outcome = true;
        if (transition.guard !== undefined) {
          outcome = checkGuard(snapshot.machine, transition.guard, snapshot.context, event);
          record(transition, outcome);
        }
        if (outcome) {
          enabled.add(transition);
          break chain;
        }
      }
    }
  }
  return [...enabled];
}

function domainOf(transition: AnyTransitionDefinition): AnyStateNode {
  const targets: readonly AnyStateNode[] = transition.target ?? [];
  for (const target of targets) if (target.type === 'history') throw new Error(`Unsupported: history target ${target.id}`);
  if (!transition.reenter && targets.every((target) => target === transition.source || isDescendant(target, transition.source))) return transition.source;
  const [head, ...tail] = [...targets, transition.source];
  const common = properAncestors(head!).find((ancestor) => tail.every((node) => isDescendant(node, ancestor)));
  if (common) return common;
  if (transition.reenter) throw new Error(`Unsupported: re-entering the root (${transition.source.id})`);
  return transition.source.machine.root;
}

function exitSet(transition: AnyTransitionDefinition, active: Set<AnyStateNode>): Set<AnyStateNode> {
  const exits = new Set<AnyStateNode>();
  if (!transition.target?.length) return exits;
  const domain = domainOf(transition);
  if (transition.reenter && transition.source === domain) exits.add(domain);
  for (const node of active) if (isDescendant(node, domain)) exits.add(node);
  return exits;
}

/** xstate's `removeConflictingTransitions`: of two transitions exiting the same states, the deeper source wins. */
function removeConflicts(enabled: AnyTransitionDefinition[], active: Set<AnyStateNode>): AnyTransitionDefinition[] {
  const kept = new Set<AnyTransitionDefinition>();
  for (const t1 of enabled) {
    let preempted = false;
    const removed = new Set<AnyTransitionDefinition>();
    const exits1 = exitSet(t1, active);
    for (const t2 of kept) {
      const exits2 = exitSet(t2, active);
      if ([...exits1].some((node) => exits2.has(node))) {
        if (isDescendant(t1.source, t2.source)) removed.add(t2);
        else {
          preempted = true;
          break;
        }
      }
    }
    if (!preempted) {
      for (const t of removed) kept.delete(t);
      kept.add(t1);
    }
  }
  return [...kept];
}

const ids = (nodes: Iterable<AnyStateNode>) => [...nodes].map((node) => node.id).sort().join(', ');

/**
 * Checks that the transitions this module selected reproduce xstate's microstep: the states not
 * exited stay, every target is entered, nothing is entered outside the transitions' domains, and a
 * microstep without transitions changes nothing. Returns the entered nodes (document order).
 */
function verifyMicrostep(before: AnyMachineSnapshot, selected: AnyTransitionDefinition[], after: AnyMachineSnapshot, where: string): AnyStateNode[] {
  const active = activeNodes(before);
  const result = activeNodes(after);
  const fail = (why: string): never => {
    throw new Error(`Step engine disagrees with xstate ${where}: ${why}; selected [${selected.map((t) => indexOf(before.machine).byDefinition.get(t)?.label ?? '?').join('; ')}], before {${ids(active)}}, xstate after {${ids(result)}}`);
  };
  if (!selected.length) {
    if (after !== before && JSON.stringify(after.value) !== JSON.stringify(before.value)) fail('xstate changed the configuration without a selected transition');
    return [];
  }
  const exits = new Set<AnyStateNode>();
  for (const transition of selected) for (const node of exitSet(transition, active)) exits.add(node);
  const kept = [...active].filter((node) => !exits.has(node));
  for (const node of kept) if (!result.has(node)) fail(`${node.id} should stay active`);
  for (const transition of selected) for (const target of transition.target ?? []) if (!result.has(target)) fail(`target ${target.id} not entered`);
  const entered = [...result].filter((node) => !kept.includes(node));
  const domains = selected.filter((transition) => transition.target?.length).map(domainOf);
  for (const node of entered) if (!domains.some((domain) => node === domain || isDescendant(node, domain))) fail(`${node.id} entered outside the transitions' domains`);
  return entered.sort((a, b) => a.order - b.order);
}

/** The `xstate.done.state.*` events xstate queues when final states are entered. */
function doneEvents(entered: AnyStateNode[], after: AnyMachineSnapshot): AnyEventObject[] {
  const result = activeNodes(after);
  const inFinal = (node: AnyStateNode): boolean =>
    node.type === 'compound'
      ? Object.values(node.states).some((child) => child.type === 'final' && result.has(child))
      : node.type === 'parallel'
        ? Object.values(node.states).filter((child) => child.type !== 'history').every(inFinal)
        : node.type === 'final';
  const events: AnyEventObject[] = [];
  const completed = new Set<AnyStateNode>();
  for (const node of entered) {
    if (node.type !== 'final') continue;
    if (node.output !== undefined) throw new Error(`Unsupported: output of final state ${node.id}`);
    const parent = node.parent;
    let marker = parent?.type === 'parallel' ? parent : parent?.parent;
    if (parent?.type === 'compound') events.push({ type: `xstate.done.state.${parent.id}`, output: undefined });
    while (marker?.type === 'parallel' && !completed.has(marker) && inFinal(marker)) {
      completed.add(marker);
      events.push({ type: `xstate.done.state.${marker.id}`, output: undefined });
      marker = marker.parent;
    }
  }
  return events;
}

/** Events raised (without delay) by a microstep's actions: they go to xstate's internal queue. */
function raisedEvents(actions: Array<{ type: string; params?: unknown }>): AnyEventObject[] {
  return actions
    .filter((action) => action.type === 'xstate.raise')
    .map((action) => action.params as { event: AnyEventObject; delay?: unknown })
    .filter((params) => typeof params.delay !== 'number')
    .map((params) => params.event);
}

type XstateMicrostep = [AnyMachineSnapshot, Array<{ type: string; params?: unknown }>];

/**
 * Re-selects xstate's microsteps after the first: eventless transitions while any is enabled,
 * else the next queued (raised or done) event; each selection checked against xstate's microstep.
 */
function followMicrosteps(
  start: AnyMachineSnapshot,
  startEvent: AnyEventObject,
  queue: AnyEventObject[],
  xstateSteps: XstateMicrostep[],
  from: number,
  result: Microstep[],
  record: GuardRecorder,
  where: string,
): AnyMachineSnapshot {
  const { byDefinition } = indexOf(start.machine);
  let current = start;
  let event = startEvent;
  let selectEventlessFirst = true;
  let index = from;
  while (current.status === 'active') {
    let selected: AnyTransitionDefinition[] = selectEventlessFirst ? removeConflicts(selectEventless(current, event, record), activeNodes(current)) : [];
    const eventless: boolean = selected.length > 0;
    if (!eventless) {
      const next = queue.shift();
      if (!next) break;
      event = next;
      selected = removeConflicts(selectForEvent(current, event, record), activeNodes(current));
    }
    const xstateStep = xstateSteps[index];
    if (!xstateStep) throw new Error(`Step engine disagrees with xstate ${where}: it selects a microstep ${index + 1} (${eventless ? 'eventless' : event.type}) xstate does not take`);
    const entered = verifyMicrostep(current, selected, xstateStep[0], `${where}, microstep ${index + 1}`);
    queue.push(...raisedEvents(xstateStep[1]), ...doneEvents(entered, xstateStep[0]));
    result.push({ event: eventless ? { type: 'always' } : event, transitions: selected.map((t: AnyTransitionDefinition) => byDefinition.get(t)!.label) });
    selectEventlessFirst = eventless ? xstateStep[0] !== current : true;
    current = xstateStep[0];
    index++;
  }
  if (index !== xstateSteps.length) throw new Error(`Step engine disagrees with xstate ${where}: ${index} microsteps selected, xstate took ${xstateSteps.length}`);
  return current;
}

function collect(machine: AnyStateMachine) {
  const { byDefinition } = indexOf(machine);
  const guards: string[] = [];
  const record: GuardRecorder = (definition, outcome) => {
    const label = guardOutcomeLabel(byDefinition.get(definition)!.label, outcome);
    if (!guards.includes(label)) guards.push(label);
  };
  return { guards, record };
}

const finish = (snapshot: AnyMachineSnapshot, microsteps: Microstep[], guards: string[]): StepResult => ({
  snapshot,
  microsteps,
  transitions: microsteps.flatMap((microstep) => microstep.transitions),
  guards,
});

/** The machine's start: xstate's initial microsteps, with the eventless and raised transitions taken. */
export function takeInitialStep(machine: AnyStateMachine, input: unknown): StepResult {
  const xstateSteps = getInitialMicrosteps(machine, input) as unknown as XstateMicrostep[];
  const { guards, record } = collect(machine);
  const [first] = xstateSteps;
  if (!first) throw new Error(`${machine.id}: xstate took no initial microstep`);
  const entered = [...activeNodes(first[0])].sort((a, b) => a.order - b.order);
  const queue = [...raisedEvents(first[1]), ...doneEvents(entered, first[0])];
  const microsteps: Microstep[] = [];
  const snapshot = followMicrosteps(first[0], { type: 'xstate.init', input }, queue, xstateSteps, 1, microsteps, record, `${machine.id} at the start`);
  return finish(snapshot, microsteps, guards);
}

/**
 * One event on a snapshot: the transitions of each microstep and every guard outcome evaluated,
 * selected here and checked against xstate's own microsteps (`getMicrosteps`) and selection
 * (`machine.getTransitionData`); throws when they disagree.
 */
export function takeStep(snapshot: AnyMachineSnapshot, event: AnyEventObject): StepResult {
  const machine = snapshot.machine;
  const { byDefinition } = indexOf(machine);
  const { guards, record } = collect(machine);
  if (snapshot.status !== 'active') return finish(snapshot, [], guards);
  const where = `${machine.id} in ${JSON.stringify(snapshot.value)} on ${event.type}`;
  const xstateSteps = getMicrosteps(machine, snapshot, event) as unknown as XstateMicrostep[];
  const candidates = selectForEvent(snapshot, event, record);
  const xstateSelection = machine.getTransitionData(snapshot, event) as AnyTransitionDefinition[];
  if (candidates.length !== xstateSelection.length || candidates.some((transition, index) => xstateSelection[index] !== transition)) {
    throw new Error(`Step engine disagrees with xstate ${where}: it selects [${candidates.map((t) => byDefinition.get(t)?.label).join('; ')}], xstate [${xstateSelection.map((t) => byDefinition.get(t)?.label).join('; ')}]`);
  }
  const [first] = xstateSteps;
  if (!first) throw new Error(`Step engine disagrees with xstate ${where}: xstate took no microstep`);
  // An actor error no transition handles puts the machine in error status (xstate's rule).
  if (!candidates.length && event.type.startsWith('xstate.error.actor')) {
    if (first[0].status !== 'error') throw new Error(`Step engine disagrees with xstate ${where}: an unhandled actor error should end in error status`);
    return finish(first[0], [], guards);
  }
  const selected = removeConflicts(candidates, activeNodes(snapshot));
  const entered = verifyMicrostep(snapshot, selected, first[0], `${where}, microstep 1`);
  const queue = [...raisedEvents(first[1]), ...doneEvents(entered, first[0])];
  const microsteps: Microstep[] = [{ event, transitions: selected.map((t) => byDefinition.get(t)!.label) }];
  const next = followMicrosteps(first[0], event, queue, xstateSteps, 1, microsteps, record, where);
  return finish(next, microsteps, guards);
}
