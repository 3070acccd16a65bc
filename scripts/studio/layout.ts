/**
 * Lays a machine out with ELK (elkjs, layered, hierarchy included): one box per state (compound and
 * parallel states hold their children), one edge per transition with its label. Returns absolute
 * coordinates, so the site only draws.
 */
import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { Box, EdgeLayout, Layout, Point, StudioState, StudioTransition } from '../../studio/src/data';
import { ENGINEER_METRICS, type TextMetrics } from '../../studio/src/metrics';

/** Text metrics the site's stylesheet keeps to (studio/src/styles.css: .state-title 13px, .invoke and edge labels 11px). */
export const METRICS = ENGINEER_METRICS;

export interface LayoutOptions {
  /** An edge's label lines (the engineer's `event [guard] / actions` unless given). */
  labelLines?: (transition: StudioTransition) => string[];
  metrics?: TextMetrics;
  /** Where the layers run: down the page (the default) or across it. */
  direction?: 'DOWN' | 'RIGHT';
}

/** An edge's label lines: `event [guard]`, then `/ actions` when it has any. */
export function edgeLabelLines(transition: StudioTransition): string[] {
  const head = `${transition.event}${transition.guard ? ` [${transition.guard}]` : ''}`;
  return transition.actions.length ? [head, `/ ${transition.actions.join(', ')}`] : [head];
}

const invokeLines = (state: StudioState) => state.invoke.map((src) => `invokes ${src}`);

function leafSize(state: StudioState, metrics: TextMetrics): { width: number; height: number } {
  const title = state.key.length * metrics.titleChar;
  const invokes = Math.max(0, ...invokeLines(state).map((line) => line.length * metrics.smallChar));
  return { width: Math.max(96, Math.ceil(Math.max(title, invokes)) + 2 * metrics.padding), height: metrics.titleHeight + 6 + invokeLines(state).length * metrics.lineHeight };
}

const isAncestorOrSelf = (ancestor: string, node: string, parents: Map<string, string | null>) => {
  for (let current: string | null | undefined = node; current; current = parents.get(current)) if (current === ancestor) return true;
  return false;
};

function lowestCommonAncestor(a: string, b: string, parents: Map<string, string | null>): string {
  for (let current: string | null | undefined = parents.get(a); current; current = parents.get(current)) if (isAncestorOrSelf(current, b, parents)) return current;
  throw new Error(`layout: ${a} and ${b} share no ancestor`);
}

const edgeId = (index: number, target: number) => `t${index}:${target}`;

