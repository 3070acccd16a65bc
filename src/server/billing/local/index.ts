import { systemClock } from '../../clock';
import type { BillingPort } from '../port';
import { recordedAnswer } from '../shared/idempotency';
import { localCatalogue } from './catalogue';
import { localClients } from './clients';
import type { LocalBillingContext } from './context';
import { localOrders } from './orders';
import { localPayments } from './payments';
import { localRenewals } from './renewals';
import { localServices } from './services';

export type { LocalBillingContext } from './context';

/** The billing port over the local store (PGlite or PostgreSQL through Drizzle). */
export function createLocalBilling(db: LocalBillingContext['db'], options: Omit<LocalBillingContext, 'db' | 'clock'> & { clock?: LocalBillingContext['clock'] }): BillingPort {
  const context: LocalBillingContext = { db, clock: systemClock, ...options };
  const catalogue = localCatalogue(context);
  return {
    ...catalogue,
    ...localClients(context),
    ...localOrders(context, catalogue),
    ...localPayments(context),
    ...localServices(context),
    ...localRenewals(context, catalogue),
    recordedAnswer: (claim) => recordedAnswer(db, claim),
  };
}
