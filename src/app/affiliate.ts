import { unwrap } from './api';
import type { AppServices } from './services';

/** Records the click of a new affiliate; a lost click must not disturb the shopper. */
export function recordAffiliateClick(app: AppServices, affId: string): void {
  const referer = document.referrer.slice(0, 2048);
  unwrap(app.client.POST('/checkout/aff/new_click', { body: { aff_id: affId, referer } })).catch(() => {});
}
