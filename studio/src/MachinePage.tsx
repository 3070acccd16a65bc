import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Diagram } from './Diagram';
import { LAYERS, type LayerCoverage, type LayerName, type MachineData, type MachineTable } from './data';
import { drawingOf, type ViewMode } from './drawing';
import { liveState, subscribeLive } from './live-bus';
import { LivePanel } from './LivePanel';
import { ModeSwitch, PrintableDiagram, ViewPicker, ViewWords } from './ProductView';
import { LAYER_TITLES, StatePanel, Stepper } from './StatePanels';
import { TrafficBar, TrafficStatePanel, TrafficTables, useMachineTraffic, type TrafficChoice } from './TrafficLayer';
import { trafficMarks } from './TrafficMarks';

export { LAYER_TITLES };

/** Where a machine's page is: its view (product or engineer) and, in the product view, the container drawn. */
export interface MachinePlace {
  mode: ViewMode;
  part: string | null;
}

/** The address of a machine's page; the view and the part drawn stay in it, so a link opens the same picture. */
export function machineHash(machine: string, scenario: number | null, place: MachinePlace): string {
  const query = new URLSearchParams(Object.entries({ view: place.mode === 'engineer' ? 'engineer' : '', part: place.mode === 'product' ? (place.part ?? '') : '' }).filter(([, value]) => value));
  return `#/machine/${machine}${scenario === null ? '' : `/scenario/${scenario}`}${query.size ? `?${query}` : ''}`;
}

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

/** One machine: the diagram painted with a layer's coverage, a state's transitions, a scenario stepped through, and the text tables. */
export function MachinePage({
  data,
  scenarioNumber,
  layerName,
  setLayerName,
  place,
}: {
  data: MachineData;
  scenarioNumber: number | null;
  layerName: LayerName;
  setLayerName: (layer: LayerName) => void;
  place: MachinePlace;
}) {
  const { mode } = place;
  const viewId = data.views.some((view) => view.id === place.part) ? place.part! : (data.views[0]?.id ?? '');
  const go = (change: Partial<MachinePlace>) => {
    window.location.hash = machineHash(data.machine, scenarioNumber, { ...place, ...change });
  };
  const [selected, setSelected] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [trafficChoice, setTrafficChoice] = useState<TrafficChoice>('off');
  const traffic = useMachineTraffic(data.machine, trafficChoice);
  const scenario = scenarioNumber === null ? null : (data.scenarios.find((candidate) => candidate.number === scenarioNumber) ?? null);
  useEffect(() => {
    setStep(0);
  }, [data.machine, scenarioNumber]);
  useEffect(() => setSelected(null), [data.machine, mode]);

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
  // The traffic's marks are summed over what each drawn box and edge stands for, so they follow the view.
  const drawing = useMemo(() => drawingOf(data, mode, viewId), [data, mode, viewId]);
  const marks = useMemo(() => (traffic.overlay ? trafficMarks(traffic.overlay, drawing) : undefined), [traffic.overlay, drawing]);

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
      <div className="view-bar">
        <ModeSwitch mode={mode} onChange={(next) => go({ mode: next })} />
        <PrintableDiagram data={data} mode={mode} viewId={viewId} highlights={{ walked, active, taken, live: liveIds, selected }} />
      </div>
      {mode === 'product' && data.views.length > 1 && <ViewPicker data={data} current={viewId} onOpen={(part) => go({ part })} />}
      <div className={`machine-grid machine-grid-${mode}`}>
        <Diagram data={data} mode={mode} viewId={viewId} walked={marks ? null : walked} active={active} taken={taken} live={liveIds} selected={selected} onSelect={setSelected} onOpenView={(part) => go({ part })} overlay={marks} />
        <aside className="side">
          {scenario && <Stepper data={data} scenario={scenario} step={Math.min(step, scenario.steps.length - 1)} setStep={setStep} mode={mode} />}
          {traffic.overlay && selected && <TrafficStatePanel data={data} stateId={selected} overlay={traffic.overlay} />}
          {selected ? (
            <StatePanel data={data} stateId={selected} layer={layer} mode={mode} />
          ) : (
            <section className="panel">
              <h2>State details</h2>
              <p className="hint">Click a state, or Tab into the diagram and press Enter on one, to see its transitions.</p>
            </section>
          )}
          <LivePanel machine={data.machine} />
        </aside>
      </div>
      {mode === 'product' && <ViewWords data={data} viewId={viewId} />}
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
              <a href={machineHash(data.machine, candidate.number, place)} aria-current={candidate.number === scenarioNumber ? 'true' : undefined}>
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
