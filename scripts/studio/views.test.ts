import { describe, expect, it } from 'vitest';
import type { StudioState, StudioTransition } from '../../studio/src/data';
import { groupLabelLines, nameInWords, wrapWords } from '../../studio/src/words';
import { productViews, viewOf } from './views';

const state = (id: string, parent: string | null, type: StudioState['type'] = 'atomic', product = ''): StudioState => ({
  id,
  key: id.split('.').at(-1)!,
  type,
  parent,
  description: '',
  product,
  initial: [],
  invoke: [],
  entry: [],
  exit: [],
});

const transition = (source: string, targets: string[], eventType: string, extra: Partial<StudioTransition> = {}): StudioTransition => ({
  id: `${source} → ${targets.join(',') || '(stays)'} on ${eventType}${extra.guard ? ` [${extra.guard}]` : ''}`,
  kind: 'on',
  source,
  targets,
  eventType,
  event: eventType,
  actions: [],
  description: '',
  product: '',
  ...extra,
});

/** A shop: browsing, then a form with two regions (e-mail and promo), then paying. */
const states = [
  state('shop', null, 'compound'),
  state('shop.browsing', 'shop'),
  state('shop.form', 'shop', 'parallel'),
  state('shop.form.email', 'shop.form', 'compound'),
  state('shop.form.email.empty', 'shop.form.email'),
  state('shop.form.email.valid', 'shop.form.email'),
  state('shop.form.promo', 'shop.form', 'compound'),
  state('shop.form.promo.idle', 'shop.form.promo'),
  state('shop.paying', 'shop', 'final'),
];
const transitions = [
  transition('shop.browsing', ['shop.form'], 'plan.select', { product: 'The shopper picks a plan' }),
  transition('shop.form.email.empty', ['shop.form.email.valid'], 'email.change', { guard: 'isEmailValid', actions: ['assignEmail'] }),
  transition('shop.form.email.valid', [], 'email.change', { actions: ['assignEmail'] }),
  transition('shop.form.email.valid', ['shop.paying'], 'order.submit', { guard: 'canSubmit' }),
  transition('shop.form.email.valid', ['shop.paying'], 'order.retry'),
  transition('shop.form', ['shop.browsing'], 'plan.change'),
];

describe('the product view, container by container', () => {
  it('draws the machine with the form shut: what leaves the form is one edge per pair of boxes, what stays inside is not drawn', () => {
    const view = viewOf(states[0]!, states, transitions);
    expect(view.nodes).toEqual([
      { id: 'shop.browsing', state: 'shop.browsing', kind: 'state' },
      { id: 'shop.form', state: 'shop.form', kind: 'collapsed' },
      { id: 'shop.paying', state: 'shop.paying', kind: 'state' },
    ]);
    expect(view.edges.map(({ source, targets, label }) => ({ source, targets, label }))).toEqual([
      { source: 'shop.browsing', targets: ['shop.form'], label: ['The shopper picks', 'a plan'] },
      { source: 'shop.form', targets: ['shop.paying'], label: ['order submit or', 'order retry'] },
      { source: 'shop.form', targets: ['shop.browsing'], label: ['plan change'] },
    ]);
  });

  it('draws a region on its own, with a box for each state its transitions leave it for', () => {
    const view = viewOf(states[3]!, states, transitions);
    expect(view.nodes.map((node) => `${node.kind} ${node.id}`)).toEqual(['state shop.form.email.empty', 'state shop.form.email.valid', 'exit exit:shop.paying']);
    expect(view.edges.map((edge) => `${edge.source} → ${edge.targets.join()}: ${edge.label.join(' ')}`)).toEqual(['shop.form.email.empty → shop.form.email.valid: email change', 'shop.form.email.valid → exit:shop.paying: order submit or order retry']);
  });

  it('lays out one view per container, the machine first, each region its own', async () => {
    const views = await productViews(states, transitions);
    expect(views.map((view) => `${view.kind} ${view.id}`)).toEqual(['machine shop', 'parallel shop.form', 'region shop.form.email', 'region shop.form.promo']);
    for (const view of views) for (const node of view.nodes) expect(view.layout.nodes[node.id]!.width).toBeGreaterThan(0);
  });
});

describe('product words', () => {
  it('names in words, wrapped lines, one label for an edge of several transitions', () => {
    expect(nameInWords('checkingSavedOrder')).toBe('checking saved order');
    expect(wrapWords('The shopper leaves the page for the payment provider')).toBeNull();
    expect(wrapWords('The shopper pays')).toEqual(['The shopper pays']);
    const many = ['payment.confirm', 'payment.decline', 'payment.expire', 'payment.retry', 'order.cancel', 'order.restore'].map((type) => transition('x', ['y'], type));
    expect(groupLabelLines(many)).toEqual(['6 ways (see below)']);
  });
});
