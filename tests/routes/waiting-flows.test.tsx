/**
 * The waiting step's journeys (tests/facts/flows.ts) through the real app in happy-dom: the page resumes
 * the order this browser saved, time passes on fake timers a second at a time, the shop answers each
 * status read as the fact says, and the page must end as the fact says — and read the status exactly then.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { WAITING_FLOWS, WAITING_ORDER, type WaitingFlow } from '../facts/flows';
import { advance, settle } from '../model/settle';
import { flowShop } from './flow-shop';
import { TEXTS } from './screens';

const en = TEXTS['en-en'];
const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY_MS = 86_400_000;

/** The payment the checkout saved before leaving for the payment page: the order, its link, a day to pay. */
const savedPayment = {
  flow: 'order',
  order: { orderid: WAITING_ORDER.orderid, invoiceid: WAITING_ORDER.invoiceid, serviceid: WAITING_ORDER.serviceid, fraud: false },
  link: WAITING_ORDER.link,
  gateway: WAITING_ORDER.gateway,
  lastDate: START + DAY_MS,
  duration: DAY_MS,
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => vi.useRealTimers());

/** The credentials as the success page lists them (term, then the value in its code block). */
function credentialsShown(): Record<string, string> {
  return Object.fromEntries(
    [...document.querySelectorAll('dt')].flatMap((term) => {
      const code = term.nextElementSibling?.querySelector('code');
      return code ? [[term.textContent ?? '', code.textContent ?? '']] : [];
    }),
  );
}

async function seeEnd(flow: WaitingFlow, rendered: RenderedApp): Promise<void> {
  const { end } = flow;
  const location = () => rendered.app.router.state.location;
  switch (end.screen) {
    case 'success':
      await settle(() => screen.getByRole('heading', { level: 1, name: en.success.title }), 'the success page');
      expect(location().pathname).toBe('/success');
      await settle(() => credentialsShown()[en.success.username] !== undefined, 'the credentials');
      expect(credentialsShown()).toMatchObject({ [en.success.username]: end.credentials.username, [en.success.password]: end.credentials.password, [en.success.host]: end.credentials.host });
      return;
    case 'waiting':
      await settle(() => screen.getByText(end.says), end.says);
      expect(screen.getByRole('button', { name: end.offers })).toBeTruthy();
      expect(location().pathname).toBe('/waiting');
      return;
    case 'home':
      await settle(() => screen.getByRole('heading', { level: 1, name: en.checkout.title }), 'the home page');
      expect(location().pathname).toBe('/');
      expect(screen.getByText(end.says).getAttribute('role')).toBe('status');
      return;
  }
}

describe('waiting journeys (tests/facts/flows.ts)', () => {
  it.each(Object.values(WAITING_FLOWS).map((flow) => [flow.journey, flow as WaitingFlow] as const))('%s', async (_journey, flow) => {
    let elapsedMs = 0;
    const shop = flowShop({ session: { kind: 'visitor' }, country: 'NL', statuses: flow.statuses, elapsed: () => elapsedMs / 1000 });
    const rendered = await renderApp({ url: '/checkout/waiting', fetch: shop.fetch, now: () => START + elapsedMs, cookies: { checkout: JSON.stringify({ payment: savedPayment }) } });
    await settle(() => shop.statusReads.length > 0, 'the first status read');

    // Time passes a second at a time while the shopper keeps the page open.
    while (elapsedMs < flow.watch * 1000) {
      elapsedMs += 1000;
      await advance(1000);
    }
    if (flow.cancels) {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(screen.getByRole('button', { name: en.waiting.cancel }));
      await user.click(within(screen.getByRole('region', { name: new RegExp(`#${WAITING_ORDER.orderid}`) })).getByRole('button', { name: en.receipt.confirmCancel }));
    }
    await seeEnd(flow, rendered);

    expect(shop.statusReads, 'the seconds at which the status was read').toEqual(flow.readsAt);
    expect(shop.cancelled, 'the orders cancelled').toEqual(flow.end.screen === 'home' ? [flow.end.cancelled] : []);
    expect(shop.orders).toEqual([]);
    expect(rendered.left).toEqual([]);
    expect(shop.violations).toEqual([]);
  });
});
