/**
 * The checkout machine's paths walked through the order form on / (a visit) and through
 * /creatingOrder (an automatic-order link), down to the payment page or the waiting step.
 */
import { screen, within } from '@testing-library/react';
import HTMLInputElementValueSanitizer from 'happy-dom/lib/nodes/html-input-element/HTMLInputElementValueSanitizer.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { CheckoutContext, CheckoutGateway, CheckoutInput, CheckoutProduct } from '../../machines/checkout.machine';
import type { PlaceOrderOutput } from '../../machines/place-order.machine';
import type { ModelPath, PathStep } from '../../scripts/statecharts/graph';
import { CHECKOUT_MODEL_NOW, checkoutModel, modelGateways, modelProducts } from '../../scripts/statecharts/models/checkout.model';
import { MIN_LOADING_MS, PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { PromotionLookup } from '../../src/domain/promotion';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';
import { advance } from './settle';
import { cycleText, en, fill, money } from './texts';
import { describeViewWalk, enter, shown, type Page, type WalkedStep } from './walk';

const anonymous = { loggedIn: false, guest: false, userid: null, email: null };

// happy-dom strips every Unicode blank from an e-mail input (String.trim); the HTML spec strips only
// ASCII whitespace, so in a browser a pasted no-break space stays in the field. The walk follows the spec.
const { sanitize } = HTMLInputElementValueSanitizer;
beforeAll(() => {
  HTMLInputElementValueSanitizer.sanitize = (input, value) =>
    input.type === 'email' && !input.multiple ? value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/[\n\r]/g, '') : sanitize.call(HTMLInputElementValueSanitizer, input, value);
});
afterAll(() => {
  HTMLInputElementValueSanitizer.sanitize = sanitize;
});

/** Where the walk runs: the form of a visit, or the landing page of an automatic-order link. */
interface CheckoutPage extends Page {
  route: '/' | '/creatingOrder';
}

const contractProduct = (product: CheckoutProduct) => ({
  pid: product.pid,
  name: product.name,
  description: product.description,
  group: 'retail',
  paytype: 'recurring',
  billingcycle: product.billingcycle,
  pricing: contractPricing(product.pricing),
  configoptions: product.configoptions.map((option) => ({ id: option.id, name: option.name, pricing: contractPricing(option.pricing) })),
});
const productList = (products: CheckoutProduct[]) => ({ totalresults: products.length, products: products.map(contractProduct) });
const gatewayList = ({ gateways, defaultGateway }: { gateways: CheckoutGateway[]; defaultGateway: string }) => contractGateways(gateways, defaultGateway);
const promotionLookup = (lookup: PromotionLookup) => ({ result: 'success', totalresults: lookup.totalresults, promotions: { promotion: lookup.promotions } });
/** What a proxy in front of the API answers when the API is down ('Bad gateway' in the model). */
const badGateway = () => apiError(502, 'bad_gateway', 'Bad gateway');

const CURRENCY = 'loadCurrency';
const isCurrencyResult = (event: AnyEventObject) => event.type === `xstate.done.actor.${CURRENCY}` || event.type === `xstate.error.actor.${CURRENCY}`;

/** The app asks the visitor's currency once, as it starts (before any view): the path's answer, else GB. */
function currencyAnswer(path: ModelPath) {
  const event = path.steps.find((step) => isCurrencyResult(step.event))?.event;
  if (event?.type === `xstate.error.actor.${CURRENCY}`) return badGateway();
  const country = (event?.output as { country: string } | undefined)?.country ?? 'GB';
  return { country, currency: country === 'GB' ? 'GBP' : 'EUR' };
}

