/** Every machine under random walks; add a machine here with its spec (see checkout.walk.ts). */
import { checkoutWalks } from './checkout.walk';
import { waitingWalks } from './waiting.walk';
import type { WalkSpec } from './harness';

/** The fixed seed and runs per property of the walks in `npm test`. */
export const WALK_SEED = 13;
export const WALK_RUNS = 200;

export const walkSpecs: WalkSpec<never, never>[] = [checkoutWalks, waitingWalks] as unknown as WalkSpec<never, never>[];
