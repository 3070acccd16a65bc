/**
 * The shared statechart graph engine: walks the real machines with an explicit event list per
 * snapshot (user events, actor results, timers), generates paths that walk every transition,
 * measures transition coverage and replays paths on real actors.
 */
import {
  createActor,
  createEmptyActor,
  type ActorScope,
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { toDirectedGraph, type DirectedGraphEdge, type DirectedGraphNode } from 'xstate/graph';

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
  /** The machine file's `<name>MachineDocs`, printed by the diagram generator. */
  docs?: MachineDocs;
  /** Upper bound on distinct snapshots explored (value + context); default 5000. */
  maxSnapshots?: number;
}

/** A snapshot as recorded in a path: its state value and context. */
export interface PathState {
  value: StateValue;
  context: unknown;
}

/** One step of a path: the event sent and the state it led to. */
export interface PathStep {
  event: AnyEventObject;
  state: PathState;
  /** Ids of the `toDirectedGraph` edges this step walked. */
  edges: string[];
}

/** A path from the initial state. */
export interface ModelPath {
  /** The input the path starts with. */
  input: unknown;
  /** The name of that input when the model has several `inputs`. */
  inputName?: string;
  steps: PathStep[];
  /** Ids of every `toDirectedGraph` edge walked by this path, in walking order, without repeats. */
  edges: string[];
}

/** Result of `transitionCoverage`. */
export interface Coverage {
  walked: number;
  total: number;
  /** Readable labels of the edges no path walks. */
  missing: string[];
}

/** A `toDirectedGraph` edge with a readable label. */
export interface MachineEdge {
  id: string;
  source: string;
  target: string;
  eventType: string;
  guard?: string;
  transition: AnyTransitionDefinition;
  label: string;
}

interface Transitioned {
  snapshot: AnyMachineSnapshot;
  transitions: AnyTransitionDefinition[];
}

interface Root {
  name?: string;
  input: unknown;
}

interface Explored {
  key: string;
  root: Root;
  snapshot: AnyMachineSnapshot;
  depth: number;
  /** Incoming step on the shortest path (undefined for the initial snapshot). */
  parent?: { key: string; event: AnyEventObject; edges: string[] };
  outgoing: { event: AnyEventObject; targetKey: string; edges: string[] }[];
}

