/** The waiting machine's paths walked through /waiting: countdown, status polling, change of gateway, cancel. */
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import { COUNTDOWN_TICK_MS, type CreatePaymentLinkOutput, type OrderStatusResult, type WaitingContext } from '../../machines/waiting.machine';
import type { PathStep } from '../../scripts/statecharts/graph';
import { waitingModel, waitingModelInput } from '../../scripts/statecharts/models/waiting.model';
import { PAYMENT_DEADLINE_MS } from '../../src/domain/constants';
import { apiError } from '../support/fake-api';
import { contractGateways } from './api';
import { advance, flush } from './settle';
import { en, fill } from './texts';
import { describeViewWalk, shown, type Page, type WalkedStep } from './walk';

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
}

const invoice = { invoiceid: order.invoiceid, status: 'Unpaid', kind: 'order', orderid: order.orderid, serviceid: order.serviceid, amount: 15, currency: 'EUR' };

const orderStatus = ({ orderid, status, fraud, serviceids }: OrderStatusResult) => ({
  orderid,
  status,
  invoiceid: order.invoiceid,
  invoiceStatus: status === 'Active' ? 'Paid' : status === 'Cancelled' ? 'Cancelled' : 'Unpaid',
  serviceids,
  fraud,
  amount: 15,
  currency: 'EUR',
});

const gatewayName = (module: string) => waitingModelInput.gateways.find((gateway) => gateway.module === module)!.displayname;
const contextBefore = (index: number, steps: PathStep[]) => (index === 0 ? { now: START } : (steps[index - 1]!.state.context as WaitingContext));
const isScheduled = (page: Page) => page.recorder.actor!.getSnapshot().matches({ watching: { status: 'scheduled' } });

async function perform(event: AnyEventObject, page: WaitingPage, before: { now: number }): Promise<void> {
  const { api, user, clock } = page;
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
      await api.respond('orderStatus', orderStatus(event.output as OrderStatusResult));
      return;
    case 'xstate.error.actor.fetchOrderStatus':
      await api.respond('orderStatus', apiError(502, 'bad_gateway', 'Network error'));
      return;
    case 'gateway.change':
      return user.click(screen.getByRole('button', { name: en.waiting.changeGateway }));
    case 'gateway.select':
      return user.click(screen.getByRole('button', { name: fill(en.waiting.payWith, { name: gatewayName(String(event.gateway)) }) }));
    case 'gateway.dismiss':
      return user.click(screen.getByRole('button', { name: en.waiting.keepGateway }));
    case 'xstate.done.actor.createPaymentLink': {
      // The new deadline counts from a clock reading.
      clock.now = before.now + COUNTDOWN_TICK_MS;
      const { link } = event.output as CreatePaymentLinkOutput;
      await api.respond('coinbase', { invoiceid: order.invoiceid, paymentmethod: 'sandbox_crypto', link, deadline: new Date(clock.now + PAYMENT_DEADLINE_MS).toISOString() });
      return;
    }
    case 'xstate.error.actor.createPaymentLink':
      await api.respond('coinbase', apiError(409, 'invoice_paid', 'Invoice already paid'));
      return;
    case 'order.cancel':
      return user.click(screen.getByRole('button', { name: en.waiting.cancel }));
    case 'xstate.done.actor.cancelOrder':
      await api.respond('cancelOrder', { orderid: order.orderid, status: 'Cancelled' });
      return;
    case 'xstate.error.actor.cancelOrder':
      await api.respond('cancelOrder', apiError(409, 'order_not_pending', 'Order is not pending'));
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

function seeOrderInfo(context: WaitingContext): void {
  const facts = screen.getByText(en.waiting.paymentMethod).closest('dl')!;
  expect(within(facts).getByText(`#${context.order.orderid}`)).toBeTruthy();
  expect(within(facts).getByText(`#${context.order.invoiceid}`)).toBeTruthy();
  expect(within(facts).getByText(gatewayName(context.selectedGateway))).toBeTruthy();
  expect(within(facts).getByText(en.status[context.status as keyof typeof en.status])).toBeTruthy();
}

async function see(value: StateValue, context: WaitingContext, page: WaitingPage): Promise<void> {
  const location = () => page.rendered.app.router.state.location;
  if (value === 'success') {
    // Paid: on to the service's credentials.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.success.title }), 'the success page');
    expect(location().href).toBe(`/success?serviceid=${order.serviceid}`);
    return;
  }
  if (value === 'cancelled' && context.order.orderid === null) {
    // Cancelled by the shopper: home.
    await shown(() => screen.getByRole('heading', { level: 1, name: en.checkout.title }), 'the home page');
    expect(location().pathname).toBe('/');
    expect(screen.getByText(en.waiting.cancelled).getAttribute('role')).toBe('status');
    return;
  }
  await shown(() => screen.getByRole('heading', { level: 1, name: en.waiting.title }), 'the waiting page');
  if (value === 'cancelled') {
    await shown(() => screen.getByText(en.waiting.cancelled), 'the order cancelled elsewhere');
    expect(screen.getByRole('link', { name: en.app.backHome })).toBeTruthy();
    return;
  }
  if (value === 'fraud') {
    expect((await shown(() => screen.getByRole('alert'), 'the fraud banner')).textContent).toBe(en.waiting.fraud);
    seeOrderInfo(context);
    return;
  }
  const { countdown: clock, page: part } = (value as { watching: { countdown: string; page: string } }).watching;
  await shown(() => screen.getByText(en.waiting.paymentMethod), 'the order');
  seeOrderInfo(context);
  if (clock === 'expired') {
    expect(screen.getByText(en.waiting.expired).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByRole('link', { name: en.waiting.pay })).toBeNull();
  } else {
    expect(screen.getByRole('timer', { name: en.waiting.timeLeft }).textContent).toBe(countdown(context.remainingMs));
    expect(Number(screen.getByRole('progressbar', { name: en.waiting.timeLeft }).getAttribute('value'))).toBeCloseTo(context.progress);
    expect(screen.getByRole('link', { name: en.waiting.pay }).getAttribute('href')).toBe(context.paymentLink);
  }
  // A new link opens its payment page at once.
  expect(page.rendered.left).toEqual(context.paymentLink === waitingModelInput.paymentLink ? [] : [context.paymentLink]);
  switch (part) {
    case 'info':
      expect(screen.getByRole('button', { name: en.waiting.changeGateway })).toBeTruthy();
      expect(screen.getByRole('button', { name: en.waiting.cancel })).toBeTruthy();
      if (context.error) expect(screen.getByText(en.messages.api.order_not_pending).getAttribute('role')).toBe('alert');
      return;
    case 'choosingGateway':
    case 'creatingLink': {
      const panel = screen.getByRole('region', { name: en.waiting.chooseGateway });
      const other = within(panel).getByRole('button', { name: fill(en.waiting.payWith, { name: gatewayName('sandbox_crypto') }) });
      expect(other.getAttribute('aria-disabled')).toBe(part === 'creatingLink' ? 'true' : null);
      if (part === 'creatingLink') expect(within(panel).getByText(en.waiting.creatingLink)).toBeTruthy();
      else expect(within(panel).getByRole('button', { name: en.waiting.keepGateway })).toBeTruthy();
      if (context.error) expect(within(panel).getByRole('alert').textContent).toBe(en.messages.api.invoice_paid);
      else expect(within(panel).queryByRole('alert')).toBeNull();
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
  open: async (_path, base) => {
    const clock = { now: START };
    const payment = {
      flow: 'order',
      order,
      link: waitingModelInput.paymentLink,
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
    return { ...page, clock };
  },
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