const planRadio = (pid: number) => within(screen.getByRole('group', { name: en.checkout.plans })).getByRole('radio', { name: new RegExp(`^${modelProducts.find((product) => product.pid === pid)!.name} `) });
const emailField = () => screen.getByRole('textbox', { name: en.checkout.email, description: (text) => text.startsWith(en.checkout.emailHint) }) as HTMLInputElement;
const discountField = () => screen.getByRole('textbox', { name: en.checkout.discount }) as HTMLInputElement;
/** "Remind me if I don't finish": a plain checkbox (not a switch), described by its hint. */
const reminderBox = () => screen.getByRole('checkbox', { name: en.checkout.remind, description: en.checkout.remindHint });
/** Clicks on "Remind me if I don't finish" per walked page: the box starts ticked (issue 12) and each click flips it. */
const reminderClicks = new WeakMap<CheckoutPage, number>();
const gatewayName = (module: string) => modelGateways.find((gateway) => gateway.module === module)!.displayname;

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

async function perform(event: AnyEventObject, page: CheckoutPage): Promise<void> {
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
      await api.respond('getPromotion', apiError(404, 'promotion_not_found', 'Promotion code not found.'));
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
    default:
      throw new Error(`No way to perform ${event.type} on the checkout`);
  }
}

/** placeOrder's end, as the server's answers make it in the app (its own steps are walked in place-order.test.tsx). */
async function placeOrder(output: PlaceOrderOutput, page: CheckoutPage): Promise<void> {
  const { api } = page;
  page.note('placeOrder ends: the checkout walk answers its calls (authMiddleware, order) so it ends as the path says');
  if (output.outcome === 'failed') {
    await api.respond('authMiddleware', badGateway());
    return;
  }
  await api.respond('authMiddleware', output.user!);
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

const top = (value: StateValue) => (typeof value === 'string' ? value : Object.keys(value)[0]!);

async function see(value: StateValue, context: CheckoutContext, page: CheckoutPage): Promise<void> {
  const location = () => page.rendered.app.router.state.location;
  const state = top(value);
  if (state === 'waiting') {
    // A fraud-flagged order has no payment link: the waiting step says "Under review" (title, badge, banner; issue 15).
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.underReview }), 'the waiting page, under review');
    expect(screen.getByText(en.waiting.status).nextElementSibling!.textContent).toBe(en.status.Fraud);
    expect(screen.queryByText(en.status.Pending)).toBeNull();
    expect(location().pathname).toBe('/waiting');
    expect((await shown(() => screen.getByRole('alert'), 'the fraud banner')).textContent).toBe(en.waiting.fraud);
    expect(screen.getByText(`#${context.order!.orderid}`)).toBeTruthy();
    return;
  }
  if (state === 'redirecting') {
    await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
    expect(screen.getByRole('link', { name: en.creatingOrder.manualLink }).getAttribute('href')).toBe(context.payment!.link);
    expect(page.rendered.left).toEqual([context.payment!.link]);
    return;
  }
  if (page.route === '/creatingOrder' && state !== 'ready') {
    await shown(() => screen.getByRole('heading', { level: 1, name: en.creatingOrder.title }), 'the order-creation notice');
    if (state === 'notFound') expect(screen.getByText(en.checkout.noProducts)).toBeTruthy();
    else expect(screen.getByText(en.creatingOrder.text)).toBeTruthy();
    return;
  }
  await shown(() => screen.getByRole('heading', { level: 1, name: en.checkout.title }), 'the checkout page');
  if (page.route === '/creatingOrder') {
    // The automatic order stopped silently: the form, filled from the same link (after its own loading time).
    expect(location().pathname).toBe('/');
    expect(location().search).toEqual(expect.objectContaining({ email: context.query.email, pid: context.query.pid }));
    expect(location().search).not.toHaveProperty('auto_redirect');
    await advance(MIN_LOADING_MS);
    await shown(() => emailField().value === context.query.email, 'the e-mail of the link in the form');
    expect(planRadio(Number(context.query.pid))).toHaveProperty('checked', true);
    return;
  }
  if (state === 'loading') {
    await shown(() => within(screen.getByRole('main')).getByText(en.app.loading), 'the loading placeholder');
    return;
  }
  if (state === 'notFound') {
    await shown(() => screen.getByText(en.checkout.noProducts), 'no plan');
    expect(screen.getByRole('button', { name: en.app.tryAgain })).toBeTruthy();
    return;
  }
  await seeForm(value, context, page);
}

