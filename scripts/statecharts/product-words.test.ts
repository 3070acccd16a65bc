/**
 * Every state and transition of the charts the studio draws carries plain-language words for a product owner
 * (`meta.product`): one English sentence of at most 120 characters, without any identifier of the code.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { machineTransitions } from '../../src/statecharts/transitions';
import { allModels } from './models/index';

/** The longest sentence a label may carry, as the product owners asked. */
const MAX_PRODUCT_WORDS = 120;

const IDENTIFIER_SHAPES: { shape: RegExp; says: string }[] = [
  { shape: /\b[a-z]+[A-Z]\w*/, says: 'a camelCase identifier' },
  { shape: /\b[a-z]+\.[a-z]+/, says: 'a dotted event or state name' },
  { shape: /\b\w+_\w+/, says: 'a snake_case code' },
];

/** The names the machine's setup declares: its guards, actions, actors and delays. */
function codeNames(machine: AnyStateMachine): string[] {
  const { guards, actions, actors, delays } = machine.implementations;
  return [guards, actions, actors, delays].flatMap((declared) => Object.keys(declared ?? {}));
}

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What is wrong with one label's words under the product owners' rule; nothing when they are fine. */
function productWordsProblems(meta: unknown, names: string[]): string[] {
  const product = typeof meta === 'object' && meta !== null ? (meta as { product?: unknown }).product : undefined;
  if (typeof product !== 'string' || product.trim() === '') return ['no product words'];
  const problems: string[] = [];
  if (product.length > MAX_PRODUCT_WORDS) problems.push(`${product.length} characters`);
  for (const { shape, says } of IDENTIFIER_SHAPES) if (shape.test(product)) problems.push(says);
  for (const name of names) if (new RegExp(`\\b${escaped(name)}\\b`, 'i').test(product)) problems.push(`names '${name}'`);
  return problems;
}

function stateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(stateNodes)];
}

describe('the product words rule', () => {
  const names = ['assignDraft', 'login', 'isAutoOrderAsClient'];
  it.each([
    [{ product: 'The shopper has typed an e-mail address we can send the receipt to.' }, []],
    [undefined, ['no product words']],
    [{ description: 'Shows the form.' }, ['no product words']],
    [{ product: '' }, ['no product words']],
    [{ product: 'a'.repeat(121) }, ['121 characters']],
    [{ product: 'The shopper presses Pay and isAutoOrderAsClient decides.' }, ['a camelCase identifier', "names 'isAutoOrderAsClient'"]],
    [{ product: 'The login actor checks the password.' }, ["names 'login'"]],
    [{ product: 'The shopper sends promo.apply.' }, ['a dotted event or state name']],
    [{ product: 'The server answers price_changed.' }, ['a snake_case code']],
  ])('judges %j as %j', (meta, problems) => {
    expect(productWordsProblems(meta, names)).toEqual(problems);
  });
});

describe.each(allModels.map((model) => [model.name, model.machine] as const))('%s in plain language', (_name, machine) => {
  const names = codeNames(machine);

  it('gives every state node, the root included, product words by the rule', () => {
    const wrong = stateNodes(machine.root).flatMap((node) => productWordsProblems(node.meta, names).map((problem) => `${node.id}: ${problem}`));
    expect(wrong).toEqual([]);
  });

  it('gives every transition, each guarded branch its own, product words by the rule', () => {
    const transitions = machineTransitions(machine);
    const wrong = transitions.flatMap((transition) => productWordsProblems(transition.definition.meta, names).map((problem) => `${transition.label}: ${problem}`));
    expect(transitions.length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});
