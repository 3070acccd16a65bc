/**
 * The checkout's journeys (tests/facts/flows.ts) through the real app in happy-dom: the shopper opens the
 * URL, clicks and types by role and label, and the journey must end as its fact says — the screen, the
 * text shown, who was identified, every order that reached the shop and at what total.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { CHECKOUT_FLOWS, type CheckoutFlow } from '../facts/flows';
import { checkoutFact } from '../facts/prices';
import { flowShop, type FlowShop } from './flow-shop';
import { TEXTS } from './screens';

const en = TEXTS['en-en'];
type Shopper = ReturnType<typeof userEvent.setup>;

const submitButton = () => screen.queryByRole('button', { name: en.checkout.submit });
const alertTexts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent ?? '');
const totalShown = () => within(screen.getByRole('region', { name: en.checkout.summary })).getByRole('status').textContent;

/** Notes whether the order form (its Validate button) is ever on the page, from before the first render. */
function watchForForm() {
  let shown = false;
  const look = () => {
    shown ||= submitButton() !== null;
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, { childList: true, subtree: true });
  return {
    get shown() {
      look();
      return shown;
    },
    stop: () => observer.disconnect(),
  };
}

let stopWatching = () => {};
afterEach(() => stopWatching());

/** The shopper's part on the form: the add-on, the promo code (until the box answers), the e-mail, Validate. */
async function fillForm(form: NonNullable<CheckoutFlow['form']>, user: Shopper): Promise<void> {
  await screen.findByRole('button', { name: en.checkout.submit });
  if (form.extraConnection) await user.click(screen.getByRole('switch', { name: new RegExp(`^${en.checkout.extraConnection}`) }));
  if (form.promo) {
    await user.type(screen.getByRole('textbox', { name: en.checkout.discount }), form.promo.code);
    await user.click(screen.getByRole('button', { name: en.checkout.applyDiscount }));
    await screen.findByText(form.promo.says);
  }
  if (form.email !== undefined) await user.type(screen.getByRole('textbox', { name: en.checkout.email }), form.email);
  if (form.submits) await user.click(screen.getByRole('button', { name: en.checkout.submit }));
}

/** Waits for the journey's end screen and checks what it says. */
async function seeEnd(flow: CheckoutFlow, rendered: RenderedApp, shop: FlowShop, form: { shown: boolean }): Promise<void> {
  const { end } = flow;
  switch (end.screen) {
    case 'payment page':
      await waitFor(() => expect(rendered.left, `the payment page (the form was ${form.shown ? '' : 'not '}shown; the orders that reached the shop: ${JSON.stringify(shop.orders)})`).toEqual([end.link]));
      return;
    case 'under review':
      expect(await screen.findByRole('heading', { level: 1, name: en.waiting.underReview })).toBeTruthy();
      await waitFor(() => expect(alertTexts()).toContain(end.says));
      expect(rendered.app.router.state.location.pathname).toBe('/waiting');
      return;
    case 'order form': {
      const { says } = end;
      await screen.findByRole('button', { name: en.checkout.submit });
      if (says === null) expect(within(submitButton()!.closest('form')!).queryAllByRole('alert')).toEqual([]);
      else await waitFor(() => expect(alertTexts().some((text) => text.includes(says))).toBe(true));
      expect(totalShown()).toBe(end.total);
      return;
    }
  }
}

describe('checkout journeys (tests/facts/flows.ts)', () => {
  it("asks the price table's total for what each journey orders first (the facts agree with each other)", () => {
    for (const flow of Object.values(CHECKOUT_FLOWS) as CheckoutFlow[]) {
      const [first] = flow.orders;
      if (!first) continue;
      const choices = { pid: first.pid, extraConnection: first.configoptions['2'] === 1, proxyProtection: first.configoptions['4'] === 1, promo: first.promocode, currency: first.currency };
      expect(first.amount, flow.journey).toBe(checkoutFact(choices).total);
    }
  });

  it.each(Object.values(CHECKOUT_FLOWS).map((flow) => [flow.journey, flow as CheckoutFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: flow.session, country: flow.country, priceChangedTo: flow.priceChangedTo, flagged: flow.flagged });
    const form = watchForForm();
    stopWatching = form.stop;
    const user = userEvent.setup();
    const rendered = await renderApp({ url: flow.url, fetch: shop.fetch });

    if (flow.form) await fillForm(flow.form, user);
    if (flow.priceChange) {
      // The shop's own total is offered; the shopper confirms it or goes back to the order.
      await screen.findByText(flow.priceChange.offer);
      await user.click(screen.getByRole('button', { name: flow.priceChange.choice === 'confirm' ? flow.priceChange.confirmButton : en.checkout.cancelPrice }));
    }
    await seeEnd(flow, rendered, shop, form);

    expect(form.shown, 'the order form was shown').toBe(flow.formShown);
    expect(shop.identified, 'the e-mails identified').toEqual(flow.identified);
    expect(shop.orders, 'the orders that reached the shop').toEqual(flow.orders);
    expect(rendered.left, 'the payment pages opened').toEqual(flow.end.screen === 'payment page' ? [flow.end.link] : []);
    expect(shop.violations).toEqual([]);
  });
});
