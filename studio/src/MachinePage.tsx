import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Diagram } from './Diagram';
import { LAYERS, type LayerCoverage, type LayerName, type MachineData, type MachineTable, type Scenario, type StudioTransition } from './data';
import { liveState, subscribeLive } from './live-bus';
import { LivePanel } from './LivePanel';
import { TrafficBar, TrafficStatePanel, TrafficTables, useMachineTraffic, type TrafficChoice } from './TrafficLayer';

export const LAYER_TITLES: Record<LayerName, string> = {
  'machine-tests': 'machine tests',
  'view-walks': 'view walks',
  'browser-journeys': 'browser journeys',
};

const ratio = (walked: number, total: number) => `${walked}/${total}${total ? ` (${Math.floor((walked / total) * 100)} %)` : ''}`;

/** A layer's walked transitions, guard outcomes and pairs, counted against the machine. */
export function layerFigures(data: MachineData, layer: LayerCoverage) {
  const walked = new Set(layer.transitions);
  const outcomes = new Set(layer.guardOutcomes);
  return {
    transitions: { walked: data.transitions.filter((transition) => walked.has(transition.id)).length, total: data.transitions.length },
    guardOutcomes: { walked: data.guardOutcomes.filter((outcome) => outcomes.has(outcome)).length, total: data.guardOutcomes.length },
    pairs: { walked: new Set(layer.pairs).size, total: data.figures.transitionPairs.total },
  };
}

/** Transitions and guard outcomes no recorded layer walks, with the model's reason when it lists them unreachable. */
export function walkedByNoLayer(data: MachineData): { label: string; reason?: string }[] {
  const transitions = new Set(data.layers.flatMap((layer) => layer.transitions));
  const outcomes = new Set(data.layers.flatMap((layer) => layer.guardOutcomes));
  const reasons = new Map(data.figures.unreachable.map(({ transition, reason }) => [transition, reason]));
  return [...data.transitions.map((transition) => transition.id).filter((id) => !transitions.has(id)), ...data.guardOutcomes.filter((outcome) => !outcomes.has(outcome))].map((label) => ({
    label,
    ...(reasons.has(label) ? { reason: reasons.get(label)! } : {}),
  }));
}

