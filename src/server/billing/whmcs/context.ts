import type { Clock } from '../../clock';
import type { Database } from '../../db/connect';
import { WhmcsRefusal, WhmcsUnavailable, type WhmcsClient } from './client';

export interface WhmcsBillingConfig {
  retailGid: number;
  resellerGid: number;
  /** The client group that marks a reseller. */
  resellerClientGroup: number;
  /** GATEWAYS, in order: the modules offered (a flagged order, which has no payment link, is placed with the first). */
  gateways: string[];
  catalogueTtlMs: number;
  serverHostname: string;
  /** Called once a transaction that may have queued mail has committed (the mail worker's nudge). */
  mailQueued?: () => void;
  log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** The time the checkout acts on (order times, caches, when an undo is due); the wall clock by default. */
  clock?: Clock;
  /** How long a WHMCS order or invoice of a failed request waits for a retry with its Idempotency-Key before it is undone. */
  unfinishedUndoAfterMs?: number;
}

/** What every part of the WHMCS billing shares: WHMCS's API, the checkout's store, the settings and the clock. */
export interface WhmcsBillingContext {
  whmcs: WhmcsClient;
  db: Database;
  config: WhmcsBillingConfig;
  clock: Clock;
}

/** WHMCS's custom field names of the service credentials (a product's field ids, a service's values). */
export const USERNAME_FIELD = /^user\s*name$/i;
export const PASSWORD_FIELD = /^password$/i;

/** What a failed WHMCS call said, for the undo's row and the log: the action and WHMCS's words or the transport's reason. */
export function describeWhmcsError(error: unknown): string {
  if (error instanceof WhmcsRefusal) return `${error.action}: ${error.whmcsMessage}`.slice(0, 300);
  if (error instanceof WhmcsUnavailable) return `${error.action}: unavailable (${error.reason})`.slice(0, 300);
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

/** An amount as WHMCS's API takes it. */
export const money = (cents: number) => (cents / 100).toFixed(2);
