import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { upsellModel, upsellModelInput, upsellModelServerPrice, upsellModelServices } from '../scripts/statecharts/models/upsell.model';
import { PAYMENT_DEADLINE_MS, UPSELL_MAX_QUANTITY, UPSELL_MIN_QUANTITY } from '../src/domain/constants';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { upsellFact } from '../tests/facts/prices';
import {
  upsellGuards,
  upsellMachine,
  upsellPrice,
  type ActiveServicesOutput,
  type CreateInvoiceInput,
  type CreateInvoiceOutput,
  type UpsellContext,
} from './upsell.machine';

const { paths, error: pathsError } = generatePathsForTest(upsellModel);

/** The model's 1 Month service is due in 20 of its 30 days: its extra connections are priced for those days. */
const DUE_IN_20_OF_30 = { remainingDays: 20, periodDays: 30 };

describe('upsell machine: generated paths', () => {
  it('generates the expected number of paths', () => {
    expect(pathsError).toBeNull();
    expect(paths).toHaveLength(upsellModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(upsellModel, paths).transitionPairs).toEqual(upsellModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(upsellModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
    // Counted in the machine file: every on/always/after/onDone/onError entry, each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([11, 12]);
  });

  for (const path of paths) {
    it(formatScenario(upsellModel, path), () => {
      // The server's total after a 409 price_changed, until a service or quantity change reprices.
      let serverTotal: number | null = null;
      replayPath(upsellModel, path, (snapshot, step) => {
        const context = snapshot.context as UpsellContext;
        if (step.event.type === 'service.select' || step.event.type === 'quantity.change') serverTotal = null;
        if (step.event.type === 'xstate.error.actor.createInvoice' && 'serverPrice' in (step.event.error as object)) serverTotal = upsellModelServerPrice.amount;
        expect(context.quantity).toBeGreaterThanOrEqual(UPSELL_MIN_QUANTITY);
        expect(context.quantity).toBeLessThanOrEqual(UPSELL_MAX_QUANTITY);
        if (snapshot.matches('ready')) {
          const selected = context.services.find((service) => service.serviceid === context.selectedServiceId);
          expect(selected).toBeDefined();
          // After a 409 the server's total and its message; else the facts table's price for the service's cycle, the currency, the quantity and its days left (the One Time service is not sold in EUR).
          if (serverTotal !== null) {
            expect(context.price).toBe(serverTotal);
            expect(context.error).toBe('api.price_changed');
          } else if (selected!.serviceid === 12) expect(context.price).toBeNull();
          else expect(context.price).toBe(upsellFact({ billingcycle: selected!.billingcycle, currency: context.currency, quantity: context.quantity, proration: selected!.proration }));
        }
        if (snapshot.matches('empty')) expect(context.selectedServiceId).toBeNull();
        if (snapshot.matches('failed')) expect(context.error).toBe('Network error');
        if (snapshot.matches('redirecting')) {
          expect(context).toMatchObject({ invoiceid: 501, paymentLink: PAYMENT_LINKS.upsell, duration: PAYMENT_DEADLINE_MS });
          expect(context.lastDate).toBe(Date.parse('2026-01-02T12:00:00.000Z'));
        }
      });
    });
  }
});

const context = (overrides: Partial<UpsellContext> = {}): UpsellContext => ({
  currency: 'EUR',
  services: upsellModelServices,
  selectedServiceId: 11,
  quantity: 1,
  gateways: upsellModelInput.gateways,
  selectedGateway: 'sandbox_card',
  price: upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 1 }),
  invoiceid: null,
  paymentLink: null,
  lastDate: null,
  duration: null,
  error: null,
  ...overrides,
});

