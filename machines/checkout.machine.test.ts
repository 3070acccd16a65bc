import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import type { PromotionLookup } from '../src/domain/promotion';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { seededPromotionLookup } from '../tests/facts/catalogue';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { checkoutFact } from '../tests/facts/prices';
import { CHECKOUT_MODEL_NOW, checkoutModel, modelPromotionLookup } from '../scripts/statecharts/models/checkout.model';
import { placeOrderModelOrder as modelOrder } from '../scripts/statecharts/models/place-order.model';
import { quoteFor } from './checkout.order';
import { checkoutMachine, type CheckoutContext, type CheckoutGateway, type CheckoutProduct } from './checkout.machine';
import { settled, startCheckout, type Fakes } from '../tests/support/checkout-machine';

const { paths, error: pathsError } = generatePathsForTest(checkoutModel);

/** What must hold in every snapshot of every path. */
function assertCheckoutInvariants(snapshot: AnyMachineSnapshot): void {
  const context = snapshot.context as CheckoutContext;
  expect(context.products.length).toBeLessThanOrEqual(3);
  if (snapshot.matches('ready')) {
    expect(context.quote).toEqual(quoteFor(context));
    // The quote is the facts table's row for the choices, not only what the machine computes twice.
    const fact = checkoutFact({
      pid: context.selectedPid!,
      extraConnection: context.extraConnection,
      proxyProtection: context.proxyProtection,
      promo: context.promotion?.code ?? null,
      currency: context.currency,
    });
    expect(context.quote).toEqual({ currency: context.currency, ...fact });
    expect(snapshot.matches({ ready: { email: 'valid' } })).toBe(context.emailValid);
    // 'Please enter a Valid Email.' for an e-mail of the wrong shape, and for none at a submit.
    expect(snapshot.matches({ ready: { email: 'invalid' } }) || snapshot.matches({ ready: { email: 'required' } })).toBe(context.emailError === 'email.invalid');
    expect(snapshot.matches({ ready: { unpaidOrder: 'none' } })).toBe(context.unpaidOrder === null);
    expect(snapshot.matches({ ready: { promo: 'applied' } })).toBe(context.promotion !== null);
    expect(snapshot.matches({ ready: { promo: 'rejected' } })).toBe(context.promoError !== null);
    expect(snapshot.matches({ ready: { addons: { extraConnection: 'on' } } })).toBe(context.extraConnection);
    expect(snapshot.matches({ ready: { addons: { proxyProtection: 'on' } } })).toBe(context.proxyProtection);
  }
  if (snapshot.matches('redirecting')) {
    expect(context.payment).toEqual({ gateway: 'sandbox', link: PAYMENT_LINKS.checkout, deadline: new Date(CHECKOUT_MODEL_NOW + PAYMENT_DEADLINE_MS).toISOString() });
    expect(context.order).toEqual({ orderid: modelOrder.orderid, invoiceid: modelOrder.invoiceid, serviceid: 701, fraud: false });
  }
  if (snapshot.matches('waiting')) {
    expect(context.payment).toBeNull();
    expect(context.order?.fraud).toBe(true);
  }
}