/** Serialises a snapshot by state value and context (what makes two snapshots the same). */
export function serializeState(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

function toPathState(snapshot: AnyMachineSnapshot): PathState {
  return JSON.parse(JSON.stringify({ value: snapshot.value, context: snapshot.context })) as PathState;
}

function guardName(transition: AnyTransitionDefinition): string | undefined {
  const guard: unknown = transition.guard;
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

function flattenGraph(node: DirectedGraphNode): DirectedGraphEdge[] {
  return [...node.edges, ...node.children.flatMap(flattenGraph)];
}

/** Every edge of `toDirectedGraph(machine)` with a readable label. */
export function machineEdges(machine: AnyStateMachine): MachineEdge[] {
  return flattenGraph(toDirectedGraph(machine)).map((edge) => {
    const guard = guardName(edge.transition);
    const label = `${edge.source.id} → ${edge.target.id} on ${edge.transition.eventType}${guard ? ` [${guard}]` : ''}`;
    return {
      id: edge.id,
      source: edge.source.id,
      target: edge.target.id,
      eventType: edge.transition.eventType,
      ...(guard ? { guard } : {}),
      transition: edge.transition,
      label,
    };
  });
}

/** Edge ids per transition object: a transition with several targets is several edges. */
function edgeIndex(machine: AnyStateMachine): { edges: MachineEdge[]; byTransition: Map<AnyTransitionDefinition, string[]> } {
  const edges = machineEdges(machine);
  const byTransition = new Map<AnyTransitionDefinition, string[]>();
  for (const edge of edges) byTransition.set(edge.transition, [...(byTransition.get(edge.transition) ?? []), edge.id]);
  return { edges, byTransition };
}

/**
 * A side-effect-free actor scope (like xstate/graph's own) that records the transitions of the
 * microsteps after the first: raised `xstate.done.state.*` events and eventless transitions.
 */
function createWalkScope(): { scope: AnyActorScope; takeFollowUps: () => AnyTransitionDefinition[] } {
  const emptyActor = createEmptyActor();
  let microsteps: AnyTransitionDefinition[][] = [];
  emptyActor.system.inspect((inspectionEvent: InspectionEvent) => {
    if (inspectionEvent.type === '@xstate.microstep') {
      microsteps.push((inspectionEvent as unknown as { _transitions: AnyTransitionDefinition[] })._transitions);
    }
  });
  const scope = {
    self: emptyActor,
    logger: () => {},
    id: '',
    sessionId: 'statechart-walk',
    defer: () => {},
    system: emptyActor.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as ActorScope<AnyMachineSnapshot, EventObject>;
  return {
    scope: scope as AnyActorScope,
    takeFollowUps: () => {
      const followUps = microsteps.slice(1).flat();
      microsteps = [];
      return followUps;
    },
  };
}

/** The pure walker over one model: initial snapshot and one step with the transitions it took. */
function createWalker(model: MachineModel) {
  const { machine } = model;
  const { scope, takeFollowUps } = createWalkScope();
  const { edges, byTransition } = edgeIndex(machine);
  const edgesOf = (transitions: AnyTransitionDefinition[]): string[] => [
    ...new Set(transitions.flatMap((transition) => byTransition.get(transition) ?? [])),
  ];
  return {
    edges,
    edgesOf,
    initial(input: unknown): AnyMachineSnapshot {
      const snapshot = machine.getInitialSnapshot(scope, input) as AnyMachineSnapshot;
      takeFollowUps();
      return snapshot;
    },
    step(snapshot: AnyMachineSnapshot, event: EventObject): Transitioned {
      const taken = machine.getTransitionData(snapshot, event) as AnyTransitionDefinition[];
      takeFollowUps();
      const next = machine.transition(snapshot, event, scope) as AnyMachineSnapshot;
      // The first microstep is `taken`; later ones are raised or eventless transitions.
      const followUps = takeFollowUps();
      return { snapshot: next, transitions: taken.length ? [...taken, ...followUps] : [] };
    },
  };
}

/** Breadth-first exploration of every snapshot reachable with the model's events. */
function explore(model: MachineModel) {
  const walker = createWalker(model);
  const limit = model.maxSnapshots ?? 5000;
  const explored = new Map<string, Explored>();
  const queue: Explored[] = [];
  for (const root of rootsOf(model)) {
    const snapshot = walker.initial(root.input);
    const key = serializeState(snapshot);
    if (explored.has(key)) continue;
    const node: Explored = { key, root, snapshot, depth: 0, outgoing: [] };
    explored.set(key, node);
    queue.push(node);
  }
  while (queue.length) {
    const node = queue.shift()!;
    if (node.snapshot.status !== 'active') continue;
    for (const event of model.events(node.snapshot)) {
      const { snapshot, transitions } = walker.step(node.snapshot, event);
      // An event no transition takes is not a move of the statechart.
      if (!transitions.length || snapshot.status === 'error') continue;
      const edges = walker.edgesOf(transitions);
      const targetKey = serializeState(snapshot);
      node.outgoing.push({ event, targetKey, edges });
      if (explored.has(targetKey)) continue;
      if (explored.size >= limit) {
        throw new Error(`${model.name}: more than ${limit} distinct snapshots; narrow the model's events`);
      }
      const target: Explored = { key: targetKey, root: node.root, snapshot, depth: node.depth + 1, parent: { key: node.key, event, edges }, outgoing: [] };
      explored.set(targetKey, target);
      queue.push(target);
    }
  }
  return { walker, explored };
}

function rootsOf(model: MachineModel): Root[] {
  return model.inputs?.length ? model.inputs.map(({ name, input }) => ({ name, input })) : [{ input: model.input }];
}

function startOf(root: Root): Pick<ModelPath, 'input' | 'inputName'> {
  return root.name === undefined ? { input: root.input } : { input: root.input, inputName: root.name };
}

function pathTo(explored: Map<string, Explored>, key: string): ModelPath {
  const steps: PathStep[] = [];
  const end = explored.get(key)!;
  let node: Explored | undefined = end;
  while (node?.parent) {
    steps.unshift({ event: node.parent.event, state: toPathState(node.snapshot), edges: node.parent.edges });
    node = explored.get(node.parent.key);
  }
  return { ...startOf(end.root), steps, edges: [...new Set(steps.flatMap((step) => step.edges))] };
}

const stepsKey = (path: ModelPath): string[] => [
  JSON.stringify(path.inputName ?? null),
  ...path.steps.map((step) => JSON.stringify({ event: step.event, state: step.state })),
];

/**
 * Paths from the initial state that together walk every transition the model's events reach:
 * the shortest path to each distinct state value, then, for every edge no path walked yet, the
 * shortest path to a snapshot where the edge is taken, extended by that edge. A path that is a
 * prefix of another path is dropped (replaying the longer one asserts all its steps).
 */
export function generatePaths(model: MachineModel): ModelPath[] {
  const { walker, explored } = explore(model);
  const paths: ModelPath[] = [];
  const seenValues = new Set<string>();
  for (const node of explored.values()) {
    const valueKey = JSON.stringify(node.snapshot.value);
    if (seenValues.has(valueKey)) continue;
    seenValues.add(valueKey);
    if (node.parent) paths.push(pathTo(explored, node.key));
  }
  const walked = new Set(paths.flatMap((path) => path.edges));
  // Explored is in breadth-first order, so the first source found is a nearest one.
  for (const edge of walker.edges) {
    if (walked.has(edge.id)) continue;
    for (const node of explored.values()) {
      const move = node.outgoing.find((candidate) => candidate.edges.includes(edge.id));
      if (!move) continue;
      const head = pathTo(explored, node.key);
      const target = explored.get(move.targetKey)!;
      const steps = [...head.steps, { event: move.event, state: toPathState(target.snapshot), edges: move.edges }];
      const path: ModelPath = { ...startOf(node.root), steps, edges: [...new Set(steps.flatMap((step) => step.edges))] };
      paths.push(path);
      for (const id of path.edges) walked.add(id);
      break;
    }
  }
  const keys = paths.map(stepsKey);
  const isPrefixOf = (short: string[], long: string[]) => short.length < long.length && short.every((key, index) => long[index] === key);
  const unique = new Set<string>();
  return paths.filter((_path, index) => {
    const key = keys[index]!;
    const joined = key.join('\n');
    if (unique.has(joined)) return false;
    unique.add(joined);
    return !keys.some((other) => isPrefixOf(key, other));
  });
}

/**
 * Edges of `toDirectedGraph(machine)` walked by the paths, matched by identity of the transitions
 * `machine.getTransitionData(snapshot, event)` selects while the paths are re-walked.
 */
export function transitionCoverage(model: MachineModel, paths: ModelPath[]): Coverage {
  const walker = createWalker(model);
  const walked = new Set<string>();
  for (const path of paths) {
    let snapshot = walker.initial(path.input);
    for (const step of path.steps) {
      const next = walker.step(snapshot, step.event);
      for (const id of walker.edgesOf(next.transitions)) walked.add(id);
      snapshot = next.snapshot;
    }
  }
  return {
    walked: walker.edges.filter((edge) => walked.has(edge.id)).length,
    total: walker.edges.length,
    missing: walker.edges.filter((edge) => !walked.has(edge.id)).map((edge) => edge.label),
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
  } finally {
    actor.stop();
  }
}
