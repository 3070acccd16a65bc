import type { BillingPort } from '../port';
import type { WhmcsBillingContext } from './context';
import type { WhmcsServices } from './services';

type RenewalCalls = Pick<BillingPort, 'renewal' | 'dueRenewals'>;

/** Renewals over WHMCS: WHMCS issues the invoices, reminds and suspends; its unpaid renewal invoices are paid through the checkout. */
export function whmcsRenewals(_context: WhmcsBillingContext, services: WhmcsServices): RenewalCalls {
  return {
    async renewal(serviceId) {
      const service = await services.calls.service(serviceId);
      return service ? { service, invoice: null, invoiceDate: null } : null;
    },
    dueRenewals: async () => [],
  };
}
