/** The checkout machine placing an order: from the form, from a link (spec section 5), resuming or cancelling an unpaid order. */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { entryQuery, type EntryQuery } from '../src/domain/entry-query';
import { seededPromotionLookup } from '../tests/facts/catalogue';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import { checkoutFact } from '../tests/facts/prices';
import { modelGuest, modelProducts, modelPromotionLookup } from '../scripts/statecharts/models/checkout.model';
import { placeOrderModelFlaggedOrder as modelFraudOrder, placeOrderModelOrder as modelOrder, priceChangedError } from '../scripts/statecharts/models/place-order.model';
import type { CreatedOrder } from './place-order.machine';
import type { CheckoutInput, SavedOrderStatus } from './checkout.machine';
import { placeOrderIn, settled, startCheckout, type Fakes } from '../tests/support/checkout-machine';

describe('checkout machine: ordering', () => {
  const readyGuest = async (fakes: Fakes = {}) => {
    const started = startCheckout({ query: { aff_id: 'partner-1' } }, fakes);
    await settled(started.actor);
    started.actor.send({ type: 'extraConnection.toggle' });
    started.actor.send({ type: 'email.change', email: 'ann@example.com' });
    return started;
  };

  it('identifies the guest, creates the order with its amount and key, stores it and redirects', async () => {
    const { actor, createOrder, identifyGuest, redirectToPayment, clearClientProduct } = await readyGuest();
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(identifyGuest).toHaveBeenCalledTimes(1);
    expect(createOrder).toHaveBeenCalledWith({
      pid: 1,
      paymentmethod: 'sandbox',
      affid: 'partner-1',
      amount: checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: null, currency: 'EUR' }).total,
      currency: 'EUR',
      configoptions: { '2': 1, '4': 0 },
      remind: true,
      email: 'ann@example.com',
      userid: modelGuest.userid,
      idempotencyKey: 'key-1',
    });
    const { context, value } = actor.getSnapshot();
    expect(value).toBe('redirecting');
    expect(context.order).toEqual({ orderid: 501, invoiceid: 601, serviceid: 701, fraud: false });
    expect(context.payment).toEqual({ gateway: 'sandbox', link: PAYMENT_LINKS.checkout, deadline: '2026-01-16T12:00:00.000Z' });
    expect(clearClientProduct).toHaveBeenCalledTimes(1);
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
    expect(actor.getSnapshot().output).toEqual({ order: context.order, payment: context.payment });
  });

  it('sends remind: false once "Remind me if I don\'t finish" is unticked, and true again once ticked back', async () => {
    const unticked = await readyGuest();
    expect(unticked.actor.getSnapshot().context.remind).toBe(true);
    unticked.actor.send({ type: 'remind.toggle' });
    expect(unticked.actor.getSnapshot().matches({ ready: { reminder: 'off' } })).toBe(true);
    unticked.actor.send({ type: 'order.submit' });
    await waitFor(unticked.actor, (snapshot) => snapshot.status === 'done');
    expect(unticked.createOrder.mock.calls[0]![0]).toMatchObject({ remind: false });

    const ticked = await readyGuest();
    ticked.actor.send({ type: 'remind.toggle' });
    ticked.actor.send({ type: 'remind.toggle' });
    ticked.actor.send({ type: 'order.submit' });
    await waitFor(ticked.actor, (snapshot) => snapshot.status === 'done');
    expect(ticked.createOrder.mock.calls[0]![0]).toMatchObject({ remind: true });
  });

  it('creates one order when submit is pressed again while the first is in flight', async () => {
    let answer: (order: CreatedOrder) => void = () => {};
    const { actor, createOrder } = await readyGuest({ createOrder: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'order.submit' });
    await placeOrderIn(actor, 'creatingOrder');
    actor.send({ type: 'order.submit' });
    actor.send({ type: 'order.submit' });
    answer(modelOrder);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder).toHaveBeenCalledTimes(1);
  });

  it("shows the server's message after a refusal, and a new attempt uses a new idempotency key", async () => {
    const refusals = [new Error('api.unknown_gateway')];
    const { actor, createOrder } = await readyGuest({ createOrder: async () => { const refusal = refusals.shift(); if (refusal) throw refusal; return modelOrder; } });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.submitError).toBe('api.unknown_gateway');
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder.mock.calls.map(([request]) => request.idempotencyKey)).toEqual(['key-1', 'key-2']);
  });

  it("a price change confirmed orders the server's total; a refused one goes back to the form without a message", async () => {
    const confirmed = await readyGuest({ createOrder: vi.fn().mockRejectedValueOnce(priceChangedError()).mockResolvedValue(modelOrder) });
    confirmed.actor.send({ type: 'order.submit' });
    await placeOrderIn(confirmed.actor, 'priceChanged');
    confirmed.actor.getSnapshot().children.placeOrder!.send({ type: 'price.confirm' });
    await waitFor(confirmed.actor, (snapshot) => snapshot.status === 'done');
    // First the table's total for the form (1 Month + extra connection, EUR), then the server's 14.50 (priceChangedError).
    const formTotal = checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: null, currency: 'EUR' }).total;
    expect(confirmed.createOrder.mock.calls.map(([request]) => request.amount)).toEqual([formTotal, 14.5]);

    const refused = await readyGuest({ createOrder: async () => { throw priceChangedError(); } });
    refused.actor.send({ type: 'order.submit' });
    await placeOrderIn(refused.actor, 'priceChanged');
    refused.actor.getSnapshot().children.placeOrder!.send({ type: 'price.cancel' });
    await waitFor(refused.actor, (snapshot) => snapshot.matches('ready'));
    expect(refused.actor.getSnapshot().context).toMatchObject({ submitError: null, user: modelGuest, quote: { total: formTotal } });
  });

  it('goes to the waiting step when the order comes back without a link (fraud)', async () => {
    const { actor, goToWaiting, redirectToPayment } = await readyGuest({ createOrder: async () => modelFraudOrder });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(goToWaiting).toHaveBeenCalledWith({ orderid: 502 });
    expect(redirectToPayment).not.toHaveBeenCalled();
  });

  it('does not identify a logged-in user again', async () => {
    const { actor, identifyGuest, createOrder } = startCheckout({ user: { userid: 42, email: 'client@example.com' } });
    await settled(actor);
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(identifyGuest).not.toHaveBeenCalled();
    expect(createOrder.mock.calls[0]![0]).toMatchObject({ userid: 42, email: 'client@example.com' });
  });

  it('ignores submit with an invalid e-mail', async () => {
    const { actor, createOrder } = startCheckout({});
    await settled(actor);
    actor.send({ type: 'email.change', email: 'ann@' });
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(createOrder).not.toHaveBeenCalled();
  });
});

