import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import type { Box, Point, StudioState } from './data';
import type { DrawnBox, DrawnEdge, Drawing } from './drawing';
import { stateWords } from './words';

/** Extra marks a page paints on the diagram (the traffic layer's counts, say), per box and per edge, in diagram coordinates. */
export interface DiagramOverlay {
  box?: (drawn: DrawnBox) => ReactNode;
  edge?: (drawn: DrawnEdge) => ReactNode;
  /** Extra class names on a box's or an edge's group, for styles keyed by the overlay. */
  boxClass?: (drawn: DrawnBox) => string;
  edgeClass?: (drawn: DrawnEdge) => string;
  /** Style of an edge's group, for CSS variables its paths read (the traffic's line weight, say). */
  edgeStyle?: (drawn: DrawnEdge) => CSSProperties | undefined;
}

export interface Highlights {
  /** Transitions the selected layer walked; null paints nothing. */
  walked: ReadonlySet<string> | null;
  active: ReadonlySet<string>;
  taken: ReadonlySet<string>;
  live: ReadonlySet<string>;
  selected: string | null;
}

/** Handlers of the interactive diagram; the printed and exported copies have none. */
export interface BoxHandlers {
  focused: string;
  ref: (id: string, element: SVGGElement | null) => void;
  onClick: (drawn: DrawnBox) => void;
  onKeyDown: (event: KeyboardEvent<SVGGElement>, drawn: DrawnBox) => void;
  onFocus: (id: string) => void;
}

const pathOf = (line: Point[]) => line.map((point, index) => `${index ? 'L' : 'M'}${point.x.toFixed(1)} ${point.y.toFixed(1)}`).join(' ');

/** A box is current when its state is, or (shut) when one of its states is; a box where the view is left never is. */
const anyOf = (set: ReadonlySet<string>, drawn: DrawnBox) => drawn.kind !== 'exit' && drawn.covers.some((id) => set.has(id));

