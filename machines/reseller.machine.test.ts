import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { resellerModel, resellerModelInput, resellerModelProducts } from '../scripts/statecharts/models/reseller.model';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { resellerFact } from '../tests/facts/prices';
import { isValidEmail } from '../src/domain/email';
import { MESSAGE_TEXTS } from '../src/domain/messages';
import {
  defaultResellerPid,
  orderPids,
  resellerPrice,
  type CreateResellerOrderInput,
  type CreateResellerOrderOutput,
  type LoadResellerProductInput,
  type ResellerAuthInput,
  type ResellerAuthOutput,
  type ResellerContext,
  type ResellerProductsOutput,
  type ResellerService,
} from './reseller.context';
import { canEnterResellerSuccess, isActiveResellerService, resellerGuards } from './reseller.guards';
import { resellerMachine } from './reseller.machine';

const { paths, error: pathsError } = generatePathsForTest(resellerModel);

describe('reseller machine: generated paths', () => {
  it('generates the expected number of paths', () => {
    expect(pathsError).toBeNull();
    expect(paths).toHaveLength(resellerModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(resellerModel, paths).transitionPairs).toEqual(resellerModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(resellerModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
    // Counted in the machine file: every on/always/after/onDone/onError entry, each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([24, 16]);
  });

  for (const path of paths) {
    it(formatScenario(resellerModel, path), () => {
      replayPath(resellerModel, path, (snapshot, step) => {
        const context = snapshot.context as ResellerContext;
        if (snapshot.matches('ready')) {
          expect(context.price).toBe(resellerPrice(context));
          // Spec §2: the second product is selected by default; the total is the facts table's for the pack, new or existing, in EUR.
          if (step.event.type === 'xstate.done.actor.loadResellerProducts') expect(context.selectedPid).toBe(11);
          if (context.selectedPid !== null) expect(context.price).toBe(resellerFact({ pid: context.selectedPid, newReseller: !context.existingReseller, currency: context.currency }));
          if (context.emailError) expect(isValidEmail(context.email)).toBe(false);
          if (context.passwordError) expect(context.passwordError).toBe('reseller.passwordMismatch');
        }
        if (snapshot.matches('authenticating')) {
          expect(isValidEmail(context.email)).toBe(true);
          if (!context.existingReseller) expect(context.confirmPassword).toBe(context.password);
          expect(orderPids(context)).toEqual(context.existingReseller ? [context.selectedPid] : [context.selectedPid, 13]);
        }
        if (context.userid !== null) expect(context).toMatchObject({ password: '', confirmPassword: '' });
        if (snapshot.matches('redirecting')) {
          expect(context.order).toEqual({ orderid: 601, invoiceid: 701, serviceid: 801, fraud: false });
          expect(context.paymentLink).toBe(PAYMENT_LINKS.reseller);
          expect(context.lastDate).toBe(Date.parse('2026-01-02T12:00:00.000Z'));
        }
        if (snapshot.matches('placed')) expect(context.paymentLink).toBeNull();
        if (snapshot.matches({ successGuard: 'allowed' })) expect(context.resellerService?.status).toBe('Active');
      });
    });
  }
});

const context = (overrides: Partial<ResellerContext> = {}): ResellerContext => ({
  currency: 'EUR',
  products: resellerModelProducts,
  selectedPid: 11,
  existingReseller: false,
  email: 'reseller@example.com',
  password: 'secret-pass-1',
  confirmPassword: 'secret-pass-1',
  emailError: null,
  passwordError: null,
  passwordRuleError: null,
  gateways: resellerModelInput.gateways,
  selectedGateway: 'sandbox_card',
  newResellerPid: 13,
  price: resellerFact({ pid: 11, newReseller: true, currency: 'EUR' }),
  userid: null,
  order: { orderid: null, invoiceid: null, serviceid: null, fraud: false },
  paymentLink: null,
  lastDate: null,
  duration: null,
  error: null,
  serviceid: null,
  resellerService: null,
  ...overrides,
});

describe('reseller machine: guards', () => {
  it('hasProducts needs at least one product', () => {
    expect(resellerGuards.hasProducts(undefined, { count: 1 })).toBe(true);
    expect(resellerGuards.hasProducts(undefined, { count: 0 })).toBe(false);
  });
  it('isResellerProduct accepts loaded products only', () => {
    expect(resellerGuards.isResellerProduct({ context: context() }, { pid: 12 })).toBe(true);
    expect(resellerGuards.isResellerProduct({ context: context() }, { pid: 1 })).toBe(false);
  });
  it('isKnownGateway accepts listed gateways only', () => {
    expect(resellerGuards.isKnownGateway({ context: context() }, { gateway: 'sandbox_crypto' })).toBe(true);
    expect(resellerGuards.isKnownGateway({ context: context() }, { gateway: 'paypal' })).toBe(false);
  });
  it('formComplete needs a well-formed e-mail, a password, a matching confirmation for a new reseller, a price and a gateway', () => {
    expect(resellerGuards.formComplete({ context: context() })).toBe(true);
    expect(resellerGuards.formComplete({ context: context({ email: 'reseller@example' }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ password: '', confirmPassword: '' }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ confirmPassword: 'secret-2' }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ existingReseller: true, confirmPassword: '' }) })).toBe(true);
    // Issue 16: a new reseller's password has 10 characters or more and is not the e-mail; a sign-in's is taken as it is.
    expect(resellerGuards.formComplete({ context: context({ password: '123456789', confirmPassword: '123456789' }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ password: '1234567890', confirmPassword: '1234567890' }) })).toBe(true);
    expect(resellerGuards.formComplete({ context: context({ password: 'Reseller@Example.com', confirmPassword: 'Reseller@Example.com' }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ existingReseller: true, password: 'pw', confirmPassword: '' }) })).toBe(true);
    expect(resellerGuards.formComplete({ context: context({ price: null }) })).toBe(false);
    expect(resellerGuards.formComplete({ context: context({ selectedGateway: 'paypal' }) })).toBe(false);
  });
  it('canOrderSignedIn needs an earlier sign-in, a price and a gateway', () => {
    expect(resellerGuards.canOrderSignedIn({ context: context({ userid: 7, password: '' }) })).toBe(true);
    expect(resellerGuards.canOrderSignedIn({ context: context() })).toBe(false);
    expect(resellerGuards.canOrderSignedIn({ context: context({ userid: 7, price: null }) })).toBe(false);
  });
  it('hasPaymentLink needs a non-empty link', () => {
    expect(resellerGuards.hasPaymentLink(undefined, { link: 'https://pay.example/1' })).toBe(true);
    expect(resellerGuards.hasPaymentLink(undefined, { link: null })).toBe(false);
    expect(resellerGuards.hasPaymentLink(undefined, { link: '' })).toBe(false);
  });
  it('canEnterResellerSuccess needs a service id and a logged-in user', () => {
    expect(resellerGuards.canEnterResellerSuccess(undefined, { serviceid: 801, loggedIn: true })).toBe(true);
    expect(resellerGuards.canEnterResellerSuccess(undefined, { serviceid: 801, loggedIn: false })).toBe(false);
    expect(resellerGuards.canEnterResellerSuccess(undefined, { serviceid: null, loggedIn: true })).toBe(false);
    expect(canEnterResellerSuccess({ serviceid: 0, loggedIn: true })).toBe(false);
    expect(canEnterResellerSuccess({ serviceid: 1.5, loggedIn: true })).toBe(false);
  });
  it('isActiveResellerService only for Active', () => {
    expect(resellerGuards.isActiveResellerService(undefined, { status: 'Active' })).toBe(true);
    expect(isActiveResellerService({ status: 'Suspended' })).toBe(false);
    expect(isActiveResellerService({ status: 'Pending' })).toBe(false);
  });
});

