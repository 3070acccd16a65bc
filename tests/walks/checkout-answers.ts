/**
 * What the checkout walk's server may answer each actor: its catalogue and odd ones (negative, missing or fractional
 * prices, unknown pids), gateway lists, promotion lookups, a guest identified or not, an order created or refused.
 */
import fc from 'fast-check';
import type { CheckoutGateway, CheckoutProduct, CheckoutUser, CreatedOrder, CreateOrderRequest } from '../../machines/checkout.machine';
import { ApiFailure } from '../../src/app/api';
import type { Promotion, PromotionLookup } from '../../src/domain/promotion';
import { TODAY, type CheckoutWorld } from './checkout-world';
import type { AnswerPlan, AnswerPlans } from './harness';

const option = (id: number, name: string, eur: Record<string, number>, gbp: Record<string, number>) => ({ id, name, pricing: { EUR: eur, GBP: gbp } });
const extra = option(2, 'Extra connection', { monthly: 4, semiannually: 20, annually: 36 }, { monthly: 3.5, semiannually: 17, annually: 31 });
const proxy = option(4, 'Proxy protection', { monthly: 2.5, semiannually: 13, annually: 24 }, { monthly: 2, semiannually: 11, annually: 20 });

/** The walk's catalogue: three plans offered, a fourth never (only the first three are shown). */
export const walkCatalogue: CheckoutProduct[] = [
  { pid: 1, name: '1 Month', description: 'one month', billingcycle: 'Monthly', pricing: { EUR: { monthly: 12.99 }, GBP: { monthly: 10.99 } }, configoptions: [extra, proxy] },
  { pid: 2, name: '6 Months', description: 'six months', billingcycle: 'Semi-Annually', pricing: { EUR: { semiannually: 59.99 }, GBP: { semiannually: 49.99 } }, configoptions: [extra, proxy] },
  { pid: 3, name: 'Lifetime', description: 'once', billingcycle: 'One Time', pricing: { EUR: { monthly: 199 }, GBP: { monthly: 169 } }, configoptions: [extra] },
  { pid: 4, name: 'Year', description: 'not offered', billingcycle: 'Annually', pricing: { EUR: { annually: 4.1 }, GBP: { annually: 3.5 } }, configoptions: [extra, proxy] },
];

/** Odd products a broken catalogue may hold: negative, missing or fractional prices, unknown pids. */
const oddProduct: fc.Arbitrary<CheckoutProduct> = fc
  .record({
    pid: fc.constantFrom(1, 2, 3, 4, 9),
    cycle: fc.constantFrom(['Monthly', 'monthly'], ['Semi-Annually', 'semiannually'], ['One Time', 'monthly'], ['Annually', 'annually']),
    eur: fc.constantFrom(-1, 0, 4.1, 19.99, 12.99, 250),
    gbp: fc.option(fc.constantFrom(-5, 0, 3.33, 10.99), { nil: undefined }),
    options: fc.subarray([extra, proxy]),
  })
  .map(({ pid, cycle, eur, gbp, options }) => ({
    pid,
    name: `Plan ${pid}`,
    description: 'odd',
    billingcycle: cycle[0]!,
    pricing: { EUR: { [cycle[1]!]: eur }, ...(gbp === undefined ? {} : { GBP: { [cycle[1]!]: gbp } }) },
    configoptions: options,
  }));

const gateway = (module: string, currencies?: string[]): CheckoutGateway => ({ module, displayname: module, type: 'CreditCard', ...(currencies ? { currencies } : {}) });
/** Gateway lists: some gateways take one currency only, some defaults are not in the list, some lists are empty. */
const gatewayAnswers = fc.constantFrom(
  { gateways: [gateway('sandbox'), gateway('coinbase')], defaultGateway: 'sandbox' },
  { gateways: [gateway('sandbox'), gateway('coinbase')], defaultGateway: 'coinbase' },
  { gateways: [gateway('gbp_only', ['GBP']), gateway('sandbox')], defaultGateway: 'gbp_only' },
  { gateways: [gateway('gbp_only', ['GBP']), gateway('sandbox')], defaultGateway: 'sandbox' },
  { gateways: [gateway('eur_only', ['EUR'])], defaultGateway: 'missing' },
  { gateways: [], defaultGateway: 'sandbox' },
);

