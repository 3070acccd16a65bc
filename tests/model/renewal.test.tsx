/** The renewal machine's paths walked through /renew: a client pays the renewal invoice of a service. */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import type { CreateRenewalLinkOutput, RenewalContext, ServiceRenewal } from '../../machines/renewal.machine';
import { RENEWAL_REFUSALS, renewalModel, renewalModelInput } from '../../scripts/statecharts/models/renewal.model';
import { MIN_LOADING_MS } from '../../src/domain/constants';
import type { ModelPath } from '../../scripts/statecharts/graph';
import { APP_MESSAGES, PAYMENT_LINKS } from '../facts/messages';
import { apiError } from '../support/fake-api';
import { contractGateways } from './api';
import { advance } from './settle';
import { describeViewWalk, refusedInputs, shown, type Page } from './walk';
import { cycleText, en, money } from './texts';

const client = { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' };
const visitor = { loggedIn: false, guest: false, userid: null, email: null };

/** The days of the model's renewals as en-en writes them (Intl's medium date of the `en` locale). */
const DAYS: Record<string, string> = {
  '2026-12-20': 'Dec 20, 2026',
  '2026-12-27': 'Dec 27, 2026',
  '2027-01-20': 'Jan 20, 2027',
  '2027-01-27': 'Jan 27, 2027',
};
const day = (date: string) => DAYS[date] ?? `no written-out day for ${date}`;

/** The API's answer to a refused payment link, by the refusal's code. */
const REFUSED_LINKS: Record<string, () => Response> = {
  invoice_paid: () => apiError(409, 'invoice_paid', 'This invoice is already paid.'),
  price_changed: () => apiError(409, 'price_changed', 'This invoice is for 14.99 EUR.', { amount: 14.99, currency: 'EUR' }),
  bad_gateway: () => apiError(502, 'bad_gateway', 'Bad gateway'),
};

const gatewayName = (module: string) => renewalModelInput.gateways.find((gateway) => gateway.module === module)!.displayname;

/** What the walk did before a step: the renewal the fake API served last, and the gateway picked last (else the default). */
function walkedSoFar(events: AnyEventObject[]): { served: ServiceRenewal | null; gateway: string } {
  let served: ServiceRenewal | null = null;
  let gateway = renewalModelInput.defaultGateway;
  for (const event of events) {
    if (event.type === 'xstate.done.actor.loadRenewal') served = event.output as ServiceRenewal;
    if (event.type === 'gateway.select') gateway = String(event.gateway);
  }
  return { served, gateway };
}

/** The payment link asked for: coinbase for a crypto gateway, offshore for a card; its body is the served invoice's. */
async function answerLink(page: Page, answer: unknown, before: AnyEventObject[]): Promise<void> {
  const operation = page.api.waiting('coinbase') > 0 ? 'coinbase' : 'offshore';
  const request = await page.api.respond(operation, answer);
  const { served, gateway } = walkedSoFar(before);
  const invoice = served!.invoice!;
  const crypto = renewalModelInput.gateways.find((candidate) => candidate.module === gateway)?.type === 'Bitcoin';
  expect(operation).toBe(crypto ? 'coinbase' : 'offshore');
  expect(await request.json()).toEqual({ invoiceid: invoice.invoiceid, paymentmethod: gateway, amount: invoice.amount, currency: invoice.currency });
}

async function perform(event: AnyEventObject, page: Page, before: AnyEventObject[]): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'xstate.done.actor.loadRenewal':
      await api.respond('renewal', event.output as ServiceRenewal);
      // The renewal stays behind the loading state for its minimum time.
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.loadRenewal':
      await api.respond('renewal', (event.error as { code?: string }).code === 'unauthenticated' ? apiError(401, 'unauthenticated', 'Please log in.') : apiError(502, 'bad_gateway', 'Bad gateway'));
      return advance(MIN_LOADING_MS);
    case 'renewal.retry':
      return user.click(screen.getByRole('button', { name: en.app.tryAgain }));
    case 'gateway.select':
      return user.click(screen.getByRole('radio', { name: gatewayName(String(event.gateway)) }));
    case 'renewal.pay':
      return user.click(screen.getByRole('button', { name: /^Pay\b/ }));
    case 'xstate.done.actor.createPaymentLink':
      return answerLink(page, event.output as CreateRenewalLinkOutput, before);
    case 'xstate.error.actor.createPaymentLink':
      return answerLink(page, REFUSED_LINKS[(event.error as { code: string }).code]!(), before);
    default:
      throw new Error(`No way to perform ${event.type} on /renew`);
  }
}

const MESSAGES: Record<string, string> = {
  'api.invoice_paid': APP_MESSAGES.invoicePaid,
  'api.price_changed': APP_MESSAGES.priceChanged,
  'api.bad_gateway': APP_MESSAGES.requestFailed,
};

/** The service line heading what the page says: its name, number and status. */
async function seeService(renewal: ServiceRenewal, status: string): Promise<void> {
  const heading = await shown(() => screen.getByRole('heading', { level: 2, name: new RegExp(`^${renewal.name}, service #${renewal.serviceid}`) }), 'the service heading');
  expect(within(heading).getByText(status)).toBeTruthy();
}

