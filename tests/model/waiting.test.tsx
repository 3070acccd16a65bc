/**
 * The waiting machine's paths walked through /waiting: countdown, status polling, a declined, confirming
 * or late payment, a new link on the same gateway, change of gateway, cancel (asked once), the receipt block.
 */
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { CreatePaymentLinkOutput, OrderStatusResult, WaitingContext, WaitingInput } from '../../machines/waiting.context';
import { COUNTDOWN_TICK_MS } from '../../machines/waiting.machine';
import type { PathStep } from '../../scripts/statecharts/graph';
import { waitingModel, waitingModelInput } from '../../scripts/statecharts/models/waiting.model';
import { PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import { APP_MESSAGES, LATE_PAYMENT_NEXT, PAYMENT_LINKS, latePayment } from '../facts/messages';
import { checkoutFact } from '../facts/prices';
import { apiError } from '../support/fake-api';
import { contractGateways } from './api';
import { advance, flush } from './settle';
import { en, fill, money } from './texts';
import { describeViewWalk, refusedInputs, shown, type Page, type WalkedStep } from './walk';

const TICK = `xstate.after.${COUNTDOWN_TICK_MS}.waitingCountdown`;
const POLL = 'xstate.after.pollDelay.waitingPoll';
const START = waitingModelInput.now;
const { order } = waitingModelInput;

/**
 * The page reads the test's clock, which moves only where the model's clock does (one tick per
 * reading): on a countdown second and when a new link arrives. A poll comes after five seconds of
 * timers; the seconds before it tick with the clock standing still, so the time shown does not change.
 */
interface WaitingPage extends Page {
  clock: { now: number };
  /** What the walk last told the page: the payment state of the last status answer, the gateway of the link asked for. */
  told: { answered: boolean; payment: string | null; gateway: string | null; error: string | null; link: string | null; deadline: number | null; kept: boolean };
}

/**
 * The order the walk pays: 1 Month with an extra connection and WELCOME10 in EUR, (12.99 + 4) - 10 % = 15.29
 * (the demo catalogue, README), invoice 201.
 */
const FACT = checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' });
const INVOICE_DATE = '2026-01-01T11:00:00.000Z';
const RECEIPT = {
  lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: false }],
  promocode: 'WELCOME10',
  discount: FACT.discount,
  date: INVOICE_DATE,
  datepaid: null,
  paymentmethod: { module: waitingModelInput.selectedGateway, displayname: 'Card' },
};
const AMOUNT = FACT.total;
const TOTAL = money(AMOUNT, 'EUR');

const invoice = {
  invoiceid: order.invoiceid, status: 'Unpaid', kind: 'order', orderid: order.orderid, serviceid: order.serviceid, amount: AMOUNT, currency: 'EUR',
  payment: { status: 'Open', gateway: waitingModelInput.selectedGateway }, latePayment: false, receipt: RECEIPT,
};

const orderStatus = ({ orderid, status, fraud, serviceids, payment, latePayment }: OrderStatusResult) => ({
  orderid,
  status,
  invoiceid: order.invoiceid,
  invoiceStatus: status === 'Active' ? 'Paid' : status === 'Cancelled' ? 'Cancelled' : 'Unpaid',
  serviceids,
  fraud,
  amount: AMOUNT,
  currency: 'EUR',
  payment: payment ? { status: payment, gateway: waitingModelInput.selectedGateway } : null,
  latePayment,
  receipt: RECEIPT,
});

/** The new-link call of a gateway: card types through offshore, crypto through coinbase. */
const linkCall = (gateway: string | null) => (gateway === 'sandbox_crypto' ? 'coinbase' : 'offshore');

const gatewayName = (module: string) => waitingModelInput.gateways.find((gateway) => gateway.module === module)!.displayname;
const contextBefore = (index: number, steps: PathStep[]) => (index === 0 ? { now: START } : (steps[index - 1]!.state.context as WaitingContext));
const isScheduled = (page: Page) => page.recorder.actor!.getSnapshot().matches({ watching: { status: 'scheduled' } });

