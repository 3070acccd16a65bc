/**
 * The placeOrder machine's paths walked through the order form on /: the shopper fills the form
 * (plan 1 with the extra connection, 16.99 EUR) and presses Validate, then every step of the path is
 * an answer of the server (authMiddleware, order, a 409 price_changed) or a click in the price-change box.
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { CreatedOrder, IdentifiedGuest, PlaceOrderContext, PlaceOrderInput } from '../../machines/place-order.machine';
import { modelGateways, modelProducts } from '../../scripts/statecharts/models/checkout.model';
import { checkoutFact } from '../facts/prices';
import { PLACE_ORDER_MODEL_NOW, placeOrderModel } from '../../scripts/statecharts/models/place-order.model';
import { MIN_LOADING_MS, PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import { isUserId } from '../../src/domain/user-id';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';
import { advance } from './settle';
import { en, fill, money } from './texts';
import { describeViewWalk, enter, shown } from './walk';

const badGateway = () => apiError(502, 'bad_gateway', 'Bad gateway');
const products = {
  totalresults: 3,
  products: modelProducts.slice(0, 3).map((product) => ({
    ...product,
    group: 'retail',
    paytype: 'recurring',
    pricing: contractPricing(product.pricing),
    configoptions: product.configoptions.map((option) => ({ ...option, pricing: contractPricing(option.pricing) })),
  })),
};

// The form's total from the facts table (1 Month + extra connection, EUR) and the server's (14.50 EUR, the model's literal).
const FORM_TOTAL = money(checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: null, currency: 'EUR' }).total, 'EUR');
const SERVER_TOTAL = money(14.5, 'EUR');

const submitButton = () => screen.getByRole('button', { name: /^(Validate and pay|Creating your order…)$/ });

async function perform(event: AnyEventObject, page: Parameters<Parameters<typeof describeViewWalk>[0]['perform']>[1]): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'xstate.done.actor.identifyGuest': {
      const guest = event.output as IdentifiedGuest;
      await api.respond('authMiddleware', guest, isUserId(guest.userid) ? {} : { offContract: 'userid 0 (the contract says a guest handle): the branch for a server that answers without a user id' });
      return;
    }
    case 'xstate.error.actor.identifyGuest':
      await api.respond('authMiddleware', badGateway());
      return;
    case 'xstate.done.actor.createOrder': {
      const order = event.output as CreatedOrder;
      await api.respond('order', async (request: Request) => {
        const { amount, currency } = (await request.json()) as { amount: number; currency: string };
        const deadline = order.link ? new Date(PLACE_ORDER_MODEL_NOW + PAYMENT_DEADLINE_MS).toISOString() : null;
        return { ...order, status: order.fraud ? 'Fraud' : 'Pending', amount, currency, deadline };
      });
      return;
    }
    case 'xstate.error.actor.createOrder': {
      const { serverPrice } = event.error as { serverPrice?: { amount: number; currency: string } };
      await api.respond('order', serverPrice ? apiError(409, 'price_changed', 'The price has changed.', serverPrice) : badGateway());
      return;
    }
    case 'price.confirm':
      return user.click(screen.getByRole('button', { name: fill(en.checkout.confirmPrice, { amount: SERVER_TOTAL }) }));
    case 'price.cancel':
      return user.click(screen.getByRole('button', { name: en.checkout.cancelPrice }));
    default:
      throw new Error(`No way to perform ${event.type} on placeOrder`);
  }
}

async function see(value: StateValue, context: PlaceOrderContext, page: { rendered: { left: string[]; app: { router: { state: { location: { pathname: string } } } } } }): Promise<void> {
  const total = () => within(screen.getByRole('region', { name: en.checkout.summary })).getByRole('status').textContent;
  switch (value) {
    case 'identifyingGuest':
    case 'creatingOrder':
      expect(submitButton().textContent).toBe(en.checkout.submitting);
      // After a confirm the total shown is the server's, the one sent.
      expect(total()).toBe(context.request.amount === 14.5 ? SERVER_TOTAL : FORM_TOTAL);
      return;
    case 'priceChanged': {
      const box = await shown(() => screen.getByText(fill(en.checkout.priceChanged, { amount: SERVER_TOTAL, previous: FORM_TOTAL })), 'the price change');
      expect(within(box.closest('[role=alert]') as HTMLElement).getAllByRole('button').map((button) => button.textContent)).toEqual([fill(en.checkout.confirmPrice, { amount: SERVER_TOTAL }), en.checkout.cancelPrice]);
      // One primary action (issue 16): confirming; going back is secondary.
      expect([...(box.closest('[role=alert]') as HTMLElement).querySelectorAll('.button.primary')].map((button) => button.textContent)).toEqual([fill(en.checkout.confirmPrice, { amount: SERVER_TOTAL })]);
      expect(within(box.closest('[role=alert]') as HTMLElement).getByRole('button', { name: en.checkout.cancelPrice }).classList.contains('secondary')).toBe(true);
      expect(total()).toBe(FORM_TOTAL);
      return;
    }
    case 'toPayment':
      await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
      expect(page.rendered.left).toEqual(['https://pay.example/601']);
      return;
    case 'toWaiting':
      await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.underReview }), 'the waiting page, under review');
      expect(page.rendered.app.router.state.location.pathname).toBe('/waiting');
      expect(screen.getByText('#502')).toBeTruthy();
      return;
    case 'failed':
      await shown(() => submitButton().textContent === en.checkout.submit, 'the form again');
      expect(within(submitButton().closest('form')!).getAllByRole('alert').map((alert) => alert.textContent)).toEqual([en.messages.request.failed]);
      return;
    case 'cancelled':
      await shown(() => submitButton().textContent === en.checkout.submit, 'the form again');
      expect(within(submitButton().closest('form')!).queryAllByRole('alert')).toEqual([]);
      expect(total()).toBe(FORM_TOTAL);
      return;
    default:
      throw new Error(`No view for placeOrder state ${JSON.stringify(value)}`);
  }
}

describeViewWalk({
  model: placeOrderModel,
  open: async (path, base) => {
    const { user } = path.input as PlaceOrderInput;
    const page = await base({
      url: '/checkout/',
      now: () => PLACE_ORDER_MODEL_NOW,
      minLoadingMs: MIN_LOADING_MS,
      api: {
        answers: {
          session: user ? { loggedIn: true, guest: false, userid: user.userid, email: user.email } : { loggedIn: false, guest: false, userid: null, email: null },
          currency: { country: 'NL', currency: 'EUR' },
          getProducts: products,
          getGateway: contractGateways(modelGateways, 'sandbox'),
          checkFraud: { valid: true },
        },
        hold: { authMiddleware: Infinity, order: Infinity },
      },
    });
    await advance(MIN_LOADING_MS);
    // The form as the model's request has it: plan 1 with the extra connection, 16.99 EUR.
    const extra = await shown(() => screen.getByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) }), 'the order form');
    await page.user.click(extra);
    if (!user) await enter(page, screen.getByRole('textbox', { name: en.checkout.email, description: (text) => text.startsWith(en.checkout.emailHint) }), 'ann@example.com');
    expect(within(screen.getByRole('region', { name: en.checkout.summary })).getByRole('status').textContent).toBe(FORM_TOTAL);
    await page.user.click(submitButton());
    page.note('the form is filled (plan 1, extra connection, the guest\'s e-mail) and submitted before the path starts');
    return page;
  },
  unrepeatable: { idempotencyKey: 'a fresh random Idempotency-Key per order (the app draws it, the model uses a fixed one)' },
  perform: (step, page) => perform(step.event, page),
  see: (state, page) => see(state.value, state.context as PlaceOrderContext, page as never),
  project: (_value, raw) => {
    const context = raw as PlaceOrderContext;
    return {
      request: context.request,
      user: context.user,
      idempotencyKey: context.idempotencyKey !== null,
      priceChange: context.priceChange,
      order: context.order,
      payment: context.payment,
      // The server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
      error: context.error !== null,
    };
  },
});
