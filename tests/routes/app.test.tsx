/** The app's own behaviour around the machines: language, affiliates, session, saved state, price change. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../support/render-app';
import { apiError, clientSession, fakeApi } from '../support/fake-api';
import { TEXTS, waitingCookie } from './screens';

const en = TEXTS['en-en'];

const cookie = (name: string) => document.cookie.split('; ').find((pair) => pair.startsWith(`${name}=`))?.slice(name.length + 1);
const saved = () => JSON.parse(decodeURIComponent(cookie('checkout') ?? '%7B%7D')) as Record<string, unknown>;
const bodyOf = async (request: Request) => JSON.parse(await request.clone().text()) as Record<string, unknown>;
const callsTo = (calls: Request[], operation: string) => calls.filter((request) => new URL(request.url).pathname.endsWith(`/${operation}`));

afterEach(() => vi.useRealTimers());

describe('language', () => {
  it('follows the browserLang cookie on an unprefixed URL', async () => {
    const { app } = await renderApp({ url: '/checkout/', fetch: fakeApi().fetch, cookies: { browserLang: 'de-de' } });

    expect(await screen.findByRole('heading', { level: 1, name: TEXTS['de-de'].checkout.title })).toBeTruthy();
    expect(app.router.state.location.pathname).toMatch(/^\/de-de\/?$/);
  });

  it('is Spanish for a visitor from ES, and remembers the locale of the URL', async () => {
    await renderApp({ url: '/checkout/?pid=2', fetch: fakeApi({ currency: { country: 'ES', currency: 'EUR' } }).fetch });

    expect(await screen.findByRole('heading', { level: 1, name: TEXTS['es-es'].checkout.title })).toBeTruthy();
    expect(cookie('browserLang')).toBe('es-es');
  });

  it('follows the browser languages, and a language link switches for good', async () => {
    const user = userEvent.setup();
    await renderApp({ url: '/checkout/', fetch: fakeApi().fetch, browserLanguages: () => ['nl-NL', 'en'] });
    await screen.findByRole('heading', { level: 1, name: TEXTS['nl-nl'].checkout.title });

    await user.click(screen.getByRole('link', { name: 'English' }));

    expect(await screen.findByRole('heading', { level: 1, name: en.checkout.title })).toBeTruthy();
    expect(cookie('browserLang')).toBe('en-en');
  });

  it('shows GBP in en-gb', async () => {
    await renderApp({ url: '/checkout/en-gb/', fetch: fakeApi().fetch });

    expect(await screen.findByRole('radio', { name: /TV Monthly.*£13\.00/ })).toBeTruthy();
  });
});

describe('starting', () => {
  it('keeps the header of index.html on screen while the session loads', async () => {
    let answer: (value: unknown) => void = () => {};
    const session = new Promise((resolve) => (answer = resolve));
    const rendering = renderApp({ url: '/checkout/', fetch: fakeApi({ session: () => session }).fetch });

    expect(await screen.findByText('TV Checkout')).toBeTruthy();
    expect(document.querySelector('main [aria-busy="true"]')).toBeTruthy();

    answer({ loggedIn: false, guest: false, userid: null, email: null });
    await rendering;
    expect(await screen.findByRole('heading', { level: 1, name: en.checkout.title })).toBeTruthy();
  });
});

describe('affiliates', () => {
  // The click is the server's to record as it sends the page (tests/api/affiliate-click.test.ts): the browser only credits the order.
  it("credits the order with the link's aff_id, sending no click of its own", async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    const rendered = await renderApp({ url: '/checkout/?aff_id=partner_42', fetch: api.fetch });
    await screen.findByRole('heading', { level: 1, name: en.checkout.title });

    await user.type(screen.getByRole('textbox', { name: en.checkout.email }), 'ann@mail.test');
    await user.click(screen.getByRole('button', { name: en.checkout.submit }));
    await waitFor(() => expect(rendered.left).toHaveLength(1));
    expect(await bodyOf(callsTo(api.calls, 'order')[0]!)).toMatchObject({ affid: 'partner_42' });
    expect(callsTo(api.calls, 'new_click')).toHaveLength(0);
  });

  it('credits a later order with the affiliate that brought this browser (the cookie the server set)', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    const rendered = await renderApp({ url: '/checkout/', fetch: api.fetch, cookies: { affiliate: 'partner_42' } });
    await screen.findByRole('heading', { level: 1, name: en.checkout.title });

    await user.type(screen.getByRole('textbox', { name: en.checkout.email }), 'ann@mail.test');
    await user.click(screen.getByRole('button', { name: en.checkout.submit }));
    await waitFor(() => expect(rendered.left).toHaveLength(1));
    expect(await bodyOf(callsTo(api.calls, 'order')[0]!)).toMatchObject({ affid: 'partner_42' });
  });
});

describe('the header', () => {
  it('offers Sign Out only to a logged-in user, and signing out clears the saved state and goes home', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ session: clientSession });
    const { app } = await renderApp({ url: '/checkout/success?serviceid=3001', fetch: api.fetch, cookies: { checkout: waitingCookie() } });
    await screen.findByRole('heading', { level: 1, name: en.success.title });

    await user.click(screen.getByRole('button', { name: en.app.signOut }));

    expect(await screen.findByRole('heading', { level: 1, name: en.checkout.title })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/');
    expect(callsTo(api.calls, 'signOut')).toHaveLength(1);
    expect(saved().payment).toBeUndefined();
    expect(screen.queryByRole('button', { name: en.app.signOut })).toBeNull();
  });

  it('has no Sign Out for a visitor', async () => {
    await renderApp({ url: '/checkout/', fetch: fakeApi().fetch });
    await screen.findByRole('heading', { level: 1, name: en.checkout.title });

    expect(screen.queryByRole('button', { name: en.app.signOut })).toBeNull();
  });
});

describe('a guest on another device', () => {
  const refused = () => fakeApi({ getClientProducts: apiError(401, 'unauthenticated', 'Log in to see this service') });

  it('is told to log in on the success page and gets a sign-in link landing back on that page', async () => {
    const user = userEvent.setup();
    const api = refused();
    await renderApp({ url: '/checkout/success?serviceid=3001', fetch: api.fetch });
    expect((await screen.findByRole('alert')).textContent).toBe('Please log in.');
    const panel = screen.getByRole('form', { name: en.login.serviceTitle });

    await user.type(within(panel).getByRole('textbox', { name: en.login.email }), 'ann@example.com');
    await user.click(within(panel).getByRole('button', { name: 'E-mail me a sign-in link' }));

    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('If an account exists for this address, we have sent it a sign-in link. It works once, for 15 minutes.'));
    const requests = callsTo(api.calls, 'signInLink');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('POST');
    expect(await bodyOf(requests[0]!)).toEqual({ email: 'ann@example.com', redirect: '/checkout/success?serviceid=3001' });
  });

  it('sends nothing for an e-mail of the wrong shape and says so', async () => {
    const user = userEvent.setup();
    const api = refused();
    await renderApp({ url: '/checkout/success?serviceid=3001', fetch: api.fetch });
    const panel = await screen.findByRole('form', { name: en.login.serviceTitle });

    await user.type(within(panel).getByRole('textbox', { name: en.login.email }), 'ann@example');
    await user.click(within(panel).getByRole('button', { name: 'E-mail me a sign-in link' }));

    expect(within(panel).getByRole('alert').textContent).toBe('Please enter a Valid Email.');
    expect(within(panel).getByRole('status').textContent).toBe('');
    expect(callsTo(api.calls, 'signInLink')).toHaveLength(0);
  });

  it.each([
    ['the server is unavailable (503)', apiError(503, 'store_unavailable', 'Store unavailable'), 'Something went wrong. Please try again.'],
    ['too many requests (429)', apiError(429, 'rate_limited', 'Too many requests'), 'Too many attempts. Please wait a minute and try again.'],
  ])('shows the error when %s, and no confirmation', async (_case, answer, text) => {
    const user = userEvent.setup();
    const api = fakeApi({ getClientProducts: apiError(401, 'unauthenticated', 'Log in'), signInLink: answer });
    await renderApp({ url: '/checkout/success?serviceid=3001', fetch: api.fetch });
    const panel = await screen.findByRole('form', { name: en.login.serviceTitle });

    await user.type(within(panel).getByRole('textbox', { name: en.login.email }), 'ann@example.com');
    await user.click(within(panel).getByRole('button', { name: 'E-mail me a sign-in link' }));

    await waitFor(() => expect(within(panel).getByRole('alert').textContent).toBe(text));
    expect(within(panel).getByRole('status').textContent).toBe('');
  });
});

describe('a guest buys with the keyboard only', () => {
  it('orders with the total shown (reminder unticked with the space bar), leaves for the payment page and saves no secret', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    const { left } = await renderApp({ url: '/checkout/', fetch: api.fetch });
    const plans = await screen.findByRole('group', { name: en.checkout.plans });

    // Arrow keys move through the plans, space toggles an add-on, Enter submits.
    await user.click(within(plans).getByRole('radio', { name: /TV Monthly/ }));
    await user.keyboard('{ArrowDown}');
    expect(within(plans).getByRole('radio', { name: /TV Yearly/ })).toHaveProperty('checked', true);
    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByRole('switch', { name: /Extra connection/ })).toHaveProperty('checked', true);
    const email = screen.getByRole('textbox', { name: en.checkout.email });
    email.focus();
    await user.keyboard('ann@mail.test');
    // The next stop is "Remind me if I don't finish", ticked by default: space unticks it.
    await user.tab();
    const remind = screen.getByRole('checkbox', { name: en.checkout.remind });
    expect(document.activeElement).toBe(remind);
    expect(remind).toHaveProperty('checked', true);
    await user.keyboard(' ');
    expect(remind).toHaveProperty('checked', false);
    email.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(left).toEqual(['http://localhost/checkout/sandbox/pay/pay_demo']));
    const order = callsTo(api.calls, 'order')[0]!;
    expect(order.headers.get('Idempotency-Key')).toBeTruthy();
    expect(await bodyOf(order)).toEqual({ pid: 2, paymentmethod: 'sandbox', amount: 170, currency: 'EUR', configoptions: { '2': 1, '4': 0 }, remind: false });
    expect(callsTo(api.calls, 'authMiddleware')).toHaveLength(1);
    expect(saved()).toMatchObject({ payment: { flow: 'order', order: { orderid: 1001, invoiceid: 2001, serviceid: 3001 }, gateway: 'sandbox' } });
    expect(cookie('checkout')).not.toMatch(/password/i);
  });

  it('shows the invalid e-mail once the field is left', async () => {
    const user = userEvent.setup();
    await renderApp({ url: '/checkout/', fetch: fakeApi().fetch });
    const email = await screen.findByRole('textbox', { name: en.checkout.email });

    await user.type(email, 'ann@mail');
    expect(screen.queryByText(en.messages.email.invalid)).toBeNull();
    await user.tab();

    expect(screen.getByRole('alert').textContent).toBe(en.messages.email.invalid);
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('the discount box', () => {
  it('applies a code to the total, and explains a refused one', async () => {
    const user = userEvent.setup();
    await renderApp({ url: '/checkout/', fetch: fakeApi({ getPromotion: apiError(422, 'promotion_not_found', 'Promotion code not found.') }).fetch });
    const code = await screen.findByRole('textbox', { name: en.checkout.discount });

    await user.type(code, 'NOPE{Enter}');

    expect((await screen.findByRole('alert')).textContent).toBe(en.messages.api.promotion_not_found);
  });

  it('takes the discount off the total', async () => {
    const user = userEvent.setup();
    await renderApp({ url: '/checkout/?promocode=WELCOME10', fetch: fakeApi().fetch });

    expect(await screen.findByText(en.checkout.discountApplied.replace('{{code}}', 'WELCOME10'))).toBeTruthy();
    const total = () => within(screen.getByRole('region', { name: en.checkout.summary })).getByRole('status').textContent;
    expect(total()).toBe('€13.50');
    await user.clear(screen.getByRole('textbox', { name: en.checkout.discount }));
    expect(total()).toBe('€15.00');
  });
});

describe('a price changed on the server (409)', () => {
  it('shows the new total and orders it once the shopper confirms', async () => {
    const user = userEvent.setup();
    const orders: Record<string, unknown>[] = [];
    const api = fakeApi({
      order: async (request: Request) => {
        orders.push(await bodyOf(request));
        return orders.length === 1
          ? apiError(409, 'price_changed', 'The price has changed.', { amount: 16.5, currency: 'EUR' })
          : { orderid: 1001, invoiceid: 2001, serviceids: [3001], fraud: false, status: 'Pending', amount: 16.5, currency: 'EUR', link: 'http://localhost/checkout/sandbox/pay/pay_new', deadline: '2030-01-02T12:00:00.000Z' };
      },
    });
    const { left } = await renderApp({ url: '/checkout/?email=ann%40mail.test', fetch: api.fetch });
    await user.click(await screen.findByRole('button', { name: en.checkout.submit }));

    const confirm = await screen.findByRole('button', { name: en.checkout.confirmPrice.replace('{{amount}}', '€16.50') });
    expect(screen.getByRole('alert').textContent).toContain(en.checkout.priceChanged.replace('{{amount}}', '€16.50').replace('{{previous}}', '€15.00'));
    await user.click(confirm);

    await waitFor(() => expect(left).toEqual(['http://localhost/checkout/sandbox/pay/pay_new']));
    expect(orders.map((order) => order.amount)).toEqual([15, 16.5]);
  });
});

describe('saved state', () => {
  it('brings the form back as the shopper left it', async () => {
    const user = userEvent.setup();
    const first = await renderApp({ url: '/checkout/', fetch: fakeApi().fetch });
    await user.click(await screen.findByRole('radio', { name: /TV Day Pass/ }));
    await user.click(screen.getByRole('switch', { name: /Proxy protection/ }));
    // Leaving the page writes the latest choices (while it stays they are written when it is idle).
    first.unmount();
    const kept = cookie('checkout')!;

    await renderApp({ url: '/checkout/', fetch: fakeApi().fetch, cookies: { checkout: decodeURIComponent(kept) } });

    expect(await screen.findByRole('radio', { name: /TV Day Pass/ })).toHaveProperty('checked', true);
    expect(screen.getByRole('switch', { name: /Proxy protection/ })).toHaveProperty('checked', true);
  });

  it('resumes the waiting countdown from the saved deadline and opens the service once paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status = 'Pending';
    const api = fakeApi({ session: clientSession, orderStatus: () => ({ orderid: 1001, status, invoiceid: 2001, invoiceStatus: 'Unpaid', serviceids: [3001], fraud: false, amount: 15, currency: 'EUR',
      payment: { status: 'Open', gateway: 'sandbox' }, latePayment: false,
      receipt: { lines: [{ pid: 1, name: 'TV Monthly', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: false }], promocode: null, discount: 0,
        date: '2026-01-01T12:00:00.000Z', datepaid: null, paymentmethod: { module: 'sandbox', displayname: 'Card (sandbox)' } },
    }) });
    // 59:30 left: the countdown reads 0:59 whether or not the fake clock (still between its ticks) moved since.
    const { app } = await renderApp({ url: '/checkout/waiting', fetch: api.fetch, cookies: { checkout: waitingCookie('order', 3_570_000) } });

    const timer = await screen.findByRole('timer', { name: en.waiting.timeLeft });
    expect(timer.textContent).toMatch(/^0:59:\d\d$/);

    status = 'Active';
    await act(() => vi.advanceTimersByTimeAsync(5_000));

    expect(await screen.findByRole('heading', { level: 1, name: en.success.title })).toBeTruthy();
    expect(app.router.state.location.href).toBe('/success?serviceid=3001&invoiceid=2001');
    expect(saved().payment).toBeUndefined();
  });

  it('ignores a tampered cookie', async () => {
    await renderApp({ url: '/checkout/waiting', fetch: fakeApi().fetch, cookies: { checkout: '{"payment":{"flow":"order","order":{"orderid":"1 OR 1"}}}' } });

    expect(await screen.findByText(en.waiting.none)).toBeTruthy();
  });
});

describe('gateways and the currency', () => {
  it('a gateway that does not take the visitor\'s currency is shown unavailable and is not selected', async () => {
    const getGateway = {
      paymentmethods: {
        paymentmethod: [
          { module: 'hostedlink', displayname: 'Card (hosted)', type: 'CreditCard' as const, currencies: ['EUR'] },
          { module: 'coinbase', displayname: 'Crypto (Coinbase)', type: 'Cryptocurrency' as const, currencies: ['USD', 'EUR', 'SGD', 'GBP', 'USDC'] },
        ],
      },
      defaultGateway: 'hostedlink',
    };
    await renderApp({ url: '/checkout/en-gb/', fetch: fakeApi({ currency: { country: 'GB', currency: 'GBP' }, getGateway }).fetch });

    const card = await screen.findByRole('radio', { name: /^Card \(hosted\)/ });
    expect((card as HTMLInputElement).disabled).toBe(true);
    expect((card as HTMLInputElement).checked).toBe(false);
    expect(card.getAttribute('aria-describedby') && document.getElementById(card.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Not available in GBP');
    const crypto = screen.getByRole('radio', { name: 'Crypto (Coinbase)' }) as HTMLInputElement;
    expect(crypto.checked).toBe(true);
    expect(crypto.disabled).toBe(false);
  });
});
