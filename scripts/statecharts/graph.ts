/**
 * The shared statechart graph engine: explores the real machines with xstate/graph
 * (`getAdjacencyMap`, `getShortestPaths`) and an explicit event list per snapshot (user events,
 * actor results, timers), chooses paths that walk every transition and guard outcome, counts
 * transitions, guard outcomes and transition pairs, and replays paths on real actors.
 */
import { createActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine, type StateValue } from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { recordWalked } from './coverage-record';
import { machineGuardOutcomes, machineTransitions, pairKey, transitionPairs as pairsOf, takeInitialStep, takeStep, type StepResult } from '../../src/statecharts/transitions';

/** One documented actor, action, guard or delay of a machine (the `<name>MachineDocs` entries). */
export interface DocEntry {
  /** One line: what it means for the shopper or the server. */
  description: string;
  /** What it receives (actors: input; actions: what they read), in words or as a type. */
  input?: string;
  /** What it yields (actors: output; actions: what they write), in words or as a type. */
  output?: string;
}

/**
 * The documentation object each machine file exports as `<name>MachineDocs`; keys are the names
 * used in `setup({ actors, actions, guards, delays })`.
 */
export interface MachineDocs {
  actors?: Record<string, DocEntry>;
  actions?: Record<string, DocEntry>;
  guards?: Record<string, DocEntry>;
  delays?: Record<string, DocEntry>;
  /** Optional meaning per event type; otherwise the transitions' descriptions are used. */
  events?: Record<string, DocEntry>;
}

/** How a machine is walked: the real machine with inert actors, and the events to try per snapshot. */
export interface MachineModel {
  /** Machine name, e.g. `checkout`; also the diagram file name `docs/statecharts/<name>.md`. */
  name: string;
  /** The REAL machine, `.provide()`d with inert actors and actions that never run side effects. */
  machine: AnyStateMachine;
  /** Input given to the machine when the walk (and every replay) starts. */
  input?: unknown;
  /**
   * Several named starting inputs instead of `input` (e.g. a plain visit and a link with URL
   * parameters); the walk starts from each, in order, and every path records its own.
   */
  inputs?: { name: string; input: unknown }[];
  /**
   * The explicit events to try in this snapshot: user events, actor results
   * (`xstate.done.actor.<id>` with `output`, `xstate.error.actor.<id>` with `error`) and timers
   * (`xstate.after.<delay>.<stateId>`). Events the snapshot does not handle are ignored.
   */
  events: (snapshot: AnyMachineSnapshot) => AnyEventObject[];
  /** Plain words for one event, e.g. "apply promo SAVE10". */
  describeEvent: (event: AnyEventObject) => string;
  /** How many paths `generatePaths` must produce; a statechart that changes by accident fails. */
  expectedPaths: number;
  /**
   * Transition pairs the generated paths walk, of `total` reachable with the model's events (`npm run paths`:
   * pairs walked/reachable); pinned like `expectedPaths`, so a target that moves fails even with the same paths.
   */
  expectedPairs?: { walked: number; total: number };
  /** The machine file's `<name>MachineDocs`, printed by the diagram generator. */
  docs?: MachineDocs;
  /** Upper bound on distinct snapshots explored (value + context); default 5000. */
  maxSnapshots?: number;
  /**
   * Transitions or guard outcomes (labels as `npm run paths` prints them) no model event can reach,
   * each with its reason. The engine fails when a listed one is walked after all.
   */
  unreachable?: Record<string, string>;
}

/** A snapshot as recorded in a path: its state value and context. */
export interface PathState {
  value: StateValue;
  context: unknown;
}

/** What a step (or the start) walked: transition labels in order, guard outcomes evaluated. */
export interface Walked {
  transitions: string[];
  guards: string[];
}

/** One step of a path: the event sent, the state it led to, and what it walked. */
export interface PathStep extends Walked {
  event: AnyEventObject;
  state: PathState;
}

/** A path from the initial state. */
export interface ModelPath extends Walked {
  /** The input the path starts with. */
  input: unknown;
  /** The name of that input when the model has several `inputs`. */
  inputName?: string;
  /** What the machine's start walked (eventless transitions taken before any event). */
  start: Walked;
  steps: PathStep[];
  /** Transition pairs walked, in order (`first ⇒ second`): within a step, and last of one step ⇒ first of the next. */
  pairs: string[];
}

/** Walked against total, with the labels neither walked nor listed unreachable. */
export interface CoverageCount {
  walked: number;
  total: number;
  missing: string[];
}