/** What the form says for the model's refusals of a submit (the walk answers them as above). */
const SUBMIT_ERRORS: Record<string, string> = {
  'Bad gateway': en.messages.request.failed,
  'request.failed': en.messages.request.failed,
};

/** The order form: every choice as the machine holds it, the total, the messages. */
async function seeForm(value: StateValue, context: CheckoutContext, page: CheckoutPage): Promise<void> {
  const submitting = top(value) === 'submitting';
  const plans = screen.getByRole('group', { name: en.checkout.plans });
  // Only the first three products are offered.
  expect(within(plans).getAllByRole('radio')).toHaveLength(3);
  expect(planRadio(context.selectedPid!)).toHaveProperty('checked', true);
  const product = context.products.find((candidate) => candidate.pid === context.selectedPid)!;
  const extra = screen.queryByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) });
  const proxy = screen.queryByRole('switch', { name: new RegExp(`^${en.checkout.proxyProtection}`) });
  if (product.configoptions.length) {
    expect(extra).toHaveProperty('checked', context.extraConnection);
    expect(proxy).toHaveProperty('checked', context.proxyProtection);
  } else {
    expect([extra, proxy]).toEqual([null, null]);
  }
  expect(reminderBox()).toHaveProperty('checked', (reminderClicks.get(page) ?? 0) % 2 === 0);
  // The discount box.
  const checking = JSON.stringify(value).includes('"promo":"checking"');
  const discount = discountField();
  expect(discount.value).toBe(context.promoCode);
  expect(discount.readOnly).toBe(checking);
  const apply = screen.getByRole('button', { name: checking ? en.checkout.checkingDiscount : en.checkout.applyDiscount });
  expect(apply.getAttribute('aria-disabled')).toBe(checking || context.promotion !== null ? 'true' : null);
  const discountBox = discount.closest('.discount')!;
  expect(within(discountBox as HTMLElement).getByRole('status').textContent).toBe(context.promotion ? fill(en.checkout.discountApplied, { code: context.promotion.code }) : '');
  const promoError = within(discountBox as HTMLElement).queryByRole('alert')?.textContent ?? null;
  if (context.promoError === null) expect(promoError).toBeNull();
  else if ('key' in context.promoError) expect(promoError).toBe(en.messages.promo.notApplicable);
  else expect(promoError).toBe(en.messages.api.promotion_not_found);
  // The e-mail: its error shows once the field was left, never for an empty or good address.
  const email = emailField();
  expect(email.value).toBe(context.email);
  const emailError = within(email.closest('.field') as HTMLElement).queryByRole('alert');
  if (context.emailError === null) expect(emailError).toBeNull();
  else if (document.activeElement !== email) expect(emailError?.textContent).toBe(en.messages.email.invalid);
  expect(screen.getByRole('radio', { name: gatewayName(context.selectedGateway!) })).toHaveProperty('checked', true);
  // The total follows every choice.
  const summary = screen.getByRole('region', { name: en.checkout.summary });
  expect(within(summary).getByRole('status').textContent).toBe(money(context.quote!.total, context.currency));
  expect(within(summary).getByText(cycleText(product.billingcycle))).toBeTruthy();
  if (context.quote!.discount > 0) expect(within(summary).getByText(money(-context.quote!.discount, context.currency))).toBeTruthy();
  // A refused order: the message (a price change offers the new total).
  const form = email.closest('form')!;
  const formAlerts = within(form).queryAllByRole('alert').filter((alert) => !alert.closest('.field'));
  if (context.submitError === null) expect(formAlerts).toEqual([]);
  else expect(formAlerts.map((alert) => alert.textContent)).toEqual([SUBMIT_ERRORS[context.submitError]]);
  const submit = screen.getByRole('button', { name: submitting ? en.checkout.submitting : en.checkout.submit });
  expect(submit.getAttribute('aria-disabled')).toBe(submitting ? 'true' : null);
}

