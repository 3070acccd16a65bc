import { currencyRates } from '../../domain/currency';
import { convertPromotion, type Promotion, type StoredPromotion } from '../../domain/promotion';
import type { BillingPort } from './port';

/** A stored promotion as the checkout prices it; only a Fixed Amount needs (and reads) the store's rates. */
export async function pricedPromotion(billing: Pick<BillingPort, 'currencies'>, stored: StoredPromotion): Promise<Promotion> {
  if (stored.type !== 'Fixed Amount') return { ...stored, amounts: null };
  return convertPromotion(stored, currencyRates(await billing.currencies()));
}
