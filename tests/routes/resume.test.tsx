/** The waiting page's resume entry: a recovery reminder's link lands on /waiting?orderid=N in a browser with nothing saved. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../support/render-app';
import { browserSide } from '../../src/app/browser';
import { apiError, fakeApi } from '../support/fake-api';
import { TEXTS, waitingCookie } from './screens';

const en = TEXTS['en-en'];
const resumeCalls = (calls: Request[]) => calls.filter((request) => new URL(request.url).pathname === '/checkout/api/resumeOrder').map((request) => new URL(request.url).search);

describe('/waiting?orderid=N (a recovery reminder\'s link)', () => {
  it('in a fresh browser loads that order from the server and shows its invoice, gateway, countdown and payment link', async () => {
    const api = fakeApi();
    await renderApp({ url: '/checkout/waiting?orderid=1001', fetch: api.fetch });

    expect(await screen.findByRole('heading', { level: 1, name: en.waiting.title })).toBeTruthy();
    expect(resumeCalls(api.calls)).toEqual(['?orderid=1001']);
    const facts = document.querySelector('dl.facts') as HTMLElement;
    expect(within(facts).getByText('#1001')).toBeTruthy();
    expect(within(facts).getByText('#2001')).toBeTruthy();
    expect(within(facts).getByText('Bitcoin (sandbox)')).toBeTruthy();
    expect(await screen.findByRole('timer', { name: en.waiting.timeLeft })).toBeTruthy();
    expect(screen.getByRole('link', { name: en.waiting.pay }).getAttribute('href')).toBe('http://localhost/checkout/sandbox/pay/pay_resumed');
    expect(screen.getByRole('button', { name: en.waiting.changeGateway })).toBeTruthy();
    // Saved like any payment, so a reload resumes the same countdown without asking again.
    expect(JSON.parse(browserSide().cookies.read('checkout') ?? '{}').payment).toMatchObject({ flow: 'order', order: { orderid: 1001, invoiceid: 2001, serviceid: 3001, fraud: false }, gateway: 'sandboxcrypto' });
  });

  it('does not ask again when this browser already waits on that order', async () => {
    const api = fakeApi();
    await renderApp({ url: '/checkout/waiting?orderid=1001', fetch: api.fetch, cookies: { checkout: waitingCookie() } });
    expect(await screen.findByRole('timer', { name: en.waiting.timeLeft })).toBeTruthy();
    expect(resumeCalls(api.calls)).toEqual([]);
  });

  it('an order the session cannot reach shows that no payment is waiting', async () => {
    const api = fakeApi({ resumeOrder: apiError(403, 'forbidden', 'This is not your order.') });
    await renderApp({ url: '/checkout/waiting?orderid=1002', fetch: api.fetch });
    expect(await screen.findByText(en.waiting.none)).toBeTruthy();
    expect(resumeCalls(api.calls)).toEqual(['?orderid=1002']);
  });

  it('a malformed orderid is ignored', async () => {
    const api = fakeApi();
    await renderApp({ url: '/checkout/waiting?orderid=1e3', fetch: api.fetch });
    expect(await screen.findByText(en.waiting.none)).toBeTruthy();
    expect(resumeCalls(api.calls)).toEqual([]);
  });
});
