import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Box, MachineData, Point, StudioState, StudioTransition } from './data';
import type { TrafficOverlay } from './traffic';
import { TrafficEdgeCount, trafficEdgeStyle, TrafficStateMark } from './TrafficMarks';

export interface DiagramProps {
  data: MachineData;
  /** Transitions the selected layer walked; null paints nothing. */
  walked: ReadonlySet<string> | null;
  /** The scenario step's active states and the transitions it took. */
  active: ReadonlySet<string>;
  taken: ReadonlySet<string>;
  /** The running app's current states (live view). */
  live: ReadonlySet<string>;
  selected: string | null;
  onSelect: (stateId: string) => void;
  /** Shoppers' traffic painted over the machine (line weights, counts, entries, INP); absent or null paints none. */
  traffic?: TrafficOverlay | null;
}

interface View {
  k: number;
  x: number;
  y: number;
}

const PAN_STEP = 60;
const ZOOM_STEP = 1.25;
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4;
const HEIGHT = 560;
/** The smallest zoom a machine opens at: its labels still read. */
const READABLE_ZOOM = 0.45;

const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

/** `event [guard]` and `/ actions` (as scripts/studio/layout.ts measured them). */
function labelLines(transition: StudioTransition): string[] {
  const head = `${transition.event}${transition.guard ? ` [${transition.guard}]` : ''}`;
  return transition.actions.length ? [head, `/ ${transition.actions.join(', ')}`] : [head];
}

const pathOf = (line: Point[]) => line.map((point, index) => `${index ? 'L' : 'M'}${point.x.toFixed(1)} ${point.y.toFixed(1)}`).join(' ');

function depthOf(state: StudioState, byId: Map<string, StudioState>): number {
  let depth = 0;
  for (let parent = state.parent; parent; parent = byId.get(parent)?.parent ?? null) depth++;
  return depth;
}