describe('upsell machine: guards', () => {
  it('hasServices needs at least one service', () => {
    expect(upsellGuards.hasServices(undefined, { count: 1 })).toBe(true);
    expect(upsellGuards.hasServices(undefined, { count: 0 })).toBe(false);
  });
  it('isActiveService accepts loaded services only', () => {
    expect(upsellGuards.isActiveService({ context: context() }, { serviceid: 12 })).toBe(true);
    expect(upsellGuards.isActiveService({ context: context() }, { serviceid: 99 })).toBe(false);
  });
  it('quantityInRange accepts whole numbers from the minimum to the maximum', () => {
    expect(upsellGuards.quantityInRange(undefined, { quantity: UPSELL_MIN_QUANTITY })).toBe(true);
    expect(upsellGuards.quantityInRange(undefined, { quantity: UPSELL_MAX_QUANTITY })).toBe(true);
    expect(upsellGuards.quantityInRange(undefined, { quantity: UPSELL_MIN_QUANTITY - 1 })).toBe(false);
    expect(upsellGuards.quantityInRange(undefined, { quantity: UPSELL_MAX_QUANTITY + 1 })).toBe(false);
    expect(upsellGuards.quantityInRange(undefined, { quantity: 2.5 })).toBe(false);
    expect(upsellGuards.quantityInRange(undefined, { quantity: Number.NaN })).toBe(false);
  });
  it('isKnownGateway accepts listed gateways only', () => {
    expect(upsellGuards.isKnownGateway({ context: context() }, { gateway: 'sandbox_crypto' })).toBe(true);
    expect(upsellGuards.isKnownGateway({ context: context() }, { gateway: 'paypal' })).toBe(false);
  });
  it('canSubmit needs a service, a price and a listed gateway', () => {
    expect(upsellGuards.canSubmit({ context: context() })).toBe(true);
    expect(upsellGuards.canSubmit({ context: context({ price: null }) })).toBe(false);
    expect(upsellGuards.canSubmit({ context: context({ selectedServiceId: null }) })).toBe(false);
    expect(upsellGuards.canSubmit({ context: context({ selectedGateway: 'paypal' }) })).toBe(false);
  });
  it("priceChanged needs a 409 price_changed with the server's amount in the currency shown", () => {
    const refused = (serverPrice: unknown) => Object.assign(new Error('api.price_changed'), { serverPrice });
    expect(upsellGuards.priceChanged({ context: context() }, { error: refused({ amount: 12.5, currency: 'EUR' }) })).toBe(true);
    expect(upsellGuards.priceChanged({ context: context() }, { error: refused({ amount: 12.5, currency: 'GBP' }) })).toBe(false);
    expect(upsellGuards.priceChanged({ context: context() }, { error: refused(undefined) })).toBe(false);
    expect(upsellGuards.priceChanged({ context: context() }, { error: new Error('api.bad_gateway') })).toBe(false);
  });
});

describe('upsell machine: price', () => {
  it('is the extra-connection price for the cycle times the quantity, in the currency', () => {
    const wholePeriod = { ...upsellModelServices[0]!, nextduedate: null, proration: null };
    expect(upsellPrice(wholePeriod, 'EUR', 3)).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 3 }));
    expect(upsellPrice(wholePeriod, 'GBP', 10)).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'GBP', quantity: 10 }));
    expect(upsellPrice(upsellModelServices[1], 'GBP', 2)).toBe(upsellFact({ billingcycle: 'One Time', currency: 'GBP', quantity: 2 }));
  });
  it('is prorated for the days left on a service with a due date (20 of 30 days)', () => {
    expect(upsellPrice(upsellModelServices[0], 'EUR', 3)).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 3, proration: DUE_IN_20_OF_30 }));
    expect(upsellPrice(upsellModelServices[0], 'GBP', 10)).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'GBP', quantity: 10, proration: DUE_IN_20_OF_30 }));
  });
  it('is null when the cycle is not sold in the currency or no service is selected', () => {
    expect(upsellPrice(upsellModelServices[1], 'EUR', 1)).toBeNull();
    expect(upsellPrice(undefined, 'EUR', 1)).toBeNull();
  });
});

