/**
 * The renewal page: a client's service, its due date and its open renewal invoice, paid through the
 * checkout's gateways like any invoice; the waiting page follows. What the diagrams say of each part
 * is in renewal.docs.ts.
 */
import { assign, fromPromise, setup } from 'xstate';
import { cycleMonths } from '../src/domain/billing-cycle';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { failureMessage } from '../src/domain/failure-message';
import { defaultGatewayFor, takesCurrency } from '../src/domain/gateway';
import type { GatewayPaymentRequest, GatewayPaymentResponse, Renewal, RenewalInvoice } from '../src/api/client';
import type { UpsellGateway, UpsellOutput } from './upsell.machine';
import { errorCode } from './waiting.guards';
import type { ProductWords } from './product-words';

/** The service's renewal as getRenewal answers it. */
export type ServiceRenewal = Renewal;

/** A payment gateway as the gateway list gives it (the currencies it takes, when named), as the upsell takes it. */
export type RenewalGateway = UpsellGateway;

/** What the renewal page starts from: the service of the link, the gateways and the default one. */
export interface RenewalInput {
  serviceid: number;
  gateways: RenewalGateway[];
  /** Module of the default gateway. */
  defaultGateway: string;
}

/** What the renewal page shows and the machine remembers. */
export interface RenewalContext {
  serviceid: number;
  /** The last answer of getRenewal; null until the first one. */
  renewal: ServiceRenewal | null;
  gateways: RenewalGateway[];
  defaultGateway: string;
  selectedGateway: string;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds. */
  lastDate: number | null;
  duration: number | null;
  /** Server message (or message key) of the last failed call, or of the refusal that reloaded the renewal. */
  error: string | null;
}

/** What the client does on the renewal page. */
export type RenewalEvent = { type: 'gateway.select'; gateway: string } | { type: 'renewal.pay' } | { type: 'renewal.retry' };

/** getRenewal's query. */
export interface LoadRenewalInput {
  serviceid: number;
}

/** A payment link for the renewal invoice: the body of offshore or coinbase, and the gateway's type that picks which. */
export interface CreateRenewalLinkInput extends GatewayPaymentRequest {
  gatewayType: string | null;
}

/** offshore's or coinbase's answer: the link and its deadline (date-time). */
export type CreateRenewalLinkOutput = GatewayPaymentResponse;

/** What the waiting step starts from once the payment page is open: an invoice without an order, as the upsell's. */
export type RenewalOutput = UpsellOutput;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** The renewal invoice still to pay, if one is open. */
export function openInvoice(renewal: ServiceRenewal | null): RenewalInvoice | null {
  return renewal?.invoice?.status === 'Unpaid' ? renewal.invoice : null;
}

/** The gateways that take the open invoice's currency: the only ones offered. */
export function payableGateways(context: Pick<RenewalContext, 'gateways' | 'renewal'>): RenewalGateway[] {
  const invoice = openInvoice(context.renewal);
  return invoice ? context.gateways.filter((gateway) => takesCurrency(gateway, invoice.currency)) : [];
}

const selected = (context: RenewalContext) => payableGateways(context).find((gateway) => gateway.module === context.selectedGateway);

interface GuardArgs {
  context: RenewalContext;
}

/** The guards of the renewal machine, exported for their unit tests. */
export const renewalGuards = {
  isSignedOut: (_: unknown, params: { error: unknown }) => ['unauthenticated', 'forbidden'].includes(errorCode(params.error) ?? ''),
  isLifetime: (_: unknown, params: { renewal: ServiceRenewal }) => cycleMonths(params.renewal.billingcycle) === null,
  isClosed: (_: unknown, params: { renewal: ServiceRenewal }) => !params.renewal.renewable,
  hasOpenInvoice: (_: unknown, params: { renewal: ServiceRenewal }) => openInvoice(params.renewal) !== null,
  isPayableGateway: ({ context }: GuardArgs, params: { gateway: string }) => payableGateways(context).some((gateway) => gateway.module === params.gateway),
  canPay: ({ context }: GuardArgs) => openInvoice(context.renewal) !== null && selected(context) !== undefined,
  invoicePaid: (_: unknown, params: { error: unknown }) => errorCode(params.error) === 'invoice_paid',
  priceChanged: (_: unknown, params: { error: unknown }) => errorCode(params.error) === 'price_changed',
};

