/**
 * The live view's bus: the WebSocket client (studio/src/live/*) calls highlightLive and logLiveEvent;
 * the diagrams and the Live panel subscribe. No network here, only the page's own state.
 */

/** How many log lines the panel keeps (older ones drop off). */
const LOG_LIMIT = 500;

interface LiveState {
  /** The current state ids of each running machine, by machine id. */
  states: ReadonlyMap<string, readonly string[]>;
  /** Newest last. */
  log: readonly string[];
}

let state: LiveState = { states: new Map(), log: [] };
const listeners = new Set<() => void>();

const publish = (next: LiveState) => {
  state = next;
  for (const listener of listeners) listener();
};

/** Marks `stateIds` (state node ids, e.g. `checkout.ready.email.valid`) as the machine's current states. */
export function highlightLive(machine: string, stateIds: string[]): void {
  const states = new Map(state.states);
  states.set(machine, [...stateIds]);
  publish({ ...state, states });
}

/** Adds one line to the Live panel's event log. */
export function logLiveEvent(line: string): void {
  publish({ ...state, log: [...state.log, line].slice(-LOG_LIMIT) });
}

/** For useSyncExternalStore: subscribe, and the current (immutable) state. */
export function subscribeLive(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function liveState(): LiveState {
  return state;
}
