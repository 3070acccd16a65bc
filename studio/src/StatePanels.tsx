/** The side panels of a machine's page: a chosen state's transitions, and a scenario stepped through; in product words or the engineer's. */
import type { LayerCoverage, LayerName, MachineData, Scenario, StudioState, StudioTransition } from './data';
import type { ViewMode } from './drawing';
import { nameInWords, stateWords, transitionWords } from './words';

export const LAYER_TITLES: Record<LayerName, string> = {
  'machine-tests': 'machine tests',
  'view-walks': 'view walks',
  'browser-journeys': 'browser journeys',
};

/** A state's name as the view shows it, with its region's name before it when it sits in a region of a parallel state. */
export function stateInRegion(data: MachineData, id: string, mode: ViewMode): string {
  const byId = new Map(data.states.map((state) => [state.id, state]));
  const name = (state: StudioState) => (mode === 'product' ? nameInWords(state.key) : state.key);
  const state = byId.get(id);
  if (!state) return id;
  for (let current: StudioState | undefined = state; current?.parent; current = byId.get(current.parent)) {
    if (byId.get(current.parent)?.type === 'parallel') return current === state ? name(state) : `${name(current)}: ${name(state)}`;
  }
  return name(state);
}


function TransitionItem({ transition, data, layer, direction, mode }: { transition: StudioTransition; data: MachineData; layer: LayerCoverage | null; direction: 'out' | 'in'; mode: ViewMode }) {
  const name = (id: string) => stateInRegion(data, id, mode);
  const walked = layer?.transitions.includes(transition.id);
  const outcome = (value: boolean) => layer?.guardOutcomes.includes(`${transition.id}: ${value}`);
  const product = mode === 'product';
  return (
    <li className={`transition-item ${layer ? (walked ? 'covered' : 'not-covered') : ''}`}>
      <strong>{product ? transitionWords(transition) : transition.event}</strong>
      {!product && transition.guard && <span className="guard"> [{transition.guard}]</span>}
      {!product && transition.actions.length > 0 && <span className="actions"> / {transition.actions.join(', ')}</span>}
      {direction === 'out' ? <> → {transition.targets.length ? transition.targets.map(name).join(', ') : '(stays)'}</> : <> from {name(transition.source)}</>}
      {!product && transition.delay && <span className="delay"> (after {transition.delay})</span>}
      {layer && (
        <span className="walked">
          {' '}
          — {walked ? 'walked' : 'not walked'} by {LAYER_TITLES[layer.layer]}
          {!product && transition.guard && `; guard true ${outcome(true) ? '✓' : '✗'}, false ${outcome(false) ? '✓' : '✗'}`}
        </span>
      )}
      {!product && transition.description && <div className="meaning">{transition.description}</div>}
    </li>
  );
}

export function StatePanel({ data, stateId, layer, mode }: { data: MachineData; stateId: string; layer: LayerCoverage | null; mode: ViewMode }) {
  const state = data.states.find((candidate) => candidate.id === stateId);
  if (!state) return null;
  const product = mode === 'product';
  const outgoing = data.transitions.filter((transition) => transition.source === state.id);
  const incoming = data.transitions.filter((transition) => transition.targets.includes(state.id) && transition.source !== state.id);
  return (
    <section className="panel" aria-labelledby="state-panel-title">
      <h2 id="state-panel-title">State {product ? stateInRegion(data, state.id, mode) : <code>{state.id}</code>}</h2>
      <p>{product ? stateWords(state) : <>{state.type} state. {state.description}</>}</p>
      {!product && state.invoke.length > 0 && <p>Invokes: {state.invoke.join(', ')}</p>}
      {!product && (state.entry.length > 0 || state.exit.length > 0) && (
        <p>
          {state.entry.length > 0 && <>On entry: {state.entry.join(', ')}. </>}
          {state.exit.length > 0 && <>On exit: {state.exit.join(', ')}.</>}
        </p>
      )}
      <h3>Transitions out ({outgoing.length})</h3>
      {outgoing.length ? (
        <ul className="transition-list">
          {outgoing.map((transition) => (
            <TransitionItem key={transition.id} transition={transition} data={data} layer={layer} direction="out" mode={mode} />
          ))}
        </ul>
      ) : (
        <p>None: the machine waits here{state.type === 'final' ? ' for good (final state)' : ' for a parent state\'s transition'}.</p>
      )}
      <h3>Transitions in ({incoming.length})</h3>
      <ul className="transition-list">
        {incoming.map((transition) => (
          <TransitionItem key={transition.id} transition={transition} data={data} layer={layer} direction="in" mode={mode} />
        ))}
      </ul>
    </section>
  );
}

export function Stepper({ data, scenario, step, setStep, mode }: { data: MachineData; scenario: Scenario; step: number; setStep: (step: number) => void; mode: ViewMode }) {
  const current = scenario.steps[step]!;
  const last = scenario.steps.length - 1;
  const byTransition = new Map(data.transitions.map((transition) => [transition.id, transition]));
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
        In: <strong>{leaves.map((id) => stateInRegion(data, id, mode)).join(', ')}</strong>
      </p>
      {current.transitions.length > 0 && (
        <>
          <h3>Transitions taken</h3>
          <ul className="plain-list">
            {current.transitions.map((label) => (
              <li key={label}>{mode === 'product' && byTransition.has(label) ? transitionWords(byTransition.get(label)!) : <code>{label}</code>}</li>
            ))}
          </ul>
        </>
      )}
      {mode === 'engineer' && current.guards.length > 0 && (
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