describe('checkout machine: generated paths', () => {
  it('generates the expected number of paths (a changed statechart changes this)', () => {
    expect(pathsError).toBeNull();
    expect(paths.length).toBe(checkoutModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(checkoutModel, paths).transitionPairs).toEqual(checkoutModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(checkoutModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
  });

  it.each(paths.map((path) => [formatScenario(checkoutModel, path), path] as const))('%s', (_scenario, path) => {
    replayPath(checkoutModel, path, (snapshot, step) => {
      expect(snapshot.value).toEqual(step.state.value);
      expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(step.state.context);
      assertCheckoutInvariants(snapshot);
    });
  });
});

describe('checkout machine: gateways and the currency', () => {
  const gateways = {
    gateways: [
      { module: 'hostedlink', displayname: 'Card', type: 'CreditCard' as const, currencies: ['EUR'] },
      { module: 'coinbase', displayname: 'Crypto (Coinbase)', type: 'Cryptocurrency' as const, currencies: ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] },
    ],
    defaultGateway: 'hostedlink',
  };

  it('a visitor paying in EUR gets the default gateway', async () => {
    const { actor } = startCheckout({}, { gateways, country: 'NL' });
    await settled(actor);
    expect(actor.getSnapshot().context.selectedGateway).toBe('hostedlink');
  });

  it('a visitor paying in GBP gets the first gateway taking GBP, and cannot select one that does not', async () => {
    const { actor } = startCheckout({}, { gateways, country: 'GB' });
    await settled(actor);
    expect(actor.getSnapshot().context.currency).toBe('GBP');
    expect(actor.getSnapshot().context.selectedGateway).toBe('coinbase');
    actor.send({ type: 'gateway.select', module: 'hostedlink' });
    expect(actor.getSnapshot().context.selectedGateway).toBe('coinbase');
  });
});

describe('checkout machine: loading and pre-fill', () => {
  it('offers only the first three products and selects the first by default', async () => {
    const { actor } = startCheckout({});
    await settled(actor);
    const { context } = actor.getSnapshot();
    expect(context.products.map((product) => product.pid)).toEqual([1, 2, 3]);
    expect(context.selectedPid).toBe(1);
    expect(context.selectedGateway).toBe('sandbox');
    expect(context.quote?.total).toBe(checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: null, currency: 'EUR' }).total);
  });

  it('selects the pid of the URL and pre-fills add-ons, e-mail and affiliate', async () => {
    const { actor } = startCheckout({ query: { pid: '2', extraconnect: 'true', proxyprotect: '1', email: 'bob@example.com', aff_id: 'partner-9' } });
    await settled(actor);
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.selectedPid).toBe(2);
    expect(snapshot.matches({ ready: { addons: { extraConnection: 'on', proxyProtection: 'on' }, email: 'valid' } })).toBe(true);
    expect(snapshot.context.affId).toBe('partner-9');
    expect(snapshot.context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 2, extraConnection: true, proxyProtection: true, promo: null, currency: 'EUR' }) });
  });

  it('ignores a pid of the URL that is not among the three offered', async () => {
    const { actor } = startCheckout({ query: { pid: '4' } });
    await settled(actor);
    expect(actor.getSnapshot().context.selectedPid).toBe(1);
  });

  it('checks a pre-filled promo code on arrival', async () => {
    const { actor } = startCheckout({ query: { promocode: 'HALFYEAR20', pid: '2' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: 'HALFYEAR20', currency: 'EUR' }) });
  });

  it('shows an invalid pre-filled e-mail with its message key', async () => {
    const { actor } = startCheckout({ query: { email: 'nope' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'invalid' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
  });

  it('prices in GBP for visitors from GB', async () => {
    const { actor } = startCheckout({}, { country: 'GB' });
    await settled(actor);
    expect(actor.getSnapshot().context.quote).toMatchObject({ currency: 'GBP', total: checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: null, currency: 'GBP' }).total });
  });

  it.each([
    ['an empty catalogue', []],
    ['a failed catalogue', new Error('Bad gateway')],
  ])('is not found with %s', async (_name, products) => {
    const { actor } = startCheckout({}, { products });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('notFound');
  });
});

describe('checkout machine: a preloaded first screen (server-rendered page)', () => {
  // The test's own catalogue: two plans in EUR and GBP, one with the extra connection, and two gateways.
  const plans: CheckoutProduct[] = [
    { pid: 7, name: 'Plan Seven', description: '', billingcycle: 'Monthly', pricing: { EUR: { monthly: 12 }, GBP: { monthly: 10 } }, configoptions: [{ id: 2, name: 'Extra', pricing: { EUR: { monthly: 3 }, GBP: { monthly: 2 } } }] },
    { pid: 9, name: 'Plan Nine', description: '', billingcycle: 'Monthly', pricing: { EUR: { monthly: 30 }, GBP: { monthly: 25 } }, configoptions: [] },
  ];
  const gateways: CheckoutGateway[] = [
    { module: 'eurpay', displayname: 'Euro only', type: 'CreditCard', currencies: ['EUR'] },
    { module: 'anypay', displayname: 'Any', type: 'CreditCard' },
  ];
  const nothingLoads = {
    actors: {
      loadProducts: fromPromise<CheckoutProduct[]>(() => Promise.reject(new Error('loadProducts called'))),
      loadGateways: fromPromise<{ gateways: CheckoutGateway[]; defaultGateway: string }>(() => Promise.reject(new Error('loadGateways called'))),
      loadCurrency: fromPromise<{ country: string }>(() => Promise.reject(new Error('loadCurrency called'))),
      checkFraud: fromPromise<{ valid: boolean }>(() => Promise.reject(new Error('checkFraud called'))),
    },
  };

  it('starts in ready with the given plans, the URL pid and add-on, and no load started', () => {
    const logic = checkoutMachine.provide(nothingLoads);
    const actor = createActor(logic, { input: { query: { pid: '9', extraconnect: '1' }, preloaded: { products: plans, gateways, defaultGateway: 'eurpay', country: 'FR', fraudCheck: false } } });
    // The very first snapshot, before start: what the server renders and the browser hydrates.
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ ready: { plan: 'selected', promo: 'idle', addons: { extraConnection: 'on' } } })).toBe(true);
    expect(snapshot.context.products.map((plan) => plan.name)).toEqual(['Plan Seven', 'Plan Nine']);
    expect(snapshot.context.selectedPid).toBe(9);
    expect(snapshot.context.selectedGateway).toBe('eurpay');
    expect(snapshot.context.quote).toMatchObject({ currency: 'EUR', price: 30, total: 30 });
    actor.start();
    expect(actor.getSnapshot().children).toEqual({});
    actor.stop();
  });

  it('prices a preloaded GB visitor in GBP and skips the gateway that does not take it', () => {
    const actor = createActor(checkoutMachine.provide(nothingLoads), { input: { preloaded: { products: plans, gateways, defaultGateway: 'eurpay', country: 'GB', fraudCheck: true } } });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(context.quote).toMatchObject({ currency: 'GBP', total: 10 });
    expect(context.selectedGateway).toBe('anypay');
    expect(context.fraudCheck).toBe(true);
  });

  it('checks the saved order first when one is saved, as after a load', () => {
    const actor = createActor(checkoutMachine.provide(nothingLoads), { input: { savedOrder: { orderid: 5, invoiceid: 6 }, preloaded: { products: plans, gateways, defaultGateway: 'anypay', country: 'MA', fraudCheck: false } } });
    expect(actor.getSnapshot().value).toBe('checkingSavedOrder');
  });
});

