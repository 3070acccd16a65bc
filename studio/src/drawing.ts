/** What a diagram draws, in either view: boxes and edges with their labels, from the engineer's layout or a product view's. */
import type { Box, DiagramView, EdgeLayout, MachineData, StudioState } from './data';
import { ENGINEER_METRICS, PRODUCT_METRICS, type TextMetrics } from './metrics';
import { stateName, transitionWords } from './words';

export type ViewMode = 'product' | 'engineer';

export interface DrawnBox {
  /** The box's id in the layout (a state id, or `exit:<state id>`). */
  id: string;
  state: StudioState;
  kind: 'state' | 'collapsed' | 'exit';
  /** Holds other boxes (engineer view only). */
  container: boolean;
  region: boolean;
  title: string;
  /** The states the box stands for: its own, and for a shut box every state inside it. */
  covers: string[];
  /** Lines under the title: the invoked actors (engineer view). */
  notes: string[];
  box: Box;
}

export interface DrawnEdge {
  id: string;
  transitions: string[];
  /** The drawn source and targets (boxes), for highlighting the edges of a chosen state. */
  source: string;
  targets: string[];
  kind: string;
  layout: EdgeLayout;
  label: string[];
  /** What hovering the edge tells: the engineer's label and meaning, or each transition's product words. */
  tooltip: string;
}

export interface Drawing {
  mode: ViewMode;
  width: number;
  height: number;
  rootTitle: string;
  metrics: TextMetrics;
  boxes: DrawnBox[];
  edges: DrawnEdge[];
  /** Boxes with the initial-state marker. */
  initials: Box[];
}

/** `event [guard]` and `/ actions` (as scripts/studio/layout.ts measured them). */
function engineerLabel(transition: MachineData['transitions'][number]): string[] {
  const head = `${transition.event}${transition.guard ? ` [${transition.guard}]` : ''}`;
  return transition.actions.length ? [head, `/ ${transition.actions.join(', ')}`] : [head];
}

function depthOf(state: StudioState, byId: Map<string, StudioState>): number {
  let depth = 0;
  for (let parent = state.parent; parent; parent = byId.get(parent)?.parent ?? null) depth++;
  return depth;
}

/** The whole machine with today's labels: every state, every transition. */
function engineerDrawing(data: MachineData): Drawing {
  const byId = new Map(data.states.map((state) => [state.id, state]));
  const hasChildren = new Set(data.states.map((state) => state.parent));
  const root = data.states.find((state) => state.parent === null)!;
  // Containers first, so children and edges draw over them.
  const states = data.states.filter((state) => state.parent !== null).sort((a, b) => depthOf(a, byId) - depthOf(b, byId));
  return {
    mode: 'engineer',
    width: data.layout.width,
    height: data.layout.height,
    rootTitle: root.key,
    metrics: ENGINEER_METRICS,
    boxes: states.map((state) => ({
      id: state.id,
      state,
      kind: 'state',
      container: hasChildren.has(state.id),
      region: byId.get(state.parent ?? '')?.type === 'parallel',
      title: state.type === 'parallel' ? `${state.key} ‖` : state.key,
      covers: [state.id],
      notes: state.invoke.map((src) => `invokes ${src}`),
      box: data.layout.nodes[state.id]!,
    })),
    edges: data.transitions.flatMap((transition) => {
      const layout = data.layout.edges[transition.id];
      const tooltip = `${transition.id}${transition.description ? `\n${transition.description}` : ''}`;
      return layout ? [{ id: transition.id, transitions: [transition.id], source: transition.source, targets: transition.targets, kind: transition.kind, layout, label: engineerLabel(transition), tooltip }] : [];
    }),
    initials: data.states.flatMap((state) => state.initial.map((target) => data.layout.nodes[target]!)),
  };
}

/** Whether a state is `ancestor` or inside it. */
function isWithin(state: StudioState, ancestor: string, byId: Map<string, StudioState>): boolean {
  for (let current: StudioState | undefined = state; current; current = current.parent ? byId.get(current.parent) : undefined) if (current.id === ancestor) return true;
  return false;
}

/** One container's product view: names in words, children shut, transitions between the same boxes as one edge. */
function productDrawing(data: MachineData, view: DiagramView): Drawing {
  const byId = new Map(data.states.map((state) => [state.id, state]));
  const container = byId.get(view.id)!;
  const transitions = new Map(data.transitions.map((transition) => [transition.id, transition]));
  return {
    mode: 'product',
    width: view.layout.width,
    height: view.layout.height,
    rootTitle: stateName(container),
    metrics: PRODUCT_METRICS,
    boxes: view.nodes.map((node) => {
      const state = byId.get(node.state)!;
      return {
        id: node.id,
        state,
        kind: node.kind,
        container: false,
        region: false,
        title: node.kind === 'exit' ? `to ${stateName(state)}` : node.kind === 'collapsed' ? `${stateName(state)} ▸` : stateName(state),
        covers: node.kind === 'collapsed' ? data.states.filter((candidate) => isWithin(candidate, state.id, byId)).map((candidate) => candidate.id) : [state.id],
        notes: [],
        box: view.layout.nodes[node.id]!,
      };
    }),
    edges: view.edges.flatMap((edge) => {
      const layout = view.layout.edges[edge.id];
      const words = edge.transitions.map((id) => transitions.get(id)!).map(transitionWords);
      return layout ? [{ id: edge.id, transitions: edge.transitions, source: edge.source, targets: edge.targets, kind: transitions.get(edge.id)?.kind ?? 'on', layout, label: edge.label, tooltip: [...new Set(words)].join('\n') }] : [];
    }),
    initials: container.initial.flatMap((target) => (view.layout.nodes[target] ? [view.layout.nodes[target]] : [])),
  };
}

export function drawingOf(data: MachineData, mode: ViewMode, viewId: string | null): Drawing {
  const view = data.views.find((candidate) => candidate.id === viewId) ?? data.views[0];
  return mode === 'product' && view ? productDrawing(data, view) : engineerDrawing(data);
}
