/**
 * Flow traffic as it is written: a batch is checked name by name against the machines' definitions, tallied,
 * and added to the day's counts in one transaction. Only the counts are kept; the batch itself never is.
 */
import { sql } from 'drizzle-orm';
import { FLOW_VITAL_BUCKETS_MS, FUNNEL_STEPS, type FlowBatch } from '../domain/flow-traffic';
import type { Database } from './db/connect';
import { flowFunnel, flowStates, flowTransitions, flowVitals } from './db/schema';
import type { MachineNames } from './flow-names';

/** What one batch adds to a day, every name already known to the machines. */
export interface FlowTally {
  transitions: Map<string, { machine: string; transition: string; count: number }>;
  states: Map<string, { machine: string; state: string; entries: number; exits: number; ended: number }>;
  vitals: Map<string, { machine: string; state: string; metric: 'INP' | 'LCP'; bucketMs: number; count: number }>;
  funnel: Map<string, number>;
}

/** The bucket a measure falls in: the first upper bound at or above it, -1 above the last. */
export function vitalBucket(valueMs: number): number {
  return FLOW_VITAL_BUCKETS_MS.find((bound) => valueMs <= bound) ?? -1;
}

const keyOf = (...parts: (string | number)[]) => JSON.stringify(parts);

/** Tallies a batch; a machine, state or transition the machines do not have is dropped. */
export function tallyBatch(batch: FlowBatch, names: ReadonlyMap<string, MachineNames>): FlowTally {
  const tally: FlowTally = { transitions: new Map(), states: new Map(), vitals: new Map(), funnel: new Map() };
  const stateRow = (machine: string, state: string) => {
    const key = keyOf(machine, state);
    let row = tally.states.get(key);
    if (!row) tally.states.set(key, row = { machine, state, entries: 0, exits: 0, ended: 0 });
    return row;
  };
  for (const step of batch.steps) {
    const machine = names.get(step.machine);
    if (!machine) continue;
    for (const reported of step.transitions) {
      const transition = machine.transitionLabel(reported);
      if (transition === null) continue;
      const key = keyOf(step.machine, transition);
      const row = tally.transitions.get(key) ?? { machine: step.machine, transition, count: 0 };
      row.count += 1;
      tally.transitions.set(key, row);
    }
    for (const state of step.entered) if (machine.states.has(state)) stateRow(step.machine, state).entries += 1;
    for (const state of step.exited) if (machine.states.has(state)) stateRow(step.machine, state).exits += 1;
    for (const funnelStep of FUNNEL_STEPS) {
      if (funnelStep.machine !== step.machine || !step.entered.some((state) => (funnelStep.states as readonly string[]).includes(state))) continue;
      tally.funnel.set(funnelStep.step, (tally.funnel.get(funnelStep.step) ?? 0) + 1);
    }
  }
  for (const ended of batch.ended) {
    const machine = names.get(ended.machine);
    if (!machine) continue;
    for (const state of new Set(ended.states)) if (machine.states.has(state)) stateRow(ended.machine, state).ended += 1;
  }
  for (const vital of batch.vitals) {
    if (!names.get(vital.machine)?.states.has(vital.state)) continue;
    const bucketMs = vitalBucket(vital.value);
    const key = keyOf(vital.machine, vital.state, vital.metric, bucketMs);
    const row = tally.vitals.get(key) ?? { machine: vital.machine, state: vital.state, metric: vital.metric, bucketMs, count: 0 };
    row.count += 1;
    tally.vitals.set(key, row);
  }
  return tally;
}

/** Adds a tally to a UTC day's counts, for a locale and a gateway ('' before one was chosen); instances on one store add up. */
export async function recordTally(db: Database, tally: FlowTally, { day, locale, gateway }: { day: string; locale: string; gateway: string }): Promise<void> {
  const transitions = [...tally.transitions.values()].map((row) => ({ day, ...row }));
  const states = [...tally.states.values()].map((row) => ({ day, ...row }));
  const vitals = [...tally.vitals.values()].map((row) => ({ day, ...row }));
  const funnel = [...tally.funnel].map(([step, count]) => ({ day, locale, gateway, step, count }));
  if (!transitions.length && !states.length && !vitals.length && !funnel.length) return;
  await db.transaction(async (tx) => {
    if (transitions.length) await tx.insert(flowTransitions).values(transitions).onConflictDoUpdate({
      target: [flowTransitions.day, flowTransitions.machine, flowTransitions.transition],
      set: { count: sql`${flowTransitions.count} + excluded.count` },
    });
    if (states.length) await tx.insert(flowStates).values(states).onConflictDoUpdate({
      target: [flowStates.day, flowStates.machine, flowStates.state],
      set: { entries: sql`${flowStates.entries} + excluded.entries`, exits: sql`${flowStates.exits} + excluded.exits`, ended: sql`${flowStates.ended} + excluded.ended` },
    });
    if (vitals.length) await tx.insert(flowVitals).values(vitals).onConflictDoUpdate({
      target: [flowVitals.day, flowVitals.machine, flowVitals.state, flowVitals.metric, flowVitals.bucketMs],
      set: { count: sql`${flowVitals.count} + excluded.count` },
    });
    if (funnel.length) await tx.insert(flowFunnel).values(funnel).onConflictDoUpdate({
      target: [flowFunnel.day, flowFunnel.locale, flowFunnel.gateway, flowFunnel.step],
      set: { count: sql`${flowFunnel.count} + excluded.count` },
    });
  });
}
