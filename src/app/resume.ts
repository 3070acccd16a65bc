/**
 * The resume entry of the waiting page: a recovery reminder's link signs a browser in to one order and
 * lands on /waiting?orderid=N. A browser with nothing saved (another device, a cleared cookie) asks the
 * server for that order's payment and saves it, so the waiting page shows its invoice, countdown and gateway.
 */
import type { AppServices } from './services';

export interface ResumeSearch {
  orderid?: number;
}

const ID = /^[1-9]\d{0,9}$/;

/** Keeps a positive integer `orderid`; anything else is set to undefined (the router keeps unvalidated keys as they came). */
export function resumeSearch(search: Record<string, unknown>): ResumeSearch {
  const value = typeof search.orderid === 'string' || typeof search.orderid === 'number' ? String(search.orderid).trim() : undefined;
  return { orderid: value !== undefined && ID.test(value) ? Number(value) : undefined };
}

/** Loads the order a resume link names (its code only when a link names one, so the first screen carries none of it). */
export async function resumeOrder(app: AppServices, orderid: number | undefined): Promise<void> {
  if (orderid === undefined) return;
  const { saveResumedOrder } = await import('./resume-order');
  await saveResumedOrder(app, orderid);
}
