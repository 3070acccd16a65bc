/** The shape of build/studio/data/*.json, written by scripts/studio/build-data.ts and read by the site. */

import type { MachinePathsFigures } from '../../src/statecharts/paths-figures';

export type StateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
export type TransitionKind = 'on' | 'always' | 'after' | 'onDone' | 'onError';

export interface StudioState {
  id: string;
  key: string;
  type: StateType;
  /** Id of the parent state; null for the machine itself. */
  parent: string | null;
  description: string;
  /** In plain words for a product owner (`meta.product`, English); '' where none is written. */
  product: string;
  /** Ids of the initial child (compound states). */
  initial: string[];
  /** Invoked actors: their source name (the `setup({ actors })` key). */
  invoke: string[];
  entry: string[];
  exit: string[];
}

export interface StudioTransition {
  /** The label the path engine and `npm run paths` use; unique in the machine. */
  id: string;
  kind: TransitionKind;
  source: string;
  /** Empty for a transition that stays (no target). */
  targets: string[];
  eventType: string;
  /** The event in words: `always`, `loadProducts done`, `after pollDelay`. */
  event: string;
  guard?: string;
  actions: string[];
  /** For `after` transitions: the delay's name or its milliseconds. */
  delay?: string;
  description: string;
  /** In plain words for a product owner (`meta.product`, English); '' where none is written. */
  product: string;
}

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

/** A laid-out edge: one polyline per target (absolute coordinates), and where its label goes. */
export interface EdgeLayout {
  lines: Point[][];
  label: Box;
}

export interface Layout {
  width: number;
  height: number;
  nodes: Record<string, Box>;
  edges: Record<string, EdgeLayout>;
}

/** A box of a product view: a state drawn whole, a compound or region drawn shut, or where a transition leaves the view. */
export interface ViewNode {
  id: string;
  /** The state it stands for (for an exit: the state the transitions go to). */
  state: string;
  kind: 'state' | 'collapsed' | 'exit';
}

/** The transitions between the same boxes of a product view, drawn as one edge with one label. */
export interface ViewEdge {
  /** The first transition's id: the edge's key in the view's layout. */
  id: string;
  transitions: string[];
  source: string;
  targets: string[];
  /** The label's lines, in product words. */
  label: string[];
}

/**
 * The product view of one container state (the machine itself, a compound state or a region of a parallel state): its
 * children, those with children of their own shut, and where its transitions leave it; laid out with the product labels.
 */
export interface DiagramView {
  /** The container state's id. */
  id: string;
  kind: 'machine' | 'compound' | 'parallel' | 'region';
  nodes: ViewNode[];
  edges: ViewEdge[];
  layout: Layout;
}

/** A context field as the step shows it: its value in short, and whether the step changed it. */
export interface ContextField {
  key: string;
  value: string;
  changed: boolean;
}

export interface ScenarioStep {
  /** The event in words (the model's describeEvent), or `start`. */
  words: string;
  eventType: string;
  value: unknown;
  /** Every active state's id (ancestors included). */
  active: string[];
  transitions: string[];
  guards: string[];
  context: ContextField[];
}

export interface Scenario {
  /** 1-based, as `npm run paths` numbers it. */
  number: number;
  inputName?: string;
  /** The words of `npm run paths` (formatScenario). */
  words: string;
  /** Step 0 is the start; then one per event. */
  steps: ScenarioStep[];
  /** Step numbers with a saved screen: build/studio/data/snapshots/<machine>/<path-index>/<step>.html. */
  snapshots: number[];
}

/** The figures of `npm run paths -- --json` for one machine. */
export type MachineFigures = MachinePathsFigures;

export const LAYERS = ['machine-tests', 'view-walks', 'browser-journeys'] as const;
export type LayerName = (typeof LAYERS)[number];

/** What one test layer walked (the format of coverage/statecharts/<layer>/<machine>.json). */
export interface LayerCoverage {
  machine: string;
  layer: LayerName;
  transitions: string[];
  guardOutcomes: string[];
  pairs: string[];
  /** Where the studio got it: a file npm test wrote, or computed from the generated paths at build. */
  source: string;
}

export interface MachineTable {
  header: string[];
  rows: string[][];
}

export interface MachineData {
  machine: string;
  description: string;
  figures: MachineFigures;
  states: StudioState[];
  transitions: StudioTransition[];
  guardOutcomes: string[];
  layout: Layout;
  /** The product view, container by container (the machine's first). */
  views: DiagramView[];
  scenarios: Scenario[];
  layers: LayerCoverage[];
  tables: Record<'states' | 'transitions' | 'events' | 'guards' | 'actors' | 'actions' | 'delays', MachineTable>;
}

export interface StudioIndex {
  builtAt: string;
  machines: { name: string; description: string; figures: MachineFigures }[];
}
