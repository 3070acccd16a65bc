/**
 * Translates the inspection events of running actors into the statechart engine's own labels: each
 * machine actor's snapshot is re-derived with the engine's step function (`takeInitialStep` on its
 * input, then `takeStep` from its previous snapshot with the event), which names the transitions
 * and guard outcomes of the step exactly as `npm run paths` and the coverage files do.
 */
import { Actor, getStateNodes, StateMachine, type AnyMachineSnapshot, type AnyStateMachine, type InspectionEvent, type StateValue } from 'xstate';
import { takeInitialStep, takeStep, transitionPairs, type StepResult } from '../../statecharts/transitions';

/** One step a machine actor took (or its start), in the engine's labels. No context: it may hold personal data. */
export interface TranslatedStep {
  /** The machine's id, e.g. `checkout`. */
  machine: string;
  /** The actor's session id (several actors may run one machine). */
  actor: string;
  eventType: string;
  value: StateValue;
  /** Ids of the active state nodes (ancestors included, the machine's root left out). */
  stateIds: string[];
  transitions: string[];
  guardOutcomes: string[];
  /** Pairs of transitions taken one after the other by this actor, this step's included. */
  pairs: string[];
}

/** Active state node ids of a snapshot, in document order. */
export function activeStateIds(snapshot: AnyMachineSnapshot): string[] {
  return [...new Set(getStateNodes(snapshot.machine.root, snapshot.value))]
    .filter((node) => node !== snapshot.machine.root)
    .sort((a, b) => a.order - b.order)
    .map((node) => node.id);
}

/**
 * An inspector that calls `onStep` for every start and every step of a machine actor that takes a
 * transition or weighs a guard; `onError` when the engine cannot reproduce a step (it then follows the actor from its snapshot).
 */
export function createStepTranslator(onStep: (step: TranslatedStep) => void, onError: (message: string) => void = () => {}): (event: InspectionEvent) => void {
  const previous = new WeakMap<Actor<AnyStateMachine>, { snapshot: AnyMachineSnapshot; lastTransition: string | undefined }>();
  return (event) => {
    const actorRef = event.actorRef;
    if (event.type !== '@xstate.snapshot' || !(actorRef instanceof Actor) || !(actorRef.logic instanceof StateMachine)) return;
    const actor = actorRef as Actor<AnyStateMachine>;
    const machine = actor.logic;
    const snapshot = event.snapshot as AnyMachineSnapshot;
    const before = previous.get(actor);
    let result: StepResult;
    try {
      result = before ? takeStep(before.snapshot, event.event) : takeInitialStep(machine, actor.options.input);
    } catch (error) {
      onError(`${machine.id} on ${event.event.type}: ${error instanceof Error ? error.message : String(error)}`);
      previous.set(actor, { snapshot, lastTransition: undefined });
      return;
    }
    const sequence = [...(before?.lastTransition === undefined ? [] : [before.lastTransition]), ...result.transitions];
    previous.set(actor, { snapshot, lastTransition: result.transitions.at(-1) ?? before?.lastTransition });
    // Events no transition takes and no guard weighs are no step of the statechart (as in the engine).
    if (before && !result.transitions.length && !result.guards.length) return;
    onStep({
      machine: machine.id,
      actor: actor.sessionId,
      eventType: event.event.type,
      value: snapshot.value,
      stateIds: activeStateIds(snapshot),
      transitions: result.transitions,
      guardOutcomes: result.guards,
      pairs: transitionPairs(sequence),
    });
  };
}