const promotion = fc.record({
  code: fc.constant('CODE'),
  type: fc.constantFrom('Percentage' as const, 'Fixed Amount' as const),
  value: fc.constantFrom(10, 25, 100, 150),
  appliesto: fc.constantFrom('1,2', '3', '1, 2,3', '', '4'),
  startdate: fc.constantFrom('0000-00-00', '2026-01-15', '2026-02-01'),
  expirationdate: fc.constantFrom('0000-00-00', '2026-01-15', '2025-12-31'),
  maxuses: fc.constantFrom(0, 5),
  uses: fc.constantFrom(0, 5),
});

/** A promotion that applies to plans 1 to 3 today (Fixed Amounts of 1 to 15 EUR, percentages up to 150). */
const usablePromotion = fc.record({
  code: fc.constant('CODE'),
  type: fc.constantFrom('Percentage' as const, 'Fixed Amount' as const),
  value: fc.constantFrom(10, 15, 25, 100, 150),
  appliesto: fc.constantFrom('1,2,3', '1, 2, 3'),
  startdate: fc.constantFrom('0000-00-00', TODAY),
  expirationdate: fc.constantFrom('0000-00-00', TODAY),
  maxuses: fc.constantFrom(0, 5),
  uses: fc.constant(0),
});

/** A lookup answer: most often one usable promotion, else anything (other plans, dates, used up, none or two). */
const lookupAnswer = fc.oneof(
  { weight: 3, arbitrary: usablePromotion.map((promotion) => ({ promotion, count: 1 })) },
  { weight: 2, arbitrary: fc.record({ promotion, count: fc.constantFrom(1, 1, 0, 2) }) },
);

function lookupFor(code: string, { promotion, count }: { promotion: Omit<Promotion, 'amounts'>; count: number }): PromotionLookup {
  const withCode: Promotion = {
    ...promotion,
    code,
    amounts: promotion.type === 'Fixed Amount' ? { EUR: promotion.value / 10, GBP: promotion.value / 12 } : null,
  } as Promotion;
  return { totalresults: count, promotions: count === 0 ? [] : count === 1 ? [withCode] : [withCode, { ...withCode, code: `${code}2` }] };
}

const guestHandle = 'g_Walk0Guest0Handle00001';
const priceChanged = (amount: number, currency: string) => new ApiFailure('api.price_changed', 409, 'price_changed', { amount, currency: currency as 'EUR' });

type Plan = AnswerPlan<CheckoutWorld>;
const plan = (label: string, answer: Plan['answer']): Plan => ({ label, answer });
const fails = (error: ApiFailure) => plan(`fails (${error.code})`, () => ({ error }));
const network = () => new ApiFailure('api.network', 0, 'network');

