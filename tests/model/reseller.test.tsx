/** The reseller machine's paths walked through /resellers (plans, account, payment) and /resellers/success (its guard). */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type {
  CreateResellerOrderOutput,
  ResellerAuthOutput,
  ResellerContext,
  ResellerProduct,
  ResellerProductsOutput,
  ResellerService,
} from '../../machines/reseller.context';
import type { ModelPath } from '../../scripts/statecharts/graph';
import { resellerModel, resellerModelInput, resellerModelProducts } from '../../scripts/statecharts/models/reseller.model';
import { MIN_LOADING_MS } from '../../src/domain/constants';
import { SEEDED_RESELLER_PRODUCTS } from '../facts/catalogue';
import { APP_MESSAGES, PAYMENT_LINKS, SPEC_MESSAGES, panelActivationNote } from '../facts/messages';
import { PANEL_ACTIVATION_PRICE, resellerFact } from '../facts/prices';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';
import { advance } from './settle';
import { en, money } from './texts';
import { describeViewWalk, enter, refusedInputs, shown, type Page } from './walk';

const anonymous = { loggedIn: false, guest: false, userid: null, email: null };
const reseller = { loggedIn: true, guest: false, userid: 7, email: 'reseller@example.com' };

const LOADED = 'xstate.done.actor.loadResellerProducts';
const LOAD_FAILED = 'xstate.error.actor.loadResellerProducts';

const catalogue = (output: ResellerProductsOutput) => ({
  totalresults: output.totalresults,
  products: output.products.map((product: ResellerProduct) => ({
    pid: product.pid,
    name: product.name,
    description: product.name,
    group: 'reseller',
    paytype: product.billingcycle === 'One Time' ? 'onetime' : 'recurring',
    billingcycle: product.billingcycle,
    pricing: contractPricing(product.pricing),
    configoptions: [],
  })),
  newResellerPid: resellerModelInput.newResellerPid,
});
const loadFailure = () => apiError(502, 'bad_gateway', 'Network error');

/** The reseller page's first product load is its route loader's call, answered as the page opens. */
function firstLoad(path: ModelPath) {
  const event = path.steps.find((step) => step.event.type === LOADED || step.event.type === LOAD_FAILED)?.event;
  if (!event) return [];
  return [event.type === LOADED ? catalogue(event.output as ResellerProductsOutput) : loadFailure()];
}

const gatewayName = (module: string) => resellerModelInput.gateways.find((gateway) => gateway.module === module)!.displayname;
const planName = (pid: number) => resellerModelProducts.find((product) => product.pid === pid)!.name;
const emailField = () => screen.getByRole('textbox', { name: en.reseller.email });

async function perform(event: AnyEventObject, page: Page): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'products.load':
    case 'success.check':
      // Sent by the page as it opens (the walk opened it).
      return;
    case LOADED:
    case LOAD_FAILED:
      if (api.waiting('getResellersProducts')) await api.respond('getResellersProducts', event.type === LOADED ? catalogue(event.output as ResellerProductsOutput) : loadFailure());
      else page.note('loadResellerProducts: the first load is the route loader\'s call, answered as the page opens (the actor takes it right after products.load)');
      // The plans stay behind the loading state for its minimum time.
      return advance(MIN_LOADING_MS);
    case 'products.retry':
      return user.click(screen.getByRole('button', { name: en.app.tryAgain }));
    case 'plan.select':
      return user.click(screen.getByRole('radio', { name: new RegExp(`^${planName(Number(event.pid))} `) }));
    case 'reseller.choose': {
      const group = screen.getByRole('group', { name: en.reseller.existing });
      return user.click(within(group).getByRole('radio', { name: event.existing ? en.reseller.yes : en.reseller.no }));
    }
    case 'email.change':
      return enter(page, emailField(), String(event.email));
    case 'password.change':
      return enter(page, screen.getByLabelText(en.reseller.password), String(event.password));
    case 'confirmation.change':
      return enter(page, screen.getByLabelText(en.reseller.confirmPassword), String(event.password));
    case 'gateway.select':
      return user.click(screen.getByRole('radio', { name: gatewayName(String(event.gateway)) }));
    case 'order.submit':
      return user.click(screen.getByRole('button', { name: en.reseller.submit }));
    case 'xstate.done.actor.resellerAuth':
      await api.respond('resellerAuth', event.output as ResellerAuthOutput);
      return;
    case 'xstate.error.actor.resellerAuth':
      await api.respond('resellerAuth', apiError(429, 'rate_limited', 'Too many attempts. Try again in 60 s.'));
      return;
    case 'xstate.done.actor.createOrder':
      await api.respond('order', event.output as CreateResellerOrderOutput);
      return;
    case 'xstate.error.actor.createOrder':
      await api.respond('order', apiError(409, 'price_changed', 'The price has changed.', { amount: 155, currency: 'EUR' }));
      return;
    case 'xstate.done.actor.loadResellerProduct':
      await api.respond('getResellerProducts', event.output as ResellerService);
      return;
    case 'xstate.error.actor.loadResellerProduct':
      await api.respond('getResellerProducts', apiError(403, 'forbidden', 'Forbidden'));
      return;
    default:
      throw new Error(`No way to perform ${event.type} on the reseller pages`);
  }
}

