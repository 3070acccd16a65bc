/**
 * The checkout machine's paths walked through the order form on / (a visit) and through
 * /creatingOrder (an automatic-order link), down to the payment page or the waiting step.
 */
import { screen, within } from '@testing-library/react';
import HTMLInputElementValueSanitizer from 'happy-dom/lib/nodes/html-input-element/HTMLInputElementValueSanitizer.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { CheckoutContext, CheckoutGateway, CheckoutInput, CheckoutProduct, SavedOrderStatus } from '../../machines/checkout.machine';
import type { PlaceOrderOutput } from '../../machines/place-order.machine';
import type { ModelPath, PathStep } from '../../scripts/statecharts/graph';
import { CHECKOUT_MODEL_NOW, checkoutModel, modelGateways, modelProducts, modelSavedOrder } from '../../scripts/statecharts/models/checkout.model';
import { MIN_LOADING_MS, PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import type { PromotionLookup } from '../../src/domain/promotion';
import { SEEDED_OPTIONS, SEEDED_PLANS, SEEDED_PROMOTIONS, type FactCurrency } from '../facts/catalogue';
import { APP_MESSAGES, PAYMENT_LINKS, SPEC_MESSAGES, discountApplied } from '../facts/messages';
import { PROMO_REFUSALS, checkoutFact, type CheckoutChoices } from '../facts/prices';
import { apiError } from '../support/fake-api';
import { contractGateways, contractPricing } from './api';
import { advance } from './settle';
import { en, fill, money } from './texts';
import { describeViewWalk, enter, refusedInputs, shown, type Page, type WalkedStep } from './walk';
import { readPayment } from '../../src/app/saved-payment';

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
  /** The code the walk's last Remove click took off, until the field changes (the status says so). */
  removedCode?: string | null;
  /** The currency the walk's currency answer gave the visitor (GB: GBP; another country or a failed call: EUR). */
  currency: FactCurrency;
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

/** orderStatus of the saved order as the server answers it: Pending is unpaid, Active paid, Fraud under review. */
function savedOrderStatus(status: SavedOrderStatus['status']) {
  const invoiceStatus = status === 'Active' ? 'Paid' : status === 'Cancelled' ? 'Cancelled' : 'Unpaid';
  return {
    orderid: modelSavedOrder.orderid, status, invoiceid: modelSavedOrder.invoiceid, invoiceStatus, serviceids: [501], fraud: status === 'Fraud', amount: 10, currency: 'GBP',
    payment: { status: status === 'Active' ? 'Paid' : 'Open', gateway: 'sandbox' },
    latePayment: false,
    receipt: {
      lines: [{ pid: 1, name: SEEDED_PLANS[0]!.name, billingcycle: SEEDED_PLANS[0]!.billingcycle, extraConnections: 0, proxyProtection: false }],
      promocode: null,
      discount: 0,
      date: new Date(CHECKOUT_MODEL_NOW).toISOString(),
      datepaid: status === 'Active' ? new Date(CHECKOUT_MODEL_NOW).toISOString() : null,
      paymentmethod: { module: 'sandbox', displayname: 'Card' },
    },
  };
}

/** The saved payment of the model's unpaid order, as the checkout cookie holds it (the app saved it before leaving for the payment page). */
const savedPayment = {
  flow: 'order',
  order: { ...modelSavedOrder, serviceid: 501, fraud: false },
  link: PAYMENT_LINKS.checkout,
  gateway: 'sandbox',
  lastDate: CHECKOUT_MODEL_NOW + PAYMENT_DEADLINE_MS,
  duration: PAYMENT_DEADLINE_MS,
};

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

const top = (value: StateValue) => (typeof value === 'string' ? value : Object.keys(value)[0]!);

/** What the stopped automatic order says on the form, per reason (the spec's words where it has them). */
function autoOrderReason(context: CheckoutContext): string {
  const stop = context.autoOrderStop!;
  if (stop.reason === 'email') return SPEC_MESSAGES.invalidEmail;
  if (stop.reason === 'plan') return en.checkout.autoOrderPlanNotFound;
  if (stop.reason === 'promo') return 'key' in stop.error ? PROMO_REFUSALS.find((refusal) => refusal.code === 'EXPIRED15')!.message : APP_MESSAGES.promotionNotFound;
  return APP_MESSAGES.requestFailed;
}

async function see(value: StateValue, context: CheckoutContext, page: CheckoutPage, step: PathStep): Promise<void> {
  const location = () => page.rendered.app.router.state.location;
  const state = top(value);
  if (state === 'resumingOrder') {
    // Continue: the waiting page of the saved order, with its payment link.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.title }), 'the waiting page of the unpaid order');
    expect(location().pathname).toBe('/waiting');
    expect(screen.getByText(`#${modelSavedOrder.orderid}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: en.waiting.pay }).getAttribute('href')).toBe(PAYMENT_LINKS.checkout);
    return;
  }
  if (state === 'checkingSavedOrder') {
    await shown(() => within(screen.getByRole('main')).getByText(en.app.loading), 'the loading placeholder while the saved order is checked');
    expect(screen.queryByRole('region', { name: en.unpaidOrder.title })).toBeNull();
    return;
  }
  if (state === 'waiting') {
    // A fraud-flagged order has no payment link: the waiting step says "Under review" (title, badge, banner; issue 15).
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.underReview }), 'the waiting page, under review');
    expect(screen.getByText(en.waiting.status).nextElementSibling!.textContent).toBe(en.status.Fraud);
    expect(screen.queryByText(en.status.Pending)).toBeNull();
    expect(location().pathname).toBe('/waiting');
    expect((await shown(() => screen.getByRole('alert'), 'the fraud banner')).textContent).toBe(en.waiting.fraud);
    expect(screen.getByText('#502')).toBeTruthy(); // the flagged order of the walk's placeOrder end (modelPlacedFlagged)
    await seeOrderRequest(page);
    return;
  }
  if (state === 'redirecting') {
    await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
    // The link the fake API served, exactly.
    expect(screen.getByRole('link', { name: en.creatingOrder.manualLink }).getAttribute('href')).toBe(PAYMENT_LINKS.checkout);
    expect(page.rendered.left).toEqual([PAYMENT_LINKS.checkout]);
    await seeOrderRequest(page);
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
    // The automatic order stopped: the form, filled from the same link (after its own loading time), says why.
    expect(location().pathname).toBe('/');
    const linkParams = Object.fromEntries(Object.entries({ email: context.query.email, pid: context.query.pid }).filter(([, param]) => param !== undefined));
    expect(location().search).toEqual(expect.objectContaining(linkParams));
    expect(location().search).not.toHaveProperty('auto_redirect');
    await advance(MIN_LOADING_MS);
    if (isClient(context)) await shown(() => screen.getByText(fill(en.checkout.orderingAs, { email: context.user!.email })), 'the order placed for the signed-in client');
    else await shown(() => emailField().value === (context.query.email ?? ''), 'the e-mail of the link in the form');
    if (context.query.pid !== undefined) expect(planRadio(Number(context.query.pid))).toHaveProperty('checked', true);
    const stopped = document.querySelector('.auto-order-stopped');
    if (context.autoOrderStop === null) expect(stopped).toBeNull();
    else {
      expect(stopped?.getAttribute('role')).toBe('alert');
      expect([...stopped!.querySelectorAll('p')].map((line) => line.textContent)).toEqual([en.checkout.autoOrderStopped, autoOrderReason(context)]);
      // A missing e-mail is asked for on its field at once.
      if (context.autoOrderStop.reason === 'email') expect(within(emailField().closest('.field') as HTMLElement).getByRole('alert').textContent).toBe(SPEC_MESSAGES.invalidEmail);
    }
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
  await seeUnpaidOrder(value, context, page, step);
}

/** The unpaid-order banner above the form: shown, cancelling, refused; gone once cancelled (and said so). */
async function seeUnpaidOrder(value: StateValue, context: CheckoutContext, page: CheckoutPage, step: PathStep): Promise<void> {
  const region = JSON.stringify(value).match(/"unpaidOrder":"(\w+)"/)?.[1];
  if (region === 'shown' || region === 'cancelling' || region === 'confirmingCancel') {
    // The banner's code loads when it is needed.
    const banner = await shown(() => screen.getByRole('region', { name: en.unpaidOrder.title }), 'the unpaid-order banner');
    expect(within(banner).getByText(fill(en.unpaidOrder.text, { orderid: String(modelSavedOrder.orderid) }))).toBeTruthy();
    const question = fill(en.receipt.cancelQuestion, { order: String(modelSavedOrder.orderid) });
    if (region === 'confirmingCancel') {
      // Asked once: the question holds the focus, and the banner's own buttons wait for its answer.
      expect(document.activeElement?.textContent).toBe(question);
      expect(within(banner).getByRole('region', { name: question })).toBeTruthy();
      expect(within(banner).queryByRole('button', { name: en.unpaidOrder.continue })).toBeNull();
    } else {
      expect(within(banner).queryByRole('region', { name: question })).toBeNull();
      const cancel = within(banner).getByRole('button', { name: region === 'cancelling' ? en.unpaidOrder.cancelling : en.unpaidOrder.cancel });
      expect(cancel.getAttribute('aria-disabled')).toBe(region === 'cancelling' ? 'true' : null);
      expect(within(banner).getByRole('button', { name: en.unpaidOrder.continue })).toBeTruthy();
      // Kept: the focus is back on the button that asked.
      if (step.event.type === 'unpaidOrder.keep') expect(document.activeElement).toBe(cancel);
    }
    const refusal = within(banner).queryByRole('alert')?.textContent ?? null;
    expect(refusal).toBe(context.unpaidOrderError === null ? null : APP_MESSAGES.orderNotPending);
    // The banner is first, before the form.
    expect(banner.compareDocumentPosition(discountField()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    return;
  }
  expect(screen.queryByRole('region', { name: en.unpaidOrder.title })).toBeNull();
  const saved = readPayment(page.rendered.app.services.store);
  if (step.event.type === 'xstate.done.actor.cancelUnpaidOrder') {
    expect(screen.getByText(fill(en.unpaidOrder.cancelled, { orderid: String(modelSavedOrder.orderid) })).getAttribute('role')).toBe('status');
    expect(saved).toBeUndefined();
  }
  if (step.event.type === 'xstate.done.actor.checkSavedOrder') {
    // A paid order's saved payment is forgotten; one under review stays for the waiting page.
    if ((step.event.output as SavedOrderStatus).status === 'Active') expect(saved).toBeUndefined();
    else expect(saved?.order.orderid).toBe(modelSavedOrder.orderid);
  }
}

/** A signed-in client (a numeric user id), as opposed to a guest identified by e-mail. */
const isClient = (context: CheckoutContext) => context.user !== null && typeof context.user.userid === 'number';

/** What the form says for the model's refusals of a submit (the walk answers them as above). */
const SUBMIT_ERRORS: Record<string, string> = {
  'Bad gateway': APP_MESSAGES.requestFailed,
  'request.failed': APP_MESSAGES.requestFailed,
};

/** The option price a switch shows for the plan's cycle (One Time as monthly), from the facts. */
const optionPrice = (id: 2 | 4, billingcycle: string, currency: FactCurrency) =>
  SEEDED_OPTIONS.find((option) => option.id === id)!.pricing[currency][billingcycle === 'Semi-Annually' ? 'semiannually' : 'monthly']!;

/** The plan whose radio is checked, read from the page. */
function checkedPlan() {
  const checked = within(screen.getByRole('group', { name: en.checkout.plans })).getAllByRole('radio').find((radio) => (radio as HTMLInputElement).checked)!;
  const plan = SEEDED_PLANS.find((candidate) => screen.getByRole('radio', { name: new RegExp(`^${candidate.name} `) }) === checked);
  expect(plan, 'the checked plan is a seeded one').toBeDefined();
  return plan!;
}

/** The first order the page sent asks the table's amount for what it orders (a later one may carry a price change's amount). */
async function seeOrderRequest(page: CheckoutPage): Promise<void> {
  const order = page.api.calls.find((request) => new URL(request.url).pathname === '/checkout/api/order');
  expect(order, 'an order request').toBeDefined();
  const body = (await order!.clone().json()) as { pid: number; amount: number; currency: FactCurrency; promocode?: string; configoptions?: Record<string, number> };
  const choices: CheckoutChoices = {
    pid: body.pid,
    extraConnection: body.configoptions?.['2'] === 1,
    proxyProtection: body.configoptions?.['4'] === 1,
    promo: body.promocode ?? null,
    currency: page.currency,
  };
  expect(body.currency).toBe(page.currency);
  expect(body.amount, `the amount of ${JSON.stringify(choices)}`).toBe(checkoutFact(choices).total);
}

/** The order form: every choice as the machine holds it, the total, the messages. */
async function seeForm(value: StateValue, context: CheckoutContext, page: CheckoutPage): Promise<void> {
  const submitting = top(value) === 'submitting';
  const plans = screen.getByRole('group', { name: en.checkout.plans });
  // Only the first three products are offered.
  expect(within(plans).getAllByRole('radio')).toHaveLength(3);
  expect(planRadio(context.selectedPid!)).toHaveProperty('checked', true);
  const plan = checkedPlan();
  const { currency } = page;
  // The three seeded plans, each card with its price and cycle in the visitor's currency.
  const cards = [...plans.querySelectorAll('.plan')].map((card) => [card.querySelector('.plan-name')!.textContent, card.querySelector('.plan-price')!.textContent]);
  const priceOf = (candidate: (typeof SEEDED_PLANS)[number]) => candidate.pricing[currency][candidate.billingcycle === 'Semi-Annually' ? 'semiannually' : 'monthly']!;
  expect(cards).toEqual(SEEDED_PLANS.map((candidate) => [candidate.name, `${money(priceOf(candidate), currency)} ${candidate.cycleText}`]));
  const extra = screen.getByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) }) as HTMLInputElement;
  const proxy = screen.getByRole('switch', { name: new RegExp(`^${en.checkout.proxyProtection}`) }) as HTMLInputElement;
  expect(extra).toHaveProperty('checked', context.extraConnection);
  expect(proxy).toHaveProperty('checked', context.proxyProtection);
  // Every seeded plan takes both options, priced for its cycle.
  expect(extra.labels![0]!.textContent).toBe(`${en.checkout.extraConnection} +${money(optionPrice(2, plan.billingcycle, currency), currency)}`);
  expect(proxy.labels![0]!.textContent).toBe(`${en.checkout.proxyProtection} +${money(optionPrice(4, plan.billingcycle, currency), currency)}`);
  expect(reminderBox()).toHaveProperty('checked', (reminderClicks.get(page) ?? 0) % 2 === 0);
  // The discount box.
  const checking = JSON.stringify(value).includes('"promo":"checking"');
  const discount = discountField();
  expect(discount.value).toBe(context.promoCode);
  expect(discount.readOnly).toBe(checking);
  const apply = screen.getByRole('button', { name: checking ? en.checkout.checkingDiscount : en.checkout.applyDiscount });
  expect(apply.getAttribute('aria-disabled')).toBe(checking || context.promotion !== null ? 'true' : null);
  const discountBox = discount.closest('.discount')!;
  // An applied code is the one typed, and the seed lists the checked plan for it.
  const applied = context.promotion !== null ? discount.value : null;
  if (applied !== null) expect(SEEDED_PROMOTIONS[applied]?.appliesto.split(',')).toContain(String(plan.pid));
  const justRemoved = page.removedCode ?? null;
  expect(within(discountBox as HTMLElement).getByRole('status').textContent).toBe(applied !== null ? discountApplied(applied) : justRemoved !== null ? fill(en.checkout.discountRemoved, { code: justRemoved }) : '');
  // An applied code has its Remove button, and only then.
  expect(within(discountBox as HTMLElement).queryByRole('button', { name: applied !== null ? fill(en.checkout.removeDiscountLabel, { code: applied }) : /^Remove/ }) !== null).toBe(applied !== null);
  const promoError = within(discountBox as HTMLElement).queryByRole('alert')?.textContent ?? null;
  const refusal = PROMO_REFUSALS.find((candidate) => candidate.code === discount.value && candidate.pids.includes(plan.pid));
  if (context.promoError === null) expect(promoError).toBeNull();
  else if ('key' in context.promoError) expect(promoError).toBe(refusal?.message);
  else expect(promoError).toBe(APP_MESSAGES.promotionNotFound);
  let form: HTMLFormElement;
  if (isClient(context)) {
    // A signed-in client is not asked for an e-mail: the order is placed for the client's address.
    form = screen.getByText(fill(en.checkout.orderingAs, { email: context.user!.email })).closest('form')!;
    expect(screen.queryByRole('textbox', { name: en.checkout.email })).toBeNull();
  } else {
    // The e-mail: its error shows once the field was left, never for an empty or good address.
    const email = emailField();
    expect(email.value).toBe(context.email);
    const emailError = within(email.closest('.field') as HTMLElement).queryByRole('alert');
    if (context.emailError === null) expect(emailError).toBeNull();
    else if (document.activeElement !== email || top(value) === 'ready' && JSON.stringify(value).includes('"email":"required"')) expect(emailError?.textContent).toBe(SPEC_MESSAGES.invalidEmail);
    form = email.closest('form')!;
  }
  expect(screen.getByRole('radio', { name: gatewayName(context.selectedGateway!) })).toHaveProperty('checked', true);
  // The summary, line by line, is the facts table's row for the choices on the page.
  const fact = checkoutFact({ pid: plan.pid, extraConnection: extra.checked, proxyProtection: proxy.checked, promo: applied, currency });
  const summary = screen.getByRole('region', { name: en.checkout.summary });
  expect(within(summary).getByRole('status').textContent).toBe(money(fact.total, currency));
  const lines = [...summary.querySelectorAll('.line')].map((line) => [line.querySelector('dt')!.textContent, line.querySelector('dd')!.textContent]);
  expect(lines).toEqual([
    [plan.name, money(fact.price, currency)],
    ...(fact.extraConnection > 0 ? [[en.checkout.extraConnection, money(fact.extraConnection, currency)]] : []),
    ...(fact.proxyProtection > 0 ? [[en.checkout.proxyProtection, money(fact.proxyProtection, currency)]] : []),
    ...(fact.discount > 0 ? [[`${en.checkout.discountLine} (${applied})`, money(-fact.discount, currency)]] : []),
    [en.checkout.total, `${money(fact.total, currency)} ${plan.cycleText}`],
  ]);
  // A refused order: the message (a price change offers the new total).
  const formAlerts = within(form).queryAllByRole('alert').filter((alert) => !alert.closest('.field') && !alert.classList.contains('auto-order-stopped'));
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
    savedOrder: context.savedOrder,
    unpaidOrder: context.unpaidOrder,
    unpaidOrderError: context.unpaidOrderError !== null,
    autoOrderStop: context.autoOrderStop && {
      reason: context.autoOrderStop.reason,
      ...('error' in context.autoOrderStop ? { error: typeof context.autoOrderStop.error === 'object' && 'key' in context.autoOrderStop.error ? context.autoOrderStop.error : 'server message' } : {}),
    },
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
    const { query = {}, user, savedOrder } = path.input as CheckoutInput;
    // A signed-in client following a deep link: the session is the client's, nobody is identified.
    const session = user ? { loggedIn: true, guest: false, userid: user.userid, email: user.email } : anonymous;
    const route = query.auto_redirect === 'true' ? '/creatingOrder' : '/';
    const search = new URLSearchParams(Object.entries(query)).toString();
    const page = await base({
      url: `/checkout${route}${search ? `?${search}` : ''}`,
      now: () => CHECKOUT_MODEL_NOW,
      minLoadingMs: MIN_LOADING_MS,
      // Back from the payment page: the payment the app saved before leaving.
      ...(savedOrder ? { cookies: { checkout: JSON.stringify({ payment: savedPayment }) } } : {}),
      api: {
        answers: {
          session,
          currency: currencyAnswer(path),
          // The waiting page a continued order opens polls the order as unpaid.
          orderStatus: savedOrderStatus('Pending'),
          getProducts: productList(modelProducts),
          getGateway: gatewayList({ gateways: modelGateways, defaultGateway: 'sandbox' }),
        },
        // A link's e-mail logs its guest in first; that fails here, so the checkout identifies the guest itself (the model's input has no user).
        first: route === '/creatingOrder' && !user ? { authMiddleware: [badGateway()] } : {},
        // The walked actor's own calls; later forms (after a fallback, on the waiting page) load at once.
        hold: { getProducts: 1, getGateway: 1, checkFraud: 1, getPromotion: Infinity, authMiddleware: Infinity, getProduct: Infinity, order: Infinity, orderStatus: savedOrder ? 1 : 0, cancelOrder: Infinity },
      },
    });
    if (route === '/creatingOrder' && !user) page.note("auto-order link: the automatic login of the link's e-mail fails first, so the checkout identifies the guest itself (the model's input has no user)");
    const currency = currencyAnswer(path);
    return { ...page, route, currency: currency instanceof Response ? 'EUR' : (currency.currency as FactCurrency) };
  },
  // The currency is known before the form exists: its answer is the first of the four loads.
  arrange: (path) => [...path.steps.filter((step) => isCurrencyResult(step.event)), ...path.steps.filter((step) => !isCurrencyResult(step.event))],
  offView: refusedInputs({
    'gateway.select': 'choosing the gateway already chosen sends nothing (a checked radio)',
    'plan.select': 'choosing the plan already chosen sends nothing (a checked radio)',
    'promo.apply': 'the Apply button is disabled while the code is empty',
  }),
  unrepeatable: { idempotencyKey: 'a fresh random Idempotency-Key per submission (the app draws it, the model uses a fixed one)' },
  perform: (step, page) => perform(step.event, page),
  see: (state, page, step) => see(state.value, state.context as CheckoutContext, page, step),
  project,
  extra: (walked: WalkedStep, _previous, steps: PathStep[]) =>
    isCurrencyResult(walked.event) && !steps.some((step) => isCurrencyResult(step.event))
      ? 'the currency the app reads as it starts answers loadCurrency, though the path ends before that load'
      : null,
});
