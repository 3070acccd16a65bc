/**
 * The success page's service for the server's first paint: the credentials area is rendered by the server
 * for the session's own service only (getClientProducts answers nothing of another client's), and the
 * browser hydrates from the same answer in the page.
 */
import type { ClientProduct } from '../../machines/service.machine';
import { settle, unwrap } from './api';
import { readPayment } from './saved-payment';
import type { AppServices } from './services';

export interface FirstPaintService {
  serviceid: number;
  product: ClientProduct;
}

/** The service the page is about: the URL's, else that of the order paid in this browser. */
export function successServiceId(app: AppServices, serviceid: number | undefined): number | null {
  return serviceid ?? readPayment(app.store)?.order.serviceid ?? null;
}

/** The service on the server's first screen only (null on any later visit, where the chart loads it, or when it is not the session's). */
export async function firstPaintService(app: AppServices, serviceid: number | undefined): Promise<FirstPaintService | null> {
  if (app.renderedAt === undefined) return null;
  const id = successServiceId(app, serviceid);
  if (id === null) return null;
  const read = await settle(unwrap(app.client.GET('/checkout/api/getClientProducts', { params: { query: { serviceid: String(id), locale: app.catalogueLocale() } } })));
  return read.ok ? { serviceid: id, product: read.value } : null;
}