/** Markdown cells of the diagram tables: `names` become code. */
function Cell({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]*`)/).map((part, index) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={index}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}

function Table({ title, table }: { title: string; table: MachineTable }) {
  return (
    <details className="text-table">
      <summary>
        {title} ({table.rows.length})
      </summary>
      {table.rows.length ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                {table.header.map((cell) => (
                  <th key={cell} scope="col">{cell}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, column) => (
                    <td key={column}>
                      <Cell text={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>None.</p>
      )}
    </details>
  );
}

function TransitionItem({ transition, data, layer, direction }: { transition: StudioTransition; data: MachineData; layer: LayerCoverage | null; direction: 'out' | 'in' }) {
  const name = (id: string) => data.states.find((state) => state.id === id)?.key ?? id;
  const walked = layer?.transitions.includes(transition.id);
  const outcome = (value: boolean) => layer?.guardOutcomes.includes(`${transition.id}: ${value}`);
  return (
    <li className={`transition-item ${layer ? (walked ? 'covered' : 'not-covered') : ''}`}>
      <strong>{transition.event}</strong>
      {transition.guard && <span className="guard"> [{transition.guard}]</span>}
      {transition.actions.length > 0 && <span className="actions"> / {transition.actions.join(', ')}</span>}
      {direction === 'out' ? <> → {transition.targets.length ? transition.targets.map(name).join(', ') : '(stays)'}</> : <> from {name(transition.source)}</>}
      {transition.delay && <span className="delay"> (after {transition.delay})</span>}
      {layer && (
        <span className="walked">
          {' '}
          — {walked ? 'walked' : 'not walked'} by {LAYER_TITLES[layer.layer]}
          {transition.guard && `; guard true ${outcome(true) ? '✓' : '✗'}, false ${outcome(false) ? '✓' : '✗'}`}
        </span>
      )}
      {transition.description && <div className="meaning">{transition.description}</div>}
    </li>
  );
}

function StatePanel({ data, stateId, layer }: { data: MachineData; stateId: string; layer: LayerCoverage | null }) {
  const state = data.states.find((candidate) => candidate.id === stateId);
  if (!state) return null;
  const outgoing = data.transitions.filter((transition) => transition.source === state.id);
  const incoming = data.transitions.filter((transition) => transition.targets.includes(state.id) && transition.source !== state.id);
  return (
    <section className="panel" aria-labelledby="state-panel-title">
      <h2 id="state-panel-title">
        State <code>{state.id}</code>
      </h2>
      <p>
        {state.type} state. {state.description}
      </p>
      {state.invoke.length > 0 && <p>Invokes: {state.invoke.join(', ')}</p>}
      {(state.entry.length > 0 || state.exit.length > 0) && (
        <p>
          {state.entry.length > 0 && <>On entry: {state.entry.join(', ')}. </>}
          {state.exit.length > 0 && <>On exit: {state.exit.join(', ')}.</>}
        </p>
      )}
      <h3>Transitions out ({outgoing.length})</h3>
      {outgoing.length ? (
        <ul className="transition-list">
          {outgoing.map((transition) => (
            <TransitionItem key={transition.id} transition={transition} data={data} layer={layer} direction="out" />
          ))}
        </ul>
      ) : (
        <p>None: the machine waits here{state.type === 'final' ? ' for good (final state)' : ' for a parent state\'s transition'}.</p>
      )}
      <h3>Transitions in ({incoming.length})</h3>
      <ul className="transition-list">
        {incoming.map((transition) => (
          <TransitionItem key={transition.id} transition={transition} data={data} layer={layer} direction="in" />
        ))}
      </ul>
    </section>
  );
}

function Stepper({ data, scenario, step, setStep }: { data: MachineData; scenario: Scenario; step: number; setStep: (step: number) => void }) {
  const current = scenario.steps[step]!;
  const last = scenario.steps.length - 1;
  const stateKey = (id: string) => data.states.find((state) => state.id === id)?.key ?? id;
  // The innermost active states: no active state has them as parent.
  const parents = new Set(current.active.map((id) => data.states.find((state) => state.id === id)?.parent));
  const leaves = current.active.filter((id) => !parents.has(id));
  return (
    <section className="panel stepper" aria-labelledby="stepper-title">
      <h2 id="stepper-title">
        Scenario {scenario.number}: {scenario.words}
      </h2>
      <div className="stepper-controls">
        <button type="button" onClick={() => setStep(Math.max(0, step - 1))} disabled={step === 0} aria-keyshortcuts="p">
          Previous
        </button>
        <span className="step-count" aria-live="polite">
          Step {step} of {last}: <strong>{current.words}</strong>
        </span>
        <button type="button" onClick={() => setStep(Math.min(last, step + 1))} disabled={step === last} aria-keyshortcuts="n">
          Next
        </button>
      </div>
      <p className="hint">Keys: n next, p previous.</p>
      <p>
        In: <strong>{leaves.map(stateKey).join(', ')}</strong>
      </p>
      {current.transitions.length > 0 && (
        <>
          <h3>Transitions taken</h3>
          <ul className="plain-list">
            {current.transitions.map((label) => (
              <li key={label}>
                <code>{label}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {current.guards.length > 0 && (
        <>
          <h3>Guards weighed</h3>
          <ul className="plain-list">
            {current.guards.map((label) => (
              <li key={label}>
                <code>{label}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Context</h3>
      <table className="context-table">
        <tbody>
          {current.context.map((field) => (
            <tr key={field.key} className={field.changed ? 'changed' : ''}>
              <th scope="row">{field.key}</th>
              <td>
                {field.value}
                {field.changed && <span className="changed-mark"> (changed)</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Screen at this step</h3>
      {scenario.snapshots.includes(step) ? (
        <iframe className="snapshot" title={`What the screen showed at step ${step}`} sandbox="" src={`data/snapshots/${data.machine}/${scenario.number}/${step}.html`} />
      ) : (
        <p className="hint">No screen saved for this step (the view walks save none for it).</p>
      )}
    </section>
  );
}

/** One machine: the diagram painted with a layer's coverage, a state's transitions, a scenario stepped through, and the text tables. */
export function MachinePage({ data, scenarioNumber, layerName, setLayerName }: { data: MachineData; scenarioNumber: number | null; layerName: LayerName; setLayerName: (layer: LayerName) => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [trafficChoice, setTrafficChoice] = useState<TrafficChoice>('off');
  const traffic = useMachineTraffic(data.machine, trafficChoice);
  const scenario = scenarioNumber === null ? null : (data.scenarios.find((candidate) => candidate.number === scenarioNumber) ?? null);
  useEffect(() => {
    setStep(0);
  }, [data.machine, scenarioNumber]);
  useEffect(() => setSelected(null), [data.machine]);

  useEffect(() => {
    if (!scenario) return;
    const last = scenario.steps.length - 1;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
      if (event.key === 'n') setStep((current) => Math.min(last, current + 1));
      else if (event.key === 'p') setStep((current) => Math.max(0, current - 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [scenario]);

  const layer = data.layers.find((candidate) => candidate.layer === layerName) ?? null;
  const walked = useMemo(() => (layer ? new Set(layer.transitions) : null), [layer]);
  const current = scenario?.steps[Math.min(step, scenario.steps.length - 1)];
  const active = useMemo(() => new Set(current?.active ?? []), [current]);
  const taken = useMemo(() => new Set(current?.transitions ?? []), [current]);
  const live = useSyncExternalStore(subscribeLive, liveState);
  const liveIds = useMemo(() => new Set(live.states.get(data.machine) ?? []), [live, data.machine]);
  const notWalked = walkedByNoLayer(data);

  return (
    <main className="machine-page">
      <h1>
        {data.machine} <span className="subtitle">machine</span>
      </h1>
      <p className="description">{data.description}</p>
      <div className="layer-bar">
        <label>
          Coverage layer{' '}
          <select value={layerName} onChange={(event) => setLayerName(event.target.value as LayerName)} aria-describedby="layer-source">
            {LAYERS.map((name) => {
              const recorded = data.layers.find((candidate) => candidate.layer === name);
              return (
                <option key={name} value={name} disabled={!recorded}>
                  {LAYER_TITLES[name]}
                  {recorded ? '' : ' (not recorded yet: run npm test)'}
                </option>
              );
            })}
          </select>
        </label>
        {layer ? (
          <span className="layer-figures">
            transitions {ratio(layerFigures(data, layer).transitions.walked, data.transitions.length)} · guard outcomes {ratio(layerFigures(data, layer).guardOutcomes.walked, data.guardOutcomes.length)} · pairs{' '}
            {ratio(layerFigures(data, layer).pairs.walked, data.figures.transitionPairs.total)}
          </span>
        ) : (
          <span className="layer-figures">This layer has not been recorded: run npm test, then npm run studio:build.</span>
        )}
        <span className="legend" aria-hidden="true">
          <span className="legend-covered">walked</span> <span className="legend-not-covered">not walked</span> <span className="legend-active">current step</span> <span className="legend-live">live</span>
        </span>
      </div>
      {layer && (
        <p className="hint" id="layer-source">
          Source: {layer.source}
        </p>
      )}
      <TrafficBar choice={trafficChoice} setChoice={setTrafficChoice} traffic={traffic} />
      <div className="machine-grid">
        <Diagram data={data} walked={traffic.overlay ? null : walked} active={active} taken={taken} live={liveIds} selected={selected} onSelect={setSelected} traffic={traffic.overlay} />
        <aside className="side">
          {scenario && <Stepper data={data} scenario={scenario} step={Math.min(step, scenario.steps.length - 1)} setStep={setStep} />}
          {traffic.overlay && selected && <TrafficStatePanel data={data} stateId={selected} overlay={traffic.overlay} />}
          {selected ? (
            <StatePanel data={data} stateId={selected} layer={layer} />
          ) : (
            <section className="panel">
              <h2>State details</h2>
              <p className="hint">Click a state, or Tab into the diagram and press Enter on one, to see its transitions.</p>
            </section>
          )}
          <LivePanel machine={data.machine} />
        </aside>
      </div>
      <section aria-labelledby="coverage-title">
        <h2 id="coverage-title">Coverage by layer</h2>
        <table className="figures">
          <thead>
            <tr>
              <th scope="col">layer</th>
              <th scope="col">transitions</th>
              <th scope="col">guard outcomes</th>
              <th scope="col">pairs walked / reachable</th>
              <th scope="col">source</th>
            </tr>
          </thead>
          <tbody>
            {LAYERS.map((name) => {
              const recorded = data.layers.find((candidate) => candidate.layer === name);
              if (!recorded) {
                return (
                  <tr key={name}>
                    <th scope="row">{LAYER_TITLES[name]}</th>
                    <td colSpan={4}>not recorded yet (npm test writes coverage/statecharts/{name}/)</td>
                  </tr>
                );
              }
              const figures = layerFigures(data, recorded);
              return (
                <tr key={name} data-layer={name}>
                  <th scope="row">{LAYER_TITLES[name]}</th>
                  <td>{ratio(figures.transitions.walked, figures.transitions.total)}</td>
                  <td>{ratio(figures.guardOutcomes.walked, figures.guardOutcomes.total)}</td>
                  <td>{ratio(figures.pairs.walked, figures.pairs.total)}</td>
                  <td>{recorded.source}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <h3>What no layer walks ({notWalked.length})</h3>
        {notWalked.length ? (
          <ul className="not-walked">
            {notWalked.map(({ label, reason }) => (
              <li key={label}>
                <code>{label}</code>
                {reason && <> — unreachable with the model: {reason}</>}
              </li>
            ))}
          </ul>
        ) : (
          <p>Every transition and guard outcome is walked by at least one layer.</p>
        )}
      </section>
      <section aria-labelledby="scenarios-title">
        <h2 id="scenarios-title">Scenarios ({data.scenarios.length})</h2>
        <ol className="scenario-list">
          {data.scenarios.map((candidate) => (
            <li key={candidate.number} value={candidate.number}>
              <a href={`#/machine/${data.machine}/scenario/${candidate.number}`} aria-current={candidate.number === scenarioNumber ? 'true' : undefined}>
                {candidate.words}
              </a>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="tables-title">
        <h2 id="tables-title">The machine in words</h2>
        <p className="hint">The same tables as docs/statecharts/{data.machine}.md: the text alternative to the diagram.</p>
        <Table title="States" table={data.tables.states} />
        <Table title="Transitions" table={data.tables.transitions} />
        <Table title="Events" table={data.tables.events} />
        <Table title="Guards" table={data.tables.guards} />
        <Table title="Actors" table={data.tables.actors} />
        <Table title="Actions" table={data.tables.actions} />
        <Table title="Delays" table={data.tables.delays} />
        {traffic.overlay && <TrafficTables data={data} overlay={traffic.overlay} />}
      </section>
    </main>
  );
}