async function see(value: unknown, context: RenewalContext, page: Page): Promise<void> {
  const state = String(value);
  await shown(() => screen.getByRole('heading', { level: 1, name: en.renew.title }), 'the renewal page');
  const renewal = context.renewal;
  switch (state) {
    case 'loading':
      await shown(() => screen.getByText(en.app.loading), 'the loading placeholder');
      return;
    case 'failed':
      await shown(() => screen.getByRole('alert'), 'the error');
      expect(screen.getByRole('alert').textContent).toBe(APP_MESSAGES.requestFailed);
      expect(screen.getByRole('button', { name: en.app.tryAgain })).toBeTruthy();
      return;
    case 'signedOut':
      await shown(() => screen.getByRole('heading', { level: 2, name: 'Log in to renew your service' }), 'the login panel');
      expect(screen.getAllByRole('alert')[0]!.textContent).toBe('Please log in.');
      return;
    case 'lifetime':
      await seeService(renewal!, 'Active');
      expect(screen.getByText('This is a lifetime plan: it never needs renewing.')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'See your service' }).getAttribute('href')).toBe(`/checkout/success?serviceid=${renewal!.serviceid}`);
      return;
    case 'closed':
      await seeService(renewal!, 'Terminated');
      expect(screen.getByText('This service has ended and can no longer be renewed. Order a new subscription to watch again.')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Order a new subscription' }).getAttribute('href')).toBe('/checkout/');
      return;
    case 'notDue':
      await seeService(renewal!, 'Active');
      expect(screen.getByText(`Paid until ${day(renewal!.nextduedate!)}.`)).toBeTruthy();
      expect(screen.getByText(`Your next invoice will be issued on ${day(renewal!.invoiceDate!)}; we will e-mail it to you.`)).toBeTruthy();
      if (context.error) expect(screen.getByRole('alert').textContent).toBe(MESSAGES[context.error]);
      return;
    case 'redirecting':
      await shown(() => screen.getByText(en.creatingOrder.redirecting), 'the hand-over to the payment page');
      // The link the fake API served, exactly, and the payment saved for the waiting page as a renewal of this service's invoice.
      expect(screen.getByRole('link', { name: en.creatingOrder.manualLink }).getAttribute('href')).toBe(PAYMENT_LINKS.renewal);
      expect(page.rendered.left).toEqual([PAYMENT_LINKS.renewal]);
      expect(savedPayment()).toMatchObject({ flow: 'renewal', order: { orderid: null, invoiceid: 2007, serviceid: 3001, fraud: false }, link: PAYMENT_LINKS.renewal, gateway: context.selectedGateway });
      return;
  }
  // ready or paying: the service, what paying does, the gateways taking the invoice's currency, the amount and Pay.
  const invoice = renewal!.invoice!;
  await seeService(renewal!, 'Active');
  expect(screen.getByText(`Due on ${day(invoice.periodStart)}.`)).toBeTruthy();
  expect(screen.getByText(`Paying extends your service to ${day(invoice.periodEnd)}.`)).toBeTruthy();
  const amount = money(invoice.amount, invoice.currency);
  const total = screen.getByText('To pay').parentElement!.querySelector('output')!;
  expect(total.textContent).toBe(`${amount} ${cycleText(renewal!.billingcycle)}`);
  const submit = state === 'paying' ? screen.getByRole('button', { name: 'Creating your payment link…' }) : screen.getByRole('button', { name: /^Pay\b/ });
  if (state === 'ready') expect(submit.textContent).toBe(`Pay ${amount}`);
  if (invoice.currency === 'EUR') {
    // Both model gateways take EUR (only EUR).
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['sandbox_card', 'sandbox_crypto']);
    expect(screen.getByRole('radio', { name: gatewayName(context.selectedGateway) })).toHaveProperty('checked', true);
    expect(submit.getAttribute('aria-disabled')).toBe(state === 'paying' ? 'true' : null);
  } else {
    // No model gateway takes GBP: none is offered and the summary says why Pay does nothing.
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.getByText(`No payment method takes payments in ${invoice.currency}, so this order cannot be paid here.`)).toBeTruthy();
    expect(submit.getAttribute('aria-disabled')).toBe('true');
  }
  if (context.error) expect(within(submit.closest('form')!).getByRole('alert').textContent).toBe(MESSAGES[context.error]);
  else expect(screen.queryByRole('alert')).toBeNull();
}

/** The payment the page saved for the waiting step (the checkout cookie). */
function savedPayment(): unknown {
  const pair = document.cookie.split('; ').find((cookie) => cookie.startsWith('checkout='));
  return pair ? (JSON.parse(decodeURIComponent(pair.slice('checkout='.length))) as { payment?: unknown }).payment : undefined;
}

/** A path where the server refuses the session starts signed out, as such a visitor is. */
const refusesSession = (path: ModelPath) => path.steps.some((step) => (step.event.error as { code?: string } | undefined)?.code === RENEWAL_REFUSALS.unauthenticated.code);

describeViewWalk({
  model: renewalModel,
  open: (path, base) =>
    base({
      url: `/checkout/renew?serviceid=${renewalModelInput.serviceid}`,
      minLoadingMs: MIN_LOADING_MS,
      api: {
        answers: {
          session: refusesSession(path) ? visitor : client,
          currency: { country: 'FR', currency: 'EUR' },
          getGateway: contractGateways(renewalModelInput.gateways, renewalModelInput.defaultGateway),
        },
        hold: { renewal: Infinity, offshore: Infinity, coinbase: Infinity },
      },
    }),
  offView: refusedInputs({ 'gateway.select': 'the gateway list offers only the loaded gateways that take the invoice currency' }),
  // A payment link's body is the invoice served and the gateway picked by the steps before it.
  perform: (step, page, index, steps) => perform(step.event, page, steps.slice(0, index).map((earlier) => earlier.event)),
  see: (state, page) => see(state.value, state.context as RenewalContext, page),
  project: (_value, context) => context,
});
