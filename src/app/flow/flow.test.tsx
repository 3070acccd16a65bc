import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { serviceMachine } from '../../../machines/service.machine';
import { serviceModelProduct } from '../../../scripts/statecharts/models/service.model';
import type { FlowBatch } from '../../domain/flow-traffic';
import { settled, startCheckout } from '../../../tests/support/checkout-machine';
import { createFlowCollector, flowReportAllowed } from './collector';
import { startFlowSender } from './sender';

/** A checkout with real machines and the collector attached, and every batch the sender would beacon. */
function reportedCheckout() {
  const collector = createFlowCollector();
  const { actor } = startCheckout({}, {}, collector.inspect);
  const sent: string[] = [];
  const sender = startFlowSender(collector, {
    locale: () => 'de-de',
    gateway: () => undefined,
    send: (body) => {
      void body.text().then((text) => sent.push(text));
      return true;
    },
  });
  const batches = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    return sent.map((text) => JSON.parse(text) as FlowBatch);
  };
  return { collector, actor, sender, sent, batches };
}

describe('the flow reporter', () => {
  it("reports a checkout's start as the step entering checkout and checkout.loading, with no transition", () => {
    const { collector } = reportedCheckout();
    const start = collector.steps[0]!;
    expect(start.machine).toBe('checkout');
    expect(start.transitions).toEqual([]);
    expect(start.entered.slice(0, 2)).toEqual(['checkout', 'checkout.loading']);
    expect(start.exited).toEqual([]);
  });

  it('reports a plan choice as the transition the plan region takes on plan.select, guarded by isOfferedPlan', async () => {
    const { actor, sender, batches } = reportedCheckout();
    await settled(actor);
    // The model catalogue's second plan (pid 2); the first is selected at the start.
    actor.send({ type: 'plan.select', pid: 2 });
    sender.flush(true);
    const steps = (await batches()).flatMap((batch) => batch.steps);
    expect(steps).toContainEqual({ machine: 'checkout', transitions: [{ source: 'checkout.ready.plan.selected', event: 'plan.select', targets: [], guard: 'isOfferedPlan' }], entered: [], exited: [] });
  });

  it('lists each state the loaded checkout entered once, the form and its regions among them', async () => {
    const { actor, collector } = reportedCheckout();
    await settled(actor);
    const loaded = collector.steps.find((step) => step.transitions.some((transition) => transition.source === 'checkout.loading' && transition.targets.includes('checkout.ready')))!;
    expect(loaded.exited).toEqual(['checkout.loading']);
    expect(loaded.entered.filter((id) => id === 'checkout.ready')).toHaveLength(1);
    expect(new Set(loaded.entered).size).toBe(loaded.entered.length);
    // The regions' initial states (machines/checkout.form.ts): the e-mail decides before it settles on empty.
    expect(loaded.entered).toEqual(expect.arrayContaining(['checkout.ready.plan.selected', 'checkout.ready.email.deciding']));
  });

  it('sends the locale and, when the page is left, where the checkout ended', async () => {
    const { actor, sender, batches } = reportedCheckout();
    await settled(actor);
    sender.flush(true);
    const [batch] = await batches();
    expect(batch!.locale).toBe('de-de');
    expect(batch!.gateway).toBeUndefined();
    const ended = batch!.ended.find((entry) => entry.machine === 'checkout');
    expect(ended?.states).toContain('checkout.ready.email.empty');
    expect(ended?.states).toContain('checkout.ready.plan.selected');
  });

  it('gives INP to the states active when the interaction started, the worst per state, and LCP to the states the page settled in', async () => {
    const { actor, sender, batches } = reportedCheckout();
    await settled(actor);
    const beforeChoice = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    actor.send({ type: 'email.change', email: 'a@b.example' });
    const interaction = (startTime: number) => [{ startTime } as PerformanceEntry];
    sender.measured({ name: 'INP', value: 180, entries: interaction(beforeChoice) });
    sender.measured({ name: 'INP', value: 90, entries: interaction(beforeChoice) });
    sender.measured({ name: 'INP', value: 240, entries: interaction(performance.now()) });
    sender.measured({ name: 'LCP', value: 640, entries: [] });
    sender.flush(false);
    const vitals = (await batches()).flatMap((batch) => batch.vitals);
    // Before the e-mail was typed the e-mail region was empty (machines/checkout.form.ts), after it valid.
    expect(vitals).toContainEqual({ machine: 'checkout', state: 'checkout.ready.email.empty', metric: 'INP', value: 180 });
    expect(vitals).toContainEqual({ machine: 'checkout', state: 'checkout.ready.email.valid', metric: 'INP', value: 240 });
    expect(vitals).toContainEqual({ machine: 'checkout', state: 'checkout.ready.plan.selected', metric: 'INP', value: 240 });
    // Started without the server's data, the checkout waits in loading (machines/checkout.machine.ts): the state its page showed first.
    expect(vitals.filter((vital) => vital.metric === 'LCP' && vital.machine === 'checkout')).toEqual([{ machine: 'checkout', state: 'checkout.loading', metric: 'LCP', value: 640 }]);
  });

  it("reports an order placed as placeOrder's step into its final state toPayment, and then leaves placeOrder out of where the visit ended", async () => {
    const { actor, collector, sender, batches } = reportedCheckout();
    await settled(actor);
    actor.send({ type: 'email.change', email: 'a@b.example' });
    actor.send({ type: 'order.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('redirecting')).toBe(true));
    sender.flush(true);
    const sent = await batches();
    const placeOrderSteps = sent.flatMap((batch) => batch.steps).filter((step) => step.machine === 'placeOrder');
    expect(placeOrderSteps[0]).toMatchObject({ transitions: [], entered: expect.arrayContaining(['placeOrder']) });
    // machines/place-order.machine.ts: toPayment is final, entered once the order is created with a payment link.
    expect(placeOrderSteps.some((step) => step.entered.includes('placeOrder.toPayment'))).toBe(true);
    expect(sent.flatMap((batch) => batch.ended).map((entry) => entry.machine)).not.toContain('placeOrder');
    expect(collector.started.map((started) => started.machine)).toEqual(['checkout', 'placeOrder']);
  });

  it('counts an actor only once it starts: one React created in a render it discarded reports nothing', () => {
    const collector = createFlowCollector();
    const painted = createActor(serviceMachine, { input: { serviceid: 301, product: serviceModelProduct }, inspect: collector.inspect });
    // Created, never started: its initial eventless transition (loading → ready) was taken, and is not reported.
    expect(collector.steps).toEqual([]);
    expect(collector.started).toEqual([]);
    painted.start();
    expect(collector.started.map((actor) => actor.machine)).toEqual(['service']);
    expect(collector.steps.map((step) => step.transitions.map((transition) => `${transition.source} → ${transition.targets.join()}`))).toEqual([[], ['service.loading → service.ready']]);
    painted.stop();
  });

  it('no longer counts a stopped actor among those where the visit ended', async () => {
    const { actor, collector, sender, batches } = reportedCheckout();
    await settled(actor);
    expect([...collector.live].map((live) => live.machine)).toEqual(['checkout']);
    actor.stop();
    sender.flush(true);
    expect((await batches()).flatMap((batch) => batch.ended)).toEqual([]);
  });

  it('never sends an e-mail typed into the form', async () => {
    const { actor, sender, sent, batches } = reportedCheckout();
    await settled(actor);
    actor.send({ type: 'email.change', email: 'jo.shopper@mailbox.example' });
    actor.send({ type: 'email.change', email: 'jo.shopper@mailbox.example.org' });
    sender.flush(true);
    const steps = (await batches()).flatMap((batch) => batch.steps);
    expect(steps.some((step) => step.transitions.some((transition) => transition.event === 'email.change'))).toBe(true);
    for (const text of sent) {
      expect(text).not.toContain('jo.shopper');
      expect(text).not.toContain('mailbox');
    }
  });

  it('is not loaded when the browser asks for Global Privacy Control or Do Not Track, or the server said no', () => {
    expect(flowReportAllowed(true, {})).toBe(true);
    expect(flowReportAllowed(true, { globalPrivacyControl: false, doNotTrack: '0' })).toBe(true);
    expect(flowReportAllowed(true, { globalPrivacyControl: true })).toBe(false);
    expect(flowReportAllowed(true, { doNotTrack: '1' })).toBe(false);
    expect(flowReportAllowed(false, {})).toBe(false);
    // A page without the server's word (no server render) reports nothing.
    expect(flowReportAllowed(undefined, {})).toBe(false);
  });
});
