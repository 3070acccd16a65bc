/**
 * The product view of a machine, container by container: the machine itself, then every compound state and every
 * region of a parallel state, each drawn as its own small diagram (children with children of their own shut, one box
 * with their name and what leaves them), so that at "fit" every label still reads. Laid out with the product labels.
 */
import type { DiagramView, Layout, StudioState, StudioTransition, ViewEdge, ViewNode } from '../../studio/src/data';
import { PRODUCT_METRICS, VIEW_FRAME } from '../../studio/src/metrics';
import { groupLabelLines, stateName } from '../../studio/src/words';
import { layoutMachine } from './layout';

/** The id of the box standing for the states a view's transitions leave it for. */
export const exitNodeId = (target: string) => `exit:${target}`;

function viewKind(state: StudioState, byId: Map<string, StudioState>): DiagramView['kind'] {
  if (state.parent === null) return 'machine';
  if (state.type === 'parallel') return 'parallel';
  return byId.get(state.parent)?.type === 'parallel' ? 'region' : 'compound';
}

/** What one container's view draws: its children, the transitions between them and those that leave it. */
export function viewOf(container: StudioState, states: StudioState[], transitions: StudioTransition[]): Omit<DiagramView, 'layout' | 'kind'> {
  const byId = new Map(states.map((state) => [state.id, state]));
  const children = states.filter((state) => state.parent === container.id);
  const hasChildren = new Set(states.map((state) => state.parent));
  // The child of the container that holds a state, or null for a state outside it (or the container itself).
  const childHolding = (id: string): string | null => {
    for (let current = byId.get(id); current?.parent; current = byId.get(current.parent)) if (current.parent === container.id) return current.id;
    return null;
  };
  const nodes: ViewNode[] = children.map((child) => ({ id: child.id, state: child.id, kind: hasChildren.has(child.id) ? 'collapsed' : 'state' }));
  // Transitions between the same boxes share one edge (the list under the diagram names each).
  const groups = new Map<string, StudioTransition[]>();
  for (const transition of transitions) {
    const source = childHolding(transition.source);
    // A transition that stays where it is changes no box: the list of words under the diagram tells it.
    if (source === null || !transition.targets.length) continue;
    const targets = [...new Set(transition.targets.map((target) => childHolding(target) ?? exitNodeId(target)))];
    if (targets.every((target) => target === source) && hasChildren.has(source)) continue;
    for (const target of targets) {
      if (target.startsWith('exit:') && !nodes.some((node) => node.id === target)) nodes.push({ id: target, state: target.slice('exit:'.length), kind: 'exit' });
    }
    const key = `${source} → ${targets.join(' ')}`;
    const group = groups.get(key);
    if (group) group.push(transition);
    else groups.set(key, [transition]);
  }
  const edges: ViewEdge[] = [...groups.values()].map((group) => ({
    id: group[0]!.id,
    transitions: group.map((transition) => transition.id),
    source: childHolding(group[0]!.source)!,
    targets: [...new Set(group[0]!.targets.map((target) => childHolding(target) ?? exitNodeId(target)))],
    label: groupLabelLines(group),
  }));
  return { id: container.id, nodes, edges };
}

/** The name a view's box shows (and the layout measures): the state's name in words, `to <name>` for an exit. */
export function nodeName(node: ViewNode, byId: Map<string, StudioState>): string {
  const name = stateName(byId.get(node.state) ?? { key: node.state });
  return node.kind === 'exit' ? `to ${name}` : node.kind === 'collapsed' ? `${name} ▸` : name;
}

/** Every container's product view, laid out; the machine's first, then in the definition's order. */
export async function productViews(states: StudioState[], transitions: StudioTransition[]): Promise<DiagramView[]> {
  const byId = new Map(states.map((state) => [state.id, state]));
  const byTransition = new Map(transitions.map((transition) => [transition.id, transition]));
  const containers = states.filter((state) => states.some((child) => child.parent === state.id));
  const views: DiagramView[] = [];
  for (const container of containers) {
    const view = viewOf(container, states, transitions);
    const drawn: StudioState[] = [
      { ...container, key: stateName(container), type: 'compound', parent: null, invoke: [], initial: [] },
      ...view.nodes.map((node): StudioState => ({
        ...(byId.get(node.state) ?? container),
        id: node.id,
        key: nodeName(node, byId),
        type: node.kind === 'state' ? byId.get(node.state)!.type : 'atomic',
        parent: container.id,
        invoke: [],
        initial: [],
      })),
    ];
    const drawnTransitions = view.edges.map((edge) => ({ ...byTransition.get(edge.id)!, source: edge.source, targets: edge.targets }));
    const labels = new Map(view.edges.map((edge) => [edge.id, edge.label]));
    const options = { labelLines: (transition: StudioTransition) => labels.get(transition.id)!, metrics: PRODUCT_METRICS };
    const candidates = await Promise.all((['DOWN', 'RIGHT'] as const).map((direction) => layoutMachine(drawn, drawnTransitions, { ...options, direction })));
    // The direction that lets the view be drawn largest in the studio's frame.
    const scale = (layout: Layout) => Math.min(VIEW_FRAME.width / layout.width, VIEW_FRAME.height / layout.height);
    const layout = candidates.reduce((best, candidate) => (scale(candidate) > scale(best) ? candidate : best));
    views.push({ ...view, kind: viewKind(container, byId), layout });
  }
  return views;
}
