/**
 * Sends the flow traffic the collector gathered, in batches by `navigator.sendBeacon` to POST /flowEvents:
 * when the page is hidden or left, and early when a batch nears its limits. Adds per state the web-vitals
 * measures (INP of the worst interaction made in it, LCP of the page to the states it settled in first) and,
 * when the page is left, where each running actor ended. No cookie, storage or identifier: a visit is counted.
 * A chunk of its own, loaded after hydration (main.tsx).
 */
import { onINP, onLCP, type Metric } from 'web-vitals';
import { FLOW_BATCH_LIMITS, type FlowBatch, type FlowEnded, type FlowVital } from '../../domain/flow-traffic';
import { leafIds, type FlowActor, type FlowCollector } from './collector';

export const FLOW_EVENTS_PATH = '/checkout/api/flowEvents';
/** A gateway module as the contract writes it. */
const GATEWAY_SHAPE = /^[a-z0-9_-]{1,40}$/;
/** Batches are sent once this share of a limit is reached, so one more step never overflows them. */
const FILL = 0.8;

export interface FlowSenderOptions {
  /** The page's locale when a batch is sent. */
  locale: () => string;
  /** The module of the gateway the shopper chose, once chosen. */
  gateway: () => string | undefined;
  /** Sends one batch: navigator.sendBeacon with a JSON Blob by default. */
  send?: (body: Blob) => boolean;
}

/** The states an actor was in at a moment (performance.now()); none before it started. */
function statesAt(actor: FlowActor, at: number): string[] {
  let states: string[] = [];
  for (const [since, leaves] of actor.history) if (since <= at) states = leaves;
  return states;
}

export interface FlowSender {
  /** Sends what is waiting; `leaving` adds where each running actor ended. */
  flush: (leaving: boolean) => void;
  /** Attributes one web-vitals report to the states (web-vitals calls it; tests hand it measures). */
  measured: (metric: Pick<Metric, 'name' | 'value' | 'entries'>) => void;
}

export function startFlowSender(collector: FlowCollector, options: FlowSenderOptions): FlowSender {
  const send = options.send ?? ((body: Blob) => navigator.sendBeacon(FLOW_EVENTS_PATH, body));
  const vitals = new Map<string, FlowVital>();
  let pendingBytes = 0;

  const measure = (actor: FlowActor, states: string[], metric: FlowVital['metric'], value: number) => {
    for (const state of states) {
      const key = `${metric} ${actor.machine} ${state}`;
      const kept = vitals.get(key);
      if (!kept || kept.value < value) vitals.set(key, { machine: actor.machine, state, metric, value: Math.min(Math.round(value), 600_000) });
    }
  };
  const onVital = (metric: Pick<Metric, 'name' | 'value' | 'entries'>) => {
    if (metric.name === 'LCP') {
      for (const actor of collector.started) measure(actor, actor.settled, 'LCP', metric.value);
    } else {
      const at = metric.entries[0]?.startTime;
      if (at !== undefined) for (const actor of collector.started) measure(actor, statesAt(actor, at), 'INP', metric.value);
    }
    // web-vitals reports LCP (and the last INP) as the page is hidden, possibly after this page's own handler ran.
    if (vitals.size >= FLOW_BATCH_LIMITS.vitals * FILL || document.visibilityState === 'hidden') flush(false);
  };

  function flush(leaving: boolean) {
    const ended: FlowEnded[] = leaving ? [...collector.live].slice(0, FLOW_BATCH_LIMITS.ended).map((actor) => ({ machine: actor.machine, states: leafIds(actor.nodes) })) : [];
    const gateway = options.gateway();
    const pendingVitals = [...vitals.values()];
    vitals.clear();
    pendingBytes = 0;
    while (collector.steps.length || pendingVitals.length || ended.length) {
      const batch: FlowBatch = { locale: options.locale(), ...(gateway && GATEWAY_SHAPE.test(gateway) ? { gateway } : {}), steps: [], vitals: pendingVitals.splice(0, FLOW_BATCH_LIMITS.vitals), ended: ended.splice(0) };
      let bytes = JSON.stringify(batch).length;
      while (collector.steps.length && batch.steps.length < FLOW_BATCH_LIMITS.steps) {
        const stepBytes = JSON.stringify(collector.steps[0]).length + 1;
        if (bytes + stepBytes > FLOW_BATCH_LIMITS.bytes) break;
        bytes += stepBytes;
        batch.steps.push(collector.steps.shift()!);
      }
      // A step too large for any batch is dropped rather than holding the others back.
      if (!batch.steps.length && !batch.vitals.length && !batch.ended.length) collector.steps.shift();
      else send(new Blob([JSON.stringify(batch)], { type: 'application/json' }));
    }
  }

  collector.onStep = () => {
    pendingBytes += JSON.stringify(collector.steps.at(-1)).length + 1;
    if (pendingBytes >= FLOW_BATCH_LIMITS.bytes * FILL || collector.steps.length >= FLOW_BATCH_LIMITS.steps * FILL) flush(false);
  };
  for (const step of collector.steps) pendingBytes += JSON.stringify(step).length + 1;
  onINP(onVital, { reportAllChanges: true, durationThreshold: 16 });
  onLCP(onVital);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush(false);
  });
  addEventListener('pagehide', () => flush(true));
  return { flush, measured: onVital };
}
