/** The checkout path's steps taken in the app: the shopper's clicks and typing, the server's answers, the time that passes. */
import { screen } from '@testing-library/react';
import type { AnyEventObject } from 'xstate';
import type { CheckoutContext, CheckoutGateway, CheckoutProduct, SavedOrderStatus } from '../../machines/checkout.machine';
import type { PlaceOrderOutput } from '../../machines/place-order.machine';
import { CHECKOUT_MODEL_NOW, modelSavedOrder } from '../../scripts/statecharts/models/checkout.model';
import { MIN_LOADING_MS, PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { PromotionLookup } from '../../src/domain/promotion';
import { apiError } from '../support/fake-api';
import { CURRENCY, badGateway, contractProduct, gatewayList, productList, promotionLookup, savedOrderStatus } from './checkout-answers';
import { discountField, emailField, gatewayName, planRadio, reminderBox, reminderClicks, type CheckoutPage } from './checkout-page';
import { advance } from './settle';
import { en, fill } from './texts';
import { enter, shown } from './walk';

async function typeEmail(page: CheckoutPage, email: string): Promise<void> {
  const field = emailField();
  if (email === '' && field.value === '') {
    // Clearing an empty field sends nothing, and an e-mail field drops typed spaces: a no-break space
    // (pasted with an address) is blank too, so it is pasted, then erased.
    page.allow('e-mail cleared while empty: a no-break space is pasted, then erased (nothing else sends a change to an empty field)', (walked) => walked.event.type === 'email.change' && walked.event.email === '\u00a0');
    await page.user.click(field);
    await page.user.paste('\u00a0');
    await page.user.keyboard('{Backspace}');
    return;
  }
  if (field.value !== email) return enter(page, field, email);
  // React sends no change for an unchanged value: the shopper erases the last character and types it again.
  page.allow('the same e-mail typed again: its last character is erased, then typed again (React drops an unchanged value)', (walked) => walked.event.type === 'email.change' && walked.event.email === email.slice(0, -1));
  await page.user.click(field);
  await page.user.keyboard(`{End}{Backspace}${email.slice(-1)}`);
}

export async function perform(event: AnyEventObject, page: CheckoutPage): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'xstate.done.actor.loadProducts':
      await api.respond('getProducts', productList(event.output as CheckoutProduct[]));
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.loadProducts':
      await api.respond('getProducts', badGateway());
      return advance(MIN_LOADING_MS);
    case 'xstate.done.actor.loadGateways':
      await api.respond('getGateway', gatewayList(event.output as { gateways: CheckoutGateway[]; defaultGateway: string }));
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.loadGateways':
      await api.respond('getGateway', badGateway());
      return advance(MIN_LOADING_MS);
    case `xstate.done.actor.${CURRENCY}`:
    case `xstate.error.actor.${CURRENCY}`:
      page.note('loadCurrency: answered by the currency call the app makes as it starts, so it comes first of the four loads (the form shows none of them until all have answered)');
      return;
    case 'xstate.done.actor.checkFraud':
      await api.respond('checkFraud', event.output as { valid: boolean });
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.checkFraud':
      await api.respond('checkFraud', badGateway());
      return advance(MIN_LOADING_MS);
    case 'plan.select':
      return user.click(planRadio(Number(event.pid)));
    case 'extraConnection.toggle':
      return user.click(screen.getByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) }));
    case 'proxyProtection.toggle':
      return user.click(screen.getByRole('switch', { name: new RegExp(`^${en.checkout.proxyProtection}`) }));
    case 'promo.change':
      page.removedCode = null;
      return enter(page, discountField(), String(event.code));
    case 'promo.apply':
      return user.click(screen.getByRole('button', { name: en.checkout.applyDiscount }));
    case 'email.change':
      return typeEmail(page, String(event.email));
    case 'gateway.select':
      return user.click(screen.getByRole('radio', { name: gatewayName(String(event.module)) }));
    case 'remind.toggle':
      reminderClicks.set(page, (reminderClicks.get(page) ?? 0) + 1);
      return user.click(reminderBox());
    case 'order.submit':
      return user.click(screen.getByRole('button', { name: en.checkout.submit }));
    case 'xstate.done.actor.lookupPromotion':
      await api.respond('getPromotion', promotionLookup(event.output as PromotionLookup));
      return;
    case 'xstate.error.actor.lookupPromotion':
      await api.respond('getPromotion', apiError(422, 'promotion_not_found', 'Promotion code not found.'));
      return;
    case 'xstate.done.actor.loadProduct': {
      const product = event.output as CheckoutProduct | null;
      if (product) await api.respond('getProduct', contractProduct(product));
      else {
        page.note('loadProduct done with no product: the app reads a 404 of getProduct as "not found"');
        await api.respond('getProduct', apiError(404, 'not_found', 'Product not found.'));
      }
      return;
    }
    case 'xstate.error.actor.loadProduct':
      // A 404 means "no such product" to the app: a failed lookup is another failure.
      await api.respond('getProduct', badGateway());
      return;
    case 'xstate.done.actor.placeOrder':
      return placeOrder(event.output as PlaceOrderOutput, page);
    case 'promo.remove':
      page.removedCode = discountField().value;
      return user.click(screen.getByRole('button', { name: fill(en.checkout.removeDiscountLabel, { code: discountField().value }) }));
    case 'xstate.done.actor.checkSavedOrder': {
      const { status } = event.output as SavedOrderStatus;
      await api.respond('orderStatus', savedOrderStatus(status));
      return advance(MIN_LOADING_MS);
    }
    case 'xstate.error.actor.checkSavedOrder':
      await api.respond('orderStatus', badGateway());
      return advance(MIN_LOADING_MS);
    case 'unpaidOrder.continue':
      return user.click(screen.getByRole('button', { name: en.unpaidOrder.continue }));
    case 'unpaidOrder.cancel':
      return user.click(screen.getByRole('button', { name: en.unpaidOrder.cancel }));
    case 'unpaidOrder.confirmCancel':
      return user.click(screen.getByRole('button', { name: en.receipt.confirmCancel }));
    case 'unpaidOrder.keep':
      return user.click(screen.getByRole('button', { name: en.receipt.keepOrder }));
    case 'xstate.done.actor.cancelUnpaidOrder':
      await api.respond('cancelOrder', { orderid: modelSavedOrder.orderid, status: 'Cancelled' });
      return;
    case 'xstate.error.actor.cancelUnpaidOrder':
      await api.respond('cancelOrder', apiError(409, 'order_not_pending', 'Only a pending order can be cancelled.'));
      return;
    default:
      throw new Error(`No way to perform ${event.type} on the checkout`);
  }
}

