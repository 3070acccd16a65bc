/** Every machine under random walks; a machine joins with one spec (start, commands, answers, invariants; see place-order.walk.ts). */
import { checkoutWalks } from './checkout.walk';
import { placeOrderWalks } from './place-order.walk';
import { waitingWalks } from './waiting.walk';
import type { WalkSpec } from './harness';

/** The fixed seed and runs per property of the walks in `npm test`. */
export const WALK_SEED = 13;
export const WALK_RUNS = 200;

export const walkSpecs: WalkSpec<never, never>[] = [checkoutWalks, placeOrderWalks, waitingWalks] as unknown as WalkSpec<never, never>[];