export function ArrowMarkers({ prefix }: { prefix: string }) {
  return (
    <defs>
      {['plain', 'covered', 'not-covered', 'taken'].map((kind) => (
        <marker key={kind} id={`${prefix}-${kind}`} className={`arrow arrow-${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0 L10 5 L0 10 z" />
        </marker>
      ))}
    </defs>
  );
}

function ariaLabel(drawn: DrawnBox, highlights: Highlights, state: StudioState): string {
  const current = anyOf(highlights.active, drawn) ? ', current step' : '';
  const live = anyOf(highlights.live, drawn) ? ', live' : '';
  if (drawn.kind === 'exit') return `${drawn.title}: the view is left for this state`;
  if (drawn.kind === 'collapsed') return `${drawn.title.replace(' ▸', '')}, shut: Enter opens it${current}${live}${state.product ? `: ${state.product}` : ''}`;
  const words = drawn.notes.length ? state.description : stateWords(state);
  return `${drawn.title}, ${state.type === 'atomic' ? '' : `${state.type} `}state${current}${live}${words ? `: ${words}` : ''}`;
}

/** The boxes, initial markers and edges of a drawing, highlighted; interactive when given handlers. */
export function DrawingContent({ drawing, highlights, overlay, markers, handlers }: { drawing: Drawing; highlights: Highlights; overlay?: DiagramOverlay; markers: string; handlers?: BoxHandlers }) {
  const { metrics } = drawing;
  const { walked, active, taken, live, selected } = highlights;
  const related = (edge: DrawnEdge) => selected !== null && (edge.source === selected || edge.targets.includes(selected));
  const engineer = drawing.mode === 'engineer';
  return (
    <>
      <g className="machine-root">
        <rect x={0} y={0} width={drawing.width} height={drawing.height} rx={12} />
        <text x={12} y={metrics.titleHeight - 10} className="state-title">{drawing.rootTitle}</text>
      </g>
      {drawing.boxes.map((drawn) => {
        const { box, state } = drawn;
        const classes = [
          'state-node',
          `state-${drawn.kind === 'state' ? state.type : drawn.kind}`,
          drawn.container ? 'state-container' : 'state-leaf',
          drawn.region ? 'region' : '',
          anyOf(active, drawn) ? 'active' : '',
          anyOf(live, drawn) ? 'live' : '',
          selected === drawn.id ? 'selected' : '',
          overlay?.boxClass?.(drawn) ?? '',
        ].filter(Boolean);
        const x = drawn.container ? box.x + 12 : box.x + box.width / 2;
        return (
          <g
            key={drawn.id}
            ref={handlers ? (element) => handlers.ref(drawn.id, element) : undefined}
            className={classes.join(' ')}
            data-state-id={handlers ? drawn.id : undefined}
            tabIndex={handlers ? (handlers.focused === drawn.id ? 0 : -1) : undefined}
            role={handlers ? 'button' : undefined}
            aria-pressed={handlers ? selected === drawn.id : undefined}
            aria-label={handlers ? ariaLabel(drawn, highlights, state) : undefined}
            onClick={handlers ? () => handlers.onClick(drawn) : undefined}
            onKeyDown={handlers ? (event) => handlers.onKeyDown(event, drawn) : undefined}
            onFocus={handlers ? () => handlers.onFocus(drawn.id) : undefined}
          >
            <title>{engineer ? `${state.id}${state.description ? `\n${state.description}` : ''}` : stateWords(state) || drawn.title}</title>
            <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={8} />
            {state.type === 'final' && drawn.kind === 'state' && <rect className="final-inner" x={box.x + 4} y={box.y + 4} width={box.width - 8} height={box.height - 8} rx={5} />}
            <text x={x} y={box.y + metrics.titleHeight - 10} className={`state-title${drawn.container ? '' : ' centred'}`}>
              {drawn.title}
            </text>
            {drawn.notes.map((note, index) => (
              <text key={note} x={x} y={box.y + metrics.titleHeight + 6 + index * metrics.lineHeight} className={`invoke${drawn.container ? '' : ' centred'}`}>
                {note}
              </text>
            ))}
            {overlay?.box?.(drawn)}
          </g>
        );
      })}
      {drawing.initials.map((box: Box) => {
        const y = box.y + 14;
        return (
          <g key={`initial-${box.x}-${box.y}`} className="initial-marker" aria-hidden="true">
            <circle cx={box.x - 15} cy={y} r={4.5} />
            <path d={`M${box.x - 11} ${y} L${box.x} ${y}`} markerEnd={`url(#${markers}-plain)`} />
          </g>
        );
      })}
      {drawing.edges.map((edge) => {
        const coverage = walked === null ? '' : edge.transitions.every((id) => walked.has(id)) ? 'covered' : 'not-covered';
        const isTaken = edge.transitions.some((id) => taken.has(id));
        const marker = isTaken ? 'taken' : coverage || 'plain';
        const { label } = edge.layout;
        return (
          <g
            key={edge.id}
            className={['edge', `edge-${edge.kind}`, coverage, isTaken ? 'taken' : '', related(edge) ? 'related' : '', overlay?.edgeClass?.(edge) ?? ''].filter(Boolean).join(' ')}
            style={overlay?.edgeStyle?.(edge)}
            data-transition-id={handlers && engineer ? edge.id : undefined}
            data-transitions={handlers && !engineer ? edge.transitions.length : undefined}
          >
            <title>{edge.tooltip}</title>
            {edge.layout.lines.map((line, index) => (
              <path key={index} d={pathOf(line)} markerEnd={`url(#${markers}-${marker})`} />
            ))}
            <rect className="edge-label-bg" x={label.x} y={label.y} width={label.width} height={label.height} rx={3} />
            {edge.label.map((line, index) => (
              <text key={index} x={label.x + 3} y={label.y + metrics.labelBaseline + index * metrics.lineHeight} className="edge-label">
                {line}
              </text>
            ))}
            {overlay?.edge?.(edge)}
          </g>
        );
      })}
    </>
  );
}