describe('checkout machine: automatic order from URL parameters (spec section 5)', () => {
  const autoQuery: EntryQuery = { email: 'ann@example.com', pid: '2', auto_redirect: 'true', promocode: 'HALFYEAR20', proxyprotect: 'true' };

  it('orders the product of the URL with a usable promo and redirects', async () => {
    const { actor, createOrder, redirectToPayment } = startCheckout({ query: autoQuery }, { country: 'GB' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(createOrder.mock.calls[0]![0]).toEqual({
      pid: 2,
      paymentmethod: 'sandbox',
      promocode: 'HALFYEAR20',
      amount: checkoutFact({ pid: 2, extraConnection: false, proxyProtection: true, promo: 'HALFYEAR20', currency: 'GBP' }).total,
      currency: 'GBP',
      configoptions: { '2': 0, '4': 1 },
      // No form, nothing unticked: a deep link's order is reminded.
      remind: true,
      email: 'ann@example.com',
      userid: modelGuest.userid,
      idempotencyKey: 'key-1',
    });
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
  });

  it('stops on the form with the refusal when the promo is out of its dates, never ordering at full price (issue 16)', async () => {
    const notStarted = { ...modelPromotionLookup, promotions: [{ ...modelPromotionLookup.promotions[0]!, startdate: '2026-02-01' }] };
    const { actor, createOrder } = startCheckout({ query: autoQuery }, { lookup: notStarted });
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(createOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.autoOrderStop).toEqual({ reason: 'promo', error: { key: 'promo.notStarted' } });
  });

  it('stops on the form for the seeded EXPIRED15 with the expiry refusal', async () => {
    const { actor, createOrder } = startCheckout({ query: { ...autoQuery, pid: '1', promocode: 'EXPIRED15' } }, { lookup: seededPromotionLookup('EXPIRED15'), product: modelProducts[0]! });
    await settled(actor);
    expect(createOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.autoOrderStop).toEqual({ reason: 'promo', error: { key: 'promo.expired' } });
  });

  it.each<[string, CheckoutInput['query'], Fakes, unknown]>([
    ['the pid is not an id (dropped on entry)', entryQuery({ ...autoQuery, pid: 'abc' }), {}, { reason: 'plan' }],
    ['the e-mail is missing', { ...autoQuery, email: '' }, {}, { reason: 'email' }],
    ['the e-mail has the wrong shape', { ...autoQuery, email: 'ann@example' }, {}, { reason: 'email' }],
    ['the guest cannot be identified', autoQuery, { guest: new Error('Bad gateway') }, { reason: 'failed', error: 'Bad gateway' }],
    ['the product is not found', autoQuery, { product: null }, { reason: 'plan' }],
    ['the product has no positive price', autoQuery, { product: { ...modelProducts[1]!, pricing: { EUR: { semiannually: 0 } } } }, { reason: 'plan' }],
    ['the product lookup fails', autoQuery, { product: new Error('Bad gateway') }, { reason: 'failed', error: 'Bad gateway' }],
    ['the promo lookup fails', autoQuery, { lookup: new Error('Promotion code not found.') }, { reason: 'promo', error: { serverMessage: 'Promotion code not found.' } }],
    ['the order is refused', autoQuery, { createOrder: () => Promise.reject(new Error('api.unknown_gateway')) }, { reason: 'failed', error: 'api.unknown_gateway' }],
  ])('stops on the form with its reason when %s', async (_name, query, fakes, stop) => {
    const { actor, createOrder } = startCheckout({ query }, fakes);
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.autoOrderStop).toEqual(stop);
    if ((stop as { reason: string }).reason !== 'failed') expect(createOrder).not.toHaveBeenCalled();
  });

  it('shows the plain form, no reason, when auto_redirect is not "true"', async () => {
    const { actor } = startCheckout({ query: entryQuery({ ...autoQuery, auto_redirect: '1' }) });
    await settled(actor);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.autoOrderStop).toBeNull();
  });

  it('asks for the e-mail at once on the form an automatic order stopped for its missing e-mail', async () => {
    const { actor } = startCheckout({ query: { pid: '2' }, autoOrderStop: { reason: 'email' } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'required' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
    actor.send({ type: 'email.change', email: 'ann@example.com' });
    expect(actor.getSnapshot().matches({ ready: { email: 'valid' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBeNull();
  });
});

describe('checkout machine: an unpaid order of this browser (issue 16)', () => {
  const savedOrder = { orderid: 501, invoiceid: 601 };

  it('asks the server about the saved order before the form, and offers it while it is Pending', async () => {
    const { actor, checkSavedOrder, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    expect(checkSavedOrder).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrder).toEqual(savedOrder);
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });

  it.each(['Active', 'Cancelled'] as const)('shows no banner and forgets the saved payment of an order that is %s', async (status) => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status } });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(forgetSavedOrder).toHaveBeenCalledWith({ orderid: 501 });
  });

  it.each<[string, SavedOrderStatus | Error]>([
    ['under review (Fraud)', { orderid: 501, status: 'Fraud' }],
    ['not answered', new Error('Bad gateway')],
  ])('shows no banner and keeps the saved payment when the order is %s', async (_name, answer) => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: answer });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });

  it('asks nothing without a saved order', async () => {
    const { actor, checkSavedOrder } = startCheckout({});
    await settled(actor);
    expect(checkSavedOrder).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
  });

  it('continue opens the saved order’s payment', async () => {
    const { actor, resumeUnpaidOrder, createOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.continue' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(resumeUnpaidOrder).toHaveBeenCalledWith({ orderid: 501 });
    expect(createOrder).not.toHaveBeenCalled();
  });

  it('cancel cancels it on the server, the banner goes and the saved payment is forgotten; the form stays usable', async () => {
    const { actor, cancelUnpaidOrder, forgetSavedOrder, redirectToPayment } = startCheckout({ savedOrder, query: { email: 'ann@example.com' } }, { savedOrderStatus: { orderid: 501, status: 'Pending' } });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.cancel' });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'confirmingCancel' } })).toBe(true);
    actor.send({ type: 'unpaidOrder.keep' });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    actor.send({ type: 'unpaidOrder.cancel' });
    await settled(actor);
    // Asking cancels nothing: only the confirmation does.
    expect(cancelUnpaidOrder).not.toHaveBeenCalled();
    actor.send({ type: 'unpaidOrder.confirmCancel' });
    await settled(actor);
    expect(cancelUnpaidOrder.mock.calls[0]![0].input).toEqual({ orderid: 501 });
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'none' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrder).toBeNull();
    expect(forgetSavedOrder).toHaveBeenCalledWith({ orderid: 501 });
    actor.send({ type: 'order.submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(redirectToPayment).toHaveBeenCalledWith({ link: modelOrder.link });
  });

  it("keeps the banner with the server's message when the cancel is refused", async () => {
    const { actor, forgetSavedOrder } = startCheckout({ savedOrder }, { savedOrderStatus: { orderid: 501, status: 'Pending' }, cancel: new Error('api.payment_confirming') });
    await settled(actor);
    actor.send({ type: 'unpaidOrder.cancel' });
    actor.send({ type: 'unpaidOrder.confirmCancel' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { unpaidOrder: 'shown' } })).toBe(true);
    expect(actor.getSnapshot().context.unpaidOrderError).toBe('api.payment_confirming');
    expect(forgetSavedOrder).not.toHaveBeenCalled();
  });
});