/** The gateway kept after a (re)load: the one chosen if it takes the invoice's currency, else the default rule's. */
function gatewayFor(context: RenewalContext, renewal: ServiceRenewal): string {
  const invoice = openInvoice(renewal);
  if (!invoice) return context.selectedGateway;
  const payable = payableGateways({ gateways: context.gateways, renewal });
  if (payable.some((gateway) => gateway.module === context.selectedGateway)) return context.selectedGateway;
  return defaultGatewayFor(payable, context.defaultGateway, invoice.currency);
}

const loaded = { type: 'storeRenewal' as const, params: ({ event }: { event: { output: ServiceRenewal } }) => ({ renewal: event.output }) };

/** The renewal page: load the service's renewal, pick a gateway, pay the renewal invoice. */
export const renewalMachine = setup({
  types: {
    meta: {} as ProductWords,
    input: {} as RenewalInput,
    context: {} as RenewalContext,
    events: {} as RenewalEvent,
    output: {} as RenewalOutput,
  },
  actors: {
    loadRenewal: fromPromise<ServiceRenewal, LoadRenewalInput>(notProvided('loadRenewal')),
    createPaymentLink: fromPromise<CreateRenewalLinkOutput, CreateRenewalLinkInput>(notProvided('createPaymentLink')),
  },
  actions: {
    storeRenewal: assign(({ context }, params: { renewal: ServiceRenewal }) => ({ renewal: params.renewal, selectedGateway: gatewayFor(context, params.renewal) })),
    selectGateway: assign((_, params: { gateway: string }) => ({ selectedGateway: params.gateway })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error) })),
    storeLink: assign((_, params: { link: CreateRenewalLinkOutput }) => ({
      paymentLink: params.link.link,
      lastDate: Date.parse(params.link.deadline),
      duration: PAYMENT_DEADLINE_MS,
    })),
    redirectToPayment: (_, _params: { link: string }) => {},
  },
  guards: renewalGuards,
}).createMachine({
  id: 'renewal',
  description: "The renewal page: the service's due date and its renewal invoice, paid through the checkout's gateways.",
  meta: { product: 'The renewal page: the client sees when their service falls due and pays its renewal with the usual methods.' },
  context: ({ input }) => ({
    serviceid: input.serviceid,
    renewal: null,
    gateways: input.gateways,
    defaultGateway: input.defaultGateway,
    selectedGateway: input.defaultGateway,
    paymentLink: null,
    lastDate: null,
    duration: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "Loads the service's renewal.",
      meta: { product: "The client waits a moment while their service's renewal loads." },
      invoke: {
        id: 'loadRenewal',
        src: 'loadRenewal',
        input: ({ context }) => ({ serviceid: context.serviceid }),
        onDone: [
          {
            guard: { type: 'isLifetime', params: ({ event }) => ({ renewal: event.output }) },
            target: 'lifetime',
            actions: loaded,
            description: 'A lifetime service: nothing to renew.',
            meta: { product: 'The service is for life, so there is nothing to renew.' },
          },
          {
            guard: { type: 'isClosed', params: ({ event }) => ({ renewal: event.output }) },
            target: 'closed',
            actions: loaded,
            description: 'A terminated (or not yet active) service: it cannot be renewed.',
            meta: { product: 'The service has ended (or has not started), so it cannot be renewed.' },
          },
          {
            guard: { type: 'hasOpenInvoice', params: ({ event }) => ({ renewal: event.output }) },
            target: 'ready',
            actions: loaded,
            description: 'Its renewal invoice is open: it can be paid.',
            meta: { product: 'A renewal bill is open, so the client can pay it.' },
          },
          { target: 'notDue', actions: loaded, description: 'Paid until its due date; the next invoice is not issued yet.', meta: { product: 'The service is paid up; the next bill is not out yet.' } },
        ],
        onError: [
          {
            guard: { type: 'isSignedOut', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Not signed in, or signed in to another account (401/403): asks to sign in.',
            meta: { product: 'The client is not signed in to the account that owns the service, so they are asked to sign in.' },
          },
          {
            target: 'failed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'The renewal could not be loaded.',
            meta: { product: 'The renewal could not be loaded.' },
          },
        ],
      },
    },
    failed: {
      description: 'The renewal could not be loaded: message and retry button.',
      meta: { product: 'The renewal could not be loaded; the client sees a message and a button to try again.' },
      on: { 'renewal.retry': { target: 'loading', actions: 'clearError', description: 'Loads the renewal again.', meta: { product: 'The client tries again.' } } },
    },
    signedOut: {
      description: 'The service is not reachable with this session: the login panel (signing in starts the page afresh).',
      meta: { product: 'The client must sign in to the account that owns the service; signing in reloads the page.' },
    },
    lifetime: {
      description: 'A lifetime service: it never falls due, there is nothing to renew.',
      meta: { product: 'The service is for life: it never falls due and there is nothing to renew.' },
    },
    closed: {
      description: 'A terminated service can no longer be renewed: a link to order anew.',
      meta: { product: 'The service has ended and can no longer be renewed; a link offers to order anew.' },
    },
    notDue: {
      description: "Paid until its due date, and the day the next invoice is issued; a refusal's message that led here shows.",
      meta: { product: 'The service is paid up; the client sees until when and the day the next bill comes.' },
    },
    ready: {
      description: "The service, its status (a suspended one is reactivated by paying), the amount, the period it extends to, the gateways taking the invoice's currency and Pay.",
      meta: { product: 'The client sees the service, the amount, the new end date and the payment methods, and can pay.' },
      on: {
        'gateway.select': {
          guard: { type: 'isPayableGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          actions: { type: 'selectGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          description: 'Selects the payment gateway.',
          meta: { product: 'The client picks a payment method.' },
        },
        'renewal.pay': { guard: 'canPay', target: 'paying', actions: 'clearError', description: 'Asks for the payment link.', meta: { product: 'The client presses Pay.' } },
      },
    },
    paying: {
      description: 'Creates the payment link of the renewal invoice on the chosen gateway; a second Pay is ignored.',
      meta: { product: 'The payment link is being made; pressing Pay again does nothing.' },
      invoke: {
        id: 'createPaymentLink',
        src: 'createPaymentLink',
        input: ({ context }) => {
          const invoice = openInvoice(context.renewal);
          return {
            invoiceid: invoice?.invoiceid ?? 0,
            paymentmethod: context.selectedGateway,
            amount: invoice?.amount ?? 0,
            currency: invoice?.currency ?? 'EUR',
            gatewayType: selected(context)?.type ?? null,
          };
        },
        onDone: {
          target: 'redirecting',
          actions: { type: 'storeLink', params: ({ event }) => ({ link: event.output }) },
          description: 'Link made: go to the payment page.',
          meta: { product: 'The link is ready: the client goes to the payment page.' },
        },
        onError: [
          {
            guard: { type: 'invoicePaid', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: '409 invoice_paid: the renewal is loaded again (its new due date), with the message.',
            meta: { product: 'The bill was paid meanwhile, so the page reloads with the new due date and a message.' },
          },
          {
            guard: { type: 'priceChanged', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: '409 price_changed: the renewal is loaded again and shows the new amount, with the message.',
            meta: { product: 'The price changed meanwhile, so the page reloads with the new amount and a message.' },
          },
          {
            target: 'ready',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'The link was refused: the server message is shown, the choice is kept.',
            meta: { product: 'The payment was refused; the client sees the reason and keeps their choice.' },
          },
        ],
      },
    },
    redirecting: {
      description: 'The payment page opens; the waiting step takes over with the invoice and its deadline.',
      meta: { product: 'The payment page opens; afterwards the waiting page follows the payment until its deadline.' },
      type: 'final',
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.paymentLink ?? '' }) },
    },
  },
  output: ({ context }) => ({
    order: { orderid: null, invoiceid: openInvoice(context.renewal)?.invoiceid ?? null, serviceid: context.serviceid, fraud: false },
    paymentLink: context.paymentLink,
    lastDate: context.lastDate,
    duration: context.duration,
    selectedGateway: context.selectedGateway,
  }),
});
