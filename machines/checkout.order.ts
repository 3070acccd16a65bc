/** What the checkout orders: the form's or the automatic order's choice, its total, what placeOrder starts from, and why a promo code is refused for it. */
import { isEntryFlagOn } from '../src/domain/entry-query';
import { promotionRefusalMessage } from '../src/domain/messages';
import { orderDraftOf, quoteChoice, type OrderChoice } from '../src/domain/order-draft';
import type { OrderQuote } from '../src/domain/pricing';
import { acceptPromotion, type Promotion, type PromotionLookup } from '../src/domain/promotion';
import { selectedProduct, todayOf, type CheckoutContext, type CheckoutProduct, type PromoError } from './checkout.context';
import type { PlaceOrderInput } from './place-order.machine';

/** The total of the current choice (src/domain quoteChoice), or null without a priced product. */
export function quoteFor(context: CheckoutContext): OrderQuote | null {
  const choice = formChoice(context);
  return choice ? quoteChoice(choice, context.currency) : null;
}

/** The form's choice, or null without a selected product. */
export function formChoice(context: CheckoutContext): OrderChoice<CheckoutProduct> | null {
  const product = selectedProduct(context);
  return product && { product, extraConnection: context.extraConnection, proxyProtection: context.proxyProtection, promotion: context.promotion, remind: context.remind };
}

/** The automatic order's choice: its product, the URL's options and promotion; a deep link has no form to untick, so the reminder stays on. */
export function autoOrderChoice(context: CheckoutContext, product: CheckoutProduct = context.autoOrder!.product, promotion: Promotion | null = context.autoOrder!.promotion): OrderChoice<CheckoutProduct> {
  return { product, extraConnection: isEntryFlagOn(context.query.extraconnect), proxyProtection: isEntryFlagOn(context.query.proxyprotect), promotion, remind: true };
}

/** What placeOrder starts from: the request, and the user or the e-mail to identify. */
export function placeOrderInput(context: CheckoutContext, choice: OrderChoice<CheckoutProduct>, email: string): PlaceOrderInput {
  const request = orderDraftOf(choice, { currency: context.currency, gateway: context.selectedGateway, affId: context.affId });
  return { request, user: context.user, email, now: context.now };
}

/** The message of a lookup's refusal for the selected plan, today. */
export function refusalOf(context: CheckoutContext, lookup: PromotionLookup): PromoError {
  return refusalFor(lookup, context.selectedPid ?? 0, todayOf(context));
}

/** The message of a lookup's refusal for a plan on a day. */
export function refusalFor(lookup: PromotionLookup, pid: number, today: string): PromoError {
  const verdict = acceptPromotion(lookup, pid, today);
  return { key: 'refusal' in verdict ? promotionRefusalMessage(verdict.refusal) : 'promo.notApplicable' };
}
