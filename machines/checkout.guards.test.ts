/** Every guard of the checkout machine, on its own. */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { EntryQuery } from '../src/domain/entry-query';
import { CHECKOUT_MODEL_NOW, modelGateways, modelGuest, modelProducts, modelPlaced, modelPlacedFlagged, modelPromotionLookup } from '../scripts/statecharts/models/checkout.model';
import { checkoutGuards } from './checkout.guards';
import { quoteFor } from './checkout.order';
import { checkoutMachine, type CheckoutContext, type CheckoutEvent, type SavedOrderStatus } from './checkout.machine';

describe('checkout guards', () => {
  const baseContext = (): CheckoutContext => {
    const context = createActor(checkoutMachine, { input: { now: () => CHECKOUT_MODEL_NOW } }).getSnapshot().context;
    return {
      ...context,
      loaded: { products: true, gateways: true, currency: true, fraudCheck: true },
      products: modelProducts.slice(0, 3),
      selectedPid: 1,
      gateways: modelGateways,
      selectedGateway: 'sandbox',
      quote: quoteFor({ ...context, products: modelProducts.slice(0, 3), selectedPid: 1 }),
    };
  };
  const submit: CheckoutEvent = { type: 'order.submit' };
  const call = (guard: (args: { context: CheckoutContext; event: CheckoutEvent }) => boolean, context: Partial<CheckoutContext> = {}, event: CheckoutEvent = submit) =>
    guard({ context: { ...baseContext(), ...context }, event });

  it('catalogueLoaded waits for all four loads', () => {
    expect(call(checkoutGuards.catalogueLoaded)).toBe(true);
    expect(call(checkoutGuards.catalogueLoaded, { loaded: { products: true, gateways: true, currency: false, fraudCheck: true } })).toBe(false);
  });

  it('autoOrderRequested needs auto_redirect "true" and a gateway, for a guest or a known user; the e-mail and pid are checked inside', () => {
    const query: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true' };
    const { pid: _pid, ...withoutPid } = query;
    expect(call(checkoutGuards.autoOrderRequested, { query })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, user: modelGuest })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, loaded: { products: true, gateways: true, currency: true, fraudCheck: false } })).toBe(false);
    expect(call(checkoutGuards.autoOrderRequested, { query: { ...query, auto_redirect: 'false' } })).toBe(false);
    expect(call(checkoutGuards.autoOrderRequested, { query: withoutPid })).toBe(true);
    expect(call(checkoutGuards.autoOrderRequested, { query, selectedGateway: null })).toBe(false);
    expect(call(checkoutGuards.linkPidInvalid, { query: withoutPid })).toBe(true);
    expect(call(checkoutGuards.linkPidInvalid, { query })).toBe(false);
    expect(call(checkoutGuards.linkEmailInvalid, { query: { ...query, email: 'ann' } })).toBe(true);
    expect(call(checkoutGuards.linkEmailInvalid, { query: { pid: '2' } })).toBe(true);
    expect(call(checkoutGuards.linkEmailInvalid, { query })).toBe(false);
  });

  it('hasSavedOrder waits for the catalogue; savedOrderUnpaid / savedOrderSettled read the status', () => {
    const savedOrder = { orderid: 501, invoiceid: 601 };
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder })).toBe(true);
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder: null })).toBe(false);
    expect(call(checkoutGuards.hasSavedOrder, { savedOrder, loaded: { products: true, gateways: false, currency: true, fraudCheck: true } })).toBe(false);
    const status = (value: SavedOrderStatus['status']) => ({ status: { orderid: 501, status: value } });
    expect(checkoutGuards.savedOrderUnpaid({} as never, status('Pending'))).toBe(true);
    expect(checkoutGuards.savedOrderUnpaid({} as never, status('Fraud'))).toBe(false);
    expect(['Active', 'Cancelled', 'Pending', 'Fraud'].map((value) => checkoutGuards.savedOrderSettled({} as never, status(value as SavedOrderStatus['status'])))).toEqual([true, true, false, false]);
  });

  it('hasProducts', () => {
    expect(checkoutGuards.hasProducts({ context: baseContext(), event: submit }, { products: modelProducts })).toBe(true);
    expect(checkoutGuards.hasProducts({ context: baseContext(), event: submit }, { products: [] })).toBe(false);
  });

  it('extraConnectionChosen / proxyProtectionChosen follow the context', () => {
    expect(call(checkoutGuards.extraConnectionChosen, { extraConnection: true })).toBe(true);
    expect(call(checkoutGuards.proxyProtectionChosen, { proxyProtection: false })).toBe(false);
  });

  it('isOfferedPlan accepts another of the three plans only', () => {
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 2 })).toBe(true);
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 1 })).toBe(false);
    expect(call(checkoutGuards.isOfferedPlan, {}, { type: 'plan.select', pid: 4 })).toBe(false);
  });

  it('isOfferedGateway accepts another loaded gateway only', () => {
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'coinbase' })).toBe(true);
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'sandbox' })).toBe(false);
    expect(call(checkoutGuards.isOfferedGateway, {}, { type: 'gateway.select', module: 'paypal' })).toBe(false);
  });

  it('promo state guards', () => {
    expect(call(checkoutGuards.hasAppliedPromotion, { promotion: modelPromotionLookup.promotions[0]! })).toBe(true);
    expect(call(checkoutGuards.hasPromoError, { promoError: { key: 'promo.notApplicable' } })).toBe(true);
    expect(call(checkoutGuards.hasPendingPromoCheck, { promoCheckPending: true, promoCode: 'HALFYEAR20' })).toBe(true);
    expect(call(checkoutGuards.hasPendingPromoCheck, { promoCheckPending: true, promoCode: ' ' })).toBe(false);
    expect(call(checkoutGuards.hasPromoCode, { promoCode: '  ' })).toBe(false);
    expect(call(checkoutGuards.hasPromoLookup, { promoLookup: modelPromotionLookup })).toBe(true);
  });

  it('promotionAccepted applies spec section 5 to the selected plan', () => {
    const args = (selectedPid: number) => ({ context: { ...baseContext(), selectedPid }, event: submit });
    expect(checkoutGuards.promotionAccepted(args(2), { lookup: modelPromotionLookup })).toBe(true);
    expect(checkoutGuards.promotionAccepted(args(3), { lookup: modelPromotionLookup })).toBe(false);
    expect(checkoutGuards.promotionAccepted(args(1), { lookup: { totalresults: 0, promotions: [] } })).toBe(false);
  });

  it('lookupFitsSelectedPlan re-checks the last lookup', () => {
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: modelPromotionLookup, selectedPid: 2 })).toBe(true);
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: modelPromotionLookup, selectedPid: 3 })).toBe(false);
    expect(call(checkoutGuards.lookupFitsSelectedPlan, { promoLookup: null })).toBe(false);
  });

  it('isEmptyEmail / isValidEmail read the typed e-mail, else the context', () => {
    expect(call(checkoutGuards.isEmptyEmail, {}, { type: 'email.change', email: '  ' })).toBe(true);
    expect(call(checkoutGuards.isValidEmail, {}, { type: 'email.change', email: 'a@b.co' })).toBe(true);
    expect(call(checkoutGuards.isValidEmail, {}, { type: 'email.change', email: 'a@b' })).toBe(false);
    expect(call(checkoutGuards.isValidEmail, { email: 'a@b.co' })).toBe(true);
  });

  it('canSubmit needs a priced plan, a gateway and a user or a valid e-mail', () => {
    expect(call(checkoutGuards.canSubmit, { emailValid: true })).toBe(true);
    expect(call(checkoutGuards.canSubmit, { emailValid: false })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: true, selectedGateway: null })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: true, quote: null })).toBe(false);
    expect(call(checkoutGuards.canSubmit, { emailValid: false, user: modelGuest })).toBe(true);
    expect(call(checkoutGuards.canSubmit, { emailValid: false, user: modelGuest, selectedPid: null })).toBe(false);
  });

  it('autoProductPriced / autoProductPricedWithPromo need the URL product with a positive price', () => {
    const query: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true' };
    const args = (extra: Partial<CheckoutContext>) => ({ context: { ...baseContext(), query, ...extra }, event: submit });
    expect(checkoutGuards.autoProductPriced(args({}), { product: modelProducts[1]! })).toBe(true);
    expect(checkoutGuards.autoProductPriced(args({}), { product: null })).toBe(false);
    expect(checkoutGuards.autoProductPriced(args({}), { product: modelProducts[0]! })).toBe(false);
    expect(checkoutGuards.autoProductPriced(args({}), { product: { ...modelProducts[1]!, pricing: { EUR: { annually: -1 } } } })).toBe(false);
    expect(checkoutGuards.autoProductPricedWithPromo(args({}), { product: modelProducts[1]! })).toBe(false);
    expect(checkoutGuards.autoProductPricedWithPromo(args({ query: { ...query, promocode: 'HALFYEAR20' } }), { product: modelProducts[1]! })).toBe(true);
  });

  it('orderToPay / orderToWait read how placeOrder ended', () => {
    const ended = (output: Parameters<typeof checkoutGuards.orderToPay>[1]['output']) => ({ output });
    const args = { context: baseContext(), event: submit };
    expect(checkoutGuards.orderToPay(args, ended(modelPlaced))).toBe(true);
    expect(checkoutGuards.orderToWait(args, ended(modelPlaced))).toBe(false);
    expect(checkoutGuards.orderToWait(args, ended(modelPlacedFlagged))).toBe(true);
    expect(checkoutGuards.orderToPay(args, ended({ outcome: 'cancelled', user: null }))).toBe(false);
    expect(checkoutGuards.orderToWait(args, ended({ outcome: 'failed', user: null, error: 'x' }))).toBe(false);
  });
});