/** The machine as SVG: ELK's boxes and edges, zoom (wheel, buttons, + and -), pan (drag, arrow keys), states focusable one at a time. */
export function Diagram({ data, walked, active, taken, live, selected, onSelect, traffic = null }: DiagramProps) {
  const { layout } = data;
  const byId = useMemo(() => new Map(data.states.map((state) => [state.id, state])), [data]);
  // Containers first, so children and edges draw over them.
  const states = useMemo(() => data.states.filter((state) => state.parent !== null).sort((a, b) => depthOf(a, byId) - depthOf(b, byId)), [data, byId]);
  // Focus order is document order (the machine definition's).
  const focusOrder = useMemo(() => data.states.filter((state) => state.parent !== null).map((state) => state.id), [data]);
  const hasChildren = useMemo(() => new Set(data.states.map((state) => state.parent).filter((id): id is string => id !== null)), [data]);
  const root = data.states.find((state) => state.parent === null)!;

  const viewport = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const nodeRefs = useRef(new Map<string, SVGGElement>());
  const [view, setView] = useState<View>({ k: 1, x: 0, y: 0 });
  const [focused, setFocused] = useState(focusOrder[0] ?? '');
  const drag = useRef<{ start: Point; view: View; moved: boolean } | null>(null);

  const size = () => {
    const rect = svg.current?.getBoundingClientRect();
    return { width: rect?.width || 800, height: rect?.height || HEIGHT };
  };

  const fit = useCallback(() => {
    const { width, height } = size();
    const k = clampZoom(Math.max(READABLE_ZOOM, Math.min(width / (layout.width + 40), height / (layout.height + 40), 1)));
    // A machine too big to read whole starts at its top-left corner, readable; Fit zooms out to all of it.
    setView({ k, x: Math.max(10, (width - layout.width * k) / 2), y: Math.max(10, (height - layout.height * k) / 2) });
  }, [layout]);

  const fitAll = useCallback(() => {
    const { width, height } = size();
    const k = clampZoom(Math.min(width / (layout.width + 40), height / (layout.height + 40), 1));
    setView({ k, x: (width - layout.width * k) / 2, y: (height - layout.height * k) / 2 });
  }, [layout]);

  useEffect(() => {
    fit();
    setFocused(focusOrder[0] ?? '');
  }, [fit, focusOrder]);

  const zoomAt = useCallback((factor: number, at?: Point) => {
    setView((current) => {
      const { width, height } = size();
      const point = at ?? { x: width / 2, y: height / 2 };
      const k = clampZoom(current.k * factor);
      const ratio = k / current.k;
      return { k, x: point.x - (point.x - current.x) * ratio, y: point.y - (point.y - current.y) * ratio };
    });
  }, []);

  // React's wheel listener is passive; zooming must stop the page from scrolling.
  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      zoomAt(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, { x: event.clientX - rect.left, y: event.clientY - rect.top });
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoomAt]);

  const pan = (dx: number, dy: number) => setView((current) => ({ ...current, x: current.x + dx, y: current.y + dy }));

  const onViewportKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    const move = moves[event.key];
    if (move) pan(...move);
    else if (event.key === '+' || event.key === '=') zoomAt(ZOOM_STEP);
    else if (event.key === '-' || event.key === '_') zoomAt(1 / ZOOM_STEP);
    else if (event.key === '0') fitAll();
    else return;
    event.preventDefault();
  };

  /** Pans so a state is in sight when the keyboard moves to it. */
  const reveal = (box: Box) => {
    setView((current) => {
      const { width, height } = size();
      const left = box.x * current.k + current.x;
      const top = box.y * current.k + current.y;
      const inside = left >= 0 && top >= 0 && left + box.width * current.k <= width && top + box.height * current.k <= height;
      if (inside) return current;
      return { ...current, x: width / 2 - (box.x + Math.min(box.width, width / current.k) / 2) * current.k, y: height / 2 - (box.y + Math.min(box.height, height / current.k) / 2) * current.k };
    });
  };

  // A scenario's step brings its innermost current states into sight.
  useEffect(() => {
    const parents = new Set([...active].map((id) => byId.get(id)?.parent));
    const boxes = [...active].filter((id) => !parents.has(id)).flatMap((id) => (layout.nodes[id] ? [layout.nodes[id]] : []));
    if (!boxes.length) return;
    const x = Math.min(...boxes.map((box) => box.x));
    const y = Math.min(...boxes.map((box) => box.y));
    reveal({ x, y, width: Math.max(...boxes.map((box) => box.x + box.width)) - x, height: Math.max(...boxes.map((box) => box.y + box.height)) - y });
    // reveal reads the view through setView; only the step matters here.
  }, [active, byId, layout]);

  const moveFocus = (id: string) => {
    setFocused(id);
    nodeRefs.current.get(id)?.focus({ preventScroll: true });
    const box = layout.nodes[id];
    if (box) reveal(box);
  };

  const onStateKey = (event: KeyboardEvent<SVGGElement>, id: string) => {
    const index = focusOrder.indexOf(id);
    const last = focusOrder.length - 1;
    const next: Record<string, number> = { ArrowDown: Math.min(last, index + 1), ArrowRight: Math.min(last, index + 1), ArrowUp: Math.max(0, index - 1), ArrowLeft: Math.max(0, index - 1), Home: 0, End: last };
    if (event.key in next) moveFocus(focusOrder[next[event.key]!]!);
    else if (event.key === 'Enter' || event.key === ' ') onSelect(id);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    drag.current = { start: { x: event.clientX, y: event.clientY }, view, moved: false };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const current = drag.current;
    if (!current) return;
    const dx = event.clientX - current.start.x;
    const dy = event.clientY - current.start.y;
    if (!current.moved && Math.hypot(dx, dy) < 4) return;
    if (!current.moved) svg.current?.setPointerCapture(event.pointerId);
    current.moved = true;
    setView({ ...current.view, x: current.view.x + dx, y: current.view.y + dy });
  };
  const onPointerUp = () => {
    // A drag that moved is a pan, not a click on the state under the pointer.
    const moved = drag.current?.moved;
    drag.current = null;
    if (moved) suppressClick.current = true;
  };
  const suppressClick = useRef(false);
  const clickState = (id: string) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    setFocused(id);
    onSelect(id);
  };

  const related = (transition: StudioTransition) => selected !== null && (transition.source === selected || transition.targets.includes(selected));

  return (
    <div className="diagram">
      <div className="diagram-tools" role="toolbar" aria-label="Zoom">
        <button type="button" onClick={() => zoomAt(ZOOM_STEP)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoomAt(1 / ZOOM_STEP)} aria-label="Zoom out">−</button>
        <button type="button" onClick={fitAll}>Fit</button>
        <span className="hint">Drag or arrow keys to pan, wheel or + / − to zoom; Tab into the states, arrows move between them, Enter shows a state's transitions.</span>
      </div>
      <div className="diagram-viewport" ref={viewport} tabIndex={0} onKeyDown={onViewportKey} aria-label={`Diagram of the ${data.machine} machine: arrow keys pan, + and - zoom, 0 shows all of it`} role="group">
        <svg
          ref={svg}
          className="diagram-svg"
          data-machine={data.machine}
          height={HEIGHT}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          aria-label={`Statechart of the ${data.machine} machine`}
        >
          <defs>
            {['plain', 'covered', 'not-covered', 'taken'].map((kind) => (
              <marker key={kind} id={`arrow-${data.machine}-${kind}`} className={`arrow arrow-${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" />
              </marker>
            ))}
          </defs>
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
            <g className="machine-root">
              <rect x={0} y={0} width={layout.width} height={layout.height} rx={12} />
              <text x={12} y={20} className="state-title">{root.key}</text>
            </g>
            {states.map((state) => {
              const box = layout.nodes[state.id]!;
              const container = hasChildren.has(state.id);
              const region = byId.get(state.parent ?? '')?.type === 'parallel';
              const classes = [
                'state-node',
                `state-${state.type}`,
                container ? 'state-container' : 'state-leaf',
                region ? 'region' : '',
                active.has(state.id) ? 'active' : '',
                live.has(state.id) ? 'live' : '',
                selected === state.id ? 'selected' : '',
              ].filter(Boolean);
              return (
                <g
                  key={state.id}
                  ref={(element) => {
                    if (element) nodeRefs.current.set(state.id, element);
                    else nodeRefs.current.delete(state.id);
                  }}
                  className={classes.join(' ')}
                  data-state-id={state.id}
                  tabIndex={focused === state.id ? 0 : -1}
                  role="button"
                  aria-pressed={selected === state.id}
                  aria-label={`${state.key}, ${state.type === 'atomic' ? '' : `${state.type} `}state${active.has(state.id) ? ', current step' : ''}${live.has(state.id) ? ', live' : ''}${state.description ? `: ${state.description}` : ''}`}
                  onClick={() => clickState(state.id)}
                  onKeyDown={(event) => onStateKey(event, state.id)}
                  onFocus={() => setFocused(state.id)}
                >
                  <title>{`${state.id}${state.description ? `\n${state.description}` : ''}`}</title>
                  <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={8} />
                  {state.type === 'final' && <rect className="final-inner" x={box.x + 4} y={box.y + 4} width={box.width - 8} height={box.height - 8} rx={5} />}
                  <text x={container ? box.x + 12 : box.x + box.width / 2} y={box.y + 20} className={`state-title${container ? '' : ' centred'}`}>
                    {state.type === 'parallel' ? `${state.key} ‖` : state.key}
                  </text>
                  {state.invoke.map((src, index) => (
                    <text key={src} x={container ? box.x + 12 : box.x + box.width / 2} y={box.y + 36 + index * 15} className={`invoke${container ? '' : ' centred'}`}>
                      invokes {src}
                    </text>
                  ))}
                  {traffic && <TrafficStateMark box={box} stats={traffic.states.get(state.id)} container={container} />}
                </g>
              );
            })}
            {data.states
              .filter((state) => state.initial.length)
              .flatMap((state) =>
                state.initial.map((target) => {
                  const box = layout.nodes[target]!;
                  const y = box.y + 14;
                  return (
                    <g key={`initial-${target}`} className="initial-marker" aria-hidden="true">
                      <circle cx={box.x - 15} cy={y} r={4.5} />
                      <path d={`M${box.x - 11} ${y} L${box.x} ${y}`} markerEnd={`url(#arrow-${data.machine}-plain)`} />
                    </g>
                  );
                }),
              )}
            {data.transitions.map((transition) => {
              const edge = layout.edges[transition.id];
              if (!edge) return null;
              const coverage = walked === null ? '' : walked.has(transition.id) ? 'covered' : 'not-covered';
              const isTaken = taken.has(transition.id);
              const marker = isTaken ? 'taken' : coverage || 'plain';
              const lines = labelLines(transition);
              const painted = traffic ? trafficEdgeStyle(traffic, transition.id) : null;
              return (
                <g
                  key={transition.id}
                  className={['edge', `edge-${transition.kind}`, coverage, isTaken ? 'taken' : '', related(transition) ? 'related' : '', painted?.className ?? ''].filter(Boolean).join(' ')}
                  style={painted?.style}
                  data-transition-id={transition.id}
                >
                  <title>{`${transition.id}${transition.description ? `\n${transition.description}` : ''}`}</title>
                  {edge.lines.map((line, index) => (
                    <path key={index} d={pathOf(line)} markerEnd={`url(#arrow-${data.machine}-${marker})`} />
                  ))}
                  <rect className="edge-label-bg" x={edge.label.x} y={edge.label.y} width={edge.label.width} height={edge.label.height} rx={3} />
                  {lines.map((line, index) => (
                    <text key={index} x={edge.label.x + 3} y={edge.label.y + 11 + index * 15} className="edge-label">
                      {line}
                    </text>
                  ))}
                  {traffic && <TrafficEdgeCount edge={edge} count={traffic.transitions.get(transition.id)} />}
                </g>
              );
            })}
          </g>
        </svg>
      </div>
    </div>
  );
}
