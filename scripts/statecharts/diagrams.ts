/**
 * `npm run diagrams` writes `docs/statecharts/<machine>.md` for every model: a Mermaid
 * `stateDiagram-v2` of the real machine, then tables of its states, transitions, events, guards,
 * actors, actions and delays with their one-line meanings.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import type { DocEntry, MachineDocs, MachineModel } from './graph';
import { allModels } from './models/index';

/** Where the generated files live, relative to the repository root. */
export const DIAGRAMS_DIR = 'docs/statecharts';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of one machine's diagram file. */
export function diagramFilePath(model: MachineModel): string {
  return join(repositoryRoot, DIAGRAMS_DIR, `${model.name}.md`);
}

const EVENTLESS = '';

interface DrawnTransition {
  source: AnyStateNode;
  transition: AnyTransitionDefinition;
}

function childNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[];
}

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return childNodes(node).flatMap((child) => [child, ...allStateNodes(child)]);
}

function nodeTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  const always = (node.always ?? []) as AnyTransitionDefinition[];
  return [...[...node.transitions.values()].flat(), ...always];
}

function allTransitions(machine: AnyStateMachine): DrawnTransition[] {
  return [machine.root, ...allStateNodes(machine.root)].flatMap((source) =>
    nodeTransitions(source).map((transition) => ({ source, transition })),
  );
}

function mermaidId(node: AnyStateNode): string {
  return node.id.replace(/[^A-Za-z0-9]/g, '_');
}

export function guardText(transition: AnyTransitionDefinition): string | undefined {
  const guard: unknown = transition.guard;
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

/** A short readable name for an event type: actor results, timers and raised events in words. */
export function eventLabel(eventType: string): string {
  if (eventType === EVENTLESS) return 'always';
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `${error[1]} failed`;
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return /^\d+$/.test(after[1]!) ? `after ${after[1]} ms` : `after ${after[1]}`;
  if (eventType.startsWith('xstate.done.state.')) return 'regions done';
  return eventType;
}

function transitionLabel(transition: AnyTransitionDefinition): string {
  const guard = guardText(transition);
  return `${eventLabel(transition.eventType)}${guard ? ` [${guard}]` : ''}`;
}

/** The named actions of a list (built-ins such as assign and raise are left out). */
export function actionNames(actions: readonly unknown[]): string[] {
  return actions.flatMap((action) => {
    if (typeof action === 'string') return [action];
    if (typeof action === 'object' && action !== null && 'type' in action) return [String((action as { type: unknown }).type)];
    if (typeof action === 'function' && 'type' in action) {
      const type = String((action as { type: unknown }).type);
      // Built-ins (assign, raise, sendTo…) are implementation detail, not named effects.
      return type.startsWith('xstate.') ? [] : [type];
    }
    return [];
  });
}

function targetsOf(item: DrawnTransition): AnyStateNode[] {
  return (item.transition.target ?? [item.source]) as AnyStateNode[];
}

function arrow(source: AnyStateNode, target: AnyStateNode, transition: AnyTransitionDefinition): string {
  return `${mermaidId(source)} --> ${mermaidId(target)} : ${transitionLabel(transition)}`;
}

// Mermaid places a state where it is first named and (in older versions) moves it into any block
// that names it again, so a block only holds arrows between its own children.
function renderStates(node: AnyStateNode, drawn: Map<AnyStateNode, DrawnTransition[]>, indent: string): string[] {
  const lines: string[] = [];
  const children = childNodes(node);
  if (node.type === 'compound') {
    const initialTargets = (node.initial?.target ?? []) as AnyStateNode[];
    for (const target of initialTargets) lines.push(`${indent}[*] --> ${mermaidId(target)}`);
  }
  children.forEach((child, index) => {
    if (node.type === 'parallel' && index > 0) lines.push(`${indent}--`);
    lines.push(`${indent}state "${child.key}" as ${mermaidId(child)}`);
    if (childNodes(child).length) {
      lines.push(`${indent}state ${mermaidId(child)} {`, ...renderStates(child, drawn, `${indent}  `), `${indent}}`);
    }
    if (child.type === 'final') lines.push(`${indent}${mermaidId(child)} --> [*]`);
    for (const item of drawn.get(child) ?? []) {
      for (const target of targetsOf(item)) if (target.parent === child.parent && !isUndrawable(item, target)) lines.push(`${indent}${arrow(item.source, target, item.transition)}`);
    }
  });
  return lines;
}

function isAncestorOrSelf(node: AnyStateNode, other: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = other; current; current = current.parent) if (current === node) return true;
  return false;
}

