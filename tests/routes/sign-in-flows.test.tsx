/**
 * The sign-in's journeys (tests/facts/flows-account.ts) through the real app in happy-dom: the visitor logs in
 * in the order page's login panel, or a client signs out in the header, and the journey must end as its fact
 * says — the page, whether Sign Out is offered, what the panel or the order form says, what reached the shop,
 * and whether the payment this browser saved is still in the checkout cookie.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { WAITING_ORDER } from '../facts/flows';
import { SIGN_IN_FLOWS, type SignInFlow } from '../facts/flows-account';
import { flowShop } from './flow-shop';
import { TEXTS } from './screens';

const en = TEXTS['en-en'];

/** A payment of this browser, its link open for a day. */
const savedPayment = () => ({
  flow: 'order',
  order: { orderid: WAITING_ORDER.orderid, invoiceid: WAITING_ORDER.invoiceid, serviceid: WAITING_ORDER.serviceid, fraud: false },
  link: WAITING_ORDER.link,
  gateway: WAITING_ORDER.gateway,
  lastDate: Date.now() + 86_400_000,
  duration: 86_400_000,
});

/** Whether the checkout cookie still holds a payment. */
function paymentInCookie(): boolean {
  const pair = document.cookie.split('; ').find((cookie) => cookie.startsWith('checkout='));
  const value = pair?.slice('checkout='.length);
  if (!value) return false;
  try {
    return 'payment' in (JSON.parse(decodeURIComponent(value)) as object);
  } catch {
    return false;
  }
}

const signOutButton = () => within(screen.getByRole('banner')).queryByRole('button', { name: en.app.signOut });
const loginForm = () => screen.getByRole('form', { name: en.login.submit });

async function logIn(credentials: { email: string; password: string }, user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(await screen.findByText(en.login.title));
  const form = within(await screen.findByRole('form', { name: en.login.submit }));
  await user.type(form.getByRole('textbox', { name: en.login.email }), credentials.email);
  await user.type(form.getByLabelText(en.login.password), credentials.password);
  await user.click(form.getByRole('button', { name: en.login.submit }));
}

async function seeEnd(flow: SignInFlow, rendered: RenderedApp): Promise<void> {
  const { end } = flow;
  await waitFor(() => expect(rendered.app.router.state.location.pathname).toBe(end.path));
  await screen.findByRole('heading', { level: 1, name: end.path === '/' ? en.checkout.title : en.upsell.title });
  if (end.signedIn) {
    await waitFor(() => expect(screen.queryByText(en.login.title), 'the login panel').toBeNull());
    if (end.says !== null) expect(await screen.findByText(end.says)).toBeTruthy();
  } else {
    expect(await screen.findByText(en.login.title)).toBeTruthy();
    // The order form is a guest's: it asks for the e-mail.
    expect(await screen.findByRole('textbox', { name: en.checkout.email, description: en.checkout.emailHint })).toBeTruthy();
    if (end.says !== null) await waitFor(() => expect(within(loginForm()).getByRole('alert').textContent).toBe(end.says));
    else expect(screen.queryByRole('alert')).toBeNull();
  }
  await waitFor(() => expect(signOutButton() !== null, 'Sign Out offered').toBe(end.signOutOffered));
}

describe('sign-in journeys (tests/facts/flows-account.ts)', () => {
  it.each(Object.values(SIGN_IN_FLOWS).map((flow) => [flow.journey, flow as SignInFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: flow.session, country: 'NL', services: [] });
    const user = userEvent.setup();
    const cookies: Record<string, string> = flow.paymentSaved ? { checkout: JSON.stringify({ payment: savedPayment() }) } : {};
    const rendered = await renderApp({ url: `/checkout${flow.path}`, fetch: shop.fetch, cookies });

    if (flow.logsIn) await logIn(flow.logsIn, user);
    if (flow.signsOut) await user.click(await screen.findByRole('button', { name: en.app.signOut }));
    await seeEnd(flow, rendered);

    expect(shop.signIns, 'the sign-ins that reached the shop').toEqual(flow.signIns);
    expect(shop.signOuts, 'the sign-outs that reached the shop').toBe(flow.signOuts);
    expect(paymentInCookie(), 'the saved payment kept').toBe(flow.end.paymentKept);
    expect(shop.violations).toEqual([]);
  });
});
