/**
 * Every machine under random walks; a machine joins with one spec (start, commands, answers, invariants; see
 * place-order.walk.ts) and its promises that something good happens (progress.ts).
 */
import { checkoutWalks } from './checkout.walk';
import { placeOrderWalks } from './place-order.walk';
import { checkoutProgress, placeOrderProgress, waitingProgress } from './progress';
import { waitingWalks } from './waiting.walk';
import type { WalkSpec } from './harness';

/** The fixed seed and runs per property of the walks in `npm test`. */
export const WALK_SEED = 13;
export const WALK_RUNS = 200;

export const walkSpecs: WalkSpec<never, never>[] = [
  { ...checkoutWalks, progress: checkoutProgress },
  { ...placeOrderWalks, progress: placeOrderProgress },
  { ...waitingWalks, progress: waitingProgress },
] as unknown as WalkSpec<never, never>[];
