/**
 * Gathers the flow traffic of every machine actor the app starts, from xstate's inspection events: each
 * actor's start and each microstep, as the definitions name them (machine, state node ids, event types,
 * guard names). It never reads context nor an event's payload. Loaded with the first screen, so kept small;
 * the sender (./sender.ts, a chunk of its own) takes what it gathered after hydration.
 */
import { getStateNodes, type AnyActorRef, type AnyMachineSnapshot, type AnyStateNode, type InspectionEvent } from 'xstate';
import type { FlowStep } from '../../domain/flow-traffic';

/** The most state ids a step or an ending lists (the contract's FlowStateIds). */
const MAX_IDS = 40;
/** The most states an actor remembers having been in, for the interactions measured after the fact. */
const MAX_HISTORY = 50;

/** A machine actor of this page. */
export interface FlowActor {
  machine: string;
  ref: AnyActorRef;
  /** Active state nodes now. */
  nodes: AnyStateNode[];
  /** [performance.now(), active leaf ids] from the start on: which states were active at a given moment. */
  history: [number, string[]][];
  /** Leaf ids once started (after the start's eventless transitions): the states the page showed first. */
  settled: string[];
  /** Its steps until it starts, null after: React may create an actor in a render it then discards, never to start it. */
  unstarted: FlowStep[] | null;
}

export interface FlowCollector {
  inspect: (event: InspectionEvent) => void;
  /** Steps not yet sent; the sender takes them out. */
  steps: FlowStep[];
  /** Every machine actor started on this page, in order; `live` holds those still running. */
  started: FlowActor[];
  live: Set<FlowActor>;
  /** Called after each step gathered (the sender sends early when a batch fills up). */
  onStep: () => void;
}

/** The leaves among active state nodes: their ids are the states a shopper is in. */
export const leafIds = (nodes: readonly AnyStateNode[]): string[] => nodes.filter((node) => !Object.keys(node.states).length).map((node) => node.id).slice(0, MAX_IDS);

/** The state nodes a machine starts in, before any eventless transition (its root included). */
function initialNodes(node: AnyStateNode): AnyStateNode[] {
  const children = Object.values(node.states) as AnyStateNode[];
  if (node.type === 'parallel') return [node, ...children.flatMap(initialNodes)];
  const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
  return initial ? [node, ...initialNodes(initial)] : [node];
}

const idsOf = (nodes: readonly AnyStateNode[]) => nodes.map((node) => node.id).slice(0, MAX_IDS);
const guardOf = (guard: unknown): string | undefined => (typeof guard === 'string' ? guard : typeof guard === 'object' && guard ? String((guard as { type: unknown }).type) : undefined);

export function createFlowCollector(): FlowCollector {
  const actors = new WeakMap<AnyActorRef, FlowActor>();
  const collector: FlowCollector = { inspect, steps: [], started: [], live: new Set(), onStep: () => {} };

  function record(actor: FlowActor, nodes: AnyStateNode[], step: Omit<FlowStep, 'machine' | 'entered' | 'exited'>) {
    const before = new Set(actor.nodes);
    const after = new Set(nodes);
    actor.nodes = nodes;
    actor.history.push([performance.now(), leafIds(nodes)]);
    if (actor.history.length > MAX_HISTORY) actor.history.shift();
    const gathered: FlowStep = { machine: actor.machine, ...step, entered: idsOf(nodes.filter((node) => !before.has(node))), exited: idsOf([...before].filter((node) => !after.has(node))) };
    if (actor.unstarted) return void actor.unstarted.push(gathered);
    collector.steps.push(gathered);
    collector.onStep();
  }

  /** An actor's start: from here on it counts, with the steps it took on creation (its initial eventless transitions). */
  function started(actor: FlowActor) {
    collector.steps.push(...(actor.unstarted ?? []));
    actor.unstarted = null;
    collector.started.push(actor);
    collector.live.add(actor);
    collector.onStep();
  }

  function inspect(event: InspectionEvent) {
    const ref = event.actorRef as AnyActorRef;
    const logic = (ref as { logic?: { root?: AnyStateNode; id?: string } }).logic;
    if (!logic?.root) return;
    if (event.type === '@xstate.actor') {
      const actor: FlowActor = { machine: logic.root.id, ref, nodes: [], history: [], settled: [], unstarted: [] };
      actors.set(ref, actor);
      record(actor, initialNodes(logic.root), { transitions: [] });
      return;
    }
    const actor = actors.get(ref);
    if (!actor) return;
    // xstate reports an actor's creation, then its start as the xstate.init event (only the type is read).
    if (event.type === '@xstate.event' && event.event.type === 'xstate.init' && actor.unstarted) started(actor);
    if (event.type === '@xstate.microstep') {
      const transitions = event._transitions.slice(0, 10).map((transition) => {
        const guard = guardOf(transition.guard);
        return { source: transition.source.id, event: transition.eventType || 'always', targets: idsOf(transition.target ?? []), ...(guard ? { guard } : {}) };
      });
      if (transitions.length) record(actor, [...new Set(getStateNodes(logic.root, (event.snapshot as AnyMachineSnapshot).value))], { transitions });
    }
    // Only the event's type is read: the start (xstate.init) carries the actor's input.
    if (event.type === '@xstate.snapshot' && event.event.type === 'xstate.init') actor.settled = leafIds(actor.nodes);
    // Stopped, done or failed (xstate reports each as a snapshot or microstep): no longer where a visit can end.
    const status = (event as { snapshot?: { status?: string } }).snapshot?.status;
    if (status !== undefined && status !== 'active') collector.live.delete(actor);
  }

  return collector;
}

/** Whether the page reports at all: the server said so for this request, and the browser asks for no opt-out (GPC, Do Not Track). */
export function flowReportAllowed(serverSays: boolean | undefined, browser: { globalPrivacyControl?: boolean; doNotTrack?: string | null }): boolean {
  return serverSays === true && browser.globalPrivacyControl !== true && browser.doNotTrack !== '1';
}
