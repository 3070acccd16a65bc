/** The fake's state and the lookups every action shares. */
import type { WhmcsSeed } from './seed';
import { addMonths, CYCLE_MONTHS } from './values';

export function createFakeStore(state: WhmcsSeed, today: () => string) {
  const nextId = (rows: { id: number }[]) => rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
  const currencyById = (id: number) => state.currencies.find((currency) => currency.id === id) ?? state.currencies.find((currency) => currency.isDefault);
  const defaultCurrency = () => state.currencies.find((currency) => currency.isDefault) ?? state.currencies[0];
  const findClient = (id: string | undefined) => state.clients.find((client) => String(client.id) === String(id ?? '').trim());
  const findOrder = (id: string | undefined) => state.orders.find((order) => String(order.id) === String(id ?? '').trim());
  const findService = (id: string | undefined) => state.services.find((service) => String(service.id) === String(id ?? '').trim());
  const findInvoice = (id: string | undefined) => state.invoices.find((invoice) => String(invoice.id) === String(id ?? '').trim());
  const productOf = (pid: number) => state.products.find((product) => product.pid === pid);
  /** The highest invoice item id so far (tblinvoiceitems ids run across every invoice). */
  const lastItemId = () => state.invoices.flatMap((invoice) => invoice.items).reduce((max, item) => Math.max(max, item.id), 0);
  /** A Hosting item's description: group - product, and the period it bills for a recurring cycle. */
  const hostingDescription = (pid: number, start: string, cycleName: string) => {
    const product = productOf(pid);
    const group = state.productGroups.find((candidate) => candidate.gid === product?.gid);
    const months = CYCLE_MONTHS[cycleName];
    return `${group?.name ?? ''} - ${product?.name ?? ''}${months ? ` (${start} - ${addMonths(start, months)})` : ''}`;
  };
  return { state, today, nextId, currencyById, defaultCurrency, findClient, findOrder, findService, findInvoice, productOf, lastItemId, hostingDescription };
}

export type FakeStore = ReturnType<typeof createFakeStore>;
