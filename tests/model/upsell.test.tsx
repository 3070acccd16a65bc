/** The upsell machine's paths walked through /upsell: a logged-in client buys extra connections. */
import { fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import type { ActiveService, ActiveServicesOutput, CreateInvoiceOutput, UpsellContext } from '../../machines/upsell.machine';
import { upsellModel, upsellModelInput, upsellModelServerPrice, upsellModelServices } from '../../scripts/statecharts/models/upsell.model';
import { MIN_LOADING_MS } from '../../src/domain/constants';
import { APP_MESSAGES, PAYMENT_LINKS, upsellNotSold, upsellProrated } from '../facts/messages';
import { upsellFact } from '../facts/prices';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';
import { advance } from './settle';
import { describeViewWalk, refusedInputs, shown, type Page } from './walk';
import { cycleText, en, money } from './texts';

/** The walk's page, with the server's refusal the page must show until the client reprices or pays again. */
type UpsellPage = Page & {
  /** The server's total of a 409 price_changed, shown until a service or quantity change reprices. */
  serverTotal: number | null;
  /** The message of the last refused invoice, shown until the next payment. */
  refusal: string | null;
};

const session = { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' };

const activeProducts = (output: ActiveServicesOutput) => ({
  totalresults: output.totalresults,
  products: output.products.map((service: ActiveService) => ({ ...service, pricing: contractPricing(service.pricing) })),
});

async function perform(event: AnyEventObject, page: UpsellPage): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'xstate.done.actor.loadActiveServices':
      await api.respond('getActiveProducts', activeProducts(event.output as ActiveServicesOutput));
      // The services stay hidden behind the loading state for its minimum time.
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.loadActiveServices':
      await api.respond('getActiveProducts', apiError(502, 'bad_gateway', 'Network error'));
      return advance(MIN_LOADING_MS);
    case 'services.retry':
      return user.click(screen.getByRole('button', { name: en.app.tryAgain }));
    case 'service.select':
      page.serverTotal = null;
      return user.selectOptions(screen.getByRole('combobox', { name: en.upsell.service }), String(event.serviceid));
    case 'quantity.change': {
      page.serverTotal = null;
      const slider = screen.getByRole('slider', { name: en.upsell.quantity });
      const steps = Number(event.quantity) - Number((slider as HTMLInputElement).value);
      await user.click(slider);
      await user.keyboard(steps > 0 ? '{ArrowRight}'.repeat(steps) : '{ArrowLeft}'.repeat(-steps));
      // user-event and happy-dom have no default action for arrow keys on a range input: the browser's step is applied here.
      fireEvent.change(slider, { target: { value: String(event.quantity) } });
      page.note('quantity.change: the arrow key is pressed on the slider; its step is applied with fireEvent (no range-input default action in user-event/happy-dom)');
      return;
    }
    case 'gateway.select':
      return user.click(screen.getByRole('radio', { name: gatewayName(String(event.gateway)) }));
    case 'order.submit':
      page.refusal = null;
      return user.click(screen.getByRole('button', { name: /^Pay\b/ }));
    case 'xstate.done.actor.createInvoice':
      await api.respond('addInvoice', event.output as CreateInvoiceOutput);
      return;
    case 'xstate.error.actor.createInvoice':
      if ('serverPrice' in (event.error as object)) {
        await api.respond('addInvoice', apiError(409, 'price_changed', 'The price has changed.', upsellModelServerPrice));
        page.serverTotal = upsellModelServerPrice.amount;
        page.refusal = APP_MESSAGES.priceChanged;
      } else {
        await api.respond('addInvoice', apiError(502, 'bad_gateway', 'Network error'));
        page.refusal = APP_MESSAGES.requestFailed;
      }
      return;
    default:
      throw new Error(`No way to perform ${event.type} on /upsell`);
  }
}

const gatewayName = (module: string) => upsellModelInput.gateways.find((gateway) => gateway.module === module)!.displayname;