/**
 * Transitions Mermaid cannot draw well: from a composite state to itself or into its own
 * children (they stay in the tables).
 */
function isUndrawable(item: DrawnTransition, target: AnyStateNode): boolean {
  return childNodes(item.source).length > 0 && isAncestorOrSelf(item.source, target);
}

/** The Mermaid `stateDiagram-v2` of a machine (nested and parallel states, guards in brackets). */
export function renderMermaid(machine: AnyStateMachine): string {
  const drawn = new Map<AnyStateNode, DrawnTransition[]>();
  const transitions = allTransitions(machine).filter((item) => item.source !== machine.root);
  for (const item of transitions) drawn.set(item.source, [...(drawn.get(item.source) ?? []), item]);
  const crossing = transitions.flatMap((item) =>
    targetsOf(item)
      .filter((target) => target.parent !== item.source.parent && !isUndrawable(item, target))
      .map((target) => `  ${arrow(item.source, target, item.transition)}`),
  );
  // Transitions of the machine itself apply in any state.
  const anyState = `${mermaidId(machine.root)}__any_state`;
  const global = allTransitions(machine)
    .filter((item) => item.source === machine.root)
    .flatMap((item) => targetsOf(item).map((target) => `  ${anyState} --> ${target === machine.root ? anyState : mermaidId(target)} : ${transitionLabel(item.transition)}`));
  const anyStateLines = global.length ? [`  state "any state" as ${anyState}`, ...global] : [];
  return ['stateDiagram-v2', ...renderStates(machine.root, drawn, '  '), ...crossing, ...anyStateLines].join('\n');
}

/** How many transitions the diagram leaves to the tables. */
function undrawnCount(machine: AnyStateMachine): number {
  return allTransitions(machine)
    .filter((item) => item.source !== machine.root)
    .flatMap((item) => targetsOf(item).filter((target) => isUndrawable(item, target))).length;
}