async function perform(event: AnyEventObject, page: WaitingPage, before: { now: number }): Promise<void> {
  const { api, user, clock, told } = page;
  switch (event.type) {
    case TICK:
      clock.now = before.now + COUNTDOWN_TICK_MS;
      return advance(COUNTDOWN_TICK_MS);
    case POLL:
      // Time runs, timer by timer, until the status poll fires (a countdown second is the most it waits between two).
      for (let timers = 0; isScheduled(page); timers++) {
        if (timers > 60) throw new Error('The status poll never fired');
        vi.advanceTimersToNextTimer();
        await flush();
      }
      return;
    case 'xstate.done.actor.fetchOrderStatus':
      told.answered = true;
      told.payment = (event.output as OrderStatusResult).payment;
      await api.respond('orderStatus', orderStatus(event.output as OrderStatusResult));
      return;
    case 'xstate.error.actor.fetchOrderStatus':
      await api.respond('orderStatus', apiError(502, 'bad_gateway', 'Network error'));
      return;
    case 'payment.renew':
      // The same gateway: "Pay again" after a decline, "Get a new payment link" after the deadline.
      told.gateway = waitingModelInput.selectedGateway;
      return user.click(screen.getByRole('button', { name: told.payment === 'Declined' ? en.waiting.payAgain : en.waiting.newLink }));
    case 'gateway.change':
      return user.click(screen.getByRole('button', { name: en.waiting.changeGateway }));
    case 'gateway.select':
      told.gateway = String(event.gateway);
      return user.click(screen.getByRole('button', { name: fill(en.waiting.payWith, { name: gatewayName(String(event.gateway)) }) }));
    case 'gateway.dismiss':
      return user.click(screen.getByRole('button', { name: en.waiting.keepGateway }));
    case 'xstate.done.actor.createPaymentLink': {
      // The new deadline counts from a clock reading.
      clock.now = before.now + COUNTDOWN_TICK_MS;
      const { link } = event.output as CreatePaymentLinkOutput;
      told.link = link;
      told.deadline = clock.now + PAYMENT_DEADLINE_MS;
      await api.respond(linkCall(told.gateway), { invoiceid: order.invoiceid, paymentmethod: told.gateway!, link, deadline: new Date(told.deadline).toISOString() });
      return;
    }
    case 'xstate.error.actor.createPaymentLink':
      if ((event.error as { error?: { code?: string } } | undefined)?.error?.code === 'paid_after_close') {
        // A payment came after the order closed: the server makes no new link (openapi.yaml Conflict).
        await api.respond(linkCall(told.gateway), apiError(409, 'paid_after_close', 'A payment for this invoice arrived after it closed.'));
        return;
      }
      told.error = APP_MESSAGES.invoicePaid;
      await api.respond(linkCall(told.gateway), apiError(409, 'invoice_paid', 'Invoice already paid'));
      return;
    case 'order.cancel':
      return user.click(screen.getByRole('button', { name: en.waiting.cancel }));
    case 'cancel.confirm':
      return user.click(within(screen.getByRole('region', { name: cancelQuestion })).getByRole('button', { name: en.receipt.confirmCancel }));
    case 'cancel.keep':
      told.kept = true;
      return user.click(screen.getByRole('button', { name: en.receipt.keepOrder }));
    case 'xstate.done.actor.cancelOrder':
      await api.respond('cancelOrder', { orderid: order.orderid, status: 'Cancelled' });
      return;
    case 'xstate.error.actor.cancelOrder':
      // The order was flagged since the last poll: the server keeps it in the fraud queue and the page says why.
      told.error = APP_MESSAGES.orderUnderReview;
      await api.respond('cancelOrder', apiError(409, 'order_under_review', 'Order is under review'));
      return;
    default:
      throw new Error(`No way to perform ${event.type} on /waiting`);
  }
}

/** Time left as the page writes it (H:MM:SS). */
const countdown = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 3600)}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