/** Result of `transitionCoverage`. */
export interface Coverage {
  transitions: CoverageCount;
  guardOutcomes: CoverageCount;
  /** Pairs of transitions taken one directly after the other: walked by the paths / reachable in the explored graph. */
  transitionPairs: { walked: number; total: number };
  /** The model's `unreachable` list, as `{ transition, reason }`. */
  unreachable: { transition: string; reason: string }[];
}

interface Root {
  name?: string;
  input: unknown;
}

interface Move {
  event: AnyEventObject;
  targetKey: string;
  result: StepResult;
}

interface ExploredNode {
  key: string;
  root: Root;
  snapshot: AnyMachineSnapshot;
  /** Events of a shortest path from the root (from `getShortestPaths`). */
  events: AnyEventObject[];
  /** Events that take a transition or evaluate a guard here (ignored events are left out). */
  moves: Move[];
}

interface Exploration {
  starts: Map<Root, StepResult>;
  nodes: Map<string, ExploredNode>;
}

/** Serialises a snapshot by state value and context (what makes two snapshots the same). */
export function serializeState(snapshot: AnyMachineSnapshot): string {
  const status = snapshot.status === 'active' ? {} : { status: snapshot.status };
  return JSON.stringify({ value: snapshot.value, context: snapshot.context, ...status });
}

/** Serialises an event; an Error payload by its message (JSON would make every Error `{}`). */
function serializeEvent(event: AnyEventObject): string {
  return JSON.stringify(event, (_key, value: unknown) => (value instanceof Error ? { error: value.message } : value));
}

function toPathState(snapshot: AnyMachineSnapshot): PathState {
  return JSON.parse(JSON.stringify({ value: snapshot.value, context: snapshot.context })) as PathState;
}

function rootsOf(model: MachineModel): Root[] {
  return model.inputs?.length ? model.inputs.map(({ name, input }) => ({ name, input })) : [{ input: model.input }];
}

const explorations = new WeakMap<MachineModel, Exploration>();

/**
 * Every snapshot reachable from each input with the model's events: `getAdjacencyMap` explores,
 * `getShortestPaths` gives a shortest event sequence to each snapshot, and every edge is taken
 * again with `takeStep` to know its transitions and guard outcomes (and to check it lands on the
 * adjacency map's snapshot).
 */
function explore(model: MachineModel): Exploration {
  const cached = explorations.get(model);
  if (cached) return cached;
  const limit = model.maxSnapshots ?? 5000;
  const nodes = new Map<string, ExploredNode>();
  const starts = new Map<Root, StepResult>();
  for (const root of rootsOf(model)) {
    starts.set(root, takeInitialStep(model.machine, root.input));
    let seen = 0;
    const options = {
      input: root.input,
      serializeState: (snapshot: AnyMachineSnapshot) => serializeState(snapshot),
      serializeEvent,
      stopWhen: (snapshot: AnyMachineSnapshot) => snapshot.status !== 'active',
      events: (snapshot: AnyMachineSnapshot) => {
        if (++seen > limit) throw new Error(`${model.name}: more than ${limit} distinct snapshots; narrow the model's events`);
        return model.events(snapshot);
      },
    };
    const adjacency = getAdjacencyMap(model.machine, options);
    seen = 0;
    const shortest = getShortestPaths(model.machine, options);
    for (const path of shortest) {
      const key = serializeState(path.state as AnyMachineSnapshot);
      if (nodes.has(key)) continue;
      const entry = adjacency[key as keyof typeof adjacency];
      if (!entry) throw new Error(`${model.name}: getShortestPaths reached a snapshot getAdjacencyMap did not: ${key}`);
      const moves: Move[] = [];
      for (const { event, state } of Object.values(entry.transitions)) {
        const result = takeStep(entry.state as AnyMachineSnapshot, event);
        const targetKey = serializeState(result.snapshot);
        if (targetKey !== serializeState(state as AnyMachineSnapshot)) throw new Error(`${model.name}: takeStep and getAdjacencyMap disagree on ${event.type} from ${key}`);
        // An unhandled actor error stops the machine; an event nothing handles is no move.
        if (result.snapshot.status === 'error' || (!result.transitions.length && !result.guards.length)) continue;
        moves.push({ event, targetKey, result });
      }
      // The first step of an xstate/graph path is the start (`xstate.init`).
      nodes.set(key, { key, root, snapshot: entry.state as AnyMachineSnapshot, events: path.steps.slice(1).map((step) => step.event), moves });
    }
  }
  const exploration = { starts, nodes };
  explorations.set(model, exploration);
  return exploration;
}