describe('reseller machine: products and amount', () => {
  it('selects the second product by default, the first when there is only one', () => {
    expect(defaultResellerPid(resellerModelProducts)).toBe(11);
    expect(defaultResellerPid(resellerModelProducts.slice(0, 1))).toBe(10);
    expect(defaultResellerPid([])).toBeNull();
  });
  it("adds the new-reseller product to a new reseller's order", () => {
    expect(orderPids(context())).toEqual([11, 13]);
    expect(resellerPrice(context())).toBe(resellerFact({ pid: 11, newReseller: true, currency: 'EUR' }));
  });
  it('orders the chosen product alone for an existing reseller', () => {
    expect(orderPids(context({ existingReseller: true }))).toEqual([11]);
    expect(resellerPrice(context({ existingReseller: true }))).toBe(resellerFact({ pid: 11, newReseller: false, currency: 'EUR' }));
  });
  it('does not repeat the new-reseller product when it is the chosen one', () => {
    expect(orderPids(context({ selectedPid: 13 }))).toEqual([13]);
  });
  it('cannot price an order whose new-reseller product is not loaded', () => {
    expect(resellerPrice(context({ newResellerPid: 99 }))).toBeNull();
    expect(resellerPrice(context({ newResellerPid: null }))).toBe(resellerFact({ pid: 11, newReseller: false, currency: 'EUR' }));
  });
});

