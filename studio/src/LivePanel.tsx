import { useSyncExternalStore, type ReactNode } from 'react';
import { liveState, subscribeLive } from './live-bus';

/** The running app's current states (of one machine, or all) and the event log, fed by the live view's WebSocket client. */
export function LivePanel({ machine }: { machine?: string }) {
  const live = useSyncExternalStore(subscribeLive, liveState);
  const machines = [...live.states.entries()].filter(([name]) => machine === undefined || name === machine);
  const empty = !live.log.length && !machines.length;
  return (
    <section className="panel live-panel" aria-labelledby="live-title">
      <h2 id="live-title">Live</h2>
      {empty ? (
        <p className="hint live-empty">Start the app with INSPECT=on to see it live</p>
      ) : (
        <>
          {machines.map(([name, ids]) => (
            <p key={name}>
              <strong>{name}</strong> is in {ids.length ? ids.map((id) => <code key={id}>{id}</code>).reduce<ReactNode[]>((all, item) => (all.length ? [...all, ', ', item] : [item]), []) : 'no state yet'}
            </p>
          ))}
          <ol className="live-log" aria-live="polite" aria-label="Events as they come, newest first">
            {[...live.log].reverse().slice(0, 200).map((line, index) => (
              <li key={live.log.length - index}>{line}</li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
