import { fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { renewalMachineDocs } from '../../../machines/renewal.docs';
import {
  renewalMachine,
  type CreateRenewalLinkInput,
  type CreateRenewalLinkOutput,
  type LoadRenewalInput,
  type RenewalContext,
  type RenewalInput,
  type ServiceRenewal,
} from '../../../machines/renewal.machine';
import { SEEDED_PLANS } from '../../../tests/facts/catalogue';
import { PAYMENT_LINKS } from '../../../tests/facts/messages';
import type { MachineModel } from '../graph';

/** The renewal page of service 3001 with two gateways, both taking EUR only: an invoice in GBP cannot be paid here. */
export const renewalModelInput: RenewalInput = {
  serviceid: 3001,
  gateways: [
    { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard', currencies: ['EUR'] },
    { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin', currencies: ['EUR'] },
  ],
  defaultGateway: 'sandbox_card',
};

const monthly = SEEDED_PLANS[0]!;

/** A monthly service due on 27 Dec 2026, its renewal invoice open: one more month at the catalogue's €12.99. */
export const renewalModelDue: ServiceRenewal = {
  serviceid: 3001, name: monthly.name, billingcycle: 'Monthly', status: 'Active', nextduedate: '2026-12-27', renewable: true,
  invoice: { invoiceid: 2007, status: 'Unpaid', amount: monthly.pricing.EUR.monthly!, currency: 'EUR', periodStart: '2026-12-27', periodEnd: '2027-01-27' },
  invoiceDate: null,
};

/** The same invoice after the catalogue's price changed (409 price_changed): €14.99. */
export const renewalModelRepriced: ServiceRenewal = { ...renewalModelDue, invoice: { ...renewalModelDue.invoice!, amount: 14.99 } };

/** A client billed in pounds: the invoice is the catalogue's £10.99, and no gateway here takes GBP. */
export const renewalModelInPounds: ServiceRenewal = { ...renewalModelDue, invoice: { ...renewalModelDue.invoice!, amount: monthly.pricing.GBP.monthly!, currency: 'GBP' } };

/** Paid (409 invoice_paid): due a month later, the next invoice issued 7 days before. */
export const renewalModelPaid: ServiceRenewal = { ...renewalModelDue, nextduedate: '2027-01-27', invoice: null, invoiceDate: '2027-01-20' };

/** Paid until 27 Dec 2026, its invoice issued on 20 Dec. */
export const renewalModelNotDue: ServiceRenewal = { ...renewalModelDue, invoice: null, invoiceDate: '2026-12-20' };

/** A lifetime plan: no due date, never renewable. */
export const renewalModelLifetime: ServiceRenewal = { ...renewalModelDue, name: 'Lifetime', billingcycle: 'One Time', nextduedate: null, renewable: false, invoice: null };

/** Terminated 30 days after an unpaid due date: no longer renewable. */
export const renewalModelTerminated: ServiceRenewal = { ...renewalModelDue, status: 'Terminated', nextduedate: '2026-11-27', renewable: false, invoice: null };

/** The API's refusals as the app's client gives them (message key, status and code); a 502 is what stands in front of the API failing. */
const refusal = (status: number, code: string) => ({ message: `api.${code}`, status, code });
export const RENEWAL_REFUSALS = {
  unauthenticated: refusal(401, 'unauthenticated'),
  invoicePaid: refusal(409, 'invoice_paid'),
  priceChanged: { ...refusal(409, 'price_changed'), serverPrice: { amount: renewalModelRepriced.invoice!.amount, currency: 'EUR' } },
  badGateway: refusal(502, 'bad_gateway'),
};

const never = () => new Promise<never>(() => {});

const machine = renewalMachine.provide({
  actors: {
    loadRenewal: fromPromise<ServiceRenewal, LoadRenewalInput>(never),
    createPaymentLink: fromPromise<CreateRenewalLinkOutput, CreateRenewalLinkInput>(never),
  },
});

/** What a (re)load answers: after a refused link, what the server holds now; else each kind of service. */
function loads(context: RenewalContext): ServiceRenewal[] {
  if (context.error === RENEWAL_REFUSALS.invoicePaid.message) return [renewalModelPaid];
  if (context.error === RENEWAL_REFUSALS.priceChanged.message) return [renewalModelRepriced];
  return [renewalModelDue, renewalModelInPounds, renewalModelNotDue, renewalModelLifetime, renewalModelTerminated];
}

function events(snapshot: AnyMachineSnapshot): Array<EventObject & Record<string, unknown>> {
  const context = snapshot.context as RenewalContext;
  return [
    ...loads(context).map((output) => ({ type: 'xstate.done.actor.loadRenewal', output })),
    { type: 'xstate.error.actor.loadRenewal', error: RENEWAL_REFUSALS.badGateway },
    { type: 'xstate.error.actor.loadRenewal', error: RENEWAL_REFUSALS.unauthenticated },
    { type: 'renewal.retry' },
    // Gateways are tried while the first one is chosen: crypto, and one the list does not have.
    ...(context.selectedGateway === 'sandbox_card' ? [{ type: 'gateway.select', gateway: 'sandbox_crypto' }, { type: 'gateway.select', gateway: 'paypal' }] : []),
    { type: 'renewal.pay' },
    {
      type: 'xstate.done.actor.createPaymentLink',
      output: { invoiceid: 2007, paymentmethod: context.selectedGateway, link: PAYMENT_LINKS.renewal, deadline: '2026-12-21T12:00:00.000Z' },
    },
    { type: 'xstate.error.actor.createPaymentLink', error: RENEWAL_REFUSALS.priceChanged },
    { type: 'xstate.error.actor.createPaymentLink', error: RENEWAL_REFUSALS.invoicePaid },
    { type: 'xstate.error.actor.createPaymentLink', error: RENEWAL_REFUSALS.badGateway },
  ];
}

const LOAD_WORDS = new Map<ServiceRenewal, string>([
  [renewalModelDue, 'the renewal loads with its invoice open'],
  [renewalModelRepriced, 'the renewal loads at the new price'],
  [renewalModelInPounds, 'the renewal loads with its invoice open in GBP'],
  [renewalModelPaid, 'the renewal loads paid, due a month later'],
  [renewalModelNotDue, 'the renewal loads, not due yet'],
  [renewalModelLifetime, 'a lifetime service loads'],
  [renewalModelTerminated, 'a terminated service loads'],
]);

function describeEvent(event: EventObject): string {
  const payload = event as EventObject & { gateway?: string; output?: ServiceRenewal; error?: { code?: string } };
  switch (event.type) {
    case 'xstate.done.actor.loadRenewal': return LOAD_WORDS.get(payload.output!) ?? 'the renewal loads';
    case 'xstate.error.actor.loadRenewal': return payload.error?.code === 'unauthenticated' ? 'the renewal is refused: not signed in' : 'the renewal fails to load';
    case 'renewal.retry': return 'retry loading';
    case 'gateway.select': return `pick gateway ${payload.gateway ?? '?'}`;
    case 'renewal.pay': return 'pay';
    case 'xstate.done.actor.createPaymentLink': return 'payment link made';
    case 'xstate.error.actor.createPaymentLink': return `payment link refused (${payload.error?.code ?? '?'})`;
    default: return event.type;
  }
}

/** The renewal page walked with each kind of service, an invoice no gateway takes, and the three refusals of a payment link. */
export const renewalModel: MachineModel = {
  name: 'renewal',
  machine,
  input: renewalModelInput,
  events,
  describeEvent,
  expectedPaths: 12,
  expectedPairs: { walked: 7, total: 22 },
  docs: renewalMachineDocs,
};