describe('reseller machine: with the app actors', () => {
  const orderAnswer: CreateResellerOrderOutput = {
    orderid: 1, invoiceid: 2, serviceids: [3, 4], fraud: false, status: 'Pending', amount: 349, currency: 'EUR', link: 'https://pay.example/2', deadline: '2026-01-02T00:00:00.000Z',
  };
  const start = (createOrder: (input: CreateResellerOrderInput) => Promise<CreateResellerOrderOutput>) => {
    const auths: ResellerAuthInput[] = [];
    const orders: CreateResellerOrderInput[] = [];
    const redirected: string[] = [];
    const machine = resellerMachine.provide({
      actors: {
        loadResellerProducts: fromPromise<ResellerProductsOutput>(async () => ({ totalresults: 4, products: resellerModelProducts })),
        resellerAuth: fromPromise<ResellerAuthOutput, ResellerAuthInput>(async ({ input }) => {
          auths.push(input);
          return { userid: 7, email: input.email, reseller: true };
        }),
        createOrder: fromPromise<CreateResellerOrderOutput, CreateResellerOrderInput>(async ({ input }) => {
          orders.push(input);
          return createOrder(input);
        }),
      },
      actions: { redirectToPayment: (_, params) => redirected.push(params.link) },
    });
    const actor = createActor(machine, { input: resellerModelInput });
    actor.start();
    actor.send({ type: 'products.load' });
    return { actor, auths, orders, redirected };
  };

  it('signs a new reseller up and orders the chosen product with the new-reseller product', async () => {
    const { actor, auths, orders, redirected } = start(async () => orderAnswer);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'email.change', email: 'new@example.com' });
    actor.send({ type: 'password.change', password: 'new-pass-01' });
    actor.send({ type: 'confirmation.change', password: 'new-pass-02' });
    expect(actor.getSnapshot().context.passwordError).toBe('reseller.passwordMismatch');
    expect(MESSAGE_TEXTS['reseller.passwordMismatch']).toBe('Not the same password');
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'confirmation.change', password: 'new-pass-01' });
    expect(actor.getSnapshot().context.passwordError).toBeNull();
    actor.send({ type: 'order.submit' });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(auths).toEqual([{ email: 'new@example.com', password: 'new-pass-01', existingReseller: false }]);
    expect(orders).toEqual([{ pid: [11, 13], paymentmethod: 'sandbox_card', amount: resellerFact({ pid: 11, newReseller: true, currency: 'EUR' }), currency: 'EUR' }]);
    expect(redirected).toEqual(['https://pay.example/2']);
    expect(actor.getSnapshot().output).toMatchObject({ order: { orderid: 1, invoiceid: 2, serviceid: 3, fraud: false }, paymentLink: 'https://pay.example/2' });
  });

  it('signs an existing reseller in, orders the chosen product alone, and retries a refused order without signing in again', async () => {
    let refuse = true;
    const { actor, auths, orders } = start(async () => {
      if (refuse) {
        refuse = false;
        throw { error: { code: 'price_changed', message: 'The price has changed.' } };
      }
      return orderAnswer;
    });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'reseller.choose', existing: true });
    actor.send({ type: 'plan.select', pid: 12 });
    actor.send({ type: 'email.change', email: 'old@example.com' });
    actor.send({ type: 'password.change', password: 'pw' });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('The price has changed.'));
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(auths).toHaveLength(1);
    expect(orders).toEqual([
      { pid: [12], paymentmethod: 'sandbox_card', amount: resellerFact({ pid: 12, newReseller: false, currency: 'EUR' }), currency: 'EUR' },
      { pid: [12], paymentmethod: 'sandbox_card', amount: resellerFact({ pid: 12, newReseller: false, currency: 'EUR' }), currency: 'EUR' },
    ]);
  });

  it("tells a new reseller their password is too short or is the e-mail, clears it once it is right, and does not sign up meanwhile", async () => {
    const { actor, auths } = start(async () => orderAnswer);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'email.change', email: 'new.reseller@example.com' });
    actor.send({ type: 'password.change', password: 'short' });
    expect(actor.getSnapshot().context.passwordRuleError).toBe('reseller.passwordTooShort');
    expect(MESSAGE_TEXTS['reseller.passwordTooShort']).toBe('Choose a password of at least 10 characters.');
    actor.send({ type: 'confirmation.change', password: 'short' });
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'password.change', password: 'NEW.RESELLER@EXAMPLE.COM' });
    actor.send({ type: 'confirmation.change', password: 'NEW.RESELLER@EXAMPLE.COM' });
    expect(actor.getSnapshot().context.passwordRuleError).toBe('reseller.passwordIsEmail');
    expect(MESSAGE_TEXTS['reseller.passwordIsEmail']).toBe('Choose a password that is not your e-mail address.');
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().value).toBe('ready');
    // Changing the e-mail away from the password lifts the refusal.
    actor.send({ type: 'email.change', email: 'other@example.com' });
    expect(actor.getSnapshot().context.passwordRuleError).toBeNull();
    // "Already a reseller: yes" signs in with the password the account has, whatever its length.
    actor.send({ type: 'password.change', password: 'pw' });
    actor.send({ type: 'reseller.choose', existing: true });
    expect(actor.getSnapshot().context.passwordRuleError).toBeNull();
    actor.send({ type: 'reseller.choose', existing: false });
    expect(actor.getSnapshot().context.passwordRuleError).toBeNull();
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().context.passwordRuleError).toBe('reseller.passwordTooShort');
    expect(auths).toEqual([]);
    actor.stop();
  });

  it("shows 'email.invalid' for a malformed e-mail", () => {
    const actor = createActor(resellerModel.machine, { input: resellerModelInput });
    actor.start();
    actor.send({ type: 'products.load' });
    actor.send({ type: 'xstate.done.actor.loadResellerProducts', output: { totalresults: 4, products: resellerModelProducts } } as never);
    actor.send({ type: 'email.change', email: 'not-an-email' });
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
    actor.stop();
  });
});