async function seeSuccessGuard(state: string, context: ResellerContext, page: Page): Promise<void> {
  const location = () => page.rendered.app.router.state.location;
  if (state === 'denied') {
    // Anyone without an Active reseller service goes to the reseller page.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.reseller.title }), 'the reseller page');
    expect(location().pathname).toBe('/resellers');
    return;
  }
  await shown(() => screen.getByRole('heading', { level: 1, name: en.reseller.successTitle }), 'the reseller success page');
  if (state === 'checking') {
    expect(screen.getByText(en.app.loading)).toBeTruthy();
    return;
  }
  // The service the walk's getResellerProducts answered (the model's service 801), as the page writes it.
  await shown(() => screen.getByText('Your reseller panel Reseller panel: Active.'), 'the reseller panel');
  expect(screen.getByText('Service #801: Reseller 120 credits')).toBeTruthy();
  // The panel: its address as a link, the login and the credits (the model's service: 120 credits bought).
  const panel = screen.getByRole('region', { name: en.player.reseller.title });
  expect(within(panel).getByRole('link', { name: 'https://panel.example.net/' }).getAttribute('href')).toBe('https://panel.example.net/');
  expect(within(panel).getByText('TV-20000001')).toBeTruthy();
  expect(within(panel).getByText('200000000001')).toBeTruthy();
  expect(within(panel).getByText('120')).toBeTruthy();
}

async function see(value: StateValue, context: ResellerContext, page: Page, event: AnyEventObject): Promise<void> {
  if (typeof value === 'object' && 'successGuard' in value) return seeSuccessGuard(String(value.successGuard), context, page);
  if (value === 'placed') {
    // No payment link: a flagged order; the reseller waiting page says it is under review (issue 15), never "Waiting for your payment".
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.underReview }), 'the reseller waiting page, under review');
    expect(page.rendered.app.router.state.location.pathname).toBe('/resellers/waiting');
    expect(screen.getByText('#601')).toBeTruthy();
    return;
  }
  await shown(() => screen.getByRole('heading', { level: 1, name: en.reseller.title }), 'the reseller page');
  switch (value) {
    case 'loading':
      await shown(() => screen.getByText(en.app.loading), 'the loading placeholder');
      return;
    case 'failed':
      expect((await shown(() => screen.getByRole('alert'), 'the error')).textContent).toBe(APP_MESSAGES.requestFailed);
      expect(screen.getByRole('button', { name: en.app.tryAgain })).toBeTruthy();
      return;
    case 'empty':
      await shown(() => screen.getByText(en.reseller.empty), 'no reseller plan');
      return;
    case 'redirecting':
      await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
      // The link the fake API served, exactly.
      expect(screen.getByRole('link', { name: en.creatingOrder.manualLink }).getAttribute('href')).toBe(PAYMENT_LINKS.reseller);
      expect(page.rendered.left).toEqual([PAYMENT_LINKS.reseller]);
      return;
  }
  // ready, authenticating, ordering: the form as the visitor filled it.
  const plans = await shown(() => screen.getByRole('group', { name: en.reseller.plans }), 'the reseller plans');
  // The new-reseller product is no plan to pick: a new reseller's order adds it (the three seeded packs are).
  expect(within(plans).getAllByRole('radio')).toHaveLength(3);
  const cards = [...plans.querySelectorAll('.plan')].map((card) => [card.querySelector('.plan-name')!.textContent, card.querySelector('.plan-price')!.textContent]);
  expect(cards).toEqual(SEEDED_RESELLER_PRODUCTS.filter((pack) => pack.pid !== 13).map((pack) => [pack.name, `${money(pack.pricing.EUR.monthly, 'EUR')} billed once`]));
  expect(within(plans).getByRole('radio', { name: new RegExp(`^${planName(context.selectedPid!)} `) })).toHaveProperty('checked', true);
  const existing = within(screen.getByRole('group', { name: en.reseller.existing }));
  expect(existing.getByRole('radio', { name: en.reseller.yes })).toHaveProperty('checked', context.existingReseller);
  expect(existing.getByRole('radio', { name: en.reseller.no })).toHaveProperty('checked', !context.existingReseller);
  expect((emailField() as HTMLInputElement).value).toBe(context.email);
  expect((screen.getByLabelText(en.reseller.password) as HTMLInputElement).value).toBe(context.password);
  const confirmation = screen.queryByLabelText(en.reseller.confirmPassword) as HTMLInputElement | null;
  if (context.existingReseller) expect(confirmation).toBeNull();
  else expect(confirmation?.value).toBe(context.confirmPassword);
  expect(screen.getByRole('radio', { name: gatewayName(context.selectedGateway) })).toHaveProperty('checked', true);
  // The total is the facts table's for the pack checked and the yes/no answer on the page (in the visitor's EUR).
  const pack = SEEDED_RESELLER_PRODUCTS.find((product) => (within(plans).queryByRole('radio', { name: new RegExp(`^${product.name} `) }) as HTMLInputElement | null)?.checked)!;
  const newReseller = (existing.getByRole('radio', { name: en.reseller.no }) as HTMLInputElement).checked;
  expect(screen.getByText(en.reseller.total).parentElement!.querySelector('output')!.textContent).toBe(money(resellerFact({ pid: pack.pid, newReseller, currency: 'EUR' }), 'EUR'));
  const note = screen.queryByText(panelActivationNote(money(PANEL_ACTIVATION_PRICE.EUR, 'EUR')));
  expect(note !== null).toBe(newReseller);
  // Field errors show once a submit was refused (or the field was left), never for a good value.
  const emailError = within(emailField().closest('.field')!).queryByRole('alert');
  if (context.emailError === null) expect(emailError).toBeNull();
  else if (event.type === 'order.submit') expect(emailError?.textContent).toBe(SPEC_MESSAGES.invalidEmail);
  if (context.passwordError === null) expect(screen.queryByText(SPEC_MESSAGES.passwordMismatch)).toBeNull();
  if (context.passwordRuleError === null) for (const text of [APP_MESSAGES.passwordTooShort, APP_MESSAGES.passwordIsEmail]) expect(screen.queryByText(text)).toBeNull();
  const busy = value === 'authenticating' || value === 'ordering';
  const submit = screen.getByRole('button', { name: busy ? en.reseller.submitting : en.reseller.submit });
  expect(submit.getAttribute('aria-disabled')).toBe(busy ? 'true' : null);
  const serverError = [APP_MESSAGES.rateLimited, APP_MESSAGES.priceChanged].find((text) => screen.queryByText(text));
  expect(serverError ?? null).toBe(context.error === null ? null : value === 'ready' && context.userid === null ? APP_MESSAGES.rateLimited : APP_MESSAGES.priceChanged);
}

