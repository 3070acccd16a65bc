import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Box, MachineData, Point } from './data';
import { ArrowMarkers, DrawingContent, type BoxHandlers, type DiagramOverlay, type Highlights } from './DiagramDrawing';
import { drawingOf, type DrawnBox, type ViewMode } from './drawing';
import { PRODUCT_SMALLEST_FONT, VIEW_FRAME } from './metrics';

export interface DiagramProps extends Highlights {
  data: MachineData;
  mode: ViewMode;
  /** The product view's container (null: the machine's). */
  viewId: string | null;
  onSelect: (stateId: string) => void;
  /** Opens a shut box's own view (product view). */
  onOpenView: (containerId: string) => void;
  overlay?: DiagramOverlay;
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
/** The product view never draws a label under 12 px on screen. */
const PRODUCT_MIN_ZOOM = 12 / PRODUCT_SMALLEST_FONT;

const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

/** The machine as SVG: ELK's boxes and edges, zoom (wheel, buttons, + and -), pan (drag, arrow keys), states focusable one at a time. */
export function Diagram({ data, mode, viewId, walked, active, taken, live, selected, onSelect, onOpenView, overlay }: DiagramProps) {
  const drawing = useMemo(() => drawingOf(data, mode, viewId), [data, mode, viewId]);
  const layout = drawing;
  const height = mode === 'product' ? VIEW_FRAME.height : HEIGHT;
  const minimum = mode === 'product' ? PRODUCT_MIN_ZOOM : READABLE_ZOOM;
  // Focus order is document order (the machine definition's).
  const focusOrder = useMemo(() => {
    const order = new Map(data.states.map((state, index) => [state.id, index]));
    return drawing.boxes.map((drawn) => drawn.id).sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
  }, [data, drawing]);
  const boxOf = useMemo(() => new Map(drawing.boxes.map((drawn) => [drawn.id, drawn])), [drawing]);

  const viewport = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const nodeRefs = useRef(new Map<string, SVGGElement>());
  const [view, setView] = useState<View>({ k: 1, x: 0, y: 0 });
  const [focused, setFocused] = useState(focusOrder[0] ?? '');
  const drag = useRef<{ start: Point; view: View; moved: boolean } | null>(null);

  const size = () => {
    const rect = svg.current?.getBoundingClientRect();
    return { width: rect?.width || 800, height: rect?.height || height };
  };

  const fit = useCallback(() => {
    const { width, height } = size();
    const k = clampZoom(Math.max(minimum, Math.min(width / (layout.width + 40), height / (layout.height + 40), 1)));
    // A machine too big to read whole starts at its top-left corner, readable; Fit zooms out to all of it.
    setView({ k, x: Math.max(10, (width - layout.width * k) / 2), y: Math.max(10, (height - layout.height * k) / 2) });
  }, [layout, minimum]);

  // "Fit" shows all of the drawing; the product view keeps its labels at 12 px, and pans where it is larger.
  const fitAll = useCallback(() => {
    const { width, height } = size();
    const k = clampZoom(Math.max(mode === 'product' ? minimum : MIN_ZOOM, Math.min(width / (layout.width + 40), height / (layout.height + 40), 1)));
    setView({ k, x: Math.max(10, (width - layout.width * k) / 2), y: Math.max(10, (height - layout.height * k) / 2) });
  }, [layout, mode, minimum]);

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
    const parents = new Set([...active].map((id) => data.states.find((state) => state.id === id)?.parent));
    const boxes = drawing.boxes.filter((drawn) => (drawn.kind === 'collapsed' ? drawn.covers.some((id) => active.has(id)) : active.has(drawn.id) && !parents.has(drawn.id))).map((drawn) => drawn.box);
    if (!boxes.length) return;
    const x = Math.min(...boxes.map((box) => box.x));
    const y = Math.min(...boxes.map((box) => box.y));
    reveal({ x, y, width: Math.max(...boxes.map((box) => box.x + box.width)) - x, height: Math.max(...boxes.map((box) => box.y + box.height)) - y });
    // reveal reads the view through setView; only the step matters here.
  }, [active, data, drawing]);

  const moveFocus = (id: string) => {
    setFocused(id);
    nodeRefs.current.get(id)?.focus({ preventScroll: true });
    const box = boxOf.get(id)?.box;
    if (box) reveal(box);
  };

  /** A shut box opens its own view; a box where the view is left opens the view holding that state; a state shows its transitions. */
  const activate = (drawn: DrawnBox) => {
    if (drawn.kind === 'collapsed') onOpenView(drawn.state.id);
    else if (drawn.kind === 'exit') onOpenView(drawn.state.parent ?? drawn.state.id);
    else onSelect(drawn.id);
  };

  const onStateKey = (event: KeyboardEvent<SVGGElement>, drawn: DrawnBox) => {
    const id = drawn.id;
    const index = focusOrder.indexOf(id);
    const last = focusOrder.length - 1;
    const next: Record<string, number> = { ArrowDown: Math.min(last, index + 1), ArrowRight: Math.min(last, index + 1), ArrowUp: Math.max(0, index - 1), ArrowLeft: Math.max(0, index - 1), Home: 0, End: last };
    if (event.key in next) moveFocus(focusOrder[next[event.key]!]!);
    else if (event.key === 'Enter' || event.key === ' ') activate(drawn);
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
  const clickState = (drawn: DrawnBox) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    setFocused(drawn.id);
    activate(drawn);
  };

  const handlers: BoxHandlers = {
    focused,
    ref: (id, element) => {
      if (element) nodeRefs.current.set(id, element);
      else nodeRefs.current.delete(id);
    },
    onClick: clickState,
    onKeyDown: onStateKey,
    onFocus: setFocused,
  };

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
          height={height}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          aria-label={`Statechart of the ${data.machine} machine`}
        >
          <ArrowMarkers prefix={`arrow-${data.machine}`} />
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`} className={`drawing drawing-${mode}`}>
            <DrawingContent drawing={drawing} highlights={{ walked, active, taken, live, selected }} overlay={overlay} markers={`arrow-${data.machine}`} handlers={handlers} />
          </g>
        </svg>
      </div>
    </div>
  );
}