function seeOrderInfo(context: WaitingContext, badge: string): void {
  // The order's facts above the receipt (which names the payment method again).
  const facts = screen.getAllByText(en.waiting.paymentMethod)[0]!.closest('dl')!;
  expect(facts.classList.contains('facts')).toBe(true);
  expect(within(facts).getByText(`#${context.order.orderid}`)).toBeTruthy();
  expect(within(facts).getByText(`#${context.order.invoiceid}`)).toBeTruthy();
  expect(within(facts).getByText(gatewayName(context.selectedGateway))).toBeTruthy();
  expect(within(facts).getByText(en.waiting.status).nextElementSibling!.textContent).toBe(badge);
}

const cancelQuestion = fill(en.receipt.cancelQuestion, { order: order.orderid! });

/** The receipt block, once a status answer told the page what was bought: the walk's order, as literal facts. */
function seeReceipt(told: WaitingPage['told'] | null): void {
  const block = screen.queryByRole('region', { name: en.receipt.title });
  if (!told) {
    expect(block).toBeNull();
    return;
  }
  expect(block).not.toBeNull();
  const rows = [...block!.querySelectorAll('.line')].map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]);
  expect(rows).toEqual([
    [en.receipt.plan, `1 Month, ${en.cycle.monthly}`],
    [en.receipt.addons, fill(en.receipt.extraConnections_one, { count: 1 })],
    [en.receipt.promocode, 'WELCOME10'],
    [en.receipt.discount, `−${money(1.7, 'EUR')}`],
    [en.receipt.total, TOTAL],
    [en.receipt.invoice, `#${order.invoiceid}`],
    // INVOICE_DATE in UTC, to the minute, as en-US writes it.
    [en.receipt.date, 'Jan 1, 2026, 11:00 AM UTC'],
    [en.receipt.paymentMethod, gatewayName(waitingModelInput.selectedGateway)],
  ]);
}