describe('reseller machine: success guard', () => {
  const check = async (query: { serviceid: number | null; loggedIn: boolean }, lookup: () => Promise<ResellerService>) => {
    const redirects: string[] = [];
    const machine = resellerMachine.provide({
      actors: { loadResellerProduct: fromPromise<ResellerService, LoadResellerProductInput>(lookup) },
      actions: { redirectToResellers: () => redirects.push('resellers') },
    });
    const actor = createActor(machine, { input: resellerModelInput });
    actor.start();
    actor.send({ type: 'success.check', ...query });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ successGuard: 'checking' })).toBe(false));
    return { value: actor.getSnapshot().value, redirects };
  };
  const active: ResellerService = {
    serviceid: 5, pid: 11, name: 'Reseller', status: 'Active', reseller: { name: 'Panel', status: 'Active' },
    panel: { url: 'https://panel.example.net/', username: 'TV-20000001', password: '200000000001', credits: 120 },
  };

  it('shows the page to a logged-in user with an Active reseller service', async () => {
    expect(await check({ serviceid: 5, loggedIn: true }, async () => active)).toEqual({ value: { successGuard: 'allowed' }, redirects: [] });
  });
  it('redirects without a service id or a login, without looking anything up', async () => {
    const lookup = vi.fn(async () => active);
    expect(await check({ serviceid: null, loggedIn: true }, lookup)).toEqual({ value: { successGuard: 'denied' }, redirects: ['resellers'] });
    expect(await check({ serviceid: 5, loggedIn: false }, lookup)).toEqual({ value: { successGuard: 'denied' }, redirects: ['resellers'] });
    expect(lookup).not.toHaveBeenCalled();
  });
  it('redirects when the lookup fails or the service is not Active', async () => {
    expect((await check({ serviceid: 5, loggedIn: true }, async () => ({ ...active, status: 'Suspended' }))).redirects).toEqual(['resellers']);
    expect((await check({ serviceid: 5, loggedIn: true }, () => Promise.reject(new Error('403')))).redirects).toEqual(['resellers']);
  });
});
