import type { Clock } from '../../clock';
import type { WhmcsConfig } from '../../config';
import type { Database } from '../../db/connect';
import type { BillingPort } from '../port';
import { createWhmcsBilling } from './billing';
import { createWhmcsClient, type WhmcsClient } from './client';

export { createWhmcsBilling } from './billing';
export { createWhmcsClient, WhmcsRefusal, WhmcsUnavailable } from './client';

type Log = { warn(object: object, message: string): void; error(object: object, message: string): void };

/** The WHMCS billing port as BILLING=whmcs configures it, with its client (closed with the app). */
export function whmcsBillingFromConfig(whmcs: WhmcsConfig, db: Database, options: {
  gateways: string[]; catalogueTtlMs: number; serverHostname: string; clock?: Clock; mailQueued?: () => void; log?: Log;
}): { billing: BillingPort; client: WhmcsClient } {
  const client = createWhmcsClient({ url: whmcs.url, identifier: whmcs.identifier, secret: whmcs.secret, accesskey: whmcs.accesskey, ...(options.log ? { log: options.log } : {}) });
  const billing = createWhmcsBilling(client, db, {
    retailGid: whmcs.retailGid, resellerGid: whmcs.resellerGid, resellerClientGroup: whmcs.resellerClientGroup, ...options,
  });
  return { billing: { ...billing, close: () => client.close() }, client };
}