describe('upsell machine: with the app actors', () => {
  const invoice: CreateInvoiceOutput = { invoiceid: 9, amount: 9, currency: 'EUR', link: 'https://pay.example/9', deadline: '2026-01-02T00:00:00.000Z' };

  it('creates one invoice for the chosen service, quantity and gateway, then redirects', async () => {
    const asked: CreateInvoiceInput[] = [];
    const redirected: string[] = [];
    const machine = upsellMachine.provide({
      actors: {
        loadActiveServices: fromPromise<ActiveServicesOutput>(async () => ({ totalresults: 2, products: upsellModelServices })),
        createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(async ({ input }) => {
          asked.push(input);
          return invoice;
        }),
      },
      actions: { redirectToPayment: (_, params) => redirected.push(params.link) },
    });
    const actor = createActor(machine, { input: upsellModelInput });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ selectedServiceId: 11, quantity: 1, price: upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 1, proration: DUE_IN_20_OF_30 }) });
    actor.send({ type: 'quantity.change', quantity: 2 });
    actor.send({ type: 'quantity.change', quantity: 0 });
    actor.send({ type: 'gateway.select', gateway: 'sandbox_crypto' });
    actor.send({ type: 'order.submit' });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(asked).toEqual([{ serviceId: 11, extraQuantity: 2, paymentmethod: 'sandbox_crypto', price: upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 2, proration: DUE_IN_20_OF_30 }), currency: 'EUR' }]);
    expect(redirected).toEqual(['https://pay.example/9']);
    expect(actor.getSnapshot().output).toEqual({
      order: { orderid: null, invoiceid: 9, serviceid: 11, fraud: false },
      paymentLink: 'https://pay.example/9',
      lastDate: Date.parse(invoice.deadline),
      duration: PAYMENT_DEADLINE_MS,
      selectedGateway: 'sandbox_crypto',
    });
  });

  it('shows the server message of an invoice refused without a price of its own and keeps the choices and the price', async () => {
    const machine = upsellMachine.provide({
      actors: {
        loadActiveServices: fromPromise<ActiveServicesOutput>(async () => ({ totalresults: 2, products: upsellModelServices })),
        createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(async () => {
          throw { error: { code: 'price_changed', message: 'The price has changed.' } };
        }),
      },
    });
    const actor = createActor(machine, { input: upsellModelInput });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'quantity.change', quantity: 3 });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('The price has changed.'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ selectedServiceId: 11, quantity: 3, price: upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 3, proration: DUE_IN_20_OF_30 }) });
    actor.stop();
  });

  it("takes the server's total of a 409 price_changed (12.50 EUR): the next payment sends 12.50 and is accepted", async () => {
    const asked: CreateInvoiceInput[] = [];
    const machine = upsellMachine.provide({
      actors: {
        loadActiveServices: fromPromise<ActiveServicesOutput>(async () => ({ totalresults: 2, products: upsellModelServices })),
        createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(async ({ input }) => {
          asked.push(input);
          if (asked.length === 1) throw Object.assign(new Error('api.price_changed'), { serverPrice: { amount: 12.5, currency: 'EUR' } });
          return invoice;
        }),
      },
    });
    const actor = createActor(machine, { input: upsellModelInput });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'quantity.change', quantity: 3 });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('api.price_changed'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ selectedServiceId: 11, quantity: 3, price: 12.5 });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    const threeConnections = upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 3, proration: DUE_IN_20_OF_30 });
    expect(asked).toEqual([
      { serviceId: 11, extraQuantity: 3, paymentmethod: 'sandbox_card', price: threeConnections, currency: 'EUR' },
      { serviceId: 11, extraQuantity: 3, paymentmethod: 'sandbox_card', price: 12.5, currency: 'EUR' },
    ]);
  });

  it("reprices from the service's pricing when the quantity or the service changes after a price change", async () => {
    const machine = upsellMachine.provide({
      actors: {
        loadActiveServices: fromPromise<ActiveServicesOutput>(async () => ({ totalresults: 2, products: upsellModelServices })),
        createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(async () => {
          throw Object.assign(new Error('api.price_changed'), { serverPrice: { amount: 12.5, currency: 'EUR' } });
        }),
      },
    });
    const actor = createActor(machine, { input: upsellModelInput });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.price).toBe(12.5));
    actor.send({ type: 'quantity.change', quantity: 2 });
    expect(actor.getSnapshot().context.price).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 2, proration: DUE_IN_20_OF_30 }));
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.price).toBe(12.5));
    actor.send({ type: 'service.select', serviceid: 12 });
    expect(actor.getSnapshot().context.price).toBeNull();
    actor.stop();
  });

  it('keeps its own price when the server names its total in another currency', async () => {
    const machine = upsellMachine.provide({
      actors: {
        loadActiveServices: fromPromise<ActiveServicesOutput>(async () => ({ totalresults: 2, products: upsellModelServices })),
        createInvoice: fromPromise<CreateInvoiceOutput, CreateInvoiceInput>(async () => {
          throw Object.assign(new Error('api.price_changed'), { serverPrice: { amount: 12.5, currency: 'GBP' } });
        }),
      },
    });
    const actor = createActor(machine, { input: upsellModelInput });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('api.price_changed'));
    expect(actor.getSnapshot().context.price).toBe(upsellFact({ billingcycle: 'Monthly', currency: 'EUR', quantity: 1, proration: DUE_IN_20_OF_30 }));
    actor.stop();
  });
});
