/** The order summary beside the choices: the payment method's hint, or why the order cannot be paid (issue 16). */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../support/render-app';
import { demoGateways, fakeApi } from '../support/fake-api';

/** The demo's gateways, as if they took only these currencies. */
const gatewaysTaking = (currencies: string[]) => ({
  ...demoGateways,
  paymentmethods: { paymentmethod: demoGateways.paymentmethods.paymentmethod.map((gateway) => ({ ...gateway, currencies })) },
});

const orderCalls = (calls: Request[]) => calls.filter((request) => new URL(request.url).pathname.endsWith('/order'));

async function openForm(url: string, answers: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(answers);
  await renderApp({ url, fetch: api.fetch });
  const summary = await screen.findByRole('region', { name: /^(Your order|Ihre Bestellung)$/ });
  await waitFor(() => expect(within(summary).getByRole('status').textContent).not.toBe(''));
  return { api, summary };
}

describe('the order summary', () => {
  it('names the chosen payment method and the page the shopper will pay on', async () => {
    const { summary } = await openForm('/checkout/', {});

    expect(within(summary).getByText("You will pay by Card (sandbox) on the provider's secure page.")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Validate and pay' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('says that no payment method takes the currency, and keeps the pay button disabled with that reason', async () => {
    const user = userEvent.setup();
    // A visitor from GB pays in GBP; these gateways take only EUR.
    const { api, summary } = await openForm('/checkout/', { currency: { country: 'GB', currency: 'GBP' }, getGateway: gatewaysTaking(['EUR']) });

    const reason = within(summary).getByText('No payment method takes payments in GBP, so this order cannot be paid here.');
    const pay = screen.getByRole('button', { name: 'Validate and pay' });
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    expect(pay.getAttribute('aria-describedby')).toBe(reason.id);
    expect(within(summary).queryByText(/You will pay by/)).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'shopper@mail.test');
    await user.click(pay);
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), '{Enter}');
    expect(orderCalls(api.calls)).toEqual([]);
  });

  it('says it in the page\'s language', async () => {
    const { summary } = await openForm('/checkout/de-de/', { getGateway: gatewaysTaking(['USD']) });

    expect(within(summary).getByText('Keine Zahlungsart nimmt Zahlungen in EUR an, daher kann diese Bestellung hier nicht bezahlt werden.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bestätigen und bezahlen' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('gives the same reason as the payment list when no payment method could be loaded', async () => {
    const { summary } = await openForm('/checkout/', { getGateway: { ...demoGateways, paymentmethods: { paymentmethod: [] } } });

    const reason = within(summary).getByText('No payment method is available right now.');
    const pay = screen.getByRole('button', { name: 'Validate and pay' });
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    expect(pay.getAttribute('aria-describedby')).toBe(reason.id);
  });
});
