/**
 * The flow studio's build-time data: for every machine model, the real machine's states and
 * transitions, their ELK layout, every generated path as a scenario (the words of `npm run paths`,
 * and per step the state, the transitions taken and the context), the figures of
 * `npm run paths -- --json`, the coverage of each test layer and the tables of docs/statecharts.
 * Writes build/studio/data/<machine>.json and build/studio/data/index.json.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getStateNodes, type AnyStateMachine, type AnyStateNode, type StateValue } from 'xstate';
import { getStateNodes as descendantStateNodes } from 'xstate/graph';
import { actionNames, eventLabel, machineTables } from '../statecharts/diagrams';
import { formatScenario, generatePaths, type MachineModel, type ModelPath } from '../statecharts/graph';
import { allModels } from '../statecharts/models/index';
import { reportPaths } from '../statecharts/paths';
import { machineGuardOutcomes, machineTransitions, takeInitialStep } from '../../src/statecharts/transitions';
import { LAYERS, type ContextField, type LayerCoverage, type MachineData, type Scenario, type ScenarioStep, type StudioIndex, type StudioState, type StudioTransition } from '../../studio/src/data';
import { COVERAGE_DIR } from '../statecharts/coverage-files';
import { layoutMachine } from './layout';
import { productViews } from './views';

const ROOT = resolve(import.meta.dirname, '../..');

/** The plain-language words a state or transition carries for the product view (`meta: { product }`), or ''. */
function productWords(meta: unknown): string {
  const product = typeof meta === 'object' && meta !== null ? (meta as { product?: unknown }).product : undefined;
  return typeof product === 'string' ? product : '';
}

function statesOf(machine: AnyStateMachine): StudioState[] {
  return [machine.root, ...descendantStateNodes(machine.root)].map((node: AnyStateNode) => ({
    id: node.id,
    key: node.parent ? node.key : machine.id,
    type: node.type,
    parent: node.parent?.id ?? null,
    description: node.description ?? '',
    product: productWords(node.meta),
    initial: node.type === 'compound' ? ((node.initial?.target ?? []) as AnyStateNode[]).map((target) => target.id) : [],
    invoke: node.invoke.map((definition) => (typeof definition.src === 'string' ? definition.src : definition.id)),
    entry: actionNames(node.entry),
    exit: actionNames(node.exit),
  }));
}

function transitionsOf(machine: AnyStateMachine): StudioTransition[] {
  return machineTransitions(machine).map((transition) => {
    const delay = /^xstate\.after\.([^.]+)\./.exec(transition.eventType)?.[1];
    return {
      id: transition.label,
      kind: transition.kind,
      source: transition.source,
      targets: transition.targets,
      eventType: transition.eventType,
      event: eventLabel(transition.eventType === 'always' ? '' : transition.eventType),
      ...(transition.guard ? { guard: transition.guard } : {}),
      actions: actionNames(transition.definition.actions),
      ...(delay ? { delay: /^\d+$/.test(delay) ? `${delay} ms` : delay } : {}),
      description: transition.definition.description ?? '',
      product: productWords(transition.definition.meta),
    };
  });
}

const MAX_VALUE = 140;

/** One context field in short: strings and numbers as they are, lists by their size and names, the rest as JSON cut to a line. */
export function summarizeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) {
    const named = value.map((item) => (typeof item === 'object' && item !== null ? ((item as Record<string, unknown>).name ?? (item as Record<string, unknown>).module ?? (item as Record<string, unknown>).id) : item));
    const names = value.length && named.every((name) => name !== undefined && typeof name !== 'object') ? `: ${named.join(', ')}` : '';
    return `${value.length} item${value.length === 1 ? '' : 's'}${names}`.slice(0, MAX_VALUE);
  }
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function contextFields(context: unknown, previous: unknown): ContextField[] {
  if (typeof context !== 'object' || context === null) return [];
  const before = (typeof previous === 'object' && previous !== null ? previous : {}) as Record<string, unknown>;
  return Object.entries(context as Record<string, unknown>).map(([key, value]) => ({
    key,
    value: summarizeValue(value),
    changed: previous !== undefined && JSON.stringify(value) !== JSON.stringify(before[key]),
  }));
}

const activeIds = (machine: AnyStateMachine, value: StateValue) => getStateNodes(machine.root, value).filter((node) => node.parent).map((node) => node.id);

