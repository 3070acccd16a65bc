import { calendarDate } from '../../domain/billing-cycle';
import { prorationOn, type Proration } from '../../domain/pricing';
import type { BillingPort, ServiceRecord } from './port';

/**
 * How extra connections bought `now` on a service are prorated: the one answer the upsell's list shows and its
 * invoice is priced with. Null for a lifetime service (no due date), which pays the full price.
 */
export async function serviceProration(billing: Pick<BillingPort, 'renewal'>, service: ServiceRecord, now: Date): Promise<Proration | null> {
  // A lifetime service has nothing billed ahead: no renewal to look up.
  if (service.nextDueDate === null) return null;
  const renewal = await billing.renewal(service.id, now);
  const current = renewal?.service ?? service;
  return prorationOn(calendarDate(now), { billingcycle: current.billingcycle, nextDueDate: current.nextDueDate, renewal: renewal?.invoice ?? null });
}
