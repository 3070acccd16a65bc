import { countInWords, GOOD_INP_MS } from '../../src/domain/flow-traffic';
import { Choice } from './Choice';
import type { MachineData } from './data';
import { entriesInWords, inpInWords, INP_MARKS, NO_SERVER_MESSAGE, overlayFor, RANGE_OPTIONS, useFlowStats, type StatsResult, type TrafficDays, type TrafficOverlay } from './traffic';

/** 'off', or the last 7 or 30 days. */
export type TrafficChoice = 'off' | TrafficDays;

export interface MachineTraffic {
  result: StatsResult | null;
  overlay: TrafficOverlay | null;
}

/** The machine's traffic over the chosen days; nothing is asked while the layer is off. */
export function useMachineTraffic(machine: string, choice: TrafficChoice): MachineTraffic {
  const result = useFlowStats(choice === 'off' ? null : { days: choice });
  return { result, overlay: result?.status === 'ready' ? overlayFor(result.stats, machine) : null };
}

function TrafficStatus({ result, overlay }: MachineTraffic) {
  if (!result) return null;
  if (result.status === 'loading') return <span className="traffic-status" role="status">Loading traffic…</span>;
  if (result.status === 'no-server') return <span className="traffic-status problem" role="alert">{NO_SERVER_MESSAGE}</span>;
  if (result.status === 'error') return <span className="traffic-status problem" role="alert">No traffic: {result.message}</span>;
  const { from, to, minCount } = result.stats;
  if (!overlay) return <span className="traffic-status" role="status">No traffic yet for this machine between {from} and {to}.</span>;
  return (
    <span className="traffic-status" role="status">
      Shoppers' traffic from {from} to {to} (UTC days); counts under {minCount} read "fewer than {minCount}". Coverage colours step aside while it is shown.
    </span>
  );
}

/** The traffic layer's choice, its state in words, and its legend (marks and words, not colour alone). */
export function TrafficBar({ choice, setChoice, traffic }: { choice: TrafficChoice; setChoice: (choice: TrafficChoice) => void; traffic: MachineTraffic }) {
  return (
    <div className="layer-bar traffic-bar">
      <Choice
        label="Traffic"
        value={String(choice)}
        options={[{ value: 'off', words: 'not shown' }, ...RANGE_OPTIONS]}
        onChange={(value) => setChoice(value === 'off' ? 'off' : (Number(value) as TrafficDays))}
      />
      <TrafficStatus {...traffic} />
      {traffic.overlay && (
        <span className="legend traffic-legend">
          <span>line weight and label: times taken</span> <span className="legend-inp-good">{INP_MARKS.good} INP p75 good (≤ {GOOD_INP_MS} ms)</span>{' '}
          <span className="legend-inp-slow">{INP_MARKS.slow} slow (over {GOOD_INP_MS} ms)</span> <span>{INP_MARKS.unknown} too few measures</span>
        </span>
      )}
    </div>
  );
}

/** One state's traffic in the side panel. */
export function TrafficStatePanel({ data, stateId, overlay }: { data: MachineData; stateId: string; overlay: TrafficOverlay }) {
  const stats = overlay.states.get(stateId);
  const state = data.states.find((candidate) => candidate.id === stateId);
  return (
    <section className="panel" aria-labelledby="traffic-state-title">
      <h2 id="traffic-state-title">Traffic at {state?.key ?? stateId}</h2>
      {stats ? (
        <ul className="plain-list">
          <li>{entriesInWords(stats)}</li>
          <li>exits: {countInWords(stats.exits)}</li>
          <li>{inpInWords(stats) ?? 'No interaction measured here.'}</li>
          {stats.lcpP75 !== null && <li>LCP p75 {Math.round(stats.lcpP75)} ms (page where this state was entered first)</li>}
        </ul>
      ) : (
        <p>No shopper entered this state in these days.</p>
      )}
    </section>
  );
}

/** The traffic as tables: the diagram's marks in words, for reading aloud or copying out. */
export function TrafficTables({ data, overlay }: { data: MachineData; overlay: TrafficOverlay }) {
  const taken = data.transitions.filter((transition) => overlay.transitions.has(transition.id));
  const entered = data.states.filter((state) => overlay.states.has(state.id));
  return (
    <details className="text-table">
      <summary>Traffic in words ({taken.length} transitions taken, {entered.length} states entered)</summary>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">transition</th>
              <th scope="col">times taken</th>
            </tr>
          </thead>
          <tbody>
            {taken.map((transition) => (
              <tr key={transition.id}>
                <td>
                  <code>{transition.id}</code>
                  {transition.product ? ` — ${transition.product}` : ''}
                </td>
                <td>{countInWords(overlay.transitions.get(transition.id)!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table>
          <thead>
            <tr>
              <th scope="col">state</th>
              <th scope="col">entries and endings</th>
              <th scope="col">INP p75</th>
            </tr>
          </thead>
          <tbody>
            {entered.map((state) => {
              const stats = overlay.states.get(state.id)!;
              return (
                <tr key={state.id}>
                  <td>{state.id}</td>
                  <td>{entriesInWords(stats)}</td>
                  <td>{inpInWords(stats) ?? 'none measured'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}