describe('checkout machine: promo rules (spec section 5)', () => {
  const withPromo = async (fakes: Fakes, pid?: string) => {
    const { actor } = startCheckout({ query: pid ? { pid } : {} }, fakes);
    await settled(actor);
    actor.send({ type: 'promo.change', code: 'HALFYEAR20' });
    actor.send({ type: 'promo.apply' });
    await settled(actor);
    return actor;
  };

  it("refuses a code that does not list the plan: 'This Coupon is not available for this product.'", async () => {
    const actor = await withPromo({}, '3');
    expect(actor.getSnapshot().matches({ ready: { promo: 'rejected' } })).toBe(true);
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.notApplicable' });
  });

  it('refuses a lookup with more than one result', async () => {
    const actor = await withPromo({ lookup: { ...modelPromotionLookup, totalresults: 2 } });
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.notApplicable' });
  });

  it("shows the server's message when the lookup fails", async () => {
    const actor = await withPromo({ lookup: new Error('Promotion code not found.') });
    expect(actor.getSnapshot().context.promoError).toEqual({ serverMessage: 'Promotion code not found.' });
  });

  it('refuses an expired code', async () => {
    const expired = { ...modelPromotionLookup, promotions: [{ ...modelPromotionLookup.promotions[0]!, expirationdate: '2026-01-14' }] };
    const actor = await withPromo({ lookup: expired });
    expect(actor.getSnapshot().context.promoError).toEqual({ key: 'promo.expired' });
  });

  it('re-checks the applied code against a newly selected plan', async () => {
    const fact = (pid: number, promo: string | null) => checkoutFact({ pid, extraConnection: false, proxyProtection: false, promo, currency: 'EUR' });
    const actor = await withPromo({}, '2');
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: fact(2, 'HALFYEAR20').discount, total: fact(2, 'HALFYEAR20').total });
    actor.send({ type: 'plan.select', pid: 3 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'rejected' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: 0, total: fact(3, null).total });
    actor.send({ type: 'plan.select', pid: 2 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toMatchObject({ discount: fact(2, 'HALFYEAR20').discount, total: fact(2, 'HALFYEAR20').total });
  });

  it('keeps a code that lists every plan across a plan change (WELCOME10)', async () => {
    const actor = await withPromo({ lookup: seededPromotionLookup('WELCOME10') });
    actor.send({ type: 'plan.select', pid: 3 });
    expect(actor.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(actor.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...checkoutFact({ pid: 3, extraConnection: false, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' }) });
  });

  // SAVE5, 5 EUR off, as getPromotion answers it: the server converted the amount into GBP at the store's rate.
  const fixedAmount: PromotionLookup = seededPromotionLookup('SAVE5');
  const save5 = (currency: 'EUR' | 'GBP') => checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: 'SAVE5', currency });

  it('takes a Fixed Amount off in the currency shown: the amount the server converted, never the EUR value', async () => {
    const eur = await withPromo({ lookup: fixedAmount });
    expect(eur.getSnapshot().context.quote).toEqual({ currency: 'EUR', ...save5('EUR') });
    const gbp = await withPromo({ lookup: fixedAmount, country: 'GB' });
    expect(gbp.getSnapshot().matches({ ready: { promo: 'applied' } })).toBe(true);
    expect(gbp.getSnapshot().context.quote).toEqual({ currency: 'GBP', ...save5('GBP') });
  });

  it('orders with the total it shows, Fixed Amount converted', async () => {
    const { actor, createOrder } = startCheckout({ query: { promocode: 'SAVE5', email: 'ann@example.com' } }, { lookup: fixedAmount, country: 'GB' });
    await settled(actor);
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder).toHaveBeenCalledWith(expect.objectContaining({ pid: 1, promocode: 'SAVE5', amount: save5('GBP').total, currency: 'GBP' }));
  });
});
