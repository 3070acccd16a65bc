/** The checkout's guards: every condition its transitions test, as plain functions of the context and event. */
import { isValidEmail } from '../src/domain/email';
import { quoteChoice } from '../src/domain/order-draft';
import { acceptPromotion, type PromotionLookup } from '../src/domain/promotion';
import { gatewayTakes, selectedProduct, todayOf, type CheckoutContext, type CheckoutEvent, type CheckoutProduct, type PlacedEvent, type SavedOrderStatus } from './checkout.context';
import { autoOrderChoice } from './checkout.order';

type GuardArgs = { context: CheckoutContext; event: CheckoutEvent };

// The gateway is not in the spec's list, but without one the order cannot be placed at all (the form says why).
const isAutoOrderRequested = (context: CheckoutContext) => context.query.auto_redirect === 'true' && context.selectedGateway !== null;
const isCatalogueLoaded = (context: CheckoutContext) => Object.values(context.loaded).every(Boolean);

/** Every guard of the checkout machine, exported for unit tests. */
export const checkoutGuards = {
  catalogueLoaded: ({ context }: GuardArgs) => isCatalogueLoaded(context),
  autoOrderRequested: ({ context }: GuardArgs) => isCatalogueLoaded(context) && isAutoOrderRequested(context),
  hasSavedOrder: ({ context }: GuardArgs) => isCatalogueLoaded(context) && context.savedOrder !== null,
  savedOrderUnpaid: (_args: GuardArgs, params: { status: SavedOrderStatus }) => params.status.status === 'Pending',
  savedOrderSettled: (_args: GuardArgs, params: { status: SavedOrderStatus }) => params.status.status === 'Active' || params.status.status === 'Cancelled',
  hasUnpaidOrder: ({ context }: GuardArgs) => context.unpaidOrder !== null,
  linkEmailInvalid: ({ context }: GuardArgs) => !isValidEmail(context.query.email ?? ''),
  linkPidInvalid: ({ context }: GuardArgs) => context.query.pid === undefined,
  linkPromotionAccepted: ({ context }: GuardArgs, params: { lookup: PromotionLookup }) =>
    context.autoOrder !== null && 'promotion' in acceptPromotion(params.lookup, context.autoOrder.product.pid, todayOf(context)),
  emailRequired: ({ context }: GuardArgs) => context.email.trim() === '' && context.autoOrderStop?.reason === 'email',
  isGuest: ({ context }: GuardArgs) => context.user === null,
  hasProducts: (_args: GuardArgs, params: { products: CheckoutProduct[] }) => params.products.length > 0,
  extraConnectionChosen: ({ context }: GuardArgs) => context.extraConnection,
  proxyProtectionChosen: ({ context }: GuardArgs) => context.proxyProtection,
  remindChosen: ({ context }: GuardArgs) => context.remind,
  isOfferedPlan: ({ context, event }: GuardArgs) =>
    event.type === 'plan.select' && event.pid !== context.selectedPid && context.products.some((product) => product.pid === event.pid),
  isOfferedGateway: ({ context, event }: GuardArgs) =>
    event.type === 'gateway.select' && event.module !== context.selectedGateway && context.gateways.some((gateway) => gateway.module === event.module && gatewayTakes(gateway, context.currency)),
  hasAppliedPromotion: ({ context }: GuardArgs) => context.promotion !== null,
  hasPromoError: ({ context }: GuardArgs) => context.promoError !== null,
  hasPendingPromoCheck: ({ context }: GuardArgs) => context.promoCheckPending && context.promoCode.trim() !== '',
  hasPromoCode: ({ context }: GuardArgs) => context.promoCode.trim() !== '',
  promotionAccepted: ({ context }: GuardArgs, params: { lookup: PromotionLookup }) =>
    context.selectedPid !== null && 'promotion' in acceptPromotion(params.lookup, context.selectedPid, todayOf(context)),
  lookupFitsSelectedPlan: ({ context }: GuardArgs) =>
    context.promoLookup !== null && context.selectedPid !== null && 'promotion' in acceptPromotion(context.promoLookup, context.selectedPid, todayOf(context)),
  hasPromoLookup: ({ context }: GuardArgs) => context.promoLookup !== null,
  isEmptyEmail: ({ context, event }: GuardArgs) => (event.type === 'email.change' ? event.email : context.email).trim() === '',
  isValidEmail: ({ context, event }: GuardArgs) => isValidEmail(event.type === 'email.change' ? event.email : context.email),
  canSubmit: ({ context }: GuardArgs) => (context.user !== null || context.emailValid) && isOrderComplete(context),
  autoProductPricedWithPromo: ({ context }: GuardArgs, params: { product: CheckoutProduct | null }) =>
    isAutoProductPriced(context, params.product) && context.query.promocode !== undefined && context.query.promocode.trim() !== '',
  autoProductPriced: ({ context }: GuardArgs, params: { product: CheckoutProduct | null }) => isAutoProductPriced(context, params.product),
  orderToPay: (_args: GuardArgs, params: PlacedEvent) => params.output.outcome === 'payment',
  orderToWait: (_args: GuardArgs, params: PlacedEvent) => params.output.outcome === 'waiting',
};

function isOrderComplete(context: CheckoutContext): boolean {
  return selectedProduct(context) !== null && context.quote !== null && context.selectedGateway !== null;
}

function isAutoProductPriced(context: CheckoutContext, product: CheckoutProduct | null): boolean {
  if (!product || product.pid !== Number(context.query.pid)) return false;
  const quote = quoteChoice(autoOrderChoice(context, product, null), context.currency);
  return quote !== null && quote.price > 0;
}
