/** The product view's parts around the diagram: the view switch, the list of views by container, the words of the view, and the printable copy. */
import { useRef } from 'react';
import type { MachineData } from './data';
import { ArrowMarkers, DrawingContent, type Highlights } from './DiagramDrawing';
import { drawingOf, type ViewMode } from './drawing';
import { download, standaloneSvg } from './export';
import { stateInRegion } from './StatePanels';
import { nameInWords, stateWords, transitionWords } from './words';

const KIND_WORDS = { machine: 'whole flow', compound: 'step', parallel: 'at the same time', region: 'part' } as const;

/** Product or engineer view: two toggle buttons. */
export function ModeSwitch({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  return (
    <div className="mode-switch" role="group" aria-label="View">
      {(['product', 'engineer'] as const).map((candidate) => (
        <button key={candidate} type="button" aria-pressed={mode === candidate} onClick={() => onChange(candidate)}>
          {candidate === 'product' ? 'Product view' : 'Engineer view'}
        </button>
      ))}
    </div>
  );
}

/** The views of the machine, one per container state, named by where they sit (`ready › email`). */
export function ViewPicker({ data, current, onOpen }: { data: MachineData; current: string; onOpen: (id: string) => void }) {
  const byId = new Map(data.states.map((state) => [state.id, state]));
  const path = (id: string) => {
    const names: string[] = [];
    for (let state = byId.get(id); state?.parent; state = byId.get(state.parent)) names.unshift(nameInWords(state.key));
    return names.length ? names.join(' › ') : 'the whole flow';
  };
  return (
    <nav className="view-picker" aria-label="Parts of the diagram">
      <ul>
        {data.views.map((view) => (
          <li key={view.id}>
            <button type="button" aria-current={view.id === current ? 'true' : undefined} onClick={() => onOpen(view.id)}>
              {path(view.id)}
              {view.kind !== 'machine' && <span className="view-kind"> ({KIND_WORDS[view.kind]})</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Every state and transition of the view in full product words (the diagram's text alternative, and what a review prints). */
export function ViewWords({ data, viewId }: { data: MachineData; viewId: string }) {
  const view = data.views.find((candidate) => candidate.id === viewId) ?? data.views[0]!;
  const states = data.states.filter((state) => state.parent === view.id);
  // What the view draws, and what its states do without moving (not drawn).
  const drawn = new Set(view.edges.flatMap((edge) => edge.transitions));
  const parents = new Map(data.states.map((state) => [state.id, state.parent]));
  const transitions = data.transitions.filter((transition) => drawn.has(transition.id) || (!transition.targets.length && parents.get(transition.source) === view.id));
  const name = (id: string) => stateInRegion(data, id, 'product');
  return (
    <section className="view-words" aria-labelledby="view-words-title">
      <h2 id="view-words-title">In words: {view.kind === 'machine' ? 'the whole flow' : name(view.id)}</h2>
      <dl>
        {states.map((state) => (
          <div key={state.id}>
            <dt>{name(state.id)}</dt>
            <dd>{stateWords(state) || 'No words written yet.'}</dd>
          </div>
        ))}
      </dl>
      <h3>What moves the shopper on ({transitions.length})</h3>
      <ul className="transition-list">
        {transitions.map((transition) => (
          <li key={transition.id}>
            From <strong>{name(transition.source)}</strong>: {transitionWords(transition)} → {transition.targets.length ? transition.targets.map(name).join(', ') : 'stays'}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The diagram whole (for print, and the source of the SVG download), and the buttons that download or print it. */
export function PrintableDiagram({ data, mode, viewId, highlights }: { data: MachineData; mode: ViewMode; viewId: string; highlights: Highlights }) {
  const svg = useRef<SVGSVGElement>(null);
  const drawing = drawingOf(data, mode, viewId);
  const file = `${data.machine}${mode === 'product' && viewId !== data.views[0]?.id ? `-${viewId.split('.').slice(1).join('-')}` : ''}-${mode}.svg`;
  return (
    <>
      <div className="export-tools">
        <button type="button" onClick={() => svg.current && download(file, standaloneSvg(svg.current), 'image/svg+xml')}>
          Download SVG
        </button>
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <svg ref={svg} className="print-diagram" viewBox={`-20 -20 ${drawing.width + 40} ${drawing.height + 40}`} role="img" aria-label={`Statechart of the ${data.machine} machine, whole`} data-export={data.machine}>
        <ArrowMarkers prefix={`print-${data.machine}`} />
        <DrawingContent drawing={drawing} highlights={highlights} markers={`print-${data.machine}`} />
      </svg>
    </>
  );
}
