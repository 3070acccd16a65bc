/**
 * The reseller's journeys (tests/facts/flows-account.ts) through the real app in happy-dom: on /resellers the
 * visitor answers "already a reseller?", picks a pack, types the account and pays; on /resellers/waiting the
 * page resumes the reseller order this browser saved and time passes on fake timers. Each journey must end as
 * its fact says — the screen, the total shown, every sign-in and order that reached the shop and its amount.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { PANEL_ACTIVATION_PID, SEEDED_RESELLER_PRODUCTS } from '../facts/catalogue';
import { WAITING_ORDER } from '../facts/flows';
import { RESELLER_FLOWS, RESELLER_WAITING_FLOWS, type ResellerFlow, type ResellerWaitingFlow } from '../facts/flows-account';
import { resellerFact } from '../facts/prices';
import { advance, settle } from '../model/settle';
import { flowShop } from './flow-shop';
import { TEXTS } from './screens';

const en = TEXTS['en-en'];

const plans = () => screen.getByRole('group', { name: en.reseller.plans });
const packRadio = (name: string) => within(plans()).getByRole('radio', { name: new RegExp(`^${name} `) }) as HTMLInputElement;
const totalShown = () => screen.getByText(en.reseller.total).parentElement!.querySelector('output')!.textContent;
const alertTexts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent ?? '');

/** The visitor's part: yes/no, a pack, the account (a new reseller confirms the password). */
async function fillForm(form: ResellerFlow['form'], user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await screen.findByRole('group', { name: en.reseller.plans });
  const existing = within(screen.getByRole('group', { name: en.reseller.existing }));
  await user.click(existing.getByRole('radio', { name: form.existing ? en.reseller.yes : en.reseller.no }));
  if (form.pack) await user.click(packRadio(form.pack));
  await user.type(screen.getByRole('textbox', { name: en.reseller.email }), form.email);
  await user.type(screen.getByLabelText(en.reseller.password), form.password);
  if (form.confirmation !== undefined) await user.type(screen.getByLabelText(en.reseller.confirmPassword), form.confirmation);
}

async function seeEnd(flow: ResellerFlow, rendered: RenderedApp): Promise<void> {
  const { end } = flow;
  if (end.screen === 'payment page') {
    await waitFor(() => expect(rendered.left, 'the payment page opened').toEqual([end.link]));
    return;
  }
  await waitFor(() => expect(alertTexts()).toContain(end.says));
  expect(screen.getByRole('button', { name: en.reseller.submit })).toBeTruthy();
}

describe('reseller order journeys (tests/facts/flows-account.ts)', () => {
  it("asks the price table for each order's amount (the facts agree with each other)", () => {
    for (const flow of Object.values(RESELLER_FLOWS) as ResellerFlow[]) {
      for (const order of flow.orders) {
        const [pack] = order.pid;
        expect(order.amount, flow.journey).toBe(resellerFact({ pid: pack!, newReseller: order.pid.includes(PANEL_ACTIVATION_PID), currency: order.currency }));
      }
    }
  });

  it.each(Object.values(RESELLER_FLOWS).map((flow) => [flow.journey, flow as ResellerFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: { kind: 'visitor' }, country: flow.country });
    const user = userEvent.setup();
    const rendered = await renderApp({ url: '/checkout/resellers', fetch: shop.fetch });

    await fillForm(flow.form, user);
    // The packs on offer are the seeded ones but the panel activation, which a new reseller's order adds.
    expect(within(plans()).getAllByRole('radio')).toHaveLength(SEEDED_RESELLER_PRODUCTS.length - 1);
    expect(packRadio(flow.shows.pack).checked, `${flow.shows.pack} checked`).toBe(true);
    expect(totalShown()).toBe(flow.shows.total);
    if (flow.shows.note === null) expect(screen.queryByText(/reseller panel activated/)).toBeNull();
    else expect(screen.getByText(flow.shows.note)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: en.reseller.submit }));
    await seeEnd(flow, rendered);

    expect(shop.resellerSignIns, 'the sign-ins and sign-ups that reached the shop').toEqual(flow.signIns);
    expect(shop.resellerOrders, 'the orders that reached the shop').toEqual(flow.orders);
    expect(rendered.left, 'the payment pages opened').toEqual(flow.end.screen === 'payment page' ? [flow.end.link] : []);
    expect(shop.violations).toEqual([]);
  });
});

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY_MS = 86_400_000;

/** The reseller order the reseller page saved before leaving for the payment page. */
const savedResellerPayment = {
  flow: 'reseller',
  order: { orderid: WAITING_ORDER.orderid, invoiceid: WAITING_ORDER.invoiceid, serviceid: WAITING_ORDER.serviceid, fraud: false },
  link: WAITING_ORDER.link,
  gateway: WAITING_ORDER.gateway,
  lastDate: START + DAY_MS,
  duration: DAY_MS,
};

async function seeWaitingEnd(flow: ResellerWaitingFlow, rendered: RenderedApp): Promise<void> {
  const { end } = flow;
  const pathname = () => rendered.app.router.state.location.pathname;
  if (end.screen === 'reseller page') {
    await settle(() => screen.getByRole('heading', { level: 1, name: en.reseller.title }), 'the reseller page');
    expect(pathname()).toBe(end.path);
    return;
  }
  await settle(() => screen.getByRole('heading', { level: 1, name: en.reseller.successTitle }), 'the reseller success page');
  expect(pathname()).toBe(end.path);
  await settle(() => screen.getByText(end.says), end.says);
  expect(screen.getByText(end.service)).toBeTruthy();
  const panel = within(screen.getByRole('region', { name: en.player.reseller.title }));
  expect(panel.getByText(end.panelLogin)).toBeTruthy();
  expect(panel.getByText(end.credits)).toBeTruthy();
}

describe('reseller waiting journeys (tests/facts/flows-account.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => vi.useRealTimers());

  it.each(Object.values(RESELLER_WAITING_FLOWS).map((flow) => [flow.journey, flow as ResellerWaitingFlow] as const))('%s', async (_journey, flow) => {
    let elapsedMs = 0;
    const shop = flowShop({ session: flow.session, country: 'NL', statuses: flow.statuses, elapsed: () => elapsedMs / 1000 });
    const rendered = await renderApp({ url: '/checkout/resellers/waiting', fetch: shop.fetch, now: () => START + elapsedMs, cookies: { checkout: JSON.stringify({ payment: savedResellerPayment }) } });
    await settle(() => shop.statusReads.length > 0, 'the first status read');

    while (elapsedMs < flow.watch * 1000) {
      elapsedMs += 1000;
      await advance(1000);
    }
    await seeWaitingEnd(flow, rendered);

    expect(shop.statusReads, 'the seconds at which the status was read').toEqual(flow.readsAt);
    expect(shop.resellerOrders).toEqual([]);
    expect(rendered.left).toEqual([]);
    expect(shop.violations).toEqual([]);
  });
});
