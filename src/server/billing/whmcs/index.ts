import { systemClock, type Clock } from '../../clock';
import type { WhmcsConfig } from '../../config';
import type { Database } from '../../db/connect';
import type { ShopMetrics } from '../../ops/metrics';
import type { BillingPort } from '../port';
import { recordedAnswer } from '../shared/idempotency';
import { whmcsCatalogue } from './catalogue';
import { createWhmcsClient, type WhmcsClient } from './client';
import { whmcsClients } from './clients';
import type { WhmcsBillingConfig, WhmcsBillingContext } from './context';
import { whmcsInvoices } from './invoices';
import { whmcsOrders } from './orders';
import { whmcsPayments } from './payments';
import { whmcsRenewals } from './renewals';
import { whmcsServices } from './services';
import { whmcsUnfinished } from './unfinished';

export { createWhmcsClient, WhmcsRefusal, WhmcsUnavailable } from './client';
export { describeWhmcsError, type WhmcsBillingConfig } from './context';
export { orderCycle } from './orders';
export { APPLY_PAYMENT_SCOPE } from './payments';
export { UNFINISHED_UNDO_AFTER_MS } from './unfinished';

type Log = { warn(object: object, message: string): void; error(object: object, message: string): void };

/** The billing port over a WHMCS installation: WHMCS holds the truth; the checkout's store keeps its own records and a mirror row per id it uses. */
export function createWhmcsBilling(whmcs: WhmcsClient, db: Database, config: WhmcsBillingConfig): BillingPort {
  const context: WhmcsBillingContext = { whmcs, db, config, clock: config.clock ?? systemClock };
  const catalogue = whmcsCatalogue(context);
  const invoices = whmcsInvoices(context);
  const services = whmcsServices(context, catalogue);
  const payments = whmcsPayments(context, catalogue, invoices, services);
  const unfinished = whmcsUnfinished(context, payments.applyPayment);
  return {
    ...catalogue.calls,
    ...whmcsClients(context, catalogue),
    ...whmcsOrders(context, { catalogue, invoices, services, unfinished }),
    ...payments.calls,
    ...services.calls,
    ...whmcsRenewals(context, invoices, services),
    ...unfinished.calls,
    recordedAnswer: (claim) => recordedAnswer(db, claim),
  };
}

/** The WHMCS billing port as BILLING=whmcs configures it, with its client (closed with the app). */
export function whmcsBillingFromConfig(whmcs: WhmcsConfig, db: Database, options: {
  gateways: string[]; catalogueTtlMs: number; serverHostname: string; clock?: Clock; mailQueued?: () => void; log?: Log; metrics?: ShopMetrics;
}): { billing: BillingPort; client: WhmcsClient } {
  const { metrics, ...rest } = options;
  const client = createWhmcsClient({ url: whmcs.url, identifier: whmcs.identifier, secret: whmcs.secret, accesskey: whmcs.accesskey, ...(options.log ? { log: options.log } : {}), ...(metrics ? { metrics } : {}) });
  const billing = createWhmcsBilling(client, db, {
    retailGid: whmcs.retailGid, resellerGid: whmcs.resellerGid, resellerClientGroup: whmcs.resellerClientGroup, ...rest,
  });
  return { billing: { ...billing, close: () => client.close() }, client };
}
