/**
 * The inspection hook of a build made with INSPECT=on or INSPECT=record (main.tsx loads this chunk
 * only then; a production build has none of it — the bundle benchmark searches for INSPECTION_MARKER).
 * Every step of every machine actor is translated into the engine's labels and kept in
 * `window.__statechartSteps`, handed to the browser journeys' recorder (`__tvcStatechartSteps`, a
 * Playwright binding) and, with INSPECT=on, summarised to the flow studio over a WebSocket.
 */
import { Actor, StateMachine, type AnyStateMachine, type InspectionEvent } from 'xstate';
import type { Inspector } from '../services';
import { INSPECTION_MARKER, type LiveMessage } from './live-protocol';
import { createStepTranslator, type TranslatedStep } from './steps';

declare global {
  interface Window {
    __statechartSteps?: TranslatedStep[];
    __statechartErrors?: string[];
    /** Defined by the browser journeys (tests/e2e/support/statechart-coverage.ts). */
    __tvcStatechartSteps?: (steps: TranslatedStep[]) => Promise<void>;
    __tvcStatechartError?: (message: string) => Promise<void>;
  }
}

export type InspectMode = 'on' | 'record';

/** Sends live messages to the studio, reconnecting while the page lives; messages wait (a few hundred at most) while it is away. */
function liveChannel(url: string): (message: LiveMessage) => void {
  const waiting: string[] = [];
  let socket: WebSocket | null = null;
  const connect = () => {
    socket = new WebSocket(`${url}?role=app`);
    socket.addEventListener('open', () => {
      for (const data of waiting.splice(0)) socket?.send(data);
    });
    socket.addEventListener('close', () => {
      socket = null;
      setTimeout(connect, 2_000);
    });
  };
  connect();
  return (message) => {
    const data = JSON.stringify(message);
    if (socket?.readyState === WebSocket.OPEN) socket.send(data);
    else if (waiting.push(data) > 500) waiting.shift();
  };
}

const machineOf = (event: InspectionEvent): AnyStateMachine | null =>
  event.actorRef instanceof Actor && event.actorRef.logic instanceof StateMachine ? (event.actorRef.logic as AnyStateMachine) : null;

/** The inspector every actor of the app is created with. */
export function startInspection(mode: InspectMode, liveUrl: string): Inspector {
  console.info(`[${INSPECTION_MARKER}] statechart inspection ${mode === 'on' ? `on, live to ${liveUrl}` : 'recording'}`);
  const steps: TranslatedStep[] = (window.__statechartSteps = []);
  const errors: string[] = (window.__statechartErrors = []);
  const send = mode === 'on' ? liveChannel(liveUrl) : null;
  const translate = createStepTranslator(
    (step) => {
      steps.push(step);
      void window.__tvcStatechartSteps?.([step]);
      send?.({ kind: 'snapshot', machine: step.machine, actor: step.actor, event: step.eventType, value: step.value, stateIds: step.stateIds, transitions: step.transitions });
    },
    (message) => {
      errors.push(message);
      void window.__tvcStatechartError?.(message);
    },
  );
  return (event) => {
    translate(event);
    if (send && event.type === '@xstate.event') {
      const machine = machineOf(event);
      if (!machine) return;
      const from = event.sourceRef instanceof Actor && event.sourceRef.logic instanceof StateMachine ? (event.sourceRef.logic as AnyStateMachine).id : null;
      send({ kind: 'event', machine: machine.id, actor: event.actorRef.sessionId, event: event.event.type, from });
    }
  };
}