describe('checkout machine: form details (issue 16)', () => {
  it("a guest's submit without an e-mail says 'Please enter a Valid Email.' (email.invalid) and orders nothing", async () => {
    const { actor, createOrder } = startCheckout({});
    await settled(actor);
    expect(actor.getSnapshot().matches({ ready: { email: 'empty' } })).toBe(true);
    actor.send({ type: 'order.submit' });
    expect(actor.getSnapshot().matches({ ready: { email: 'required' } })).toBe(true);
    expect(actor.getSnapshot().context.emailError).toBe('email.invalid');
    expect(createOrder).not.toHaveBeenCalled();
    actor.send({ type: 'email.change', email: 'ann@' });
    expect(actor.getSnapshot().matches({ ready: { email: 'invalid' } })).toBe(true);
  });

  it('an applied promo can be removed: the total goes back to the undiscounted one', async () => {
    const { actor } = startCheckout({ query: { pid: '2', promocode: 'HALFYEAR20' } });
    await settled(actor);
    expect(actor.getSnapshot().context.quote?.total).toBe(checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: 'HALFYEAR20', currency: 'EUR' }).total);
    actor.send({ type: 'promo.remove' });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches({ ready: { promo: 'idle' } })).toBe(true);
    expect(context.promotion).toBeNull();
    expect(context.promoCode).toBe('');
    expect(context.quote?.total).toBe(checkoutFact({ pid: 2, extraConnection: false, proxyProtection: false, promo: null, currency: 'EUR' }).total);
  });
});