/** placeOrder's end, as the server's answers make it in the app (its own steps are walked in place-order.test.tsx). */
async function placeOrder(output: PlaceOrderOutput, page: CheckoutPage): Promise<void> {
  const { api } = page;
  page.note('placeOrder ends: the checkout walk answers its calls (authMiddleware, order) so it ends as the path says');
  // A user the checkout knows already (a signed-in client, or a guest identified before) is not
  // identified again: placeOrder goes straight to the order.
  const client = (page.recorder.actor?.getSnapshot() as { context: CheckoutContext } | undefined)?.context.user != null;
  if (output.outcome === 'failed') {
    await api.respond(client ? 'order' : 'authMiddleware', badGateway());
    return;
  }
  if (!client) await api.respond('authMiddleware', output.user!);
  if (output.outcome === 'cancelled') {
    await api.respond('order', async (request: Request) => {
      const { amount, currency } = (await request.json()) as { amount: number; currency: string };
      return apiError(409, 'price_changed', 'The price has changed.', { amount: amount + 1, currency });
    });
    await page.user.click(await shown(() => screen.getByRole('button', { name: en.checkout.cancelPrice }), 'the price change to refuse'));
    return;
  }
  const { order } = output;
  await api.respond('order', async (request: Request) => {
    const { amount, currency } = (await request.json()) as { amount: number; currency: string };
    const link = output.outcome === 'payment' ? output.payment.link : null;
    const deadline = link ? new Date(CHECKOUT_MODEL_NOW + PAYMENT_DEADLINE_MS).toISOString() : null;
    return { orderid: order.orderid, invoiceid: order.invoiceid, serviceids: order.serviceid ? [order.serviceid] : [], fraud: order.fraud, status: order.fraud ? 'Fraud' : 'Pending', amount, currency, link, deadline };
  });
}
