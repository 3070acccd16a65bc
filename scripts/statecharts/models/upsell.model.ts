import { fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import {
  upsellMachine,
  upsellMachineDocs,
  type ActiveService,
  type ActiveServicesOutput,
  type CreateInvoiceInput,
  type CreateInvoiceOutput,
  type UpsellContext,
  type UpsellInput,
} from '../../../machines/upsell.machine';
import { EXTRA_CONNECTION_PRICING } from '../../../tests/facts/catalogue';
import type { MachineModel } from '../graph';

/** A visitor paying in EUR with two gateways. */
export const upsellModelInput: UpsellInput = {
  currency: 'EUR',
  gateways: [
    { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard', currencies: ['EUR', 'GBP'] },
    { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin', currencies: ['EUR', 'GBP'] },
  ],
  selectedGateway: 'sandbox_card',
};

/** The contract lists every cycle; -1 is one not sold. */
const notSold = { monthly: -1, quarterly: -1, semiannually: -1, annually: -1, biennially: -1, triennially: -1 };

/**
 * A 1 Month service with the seeded extra-connection prices (tests/facts/catalogue.ts), due in 20 of its 30 days
 * (prorated), and a Lifetime (One Time) service whose extra connection is priced only in GBP (not sold in EUR).
 */
export const upsellModelServices: ActiveService[] = [
  {
    serviceid: 11, pid: 1, name: '1 Month', billingcycle: 'Monthly', nextduedate: '2026-12-21', proration: { remainingDays: 20, periodDays: 30, until: '2026-12-21' },
    extraConnections: 0, pricing: { EUR: { ...notSold, ...EXTRA_CONNECTION_PRICING.EUR }, GBP: { ...notSold, ...EXTRA_CONNECTION_PRICING.GBP } },
  },
  { serviceid: 12, pid: 3, name: 'Lifetime', billingcycle: 'One Time', nextduedate: null, proration: null, extraConnections: 1, pricing: { EUR: notSold, GBP: { ...notSold, monthly: EXTRA_CONNECTION_PRICING.GBP.monthly! } } },
];

/** The server's own total when it refuses the invoice (409 price_changed), in the visitor's EUR. */
export const upsellModelServerPrice = { amount: 9.5, currency: 'EUR' } as const;

const never = () => new Promise<never>(() => {});

const machine = upsellMachine.provide({
  actors: {
    loadActiveServices: fromPromise<ActiveServicesOutput>(never),
    createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(never),
  },
});

function events(snapshot: AnyMachineSnapshot): Array<EventObject & Record<string, unknown>> {
  const context = snapshot.context as UpsellContext;
  // Quantities beyond 2 only repeat the same states with other prices.
  const quantities = context.quantity === 1 ? [2, 0, 11, 1.5] : [];
  return [
    { type: 'xstate.done.actor.loadActiveServices', output: { totalresults: 2, products: upsellModelServices } },
    { type: 'xstate.done.actor.loadActiveServices', output: { totalresults: 0, products: [] } },
    { type: 'xstate.error.actor.loadActiveServices', error: new Error('Network error') },
    { type: 'services.retry' },
    { type: 'service.select', serviceid: 12 },
    { type: 'service.select', serviceid: 11 },
    { type: 'service.select', serviceid: 99 },
    ...quantities.map((quantity) => ({ type: 'quantity.change', quantity })),
    { type: 'gateway.select', gateway: 'sandbox_crypto' },
    { type: 'gateway.select', gateway: 'paypal' },
    { type: 'order.submit' },
    {
      type: 'xstate.done.actor.createInvoice',
      output: { invoiceid: 501, amount: context.price, currency: 'EUR', link: 'https://pay.example/card/501', deadline: '2026-01-02T12:00:00.000Z' },
    },
    { type: 'xstate.error.actor.createInvoice', error: { message: 'api.price_changed', serverPrice: upsellModelServerPrice } },
    { type: 'xstate.error.actor.createInvoice', error: { message: 'api.bad_gateway' } },
  ];
}

function describeEvent(event: EventObject): string {
  const payload = event as EventObject & { serviceid?: number; quantity?: number; gateway?: string; output?: { products?: unknown[] } };
  switch (event.type) {
    case 'xstate.done.actor.loadActiveServices': return `${payload.output?.products?.length ?? 0} active services load`;
    case 'xstate.error.actor.loadActiveServices': return 'services fail to load';
    case 'services.retry': return 'retry loading';
    case 'service.select': return `select service ${payload.serviceid ?? '?'}`;
    case 'quantity.change': return `set quantity ${payload.quantity ?? '?'}`;
    case 'gateway.select': return `pick gateway ${payload.gateway ?? '?'}`;
    case 'order.submit': return 'pay';
    case 'xstate.done.actor.createInvoice': return 'invoice created';
    case 'xstate.error.actor.createInvoice': return 'serverPrice' in ((event as { error?: object }).error ?? {}) ? 'invoice refused for a changed price' : 'invoice refused';
    default: return event.type;
  }
}

/** The upsell walked with two services (one not sold in the visitor's currency) and two gateways. */
export const upsellModel: MachineModel = {
  name: 'upsell',
  machine,
  input: upsellModelInput,
  events,
  describeEvent,
  expectedPaths: 11,
  expectedPairs: { walked: 8, total: 30 },
  docs: upsellMachineDocs,
};
