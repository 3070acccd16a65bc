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

/**
 * True once React has hydrated an element (it keeps its props on it): a click replayed before that would reach
 * a boundary still waiting to hydrate, which React then renders anew and the click is lost. React has no public
 * word for "this element is hydrated"; its own key on the node is what its event system reads.
 */
const hydratedByReact = (target: EventTarget | null): boolean => target !== null && Object.keys(target).some((key) => key.startsWith('__reactProps$'));

/** Replays the queue, in order: clicks as clicks (their defaults included), inputs as typing. */
function replay(events: readonly EarlyEvent[]): void {
  for (const [type, target, value] of events) {
    // A part React rendered again (not hydrated as sent) has new elements: the old ones are gone with what was done on them.
    if (!(target as Node | null)?.isConnected) continue;
    if (type === 'click' && typeof value === 'boolean') clickCheckable(target as HTMLInputElement, value);
    else if (type === 'click') (target as HTMLElement).click();
    else if (isField(target) && typeof value === 'string') typeInto(target, value, type);
  }
}

/** How long at most the replay waits for React to hydrate the elements it targets. */
const HYDRATION_WAIT_MS = 30_000;

/** How long at most one wait for an idle moment lasts: an overloaded browser may give none for seconds. */
const IDLE_WAIT_MS = 1_000;

/**
 * The next moment the page is idle: React renders a hydration in slices, each posted as a task, so an idle moment
 * comes only once a slice's commit is done. (An element has its props from the render, before the commit: an event
 * dispatched between the two reaches no handler.) A page given no idle moment goes on after IDLE_WAIT_MS.
 */
const whenPageIdle = (then: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: IDLE_WAIT_MS });
  else setTimeout(then, 16);
};

/**
 * Ends the capture and replays its queue once, when the page is idle and every element it targets is hydrated (or
 * gone); until then the capture goes on, so what the shopper does meanwhile joins the queue in order. `done` follows the replay.
 */
export function replayEarlyInput(early: EarlyInput | undefined, done: () => void = () => {}, since = performance.now()): void {
  if (!early) return done();
  whenPageIdle(() => {
    const pending = early.queue.some(([, target]) => (target as Node | null)?.isConnected && !hydratedByReact(target));
    if (pending && performance.now() - since < HYDRATION_WAIT_MS) return replayEarlyInput(early, done, since);
    early.stop();
    replay(early.queue.splice(0));
    done();
  });
}