function cell(text: string | undefined): string {
  return (text ?? '—').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(header: string[], rows: string[][]): string[] {
  if (!rows.length) return ['None.'];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
}

function docOf(entries: Record<string, DocEntry> | undefined, name: string): DocEntry | undefined {
  return entries?.[name];
}

function implementationNames(machine: AnyStateMachine, kind: 'actors' | 'actions' | 'guards' | 'delays'): string[] {
  const implementations = machine.implementations as unknown as Record<string, Record<string, unknown> | undefined>;
  return Object.keys(implementations[kind] ?? {});
}

/** Everything the brief asks to describe that has no description: states, transitions, docs entries. */
export function undocumented(model: MachineModel): string[] {
  const { machine } = model;
  const docs: MachineDocs = model.docs ?? {};
  const missing: string[] = [];
  for (const node of allStateNodes(machine.root)) if (!node.description) missing.push(`state ${node.id}`);
  for (const { source, transition } of allTransitions(machine)) {
    if (!transition.description) missing.push(`transition ${source.id} on ${eventLabel(transition.eventType)}`);
  }
  for (const kind of ['actors', 'actions', 'guards', 'delays'] as const) {
    for (const name of implementationNames(machine, kind)) if (!docOf(docs[kind], name)?.description) missing.push(`${kind} ${name}`);
  }
  return missing;
}

/** One table of a machine's text description: its header and rows (cells in Markdown, names in backticks). */
export interface MachineTable {
  header: string[];
  rows: string[][];
}

/** The tables of states, transitions, events, guards, actors, actions and delays (the diagram files and the flow studio print them). */
export function machineTables(model: MachineModel): Record<'states' | 'transitions' | 'events' | 'guards' | 'actors' | 'actions' | 'delays', MachineTable> {
  const { machine } = model;
  const docs: MachineDocs = model.docs ?? {};
  const transitions = allTransitions(machine);
  const states = allStateNodes(machine.root);

  const eventTypes = [...new Set(transitions.map(({ transition }) => transition.eventType))];
  const eventRows = eventTypes.map((eventType) => {
    const meanings = [...new Set(transitions.filter(({ transition }) => transition.eventType === eventType).map(({ transition }) => transition.description).filter(Boolean))];
    return [`\`${eventType === EVENTLESS ? '(eventless)' : eventType}\``, docOf(docs.events, eventType)?.description ?? meanings.join(' / ')];
  });

  const usedIn = (predicate: (node: AnyStateNode) => boolean) =>
    states.filter(predicate).map((node) => `\`${node.id}\``).join(', ');
  const actorRows = implementationNames(machine, 'actors').map((name) => {
    const doc = docOf(docs.actors, name);
    const invokedIn = usedIn((node) => node.invoke.some((definition) => definition.src === name));
    return [`\`${name}\``, doc?.input ?? '—', doc?.output ?? '—', doc?.description ?? '—', invokedIn || '—'];
  });
  const actionRows = implementationNames(machine, 'actions').map((name) => {
    const doc = docOf(docs.actions, name);
    const used = [
      ...states.filter((node) => actionNames([...node.entry, ...node.exit]).includes(name)).map((node) => `\`${node.id}\` entry/exit`),
      ...transitions.filter(({ transition }) => actionNames(transition.actions).includes(name)).map(({ source, transition }) => `\`${source.id}\` on ${eventLabel(transition.eventType)}`),
    ];
    return [`\`${name}\``, doc?.description ?? '—', [...new Set(used)].join(', ') || '—'];
  });
  const guardRows = implementationNames(machine, 'guards').map((name) => [`\`${name}\``, docOf(docs.guards, name)?.description ?? '—']);
  const delayRows = implementationNames(machine, 'delays').map((name) => [`\`${name}\``, docOf(docs.delays, name)?.description ?? '—']);
  const stateRows = states.map((node) => [`\`${node.id}\``, node.type, node.description ?? '—']);
  const transitionRows = transitions.map(({ source, transition }) => [
    `\`${source.id}\``,
    eventLabel(transition.eventType),
    guardText(transition) ?? '',
    transition.target ? (transition.target as AnyStateNode[]).map((target) => `\`${target.id}\``).join(', ') : '(stays)',
    transition.description ?? '—',
  ]);

  return {
    states: { header: ['state', 'type', 'meaning'], rows: stateRows },
    transitions: { header: ['from', 'event', 'guard', 'to', 'meaning'], rows: transitionRows },
    events: { header: ['event', 'meaning'], rows: eventRows },
    guards: { header: ['guard', 'meaning'], rows: guardRows },
    actors: { header: ['actor', 'input', 'output', 'meaning', 'invoked in'], rows: actorRows },
    actions: { header: ['action', 'meaning', 'used in'], rows: actionRows },
    delays: { header: ['delay', 'meaning'], rows: delayRows },
  };
}

/** The full text of `docs/statecharts/<machine>.md` for one model. */
export function renderDiagramFile(model: MachineModel): string {
  const { machine } = model;
  const tables = machineTables(model);
  const section = (title: string, { header, rows }: MachineTable) => [`## ${title}`, '', ...table(header, rows), ''];
  return [
    `<!-- Generated by \`npm run diagrams\` from machines/${model.name}.machine.ts — do not edit by hand. -->`,
    `# ${model.name} machine`,
    '',
    machine.root.description ?? '',
    '',
    '```mermaid',
    renderMermaid(machine),
    '```',
    '',
    ...(undrawnCount(machine) ? [`${undrawnCount(machine)} transition(s) from a composite state to itself or its own children are listed in the Transitions table only.`, ''] : []),
    ...section('States', tables.states),
    ...section('Transitions', tables.transitions),
    ...section('Events', tables.events),
    ...section('Guards', tables.guards),
    ...section('Actors', tables.actors),
    ...section('Actions', tables.actions),
    ...section('Delays', tables.delays),
  ].join('\n');
}

function main(): void {
  for (const model of allModels) {
    const file = diagramFilePath(model);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, renderDiagramFile(model));
    console.log(`wrote ${join(DIAGRAMS_DIR, `${model.name}.md`)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
