import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import {
  RENEWAL_REFUSALS,
  renewalModel,
  renewalModelDue,
  renewalModelInput,
  renewalModelInPounds,
  renewalModelLifetime,
  renewalModelNotDue,
  renewalModelPaid,
  renewalModelRepriced,
  renewalModelTerminated,
} from '../scripts/statecharts/models/renewal.model';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { PAYMENT_LINKS } from '../tests/facts/messages';
import {
  payableGateways,
  renewalGuards,
  renewalMachine,
  type CreateRenewalLinkInput,
  type CreateRenewalLinkOutput,
  type RenewalContext,
  type RenewalGateway,
  type ServiceRenewal,
} from './renewal.machine';

const { paths, error: pathsError } = generatePathsForTest(renewalModel);

describe('renewal machine: generated paths', () => {
  it('generates the expected number of paths', () => {
    expect(pathsError).toBeNull();
    expect(paths).toHaveLength(renewalModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(renewalModel, paths).transitionPairs).toEqual(renewalModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine', () => {
    const coverage = transitionCoverage(renewalModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    // Counted in the machine file: every on/onDone/onError entry and each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([13, 16]);
  });

  for (const path of paths) {
    it(formatScenario(renewalModel, path), () => {
      replayPath(renewalModel, path, (snapshot) => {
        const context = snapshot.context as RenewalContext;
        // Whatever happens, the gateway chosen for an open invoice is one that takes its currency (none takes GBP here).
        if (snapshot.matches('ready') && context.renewal?.invoice?.currency === 'EUR') expect(['sandbox_card', 'sandbox_crypto']).toContain(context.selectedGateway);
        if (snapshot.matches('lifetime')) expect(context.renewal).toEqual(renewalModelLifetime);
        if (snapshot.matches('closed')) expect(context.renewal?.status).toBe('Terminated');
        if (snapshot.matches('notDue')) expect(context.renewal?.invoice).toBeNull();
        if (snapshot.matches('signedOut')) expect(context.error).toBe('api.unauthenticated');
        if (snapshot.matches('failed')) expect(context.error).toBe('api.bad_gateway');
        if (snapshot.matches('redirecting')) {
          expect(context).toMatchObject({ paymentLink: PAYMENT_LINKS.renewal, duration: PAYMENT_DEADLINE_MS });
          expect(context.lastDate).toBe(Date.parse('2026-12-21T12:00:00.000Z'));
        }
      });
    });
  }
});

const context = (overrides: Partial<RenewalContext> = {}): RenewalContext => ({
  serviceid: 3001,
  renewal: renewalModelDue,
  gateways: renewalModelInput.gateways,
  defaultGateway: 'sandbox_card',
  selectedGateway: 'sandbox_card',
  paymentLink: null,
  lastDate: null,
  duration: null,
  error: null,
  ...overrides,
});

describe('renewal machine: guards', () => {
  it('isSignedOut is a 401 or a 403 refusal, nothing else', () => {
    expect(renewalGuards.isSignedOut(undefined, { error: RENEWAL_REFUSALS.unauthenticated })).toBe(true);
    expect(renewalGuards.isSignedOut(undefined, { error: { error: { code: 'forbidden', message: 'This belongs to another account.' } } })).toBe(true);
    expect(renewalGuards.isSignedOut(undefined, { error: { error: { code: 'not_found', message: 'This service does not exist.' } } })).toBe(false);
    expect(renewalGuards.isSignedOut(undefined, { error: RENEWAL_REFUSALS.badGateway })).toBe(false);
  });
  it('isLifetime is a One Time plan only', () => {
    expect(renewalGuards.isLifetime(undefined, { renewal: renewalModelLifetime })).toBe(true);
    expect(renewalGuards.isLifetime(undefined, { renewal: renewalModelDue })).toBe(false);
  });
  it('isClosed is a service the server says is not renewable', () => {
    expect(renewalGuards.isClosed(undefined, { renewal: renewalModelTerminated })).toBe(true);
    expect(renewalGuards.isClosed(undefined, { renewal: renewalModelDue })).toBe(false);
  });
  it('hasOpenInvoice is an Unpaid renewal invoice', () => {
    expect(renewalGuards.hasOpenInvoice(undefined, { renewal: renewalModelDue })).toBe(true);
    expect(renewalGuards.hasOpenInvoice(undefined, { renewal: renewalModelNotDue })).toBe(false);
    expect(renewalGuards.hasOpenInvoice(undefined, { renewal: { ...renewalModelDue, invoice: { ...renewalModelDue.invoice!, status: 'Paid' } } })).toBe(false);
  });
  it("isPayableGateway is a listed gateway taking the invoice's currency", () => {
    expect(renewalGuards.isPayableGateway({ context: context() }, { gateway: 'sandbox_crypto' })).toBe(true);
    expect(renewalGuards.isPayableGateway({ context: context() }, { gateway: 'paypal' })).toBe(false);
    expect(renewalGuards.isPayableGateway({ context: context({ renewal: renewalModelInPounds }) }, { gateway: 'sandbox_crypto' })).toBe(false);
  });
  it("canPay needs an open invoice and a chosen gateway taking its currency", () => {
    expect(renewalGuards.canPay({ context: context() })).toBe(true);
    expect(renewalGuards.canPay({ context: context({ renewal: renewalModelInPounds }) })).toBe(false);
    expect(renewalGuards.canPay({ context: context({ renewal: renewalModelNotDue }) })).toBe(false);
    expect(renewalGuards.canPay({ context: context({ selectedGateway: 'paypal' }) })).toBe(false);
  });
  it('invoicePaid and priceChanged read the 409 code, in either error shape', () => {
    expect(renewalGuards.invoicePaid(undefined, { error: RENEWAL_REFUSALS.invoicePaid })).toBe(true);
    expect(renewalGuards.invoicePaid(undefined, { error: RENEWAL_REFUSALS.priceChanged })).toBe(false);
    expect(renewalGuards.priceChanged(undefined, { error: { error: { code: 'price_changed', message: 'This invoice is for 14.99 EUR.' } } })).toBe(true);
    expect(renewalGuards.priceChanged(undefined, { error: RENEWAL_REFUSALS.badGateway })).toBe(false);
  });
  it("offers only the gateways that take the open invoice's currency", () => {
    const gbp: RenewalGateway = { module: 'sandbox_gbp', displayname: 'Card in pounds', type: 'CreditCard', currencies: ['GBP'] };
    const any: RenewalGateway = { module: 'sandbox_any', displayname: 'Any', type: 'CreditCard' };
    const gateways = [...renewalModelInput.gateways, gbp, any];
    expect(payableGateways({ gateways, renewal: renewalModelDue }).map((gateway) => gateway.module)).toEqual(['sandbox_card', 'sandbox_crypto', 'sandbox_any']);
    expect(payableGateways({ gateways, renewal: renewalModelInPounds }).map((gateway) => gateway.module)).toEqual(['sandbox_gbp', 'sandbox_any']);
    expect(payableGateways({ gateways, renewal: renewalModelNotDue })).toEqual([]);
  });
});

describe('renewal machine: with the app actors', () => {
  const link: CreateRenewalLinkOutput = { invoiceid: 2007, paymentmethod: 'sandbox_crypto', link: 'https://pay.example/crypto/2007', deadline: '2026-12-21T12:00:00.000Z' };
  const start = (loads: ServiceRenewal[], createPaymentLink: (input: CreateRenewalLinkInput) => Promise<CreateRenewalLinkOutput>, input = renewalModelInput) => {
    const asked: CreateRenewalLinkInput[] = [];
    const redirected: string[] = [];
    let loaded = 0;
    const machine = renewalMachine.provide({
      actors: {
        loadRenewal: fromPromise(async () => loads[Math.min(loaded++, loads.length - 1)]!),
        createPaymentLink: fromPromise<CreateRenewalLinkOutput, CreateRenewalLinkInput>(({ input: sent }) => {
          asked.push(sent);
          return createPaymentLink(sent);
        }),
      },
      actions: { redirectToPayment: (_, params) => redirected.push(params.link) },
    });
    const actor = createActor(machine, { input });
    actor.start();
    return { actor, asked, redirected, loads: () => loaded };
  };

  it("asks one link for the invoice's id, amount and currency on the chosen gateway, then redirects", async () => {
    const { actor, asked, redirected } = start([renewalModelDue], async () => link);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'gateway.select', gateway: 'sandbox_crypto' });
    actor.send({ type: 'renewal.pay' });
    actor.send({ type: 'renewal.pay' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(asked).toEqual([{ invoiceid: 2007, paymentmethod: 'sandbox_crypto', amount: 12.99, currency: 'EUR', gatewayType: 'Bitcoin' }]);
    expect(redirected).toEqual([link.link]);
    expect(actor.getSnapshot().output).toEqual({
      order: { orderid: null, invoiceid: 2007, serviceid: 3001, fraud: false },
      paymentLink: link.link,
      lastDate: Date.parse(link.deadline),
      duration: PAYMENT_DEADLINE_MS,
      selectedGateway: 'sandbox_crypto',
    });
  });

  it('starts on the first gateway taking the invoice currency when the default does not take it', async () => {
    const gbp: RenewalGateway = { module: 'sandbox_gbp', displayname: 'Card in pounds', type: 'CreditCard', currencies: ['GBP'] };
    const { actor } = start([renewalModelDue], async () => link, { ...renewalModelInput, gateways: [gbp, ...renewalModelInput.gateways], defaultGateway: 'sandbox_gbp' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(actor.getSnapshot().context.selectedGateway).toBe('sandbox_card');
    actor.stop();
  });

  it('reloads on 409 price_changed and pays the new amount with the chosen gateway kept', async () => {
    const { actor, asked, loads } = start([renewalModelDue, renewalModelRepriced], async (sent) => {
      if (sent.amount === 12.99) throw RENEWAL_REFUSALS.priceChanged;
      return link;
    });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'gateway.select', gateway: 'sandbox_crypto' });
    actor.send({ type: 'renewal.pay' });
    await vi.waitFor(() => expect(loads()).toBe(2));
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ error: 'api.price_changed', selectedGateway: 'sandbox_crypto', renewal: renewalModelRepriced });
    actor.send({ type: 'renewal.pay' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(asked.map((sent) => sent.amount)).toEqual([12.99, 14.99]);
  });

  it('reloads on 409 invoice_paid and says paid until the new due date', async () => {
    const { actor } = start([renewalModelDue, renewalModelPaid], async () => {
      throw RENEWAL_REFUSALS.invoicePaid;
    });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'renewal.pay' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('notDue'));
    expect(actor.getSnapshot().context).toMatchObject({ error: 'api.invoice_paid', renewal: { nextduedate: '2027-01-27', invoice: null } });
    actor.stop();
  });

  it('stays on the form with the message of any other refusal', async () => {
    const { actor, loads } = start([renewalModelDue], async () => {
      throw RENEWAL_REFUSALS.badGateway;
    });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'renewal.pay' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('api.bad_gateway'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(loads()).toBe(1);
    actor.stop();
  });
});