describeViewWalk({
  model: resellerModel,
  open: (path, base) => {
    const success = path.steps[0]!.event.type === 'success.check';
    const serviceid = path.steps[0]!.event.serviceid as number | null | undefined;
    return base({
      url: success ? `/checkout/resellers/success${serviceid ? `?serviceid=${serviceid}` : ''}` : '/checkout/resellers',
      minLoadingMs: MIN_LOADING_MS,
      api: {
        answers: {
          session: success ? reseller : anonymous,
          currency: { country: 'FR', currency: 'EUR' },
          getGateway: contractGateways(resellerModelInput.gateways, resellerModelInput.selectedGateway),
          getResellersProducts: catalogue({ totalresults: 4, products: resellerModelProducts }),
        },
        first: success ? {} : { getResellersProducts: firstLoad(path) },
        hold: { getResellersProducts: success ? 0 : Infinity, resellerAuth: Infinity, order: Infinity, getResellerProducts: Infinity },
      },
    });
  },
  offView: refusedInputs({
    'plan.select': 'the plan list offers only the reseller products loaded',
    'gateway.select': 'the gateway list offers only the loaded gateways',
  }),
  perform: (step, page) => perform(step.event, page),
  see: (state, page, step) => see(state.value, state.context as ResellerContext, page, step.event),
  project: (value, context) => {
    const { products, gateways, error, resellerService, serviceid, currency, newResellerPid, ...form } = context as ResellerContext;
    // The success page's guard runs in an actor of its own (no plans, no gateways): only its part is compared.
    if (typeof value === 'object' && 'successGuard' in value) return { serviceid, resellerService: resellerService && { serviceid: resellerService.serviceid, status: resellerService.status } };
    // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
    // The app learns the new-reseller product with the catalogue (the model's input has it from the start): compared once plans are loaded.
    return {
      ...form,
      currency,
      ...(products.length ? { newResellerPid } : {}),
      products: products.map((product) => product.pid),
      gateways: gateways.map((gateway) => gateway.module),
      error: error !== null,
    };
  },
});