async function see(value: unknown, context: UpsellContext, page: UpsellPage): Promise<void> {
  const state = typeof value === 'string' ? value : Object.keys(value as object)[0];
  await shown(() => screen.getByRole('heading', { level: 1, name: en.upsell.title }), 'the upsell page');
  switch (state) {
    case 'loading':
      await shown(() => screen.getByText(en.app.loading), 'the loading placeholder');
      return;
    case 'failed':
      await shown(() => screen.getByRole('alert'), 'the error');
      expect(screen.getByRole('alert').textContent).toBe(APP_MESSAGES.requestFailed);
      expect(screen.getByRole('button', { name: en.app.tryAgain })).toBeTruthy();
      return;
    case 'empty':
      await shown(() => screen.getByText(en.upsell.empty), 'no service to extend');
      expect(screen.getByRole('link', { name: en.upsell.toCheckout })).toBeTruthy();
      return;
    case 'redirecting':
      await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
      // The link the fake API served, exactly.
      expect(screen.getByRole('link', { name: en.creatingOrder.manualLink }).getAttribute('href')).toBe(PAYMENT_LINKS.upsell);
      expect(page.rendered.left).toEqual([PAYMENT_LINKS.upsell]);
      return;
  }
  // ready or submitting: the form as the client left it.
  const service = await shown(() => screen.getByRole('combobox', { name: en.upsell.service }), 'the service picker');
  expect((service as HTMLSelectElement).value).toBe(String(context.selectedServiceId));
  expect((screen.getByRole('slider', { name: en.upsell.quantity }) as HTMLInputElement).value).toBe(String(context.quantity));
  expect(screen.getByRole('radio', { name: gatewayName(context.selectedGateway) })).toHaveProperty('checked', true);
  // The price is the facts table's, for the service and quantity on the page, in the visitor's EUR (the Lifetime service's is not
  // sold in EUR; the 1 Month service's covers the 20 days left until its due date, 21 Dec 2026), or the server's total of a
  // 409 price_changed until the client reprices.
  const selected = upsellModelServices.find((candidate) => String(candidate.serviceid) === (service as HTMLSelectElement).value)!;
  const quantity = Number((screen.getByRole('slider', { name: en.upsell.quantity }) as HTMLInputElement).value);
  const tablePrice = selected.serviceid === 12 ? null : upsellFact({ billingcycle: selected.billingcycle, currency: 'EUR', quantity, proration: { remainingDays: 20, periodDays: 30 } });
  const amount = page.serverTotal ?? tablePrice;
  const covers = selected.serviceid === 11 ? upsellProrated(20, 'Dec 21, 2026') : cycleText(selected.billingcycle);
  const price = screen.getByText(en.upsell.price).parentElement!.querySelector('output')!;
  expect(price.textContent).toBe(amount === null ? upsellNotSold('EUR') : `${money(amount, 'EUR')} ${covers}`);
  if (amount !== null && state !== 'submitting') expect(screen.getByRole('button', { name: /^Pay\b/ }).textContent).toBe(`Pay ${money(amount, 'EUR')}`);
  const submit = state === 'submitting' ? screen.getByRole('button', { name: en.upsell.submitting }) : screen.getByRole('button', { name: /^Pay\b/ });
  expect(submit.getAttribute('aria-disabled')).toBe(state === 'submitting' || context.price === null ? 'true' : null);
  if (page.refusal !== null) expect(within(submit.closest('form')!).getByRole('alert').textContent).toBe(page.refusal);
  else expect(screen.queryByRole('alert')).toBeNull();
  expect(context.error !== null, 'the machine keeps the refusal shown').toBe(page.refusal !== null);
}

describeViewWalk({
  model: upsellModel,
  open: async (_path, base): Promise<UpsellPage> => ({
    ...(await base({
      url: '/checkout/upsell',
      minLoadingMs: MIN_LOADING_MS,
      api: {
        answers: {
          session,
          currency: { country: 'FR', currency: 'EUR' },
          getGateway: contractGateways(upsellModelInput.gateways, upsellModelInput.selectedGateway),
        },
        hold: { getActiveProducts: Infinity, addInvoice: Infinity },
      },
    })),
    serverTotal: null,
    refusal: null,
  }),
  offView: refusedInputs({
    'service.select': 'the service list offers only the active services loaded',
    'quantity.change': 'the slider offers only whole quantities in its range',
    'gateway.select': 'the gateway list offers only the loaded gateways',
  }),
  perform: (step, page) => perform(step.event, page),
  see: (state, page) => see(state.value, state.context as UpsellContext, page),
  project: (_value, context) => {
    const { services, error, ...rest } = context as UpsellContext;
    return { ...rest, services: services.map((service) => service.serviceid), error: error !== null };
  },
});
