/**
 * What the app sends the flow studio's live view (ws://localhost:3001/live): summaries of its actors'
 * inspection events — machine, actor, event type, state — never context, input or event payloads
 * (they hold e-mail addresses and passwords).
 */
import type { StateValue } from 'xstate';

/** Written by the inspection hook (its console line), searched for in production bundles, which must not contain it. */
export const INSPECTION_MARKER = 'tvc-statechart-inspection';

/** A machine actor's state after a step (or its start). */
export interface LiveSnapshot {
  kind: 'snapshot';
  machine: string;
  actor: string;
  event: string;
  value: StateValue;
  stateIds: string[];
  /** Transition labels as the engine names them (`npm run paths`). */
  transitions: string[];
}

/** An event received by a machine actor. */
export interface LiveEvent {
  kind: 'event';
  machine: string;
  actor: string;
  event: string;
  /** The machine of the actor that sent it; null when the app (a view) sent it. */
  from: string | null;
}

export type LiveMessage = LiveSnapshot | LiveEvent;

/** `?role=app` for the checkout, `?role=studio` for a studio page: the server relays from apps to studios. */
export type LiveRole = 'app' | 'studio';

/** One line of the studio's event log. */
export function liveLogLine(message: LiveMessage): string {
  if (message.kind === 'event') return `${message.machine} ← ${message.event}${message.from ? ` (from ${message.from})` : ''}`;
  return `${message.machine}: ${message.event} → ${typeof message.value === 'string' ? message.value : JSON.stringify(message.value)}`;
}

/** Reads a message from the wire; null for anything else. */
export function parseLiveMessage(data: string): LiveMessage | null {
  try {
    const message = JSON.parse(data) as Partial<LiveMessage>;
    if ((message.kind === 'snapshot' && Array.isArray(message.stateIds)) || message.kind === 'event') {
      return typeof message.machine === 'string' && typeof message.actor === 'string' && typeof message.event === 'string' ? (message as LiveMessage) : null;
    }
    return null;
  } catch {
    return null;
  }
}
