/**
 * What the shopper did on the server's page before the app hydrated it, as the page's capture script
 * (src/domain/page-scripts.ts) queued it: replayed once, in order, through the hydrated page's own handlers,
 * so each choice reaches its chart exactly once.
 */

/** One queued event: its type, its target and the field's value then (a box's or radio's state after the click). */
export type EarlyEvent = [type: string, target: EventTarget | null, value: unknown];

/** The capture script's global: its queue, and how to end the capture. */
export interface EarlyInput {
  queue: EarlyEvent[];
  stop: () => void;
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isField = (target: EventTarget | null): target is Field => {
  const tag = (target as { tagName?: unknown } | null)?.tagName;
  return typeof tag === 'string' && /^(INPUT|SELECT|TEXTAREA)$/.test(tag);
};

/**
 * Gives a field its value as typing does: the element's own `value` (which React tracks) first says it was
 * empty, the prototype's setter writes the value, and the event tells React, which then sees a change once.
 */
function typeInto(field: Field, value: string, type: string): void {
  field.value = '';
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event(type === 'change' || field.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
}

/**
 * A box or radio the browser already ticked: set back (through the element, so React's tracking agrees) to its state
 * before the click, then clicked again, so the page's handler sees the one change the shopper made.
 */
function clickCheckable(box: HTMLInputElement, checkedAfter: boolean): void {
  box.checked = !checkedAfter;
  box.click();
}

/** Ends the capture and replays its queue once, in order: clicks as clicks (their defaults included), inputs as typing. */
export function replayEarlyInput(early: EarlyInput | undefined): number {
  if (!early) return 0;
  early.stop();
  const events = early.queue.splice(0);
  for (const [type, target, value] of events) {
    // A part React rendered again (not hydrated as sent) has new elements: the old ones are gone with what was done on them.
    if (!(target as Node | null)?.isConnected) continue;
    if (type === 'click' && typeof value === 'boolean') clickCheckable(target as HTMLInputElement, value);
    else if (type === 'click') (target as HTMLElement).click();
    else if (isField(target) && typeof value === 'string') typeInto(target, value, type);
  }
  return events.length;
}