/** Step numbers that have a saved screen at build/studio/data/snapshots/<machine>/<path number>/<step>.html. */
function snapshotsOf(snapshotDir: string, machine: string, number: number): number[] {
  const dir = join(snapshotDir, machine, String(number));
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => /^(\d+)\.html$/.exec(file)?.[1])
    .filter((step): step is string => step !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function scenarioOf(model: MachineModel, path: ModelPath, index: number, snapshotDir: string): Scenario {
  const { machine } = model;
  const snapshot = takeInitialStep(machine, path.input).snapshot;
  const { value: startValue, context: startContext } = JSON.parse(JSON.stringify({ value: snapshot.value, context: snapshot.context })) as { value: StateValue; context: unknown };
  const start: ScenarioStep = {
    words: 'start',
    eventType: 'xstate.init',
    value: startValue,
    active: activeIds(machine, startValue),
    transitions: path.start.transitions,
    guards: path.start.guards,
    context: contextFields(startContext, undefined),
  };
  let previous = startContext;
  const steps = path.steps.map((step): ScenarioStep => {
    const fields = contextFields(step.state.context, previous);
    previous = step.state.context;
    return {
      words: model.describeEvent(step.event),
      eventType: step.event.type,
      value: step.state.value,
      active: activeIds(machine, step.state.value),
      transitions: step.transitions,
      guards: step.guards,
      context: fields,
    };
  });
  return {
    number: index + 1,
    ...(path.inputName === undefined ? {} : { inputName: path.inputName }),
    words: formatScenario(model, path),
    steps: [start, ...steps],
    snapshots: snapshotsOf(snapshotDir, model.name, index + 1),
  };
}

/** What the generated paths walk: the machine-tests layer when npm test has not written it. */
function layerFromPaths(machine: string, paths: ModelPath[]): LayerCoverage {
  const union = (pick: (path: ModelPath) => string[]) => [...new Set(paths.flatMap(pick))];
  return {
    machine,
    layer: 'machine-tests',
    transitions: union((path) => [...path.start.transitions, ...path.transitions]),
    guardOutcomes: union((path) => [...path.start.guards, ...path.guards]),
    pairs: union((path) => path.pairs).map((pair) => pair.replace(' ⇒ ', ' → ')),
    source: 'computed from the generated paths at build time (npm test has not written coverage/statecharts/machine-tests yet)',
  };
}

function recordedLayers(machine: string, coverageDir: string): LayerCoverage[] {
  return LAYERS.flatMap((layer) => {
    const file = join(coverageDir, layer, `${machine}.json`);
    if (!existsSync(file)) return [];
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as Omit<LayerCoverage, 'source'>;
    return [{ machine, layer, transitions: recorded.transitions ?? [], guardOutcomes: recorded.guardOutcomes ?? [], pairs: recorded.pairs ?? [], source: `coverage/statecharts/${layer}/${machine}.json` }];
  });
}

/** Everything the studio shows of one machine. */
export async function machineData(model: MachineModel, options: { coverageDir: string; snapshotDir: string }): Promise<MachineData> {
  const { machine } = model;
  const states = statesOf(machine);
  const transitions = transitionsOf(machine);
  const paths = generatePaths(model);
  const recorded = recordedLayers(model.name, options.coverageDir);
  const layers = recorded.some((layer) => layer.layer === 'machine-tests') ? recorded : [layerFromPaths(model.name, paths), ...recorded];
  return {
    machine: model.name,
    description: machine.root.description ?? '',
    figures: reportPaths(model, paths).figures,
    states,
    transitions,
    guardOutcomes: machineGuardOutcomes(machine),
    layout: await layoutMachine(states, transitions),
    views: await productViews(states, transitions),
    scenarios: paths.map((path, index) => scenarioOf(model, path, index, options.snapshotDir)),
    layers: LAYERS.flatMap((name) => layers.filter((layer) => layer.layer === name)),
    tables: machineTables(model),
  };
}

/** Writes data/<machine>.json for every model and data/index.json into the studio's output directory. */
export async function buildStudioData(outDir: string, coverageDir = COVERAGE_DIR): Promise<StudioIndex> {
  const dataDir = join(outDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const index: StudioIndex = { builtAt: new Date().toISOString(), machines: [] };
  for (const model of allModels) {
    const data = await machineData(model, { coverageDir, snapshotDir: join(dataDir, 'snapshots') });
    writeFileSync(join(dataDir, `${model.name}.json`), JSON.stringify(data));
    index.machines.push({ name: model.name, description: data.description, figures: data.figures });
  }
  writeFileSync(join(dataDir, 'index.json'), JSON.stringify(index));
  return index;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const index = await buildStudioData(join(ROOT, 'build', 'studio'));
  console.log(`studio data: ${index.machines.map((machine) => machine.name).join(', ')}`);
}
