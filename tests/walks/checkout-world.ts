/** The checkout walk's date and what it remembers besides the machine: what its answers write and its invariants read. */
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import type { CheckoutGateway, CheckoutInput, CheckoutProduct } from '../../machines/checkout.machine';
import type { PromotionLookup } from '../../src/domain/promotion';

/** 15 January 2026, noon UTC: every walk's date (promotion dates are compared with it). */
export const CHECKOUT_WALK_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
export const TODAY = '2026-01-15';

/** What the walk remembers besides the machine: its own answers, and what the machine did with them. */
export interface CheckoutWorld {
  query: CheckoutInput['query'];
  /** The products of the last catalogue answer, by pid: the price oracle of a form order. */
  catalogue: Map<number, CheckoutProduct>;
  /** The product the single lookup of a deep link described: the price oracle of a deep-link order. */
  linkedProduct: CheckoutProduct | null;
  /** The pids the shopper may order: the first three of the last catalogue answer. */
  offeredPids: number[];
  /** The gateways of the last gateway answer. */
  gateways: CheckoutGateway[];
  /** The server's lookup answer per code. */
  lookups: Map<string, PromotionLookup>;
  /** The total on screen before the last step that showed one (the form's, or a new total from the server; null before any). */
  lastShownTotal: number | null;
  /** The form was shown (a deep link that orders at once never shows it). */
  formShown: boolean;
  /** The step in which the shopper confirmed a new total from the server. */
  confirmedAtStep: number | null;
  /** Orders the server created, by Idempotency-Key. */
  createdLinks: string[];
  redirects: string[];
}

/** The placeOrder child the views talk to while an order is placed. */
export const placing = (snapshot: AnyMachineSnapshot) => snapshot.children.placeOrder as AnyActorRef | undefined;
