/**
 * The upsell's journeys (tests/facts/flows-account.ts) through the real app in happy-dom: the client opens
 * /upsell, picks a service, a quantity and a payment method by role and label, pays, and the journey must end
 * as its fact says — the screen, the price shown, every invoice that reached the shop and at what price.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { CLIENT_SERVICES, UPSELL_FLOWS, type UpsellFlow } from '../facts/flows-account';
import { FLOW_CLIENT } from '../facts/flows';
import { upsellFact } from '../facts/prices';
import { flowShop, type FlowShop } from './flow-shop';
import { TEXTS, urlOf } from './screens';

const en = TEXTS['en-en'];
type Client = ReturnType<typeof userEvent.setup>;

const slider = () => screen.getByRole('slider', { name: en.upsell.quantity });
const priceShown = () => screen.getByText(en.upsell.price).parentElement!.querySelector('output')!.textContent;
const payButton = () => screen.getByRole('button', { name: /^Pay\b/ });

/** The client's part: a service, a quantity (the slider's step, which happy-dom's range input cannot take from a key), a payment method. */
async function fillForm(form: NonNullable<UpsellFlow['form']>, user: Client): Promise<void> {
  if (form.service) await user.selectOptions(screen.getByRole('combobox', { name: en.upsell.service }), form.service);
  if (form.quantity !== undefined) fireEvent.change(slider(), { target: { value: String(form.quantity) } });
  if (form.gateway) await user.click(screen.getByRole('radio', { name: form.gateway }));
}

/** After the shop's 409: the form is kept, says the price changed and shows the shop's price on the price box and the Pay button. */
async function seeRefusal(refusal: NonNullable<UpsellFlow['afterRefusal']>, shows: NonNullable<UpsellFlow['shows']>): Promise<void> {
  await waitFor(() => expect(screen.queryAllByRole('alert').map((alert) => alert.textContent)).toContain(refusal.says));
  expect(within(payButton().closest('form')!).getByRole('alert').textContent).toBe(refusal.says);
  const service = screen.getByRole('combobox', { name: en.upsell.service }) as HTMLSelectElement;
  expect(service.selectedOptions[0]?.textContent, 'the service, kept').toBe(shows.service);
  await waitFor(() => expect(priceShown()).toBe(refusal.price));
  expect(payButton().textContent).toBe(refusal.pay);
}

async function seeEnd(flow: UpsellFlow, rendered: RenderedApp, shop: FlowShop): Promise<void> {
  const { end } = flow;
  switch (end.screen) {
    case 'payment page':
      await waitFor(() => expect(rendered.left, `the payment page (invoices: ${JSON.stringify(shop.invoices)})`).toEqual([end.link]));
      return;
    case 'sign in':
      expect(await screen.findByRole('heading', { level: 2, name: end.title })).toBeTruthy();
      expect(screen.getByRole('textbox', { name: en.login.email })).toBeTruthy();
      expect(screen.queryByRole('slider')).toBeNull();
      return;
    case 'guest':
      expect(await screen.findByText(end.says)).toBeTruthy();
      expect(screen.queryByRole('slider')).toBeNull();
      return;
  }
}

const servicesRead = (shop: FlowShop) => shop.calls.some((request) => new URL(request.url).pathname.endsWith('/getActiveProducts'));

describe('upsell journeys (tests/facts/flows-account.ts)', () => {
  it("asks the price table for each invoice's price, or the shop's price after its 409 (the facts agree with each other)", () => {
    for (const flow of Object.values(UPSELL_FLOWS) as UpsellFlow[]) {
      flow.invoices.forEach((invoice, index) => {
        const service = flow.services.find((candidate) => candidate.serviceid === invoice.serviceId)!;
        const refused = flow.invoices[index - 1]?.answer;
        const expected =
          refused !== undefined && refused !== 'created'
            ? refused.priceChanged
            : upsellFact({ billingcycle: service.billingcycle, currency: invoice.currency, quantity: invoice.extraQuantity, proration: service.proration });
        expect(invoice.price, flow.journey).toBe(expected);
      });
    }
  });

  it.each(Object.values(UPSELL_FLOWS).map((flow) => [flow.journey, flow as UpsellFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: flow.session, country: flow.country, services: flow.services, upsellPriceChangedTo: flow.priceChangedTo });
    const user = userEvent.setup();
    const rendered = await renderApp({ url: '/checkout/upsell', fetch: shop.fetch });
    await screen.findByRole('heading', { level: 1, name: en.upsell.title });

    if (flow.shows) {
      await screen.findByRole('slider', { name: en.upsell.quantity });
      await fillForm(flow.form ?? {}, user);
      const service = screen.getByRole('combobox', { name: en.upsell.service }) as HTMLSelectElement;
      expect(service.selectedOptions[0]?.textContent, 'the service selected').toBe(flow.shows.service);
      await waitFor(() => expect(priceShown()).toBe(flow.shows!.price));
      expect(payButton().textContent).toBe(flow.shows.pay);
      await user.click(payButton());
      if (flow.afterRefusal) {
        await seeRefusal(flow.afterRefusal, flow.shows);
        await user.click(payButton());
      }
    }
    await seeEnd(flow, rendered, shop);

    expect(servicesRead(shop), 'the services were read').toBe(flow.servicesRead);
    expect(shop.invoices, 'the invoices that reached the shop').toEqual(flow.invoices);
    expect(rendered.left, 'the payment pages opened').toEqual(flow.end.screen === 'payment page' ? [flow.end.link] : []);
    expect(shop.violations).toEqual([]);
  });

  it.each([
    // 4.00 EUR × 20 ÷ 30 = 2.67 in German words and dates (Intl writes a no-break space before €); 3.50 GBP × 20 ÷ 30 = 2.33 in British ones.
    ['de-de', '2,67\u00a0€ für die 20 verbleibenden Tage dieses Zeitraums (bis 21.12.2026)'],
    ['en-gb', '£2.33 for the 20 days left of this period (until 21 Dec 2026)'],
  ] as const)('in %s a service due in 20 of its 30 days shows what one connection costs for those days and their end: %s', async (locale, price) => {
    const shop = flowShop({ session: FLOW_CLIENT, country: 'DE', services: [CLIENT_SERVICES.monthlyDueSoon] });
    await renderApp({ url: urlOf(locale, '/upsell'), fetch: shop.fetch });
    await screen.findByRole('slider', { name: TEXTS[locale].upsell.quantity });
    await waitFor(() => expect(screen.getByText(TEXTS[locale].upsell.price).parentElement!.querySelector('output')!.textContent).toBe(price));
    expect(shop.violations).toEqual([]);
  });
});