/** The part of the context compared with the path's. */
function project(value: StateValue, raw: unknown): unknown {
  // Until the catalogue is complete, the loads answer in the app's order (the currency first): only the state is compared.
  if (top(value) === 'loading' || top(value) === 'notFound') return {};
  const context = raw as CheckoutContext;
  return {
    query: context.query,
    user: context.user,
    loaded: context.loaded,
    products: context.products.map((product) => product.pid),
    selectedPid: context.selectedPid,
    extraConnection: context.extraConnection,
    proxyProtection: context.proxyProtection,
    gateways: context.gateways.map((gateway) => gateway.module),
    selectedGateway: context.selectedGateway,
    country: context.country,
    currency: context.currency,
    fraudCheck: context.fraudCheck,
    promoCode: context.promoCode,
    promoCheckPending: context.promoCheckPending,
    promoLookup: context.promoLookup,
    promotion: context.promotion?.code ?? null,
    // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
    promoError: context.promoError && ('key' in context.promoError ? context.promoError : 'server message'),
    email: context.email,
    emailValid: context.emailValid,
    emailError: context.emailError,
    affId: context.affId,
    quote: context.quote,
    autoOrder: context.autoOrder && { pid: context.autoOrder.product.pid, promotion: context.autoOrder.promotion?.code ?? null },
    order: context.order,
    payment: context.payment,
    submitError: context.submitError !== null,
  };
}

describeViewWalk<CheckoutPage>({
  model: checkoutModel,
  open: async (path, base) => {
    const { query = {} } = path.input as CheckoutInput;
    const route = query.auto_redirect === 'true' ? '/creatingOrder' : '/';
    const search = new URLSearchParams(Object.entries(query)).toString();
    const page = await base({
      url: `/checkout${route}${search ? `?${search}` : ''}`,
      now: () => CHECKOUT_MODEL_NOW,
      minLoadingMs: MIN_LOADING_MS,
      api: {
        answers: {
          session: anonymous,
          currency: currencyAnswer(path),
          getProducts: productList(modelProducts),
          getGateway: gatewayList({ gateways: modelGateways, defaultGateway: 'sandbox' }),
        },
        // A link's e-mail logs its guest in first; that fails here, so the checkout identifies the guest itself (the model's input has no user).
        first: route === '/creatingOrder' ? { authMiddleware: [badGateway()] } : {},
        // The walked actor's own calls; later forms (after a fallback, on the waiting page) load at once.
        hold: { getProducts: 1, getGateway: 1, checkFraud: 1, getPromotion: Infinity, authMiddleware: Infinity, getProduct: Infinity, order: Infinity },
      },
    });
    if (route === '/creatingOrder') page.note("auto-order link: the automatic login of the link's e-mail fails first, so the checkout identifies the guest itself (the model's input has no user)");
    return { ...page, route };
  },
  // The currency is known before the form exists: its answer is the first of the four loads.
  arrange: (path) => [...path.steps.filter((step) => isCurrencyResult(step.event)), ...path.steps.filter((step) => !isCurrencyResult(step.event))],
  perform: (step, page) => perform(step.event, page),
  see: (state, page) => see(state.value, state.context as CheckoutContext, page),
  project,
  extra: (walked: WalkedStep, _previous, steps: PathStep[]) =>
    isCurrencyResult(walked.event) && !steps.some((step) => isCurrencyResult(step.event))
      ? 'the currency the app reads as it starts answers loadCurrency, though the path ends before that load'
      : null,
});