/** The path an event sequence walks from the model's input (or the named one of its `inputs`). */
export function pathFromEvents(model: MachineModel, events: AnyEventObject[], inputName?: string): ModelPath {
  const root = rootsOf(model).find((candidate) => candidate.name === inputName);
  if (!root) throw new Error(`${model.name}: no input named ${String(inputName)}`);
  return walkEvents(model, root, events);
}

/** Replays events from a root with `takeStep`, recording each step. */
function walkEvents(model: MachineModel, root: Root, events: AnyEventObject[]): ModelPath {
  const start = takeInitialStep(model.machine, root.input);
  let snapshot = start.snapshot;
  const steps: PathStep[] = events.map((event) => {
    const result = takeStep(snapshot, event);
    snapshot = result.snapshot;
    return { event, state: toPathState(snapshot), transitions: result.transitions, guards: result.guards };
  });
  const all = [start, ...steps];
  const sequence = all.flatMap((step) => step.transitions);
  return {
    input: root.input,
    ...(root.name === undefined ? {} : { inputName: root.name }),
    start: { transitions: start.transitions, guards: start.guards },
    steps,
    transitions: [...new Set(all.flatMap((step) => step.transitions))],
    guards: [...new Set(all.flatMap((step) => step.guards))],
    pairs: [...new Set(pairsOf(sequence))],
  };
}

/**
 * The model's paths for a test file: when the engine throws (a machine that cannot be walked), no paths
 * and the error, so a test fails and says why instead of the file failing to load (which a mutation run counts as a survivor).
 */