/** ELK's layout of the states and transitions, in absolute coordinates. */
export async function layoutMachine(states: StudioState[], transitions: StudioTransition[], options: LayoutOptions = {}): Promise<Layout> {
  const { labelLines = edgeLabelLines, metrics: METRICS = ENGINEER_METRICS, direction = 'DOWN' } = options;
  const parents = new Map(states.map((state) => [state.id, state.parent]));
  const root = states.find((state) => state.parent === null)!;
  const elkNodes = new Map<string, ElkNode>();
  for (const state of states) {
    const hasChildren = states.some((child) => child.parent === state.id);
    const top = METRICS.titleHeight + invokeLines(state).length * METRICS.lineHeight;
    const node: ElkNode = hasChildren
      ? {
          id: state.id,
          children: [],
          edges: [],
          layoutOptions: {
            'elk.padding': `[top=${top},left=${METRICS.padding + (state.type === 'compound' ? METRICS.initialGutter : 0)},bottom=${METRICS.padding},right=${METRICS.padding}]`,
            'elk.nodeSize.constraints': 'MINIMUM_SIZE',
            'elk.nodeSize.minimum': `(${leafSize(state, METRICS).width + 20}, ${top + 20})`,
            // Regions of a parallel state sit side by side, as independent compartments.
            ...(state.type === 'parallel' ? { 'elk.direction': 'RIGHT', 'elk.spacing.nodeNode': '16' } : {}),
          },
        }
      : { id: state.id, ...leafSize(state, METRICS) };
    elkNodes.set(state.id, node);
  }
  for (const state of states) if (state.parent) elkNodes.get(state.parent)!.children!.push(elkNodes.get(state.id)!);

  // Transitions ELK cannot route (between a state and its own ancestor or descendant) are drawn by hand below.
  const manual: { index: number; target: number; from: string; to: string }[] = [];
  transitions.forEach((transition, index) => {
    const targets = transition.targets.length ? transition.targets : [transition.source];
    targets.forEach((target, targetIndex) => {
      const nested = target !== transition.source && (isAncestorOrSelf(transition.source, target, parents) || isAncestorOrSelf(target, transition.source, parents));
      const selfOnContainer = target === transition.source && states.some((child) => child.parent === target);
      if (nested || selfOnContainer || transition.source === root.id) {
        manual.push({ index, target: targetIndex, from: transition.source, to: target });
        return;
      }
      const lines = labelLines(transition);
      const edge: ElkExtendedEdge = {
        id: edgeId(index, targetIndex),
        sources: [transition.source],
        targets: [target],
        labels:
          targetIndex === 0
            ? [{ id: `${edgeId(index, targetIndex)}:label`, text: lines.join('\n'), width: Math.ceil(Math.max(...lines.map((line) => line.length)) * METRICS.smallChar) + 6, height: lines.length * METRICS.lineHeight }]
            : [],
      };
      const container = target === transition.source ? (parents.get(target) ?? root.id) : lowestCommonAncestor(transition.source, target, parents);
      elkNodes.get(container)!.edges!.push(edge);
    });
  });

  const graph = elkNodes.get(root.id)!;
  graph.layoutOptions = {
    ...graph.layoutOptions,
    'elk.algorithm': 'layered',
    'elk.direction': direction,
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.spacing.nodeNodeBetweenLayers': '36',
    'elk.spacing.nodeNode': '28',
    'elk.spacing.edgeLabel': '4',
    'elk.spacing.edgeNode': '14',
    'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
    'elk.edgeLabels.placement': 'CENTER',
    // Every edge's points in the root's coordinates, wherever the edge is held.
    'elk.json.edgeCoords': 'ROOT',
  };
  const laid = await new ELK().layout(graph);

  const nodes: Record<string, Box> = {};
  const edges: Record<string, EdgeLayout> = {};
  const containers = new Map<string, Point>();
  const visit = (node: ElkNode, offset: Point) => {
    const box = { x: offset.x + (node.x ?? 0), y: offset.y + (node.y ?? 0), width: node.width ?? 0, height: node.height ?? 0 };
    nodes[node.id] = box;
    containers.set(node.id, box);
    for (const child of node.children ?? []) visit(child, box);
  };
  visit(laid, { x: 0, y: 0 });
  const collectEdges = (node: ElkNode) => {
    const origin = containers.get(root.id)!;
    for (const edge of node.edges ?? []) {
      const [, index, target] = /^t(\d+):(\d+)$/.exec(edge.id)!;
      const transition = transitions[Number(index)]!;
      const line = (edge.sections ?? []).flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]).map((point) => ({ x: origin.x + point.x, y: origin.y + point.y }));
      const entry = (edges[transition.id] ??= { lines: [], label: { x: 0, y: 0, width: 0, height: 0 } });
      entry.lines.push(line);
      const label = edge.labels?.[0];
      if (Number(target) === 0 && label) entry.label = { x: origin.x + (label.x ?? 0), y: origin.y + (label.y ?? 0), width: label.width ?? 0, height: label.height ?? 0 };
    }
    for (const child of node.children ?? []) collectEdges(child);
  };
  collectEdges(laid);

  // A hand-drawn edge leaves its source's top-left corner (a loop above a container, a line into a descendant).
  const loopsPerNode = new Map<string, number>();
  for (const { index, from, to } of manual) {
    const transition = transitions[index]!;
    const source = nodes[from]!;
    const target = nodes[to]!;
    const nth = loopsPerNode.get(from) ?? 0;
    loopsPerNode.set(from, nth + 1);
    const lines = labelLines(transition);
    const labelWidth = Math.ceil(Math.max(...lines.map((line) => line.length)) * METRICS.smallChar) + 6;
    let line: Point[];
    if (from === to) {
      const x = source.x + source.width - 16 - nth * 14;
      line = [{ x, y: source.y }, { x, y: source.y - 10 }, { x: x + 10, y: source.y - 10 }, { x: x + 10, y: source.y }];
    } else {
      line = [{ x: source.x + 10 + nth * 8, y: source.y + METRICS.titleHeight - 6 }, { x: source.x + 10 + nth * 8, y: target.y + 12 }, { x: target.x, y: target.y + 12 }];
    }
    const entry = (edges[transition.id] ??= { lines: [], label: { x: line[1]!.x + 4, y: line[1]!.y - lines.length * METRICS.lineHeight, width: labelWidth, height: lines.length * METRICS.lineHeight } });
    entry.lines.push(line);
  }
  const rootBox = nodes[root.id]!;
  return { width: Math.ceil(rootBox.width), height: Math.ceil(rootBox.height), nodes, edges };
}