async function see(value: StateValue, context: WaitingContext, page: WaitingPage): Promise<void> {
  const location = () => page.rendered.app.router.state.location;
  // A status answer has arrived once the walk sent one: it carries the receipt.
  const answered = page.told.answered ? page.told : null;
  if (value === 'success') {
    // Paid: on to the service's credentials.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.success.title }), 'the success page');
    expect(location().href).toBe(`/success?serviceid=${order.serviceid}&invoiceid=${order.invoiceid}`);
    // The success page reads the invoice's receipt and thanks the shopper.
    await shown(() => screen.getByText(en.receipt.thankYou), 'the thank-you');
    expect(screen.getByRole('region', { name: en.receipt.title })).toBeTruthy();
    return;
  }
  if (value === 'cancelled' && context.order.orderid === null) {
    // Cancelled by the shopper: home.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.checkout.title }), 'the home page');
    expect(location().pathname).toBe('/');
    expect(screen.getByText(APP_MESSAGES.orderCancelled).getAttribute('role')).toBe('status');
    return;
  }
  if (value === 'fraud') {
    // Under review: title, badge and banner; never "Pending" nor "Waiting for your payment".
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.underReview }), 'the under-review page');
    expect(screen.getByRole('alert').textContent).toBe(APP_MESSAGES.fraudReview);
    seeOrderInfo(context, en.status.Fraud);
    expect(screen.queryByText(en.status.Pending)).toBeNull();
    expect(screen.queryByText(en.waiting.title)).toBeNull();
    seeReceipt(answered);
    return;
  }
  if (value === 'latePayment') {
    await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.lateTitle }), 'the late-payment page');
    expect(screen.getByRole('alert').textContent).toBe(latePayment(201));
    // What the shop does next: activation or refund by the operator, never a second payment.
    expect(screen.getByText(LATE_PAYMENT_NEXT)).toBeTruthy();
    expect(screen.getByRole('link', { name: en.app.backHome })).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.waiting.pay })).toBeNull();
    for (const name of [en.waiting.payAgain, en.waiting.newLink, en.waiting.changeGateway]) expect(screen.queryByRole('button', { name })).toBeNull();
    seeReceipt(answered);
    return;
  }
  const told = answered?.payment;
  // The title says what the shopper waits on.
  // The link on the page is the last one the walk's fake API served: the one the page resumed with, or a new one.
  const link = page.told.link ?? PAYMENT_LINKS.waiting;
  const newLink = page.told.link !== null;
  const title = told === 'Confirming' ? en.waiting.confirmingTitle : told === 'Declined' && !newLink ? en.waiting.declinedTitle : en.waiting.title;
  await shown(() => screen.getByRole('heading', { level: 1, name: title }), `the page titled ${title}`);
  if (value === 'cancelled') {
    await shown(() => screen.getByText(APP_MESSAGES.orderCancelled), 'the order cancelled elsewhere');
    expect(screen.getByRole('link', { name: en.app.backHome })).toBeTruthy();
    return;
  }
  const { page: part } = (value as { watching: { countdown: string; page: string } }).watching;
  await shown(() => screen.getAllByText(en.waiting.paymentMethod)[0], 'the order');
  const confirming = told === 'Confirming' && !newLink;
  const declined = told === 'Declined' && !newLink;
  // The deadline is reached on the clock the page reads (the walk's), at the persisted lastDate, or at the
  // status answer that said the provider expired the link first (the deadline then moved up to that moment).
  const expired = !confirming && !newLink && page.clock.now >= Math.min(waitingModelInput.lastDate, context.lastDate);
  seeOrderInfo(context, confirming ? 'Confirming' : declined ? 'Declined' : expired ? 'Expired' : en.status.Pending);
  seeReceipt(answered);
  if (confirming) {
    expect(screen.getByText(APP_MESSAGES.paymentConfirming).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByRole('link', { name: en.waiting.pay })).toBeNull();
  } else if (declined) {
    expect(screen.getByText(APP_MESSAGES.paymentDeclined).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('link', { name: en.waiting.pay })).toBeNull();
  } else if (expired) {
    expect(screen.getByText(APP_MESSAGES.paymentExpired).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByRole('link', { name: en.waiting.pay })).toBeNull();
  }
  if (!confirming && !expired) {
    // Time left: the deadline the walk served (the resumed one, or a new link's day) less the walk's clock.
    const remaining = Math.max(0, (page.told.deadline ?? waitingModelInput.lastDate) - page.clock.now);
    const duration = page.told.deadline === null ? waitingModelInput.duration : PAYMENT_DEADLINE_MS;
    expect(screen.getByRole('timer', { name: en.waiting.timeLeft }).textContent).toBe(countdown(remaining));
    expect(Number(screen.getByRole('progressbar', { name: en.waiting.timeLeft }).getAttribute('value'))).toBeCloseTo(remaining / duration);
  }
  if (!confirming && !declined && !expired) expect(screen.getByRole('link', { name: en.waiting.pay }).getAttribute('href')).toBe(link);
  // A new link opens its payment page at once.
  expect(page.rendered.left).toEqual(newLink ? [link] : []);
  if (confirming) {
    // Nothing to do but wait: no new link, no other gateway, no cancel.
    for (const name of [en.waiting.payAgain, en.waiting.newLink, en.waiting.changeGateway, en.waiting.cancel]) expect(screen.queryByRole('button', { name })).toBeNull();
    return;
  }
  const renewing = part === 'creatingLink' && page.told.gateway === waitingModelInput.selectedGateway;
  switch (part) {
    case 'info':
      expect(screen.getByRole('button', { name: en.waiting.changeGateway })).toBeTruthy();
      expect(screen.getByRole('button', { name: en.waiting.cancel })).toBeTruthy();
      expect(screen.queryByRole('region', { name: cancelQuestion })).toBeNull();
      if (page.told.kept) {
        // Kept: the focus is back on the button that asked.
        expect(document.activeElement).toBe(screen.getByRole('button', { name: en.waiting.cancel }));
        page.told.kept = false;
      }
      expect(screen.queryByRole('button', { name: en.waiting.payAgain }) !== null).toBe(declined);
      expect(screen.queryByRole('button', { name: en.waiting.newLink }) !== null).toBe(expired && !declined);
      if (context.error) expect(screen.getByText(page.told.error!).getAttribute('role')).toBe('alert');
      return;
    case 'creatingLink':
    case 'choosingGateway': {
      if (renewing) {
        // A new link on the same gateway is asked for from the page itself, not from the gateway view.
        expect(screen.getByText(en.waiting.creatingLink)).toBeTruthy();
        expect(screen.queryByRole('region', { name: en.waiting.chooseGateway })).toBeNull();
        return;
      }
      const panel = screen.getByRole('region', { name: en.waiting.chooseGateway });
      const other = within(panel).getByRole('button', { name: fill(en.waiting.payWith, { name: gatewayName('sandbox_crypto') }) });
      expect(other.getAttribute('aria-disabled')).toBe(part === 'creatingLink' ? 'true' : null);
      if (part === 'creatingLink') expect(within(panel).getByText(en.waiting.creatingLink)).toBeTruthy();
      else expect(within(panel).getByRole('button', { name: en.waiting.keepGateway })).toBeTruthy();
      if (context.error) expect(within(panel).getByRole('alert').textContent).toBe(APP_MESSAGES.invoicePaid);
      else expect(within(panel).queryByRole('alert')).toBeNull();
      return;
    }
    case 'confirmingCancel': {
      // Asked once: the question has the focus (read out), one "Cancel order" (the confirmation) and "Keep my order".
      const panel = screen.getByRole('region', { name: cancelQuestion });
      expect(document.activeElement).toBe(within(panel).getByText(cancelQuestion));
      expect(screen.getAllByRole('button', { name: en.waiting.cancel })).toEqual([within(panel).getByRole('button', { name: en.receipt.confirmCancel })]);
      expect(within(panel).getByRole('button', { name: en.receipt.keepOrder })).toBeTruthy();
      expect(page.api.calls.filter((request) => request.url.endsWith('/cancelOrder'))).toEqual([]);
      return;
    }
    case 'cancelling':
      expect(screen.getByText(en.waiting.cancelling)).toBeTruthy();
      expect(screen.queryByRole('button', { name: en.waiting.cancel })).toBeNull();
      return;
  }
}

