/**
 * Flow traffic: what the app reports of the steps shoppers take through the statecharts, and what the
 * server reads back out. Anonymous by construction: names from the machines' own definitions and closed
 * lists only (machine, state and event names, a locale, a gateway module), never context, ids or amounts.
 */

/** One transition taken, as its definition names it (the server matches it to the machine's transition label). */
export interface FlowTransition {
  source: string;
  event: string;
  targets: string[];
  guard?: string;
}

/** One step of one machine actor: its start (no transitions, the initial states entered) or one microstep. */
export interface FlowStep {
  machine: string;
  transitions: FlowTransition[];
  /** Ids of the state nodes the step entered and left (the machine's root id when the actor started). */
  entered: string[];
  exited: string[];
}

/** A web-vitals measure attributed to a state: INP of interactions made in it, LCP of the page where it was entered first. */
export interface FlowVital {
  machine: string;
  state: string;
  metric: FlowMetric;
  /** Milliseconds. */
  value: number;
}

/** The active leaf states of a machine actor when the visit ended (the page was hidden or left). */
export interface FlowEnded {
  machine: string;
  states: string[];
}

/** A batch sent by `navigator.sendBeacon` to POST /checkout/api/flowEvents (the contract's FlowEventBatch). */
export interface FlowBatch {
  locale: string;
  /** The module of the gateway the shopper chose, once chosen; the server keeps it only if it is one of the shop's. */
  gateway?: string;
  steps: FlowStep[];
  vitals: FlowVital[];
  ended: FlowEnded[];
}

export const FLOW_METRICS = ['INP', 'LCP'] as const;
export type FlowMetric = (typeof FLOW_METRICS)[number];

/** The most a batch may hold; the contract's maxItems say the same. */
export const FLOW_BATCH_LIMITS = { bytes: 16_384, steps: 200, vitals: 100, ended: 20 } as const;

/** Upper bounds (ms) of the histogram buckets INP and LCP are counted in; a last bucket holds everything above. */
export const FLOW_VITAL_BUCKETS_MS = [16, 50, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 6000, 10_000] as const;

/** INP at or under this is good (web.dev's threshold): the studio colours a state's INP p75 against it. */
export const GOOD_INP_MS = 200;

/** The funnel's steps, in order: which state's entry counts a shopper as having reached it. */
export const FUNNEL_STEPS = [
  { step: 'index', machine: 'checkout', states: ['checkout.ready'], title: 'Shop page shown' },
  { step: 'order', machine: 'placeOrder', states: ['placeOrder.toPayment', 'placeOrder.toWaiting'], title: 'Order created' },
  { step: 'payment', machine: 'checkout', states: ['checkout.redirecting'], title: "Sent to the provider's payment page" },
  { step: 'paid', machine: 'waiting', states: ['waitingSuccess'], title: 'Paid' },
  { step: 'credentials', machine: 'service', states: ['service.ready'], title: 'Login details shown' },
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number]['step'];

/** A count as every read-out shows it: the number, or only that it is fewer than the threshold. */
export type ShownCount = number | { fewerThan: number };

/** Counts under FLOW_MIN_COUNT are never shown as numbers. */
export function shownCount(count: number, minCount: number): ShownCount {
  return count < minCount ? { fewerThan: minCount } : count;
}

/** "12" or "fewer than 5". */
export function countInWords(count: ShownCount): string {
  return typeof count === 'number' ? String(count) : `fewer than ${count.fewerThan}`;
}

/** GET /flowStats on the operator listener: the aggregates between two UTC days, small counts masked. */
export interface FlowStats {
  /** UTC days, inclusive. */
  from: string;
  to: string;
  minCount: number;
  machines: FlowMachineStats[];
  funnel: FlowFunnel;
}

export interface FlowMachineStats {
  machine: string;
  /** Actors started (a page that ran the machine). */
  visits: ShownCount;
  transitions: { transition: string; count: ShownCount }[];
  states: FlowStateStats[];
}

export interface FlowStateStats {
  state: string;
  entries: ShownCount;
  exits: ShownCount;
  /** Visits whose last state of this machine was this one. */
  ended: ShownCount;
  /** ended ÷ visits, when both are shown. */
  endedShare: number | null;
  /** p75 in ms over at least minCount measures; else null. */
  inpP75: number | null;
  lcpP75: number | null;
  inpSamples: ShownCount;
  lcpSamples: ShownCount;
}

/**
 * The funnel per period (a UTC day, or the Monday of an ISO week) and step, summed over the locales and gateways
 * the query did not name (`locale`, `gateway` filters; gateway '' is traffic before a gateway was chosen), masked
 * after summing. `locales` and `gateways` list what the period range has, for the read-out's choices.
 */
export interface FlowFunnel {
  by: 'day' | 'week';
  locale: string | null;
  gateway: string | null;
  locales: string[];
  gateways: string[];
  rows: { period: string; step: FunnelStep; count: ShownCount }[];
}
