/** The fake's state and the lookups every action shares. */
import type { WhmcsSeed } from './seed';

export function createFakeStore(state: WhmcsSeed, today: () => string) {
  const nextId = (rows: { id: number }[]) => rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
  const currencyById = (id: number) => state.currencies.find((currency) => currency.id === id) ?? state.currencies.find((currency) => currency.isDefault);
  const defaultCurrency = () => state.currencies.find((currency) => currency.isDefault) ?? state.currencies[0];
  const findClient = (id: string | undefined) => state.clients.find((client) => String(client.id) === String(id ?? '').trim());
  const findOrder = (id: string | undefined) => state.orders.find((order) => String(order.id) === String(id ?? '').trim());
  const findService = (id: string | undefined) => state.services.find((service) => String(service.id) === String(id ?? '').trim());
  const findInvoice = (id: string | undefined) => state.invoices.find((invoice) => String(invoice.id) === String(id ?? '').trim());
  const productOf = (pid: number) => state.products.find((product) => product.pid === pid);
  return { state, today, nextId, currencyById, defaultCurrency, findClient, findOrder, findService, findInvoice, productOf };
}

export type FakeStore = ReturnType<typeof createFakeStore>;