describeViewWalk<WaitingPage>({
  model: waitingModel,
  open: async (path, base) => {
    // The path's input: the resumed order, a fraud-flagged one (no link), or one past its deadline.
    const input = path.input as WaitingInput;
    const clock = { now: input.now };
    const payment = {
      flow: 'order',
      order: input.order,
      link: input.paymentLink,
      gateway: waitingModelInput.selectedGateway,
      lastDate: waitingModelInput.lastDate,
      duration: waitingModelInput.duration,
    };
    const page = await base({
      url: '/checkout/waiting',
      cookies: { checkout: JSON.stringify({ payment }) },
      now: () => clock.now,
      api: {
        answers: { getGateway: contractGateways(waitingModelInput.gateways, waitingModelInput.selectedGateway), invoiceStatus: invoice },
        hold: { orderStatus: Infinity, cancelOrder: Infinity, coinbase: Infinity, offshore: Infinity },
      },
    });
    return { ...page, clock, told: { answered: false, payment: null, gateway: null, error: null, link: null, deadline: null, kept: false } };
  },
  offView: refusedInputs({
    'payment.renew': 'the new-link button is shown only while a new link may be made',
    'gateway.change': 'the change-gateway button is shown only while the gateway may change',
    'order.cancel': 'the cancel button is hidden while a payment is being confirmed',
    'cancel.confirm': 'the confirmation is shown only after "Cancel order" was asked',
    'cancel.keep': '"Keep my order" is shown only after "Cancel order" was asked',
    'gateway.select': 'the gateway list offers only the gateways other than the current one',
  }),
  perform: (step, page, index, steps) => perform(step.event, page, contextBefore(index, steps)),
  see: (state, page) => see(state.value, state.context as WaitingContext, page),
  project: (_value, context) => {
    const { gateways, error, ...rest } = context as WaitingContext;
    // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
    return { ...rest, gateways: gateways.map((gateway) => gateway.module), error: error !== null };
  },
  extra: (walked: WalkedStep, previous: WalkedStep | undefined) =>
    walked.event.type === TICK && previous && JSON.stringify(walked.value) === JSON.stringify(previous.value) && JSON.stringify(walked.context) === JSON.stringify(previous.context)
      ? 'a countdown second passes while the poll waits, on the held clock: nothing on the page changes'
      : null,
});