export function generatePathsForTest(model: MachineModel): { paths: ModelPath[]; error: Error | null } {
  try {
    return { paths: generatePaths(model), error: null };
  } catch (error) {
    return { paths: [], error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * Paths from the initial state that together walk every transition and guard outcome the model's
 * events reach: a shortest path to each distinct state value, then, for each transition and guard
 * outcome no path walked yet, a shortest path to a snapshot where an event walks it, extended by
 * that event. A path that is a prefix of another (or a repeat) is dropped.
 */
export function generatePaths(model: MachineModel): ModelPath[] {
  const { starts, nodes } = explore(model);
  const chosen: { root: Root; events: AnyEventObject[] }[] = [];
  const walkedTransitions = new Set<string>();
  const walkedGuards = new Set<string>();
  const take = (root: Root, events: AnyEventObject[], walked: Walked[]) => {
    chosen.push({ root, events });
    // Every path walks its input's start first.
    for (const step of [starts.get(root)!, ...walked]) {
      for (const label of step.transitions) walkedTransitions.add(label);
      for (const label of step.guards) walkedGuards.add(label);
    }
  };
  const seenValues = new Set<string>();
  const walkedOnTheWay = (node: ExploredNode): Walked[] => walkEvents(model, node.root, node.events).steps;
  for (const node of nodes.values()) {
    const valueKey = JSON.stringify(node.snapshot.value);
    if (seenValues.has(valueKey)) continue;
    seenValues.add(valueKey);
    if (node.events.length) take(node.root, node.events, walkedOnTheWay(node));
  }
  // A start that walks what no path from its input walked yet is a path of its own (no events).
  for (const [root, start] of starts) {
    if ([...start.transitions].some((label) => !walkedTransitions.has(label)) || start.guards.some((label) => !walkedGuards.has(label))) take(root, [], []);
  }
  const extend = (walks: (move: Move) => boolean) => {
    for (const node of nodes.values()) {
      const move = node.moves.find(walks);
      if (!move) continue;
      take(node.root, [...node.events, move.event], [...walkedOnTheWay(node), move.result]);
      return;
    }
  };
  for (const transition of machineTransitions(model.machine)) {
    if (!walkedTransitions.has(transition.label)) extend((move) => move.result.transitions.includes(transition.label));
  }
  for (const outcome of machineGuardOutcomes(model.machine)) {
    if (!walkedGuards.has(outcome)) extend((move) => move.result.guards.includes(outcome));
  }
  const keys = chosen.map(({ root, events }) => [JSON.stringify(root.name ?? null), ...events.map(serializeEvent)]);
  const isPrefixOf = (short: string[], long: string[]) => short.length < long.length && short.every((key, index) => long[index] === key);
  const unique = new Set<string>();
  return chosen
    .filter((_path, index) => {
      const key = keys[index]!;
      const joined = key.join('\n');
      if (unique.has(joined)) return false;
      unique.add(joined);
      return !keys.some((other) => isPrefixOf(key, other));
    })
    .map(({ root, events }) => walkEvents(model, root, events));
}

/** Transition pairs occurring anywhere in the explored graph: within a step, and last of one step → first of the next. */
function reachablePairs(model: MachineModel): Set<string> {
  const { starts, nodes } = explore(model);
  const pairs = new Set<string>();
  const incoming = new Map<string, Set<string>>();
  const arrive = (key: string, transitions: string[]) => {
    const last = transitions.at(-1);
    if (last === undefined) return;
    if (!incoming.has(key)) incoming.set(key, new Set());
    incoming.get(key)!.add(last);
  };
  for (const [root, start] of starts) {
    for (const pair of pairsOf(start.transitions)) pairs.add(pair);
    const node = [...nodes.values()].find((candidate) => candidate.root === root && !candidate.events.length);
    if (node) arrive(node.key, start.transitions);
  }
  for (const node of nodes.values()) {
    for (const move of node.moves) {
      for (const pair of pairsOf(move.result.transitions)) pairs.add(pair);
      arrive(move.targetKey, move.result.transitions);
    }
  }
  for (const node of nodes.values()) {
    for (const move of node.moves) {
      const first = move.result.transitions[0];
      if (first === undefined) continue;
      for (const last of incoming.get(node.key) ?? []) pairs.add(pairKey(last, first));
    }
  }
  return pairs;
}

/**
 * What the paths walk, re-walked with `takeStep` from each path's input: transitions and guard
 * outcomes against every one of the definition, pairs against those reachable with the model's
 * events. Throws when a transition or guard outcome the model lists as unreachable is walked, or
 * when the list names one the machine does not have.
 */
export function transitionCoverage(model: MachineModel, paths: ModelPath[]): Coverage {
  const transitions = machineTransitions(model.machine).map((transition) => transition.label);
  const outcomes = machineGuardOutcomes(model.machine);
  const listed = model.unreachable ?? {};
  for (const label of Object.keys(listed)) {
    if (!transitions.includes(label) && !outcomes.includes(label)) throw new Error(`${model.name}: unreachable lists '${label}', which is no transition or guard outcome of the machine`);
  }
  const walkedTransitions = new Set<string>();
  const walkedGuards = new Set<string>();
  const walkedPairs = new Set<string>();
  for (const path of paths) {
    const walked = walkEvents(model, { name: path.inputName, input: path.input }, path.steps.map((step) => step.event));
    for (const label of walked.transitions) walkedTransitions.add(label);
    for (const label of walked.guards) walkedGuards.add(label);
    for (const pair of walked.pairs) walkedPairs.add(pair);
  }
  const walkedListed = Object.keys(listed).filter((label) => walkedTransitions.has(label) || walkedGuards.has(label));
  if (walkedListed.length) throw new Error(`${model.name}: listed as unreachable but walked: ${walkedListed.join('; ')}`);
  const count = (all: string[], walked: Set<string>): CoverageCount => ({
    walked: all.filter((label) => walked.has(label)).length,
    total: all.length,
    missing: all.filter((label) => !walked.has(label) && !(label in listed)),
  });
  return {
    transitions: count(transitions, walkedTransitions),
    guardOutcomes: count(outcomes, walkedGuards),
    transitionPairs: { walked: walkedPairs.size, total: reachablePairs(model).size },
    unreachable: Object.entries(listed).map(([transition, reason]) => ({ transition, reason })),
  };
}

/**
 * One line: the path's events in plain words, e.g. "select plan 2 → apply promo → promo rejected";
 * prefixed with the input's name when the model has several inputs.
 */
export function formatScenario(model: MachineModel, path: ModelPath): string {
  const events = path.steps.map((step) => model.describeEvent(step.event)).join(' → ') || 'start';
  return path.inputName === undefined ? events : `${path.inputName}: ${events}`;
}

/**
 * Replays a path on a fresh, started actor of the model's machine (with its inert actors),
 * calling `assertStep(snapshot, step)` after each event. Throws when the actor's state value or
 * context differs from the generated path's.
 */
export function replayPath(
  model: MachineModel,
  path: ModelPath,
  assertStep: (snapshot: AnyMachineSnapshot, step: PathStep) => void,
): void {
  const actor = createActor(model.machine, { input: path.input });
  actor.start();
  try {
    path.steps.forEach((step, index) => {
      actor.send(step.event);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const actual = JSON.stringify(toPathState(snapshot));
      const expected = JSON.stringify(step.state);
      if (actual !== expected) {
        throw new Error(`${model.name}: step ${index + 1} (${model.describeEvent(step.event)}) reached ${actual}, path expects ${expected}`);
      }
      assertStep(snapshot, step);
    });
    // What the replay walked on the real actor, for the machine tests' coverage file (coverage/statecharts/machine-tests).
    recordWalked('machine-tests', model.name, { transitions: path.transitions, guardOutcomes: path.guards, pairs: path.pairs });
  } finally {
    actor.stop();
  }
}
