/**
 * The browser journeys' layer of the statechart coverage files: the app under test is built with
 * INSPECT=record (global-setup.ts), so every machine actor's step arrives, already in the engine's
 * labels (src/app/inspect/steps.ts), through a binding every browser context of the worker gets.
 * Each worker writes its part when it ends; the global teardown merges them into
 * coverage/statecharts/browser-journeys/<machine>.json.
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { recordWalked, takeRecorded } from '../../../scripts/statecharts/coverage-record';
import { writeParts } from '../../../scripts/statecharts/coverage-files';
import type { TranslatedStep } from '../../../src/app/inspect/steps';

export const STEPS_BINDING = '__tvcStatechartSteps';
export const ERROR_BINDING = '__tvcStatechartError';

const recording = new WeakSet<BrowserContext>();
/** Steps the engine could not reproduce, per context: a journey fails on any (as a view walk does). */
const errors = new WeakMap<BrowserContext, string[]>();

export const statechartErrors = (context: BrowserContext): string[] => errors.get(context) ?? [];

/** Gives a context the binding its pages report their actors' steps to. */
export async function recordStatecharts(context: BrowserContext): Promise<void> {
  if (recording.has(context)) return;
  recording.add(context);
  await context.exposeBinding(STEPS_BINDING, (_source, steps: TranslatedStep[]) => {
    for (const step of steps) recordWalked('browser-journeys', step.machine, { transitions: step.transitions, guardOutcomes: step.guardOutcomes, pairs: step.pairs });
  });
  errors.set(context, []);
  await context.exposeBinding(ERROR_BINDING, (_source, message: string) => {
    errors.get(context)?.push(message);
  });
}

/** Every context the worker's browser opens records (the test's own and those a journey opens for another shopper). */
export function recordEveryContext(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await recordStatecharts(context);
    return context;
  };
}

/** The worker's part of the layer. */
export function writeWorkerPart(): void {
  const entries = takeRecorded();
  if (entries.length) writeParts(entries);
}
