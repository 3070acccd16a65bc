/** Promotions (reference §3); the API path skips the start date (observed). */
import type { ClientRow, PromotionRow } from './seed';
import type { FakeStore } from './store';
import { tokens, type Actions } from './values';

export function fakePromotions(store: FakeStore) {
  const { state, today } = store;
  const promotionByCode = (code: string) => state.promotions.find((promotion) => promotion.code.toLowerCase() === code.trim().toLowerCase());
  const promotionUsable = (promotion: PromotionRow, client: ClientRow, pids: number[]) => {
    const expiry = promotion.expirationdate.slice(0, 10);
    if (expiry !== '0000-00-00' && today() > expiry) return false;
    if (promotion.maxuses > 0 && promotion.uses >= promotion.maxuses) return false;
    const clientOrders = state.orders.filter((order) => order.userid === client.id);
    if (promotion.newsignups && clientOrders.length > 0) return false;
    if (promotion.existingclient && !clientOrders.some((order) => order.status === 'Active')) return false;
    if (promotion.onceperclient && clientOrders.some((order) => ['Pending', 'Active'].includes(order.status) && order.promocode.toLowerCase() === promotion.code.toLowerCase())) return false;
    const requires = tokens(promotion.requires);
    if (requires.length) {
      const inOrder = pids.some((pid) => requires.includes(String(pid)));
      const existing = promotion.requiresexisting === 1 && state.services.some((service) => service.clientid === client.id && service.status === 'Active' && requires.includes(String(service.pid)));
      if (!inOrder && !existing) return false;
    }
    return true;
  };
  const promotionApplies = (promotion: PromotionRow, pid: number, cycleName: string, override: boolean) =>
    (override || tokens(promotion.appliesto).includes(String(pid))) && (promotion.cycles === '' || tokens(promotion.cycles).includes(cycleName));
  const promotionDiscount = (promotion: PromotionRow, amountCents: number, setupCents: number, currencyCode: string) => {
    const rate = Number(state.currencies.find((currency) => currency.code === currencyCode)?.rate ?? 1);
    const value = Number(promotion.value);
    switch (promotion.type) {
      case 'Percentage': return Math.round((amountCents * value) / 100);
      case 'Fixed Amount': return Math.min(Math.round(value * rate * 100), amountCents);
      case 'Price Override': return Math.max(0, amountCents - Math.round(value * rate * 100));
      case 'Free Setup': return setupCents;
      default: return 0;
    }
  };

  const actions: Actions = {
    getpromotions(params) {
      const rows = params.code ? state.promotions.filter((promotion) => promotion.code.toLowerCase() === params.code?.toLowerCase()) : state.promotions;
      return { result: 'success', totalresults: rows.length, ...(rows.length ? { promotions: { promotion: rows.map((row) => ({ ...row })) } } : {}) };
    },
  };
  return { promotionByCode, promotionUsable, promotionApplies, promotionDiscount, actions };
}

export type FakePromotions = ReturnType<typeof fakePromotions>;
