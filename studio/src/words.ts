/** The product view's words: state names and transition labels a product owner reads, with no guard, action or state id. */
import type { StudioState, StudioTransition } from './data';

/** Longest line of a label drawn on the diagram; longer product words stay in the side list and the tooltip. */
const LINE = 18;
const MAX_LINES = 2;

/** `awaitingPayment` → `awaiting payment`, `TV-code` stays as it is. */
export function nameInWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}

/** Words cut into lines of at most `width` characters; null when they need more than `lines` lines. */
export function wrapWords(text: string, width = LINE, lines = MAX_LINES): string[] | null {
  const out: string[] = [];
  for (const word of text.trim().split(/\s+/)) {
    const last = out.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out.length <= lines && out.every((line) => line.length <= width) ? out : null;
}

/** The event as a shopper's or the system's deed: `email.change` → `email change`, `loadProducts done` → `load products done`. */
export function eventInWords(transition: StudioTransition): string {
  if (transition.kind === 'always') return 'at once';
  if (transition.kind === 'after') return `after ${nameInWords(transition.delay ?? 'a while')}`;
  return transition.event
    .split(/[\s.]+/)
    .filter(Boolean)
    .map(nameInWords)
    .join(' ');
}

/** The transition's label in the product view: its product words where they fit two short lines, else the event in words. */
export function productLabelLines(transition: StudioTransition): string[] {
  return (transition.product && wrapWords(transition.product)) || wrapWords(eventInWords(transition), LINE, 3) || [eventInWords(transition)];
}

/** The engineer's sentence read as plain text (code marks dropped). */
const plain = (text: string) => text.replace(/`([^`]*)`/g, '$1');

/** A transition in full words: its product words, else the engineer's sentence, else its event in words. */
export const transitionWords = (transition: StudioTransition) => transition.product || plain(transition.description) || eventInWords(transition);

/** A state in full words: its product words, else the engineer's sentence. */
export const stateWords = (state: StudioState) => state.product || plain(state.description);

/** A state's name in the product view. */
export const stateName = (state: Pick<StudioState, 'key'>) => nameInWords(state.key);

/** One label for the transitions drawn as one edge: theirs when they agree, their events joined when short, else how many. */
export function groupLabelLines(transitions: StudioTransition[]): string[] {
  const labels = [...new Set(transitions.map((transition) => productLabelLines(transition).join(' ')))];
  if (labels.length === 1) return productLabelLines(transitions[0]!);
  const events = [...new Set(transitions.map(eventInWords))];
  return wrapWords(events.join(' or '), LINE, 3) ?? [`${transitions.length} ways (see below)`];
}
