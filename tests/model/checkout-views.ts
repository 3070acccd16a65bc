/** What the shopper sees in each state of a checkout path: the form, the unpaid-order banner, the pages the checkout leads to. */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { StateValue } from 'xstate';
import type { CheckoutContext, SavedOrderStatus } from '../../machines/checkout.machine';
import type { PathStep } from '../../scripts/statecharts/graph';
import { modelSavedOrder } from '../../scripts/statecharts/models/checkout.model';
import { readPayment } from '../../src/app/saved-payment';
import { MIN_LOADING_MS } from '../../src/domain/constants';
import { SEEDED_OPTIONS, SEEDED_PLANS, SEEDED_PROMOTIONS, type FactCurrency } from '../facts/catalogue';
import { APP_MESSAGES, PAYMENT_LINKS, SPEC_MESSAGES, discountApplied } from '../facts/messages';
import { PROMO_REFUSALS, checkoutFact, type CheckoutChoices } from '../facts/prices';
import { discountField, emailField, gatewayName, isClient, planRadio, reminderBox, reminderClicks, top, type CheckoutPage } from './checkout-page';
import { advance } from './settle';
import { en, fill, money } from './texts';
import { shown } from './walk';

/** What the stopped automatic order says on the form, per reason (the spec's words where it has them). */
function autoOrderReason(context: CheckoutContext): string {
  const stop = context.autoOrderStop!;
  if (stop.reason === 'email') return SPEC_MESSAGES.invalidEmail;
  if (stop.reason === 'plan') return en.checkout.autoOrderPlanNotFound;
  if (stop.reason === 'promo') return 'key' in stop.error ? PROMO_REFUSALS.find((refusal) => refusal.code === 'EXPIRED15')!.message : APP_MESSAGES.promotionNotFound;
  return APP_MESSAGES.requestFailed;
}

export async function see(value: StateValue, context: CheckoutContext, page: CheckoutPage, step: PathStep): Promise<void> {
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


/** What the form says for the model's refusals of a submit (the walk answers them in checkout-actions.ts). */
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
