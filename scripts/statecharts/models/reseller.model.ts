import { fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import type {
  CreateResellerOrderInput,
  CreateResellerOrderOutput,
  LoadResellerProductInput,
  ResellerAuthInput,
  ResellerAuthOutput,
  ResellerContext,
  ResellerInput,
  ResellerProduct,
  ResellerProductsOutput,
  ResellerService,
} from '../../../machines/reseller.context';
import { resellerMachineDocs } from '../../../machines/reseller.docs';
import { resellerMachine } from '../../../machines/reseller.machine';
import { PANEL_ACTIVATION_PID, SEEDED_RESELLER_PRODUCTS, contractPricing } from '../../../tests/facts/catalogue';
import type { MachineModel } from '../graph';

/** A visitor paying in EUR with two gateways; pid 13 (the seeded panel activation) is the new-reseller product. */
export const resellerModelInput: ResellerInput = {
  currency: 'EUR',
  gateways: [
    { module: 'sandbox_card', displayname: 'Card', type: 'CreditCard' },
    { module: 'sandbox_crypto', displayname: 'Crypto', type: 'Bitcoin' },
  ],
  selectedGateway: 'sandbox_card',
  newResellerPid: PANEL_ACTIVATION_PID,
};

/** The seeded reseller products (tests/facts/catalogue.ts): three credit packs, the second selected by default, then the panel activation. */
export const resellerModelProducts: ResellerProduct[] = SEEDED_RESELLER_PRODUCTS.map((product) => ({ ...product, pricing: contractPricing(product.pricing) }));

const never = () => new Promise<never>(() => {});

const machine = resellerMachine.provide({
  actors: {
    loadResellerProducts: fromPromise<ResellerProductsOutput>(never),
    resellerAuth: fromPromise<ResellerAuthOutput, ResellerAuthInput>(never),
    createOrder: fromPromise<CreateResellerOrderOutput, CreateResellerOrderInput>(never),
    loadResellerProduct: fromPromise<ResellerService, LoadResellerProductInput>(never),
  },
});

const order = (link: string | null): CreateResellerOrderOutput => ({
  orderid: 601,
  invoiceid: 701,
  serviceids: [801, 802],
  fraud: link === null,
  status: 'Pending',
  amount: 349,
  currency: 'EUR',
  link,
  deadline: link ? '2026-01-02T12:00:00.000Z' : null,
});

const service = (status: ResellerService['status']): ResellerService => ({
  serviceid: 801, pid: 11, name: 'Reseller 120 credits', status, reseller: { name: 'Reseller panel', status },
  panel: { url: 'https://panel.example.net/', username: 'TV-20000001', password: '200000000001', credits: 120 },
});

function events(snapshot: AnyMachineSnapshot): Array<EventObject & Record<string, unknown>> {
  const context = snapshot.context as ResellerContext;
  // Plan and gateway changes are tried on the untouched form only; later they repeat the same states.
  const untouched = context.email === '' && context.password === '';
  return [
    { type: 'products.load' },
    { type: 'success.check', serviceid: 801, loggedIn: true },
    { type: 'success.check', serviceid: null, loggedIn: true },
    { type: 'xstate.done.actor.loadResellerProducts', output: { totalresults: 4, products: resellerModelProducts } },
    { type: 'xstate.done.actor.loadResellerProducts', output: { totalresults: 0, products: [] } },
    { type: 'xstate.error.actor.loadResellerProducts', error: new Error('Network error') },
    { type: 'products.retry' },
    ...(untouched
      ? [
          { type: 'plan.select', pid: 12 },
          { type: 'plan.select', pid: 99 },
          { type: 'gateway.select', gateway: 'sandbox_crypto' },
          { type: 'gateway.select', gateway: 'paypal' },
        ]
      : []),
    // The new reseller is the main walk; answering yes is tried once the new-reseller fields are filled.
    ...(context.confirmPassword !== '' ? [{ type: 'reseller.choose', existing: !context.existingReseller }] : []),
    ...(context.email === '' ? [{ type: 'email.change', email: 'reseller@example' }, { type: 'email.change', email: 'reseller@example.com' }] : []),
    ...(context.password === '' && context.userid === null ? [{ type: 'password.change', password: 'secret-pass-1' }] : []),
    ...(context.confirmPassword === '' && context.password !== '' ? [{ type: 'confirmation.change', password: 'secret-pass-2' }, { type: 'confirmation.change', password: 'secret-pass-1' }] : []),
    { type: 'order.submit' },
    { type: 'xstate.done.actor.resellerAuth', output: { userid: 7, email: context.email, reseller: !context.existingReseller } },
    // A sign-up answers alike for known and new addresses (DESIGN §11), so what refuses it is the per-address limit.
    { type: 'xstate.error.actor.resellerAuth', error: { error: { code: 'rate_limited', message: 'Too many attempts. Try again in 60 s.' } } },
    { type: 'xstate.done.actor.createOrder', output: order('https://pay.example/card/701') },
    { type: 'xstate.done.actor.createOrder', output: order(null) },
    { type: 'xstate.error.actor.createOrder', error: { error: { code: 'price_changed', message: 'The price has changed.' } } },
    { type: 'xstate.done.actor.loadResellerProduct', output: service('Active') },
    { type: 'xstate.done.actor.loadResellerProduct', output: service('Suspended') },
    { type: 'xstate.error.actor.loadResellerProduct', error: { error: { code: 'forbidden', message: 'Forbidden' } } },
  ];
}

function describeEvent(event: EventObject): string {
  const payload = event as EventObject & {
    serviceid?: number | null;
    pid?: number;
    existing?: boolean;
    email?: string;
    password?: string;
    gateway?: string;
    output?: { products?: unknown[]; link?: string | null; status?: string };
  };
  switch (event.type) {
    case 'products.load': return 'open the reseller page';
    case 'success.check': return payload.serviceid ? `open reseller success for service ${payload.serviceid}` : 'open reseller success without service id';
    case 'xstate.done.actor.loadResellerProducts': return `${payload.output?.products?.length ?? 0} reseller products load`;
    case 'xstate.error.actor.loadResellerProducts': return 'products fail to load';
    case 'products.retry': return 'retry loading';
    case 'plan.select': return `select plan ${payload.pid ?? '?'}`;
    case 'reseller.choose': return payload.existing ? 'answer "already a reseller": yes' : 'answer "already a reseller": no';
    case 'email.change': return `type e-mail ${payload.email ?? ''}`;
    case 'password.change': return 'type password';
    case 'confirmation.change': return `type confirmation ${payload.password ?? ''}`;
    case 'gateway.select': return `pick gateway ${payload.gateway ?? '?'}`;
    case 'order.submit': return 'order';
    case 'xstate.done.actor.resellerAuth': return 'signed in';
    case 'xstate.error.actor.resellerAuth': return 'sign-up refused';
    case 'xstate.done.actor.createOrder': return payload.output?.link ? 'order created with payment link' : 'order created without link';
    case 'xstate.error.actor.createOrder': return 'order refused';
    case 'xstate.done.actor.loadResellerProduct': return `reseller service is ${payload.output?.status ?? '?'}`;
    case 'xstate.error.actor.loadResellerProduct': return 'reseller service lookup fails';
    default: return event.type;
  }
}

/** The reseller order page and the reseller success guard, walked with three reseller products. */
export const resellerModel: MachineModel = {
  name: 'reseller',
  machine,
  input: resellerModelInput,
  events,
  describeEvent,
  expectedPaths: 16,
  expectedPairs: { walked: 22, total: 59 },
  docs: resellerMachineDocs,
};