/** What the server may answer each actor: mostly good answers, some hostile ones. */
export const checkoutAnswers: AnswerPlans<CheckoutWorld> = {
  loadProducts: fc.oneof(
    { weight: 5, arbitrary: fc.constant(walkCatalogue) },
    { weight: 2, arbitrary: fc.array(oddProduct, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  ).map((products) =>
    products === null
      ? fails(network())
      : plan(products === walkCatalogue ? 'the catalogue' : `odd catalogue ${JSON.stringify(products.map((p) => [p.pid, p.billingcycle, p.pricing]))}`, (_input, walk) => {
          // A pid listed twice is the first one (the form offers the first it finds).
          walk.world.catalogue = new Map(products.toReversed().map((product) => [product.pid, product]));
          walk.world.offeredPids = products.slice(0, 3).map((product) => product.pid);
          return { output: products };
        }),
  ),
  loadGateways: fc.oneof(
    {
      weight: 4,
      arbitrary: gatewayAnswers.map((answer) =>
        plan(`${answer.gateways.map((g) => `${g.module}${g.currencies ? `[${g.currencies.join('')}]` : ''}`).join(',') || '(none)'} (default ${answer.defaultGateway})`, (_input, walk) => {
          walk.world.gateways = [...answer.gateways];
          return { output: answer };
        }),
      ),
    },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  loadCurrency: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('GB', 'DE', 'US').map((country) => plan(`visitor is in ${country}`, () => ({ output: { country } }))) },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  checkFraud: fc.oneof(
    { weight: 4, arbitrary: fc.boolean().map((valid) => plan(valid ? 'passes' : 'flags the visitor', () => ({ output: { valid } }))) },
    { weight: 1, arbitrary: fc.constant(fails(network())) },
  ),
  lookupPromotion: fc.oneof(
    {
      weight: 4,
      arbitrary: lookupAnswer.map((answer) =>
        plan(`${answer.count} promotion(s): ${answer.promotion.type} ${answer.promotion.value} for "${answer.promotion.appliesto}" ${answer.promotion.startdate}..${answer.promotion.expirationdate} uses ${answer.promotion.uses}/${answer.promotion.maxuses}`, (input: { code: string }, walk) => {
          const lookup = lookupFor(input.code, answer);
          walk.world.lookups.set(input.code, lookup);
          return { output: lookup };
        }),
      ),
    },
    { weight: 1, arbitrary: fc.constant(fails(new ApiFailure('api.promotion_not_found', 422, 'promotion_not_found'))) },
  ),
  identifyGuest: fc.oneof(
    { weight: 4, arbitrary: fc.constant(plan('the guest is identified', () => ({ output: { userid: guestHandle, email: 'ann@example.com' } satisfies CheckoutUser }))) },
    { weight: 1, arbitrary: fc.constant(plan('nobody is identified', () => ({ output: { userid: 0, email: '' } satisfies CheckoutUser }))) },
    { weight: 1, arbitrary: fc.constant(fails(new ApiFailure('api.rate_limited', 429, 'rate_limited'))) },
  ),
  loadProduct: fc.constantFrom('asked', 'asked', 'other', 'none', 'negative', 'error').map((kind) =>
    kind === 'error'
      ? fails(network())
      : plan(kind === 'asked' ? 'the asked product' : kind === 'other' ? 'another product' : kind === 'none' ? 'no product' : 'the asked product at a negative price', (input: { pid: number }, walk) => {
          if (kind === 'none') return { output: null };
          const base = walkCatalogue.find((product) => product.pid === input.pid) ?? { ...walkCatalogue[0]!, pid: input.pid };
          const negative = { monthly: -5, semiannually: -5, annually: -5 };
          const product: CheckoutProduct =
            kind === 'other' ? { ...walkCatalogue[2]!, pid: input.pid === 3 ? 1 : 3 } : kind === 'negative' ? { ...base, pricing: { EUR: negative, GBP: negative } } : base;
          walk.world.linkedProduct = product;
          return { output: product };
        }),
  ),
  createOrder: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('link', 'fraud').map((kind) =>
        plan(kind === 'link' ? 'order created with a payment link' : 'fraud-flagged order created without link', (_input: CreateOrderRequest, walk) => {
          const orderid = 500 + walk.world.createdLinks.length;
          const link = kind === 'link' ? `https://pay.example/${orderid}` : null;
          if (link) walk.world.createdLinks.push(link);
          return { output: { orderid, invoiceid: orderid + 100, serviceids: [orderid + 200], fraud: kind === 'fraud', link } satisfies CreatedOrder };
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(1.5, -2, 1000).map((delta) =>
        plan(`409 price changed by ${delta}`, (input: CreateOrderRequest) => ({ error: priceChanged(Math.max(0, Math.round((input.amount + delta) * 100) / 100), input.currency) })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(new ApiFailure('api.bad_request', 400, 'bad_request'), network(), new ApiFailure('api.idempotency_key_reused', 409, 'idempotency_key_reused')).map(fails),
    },
  ),
};

