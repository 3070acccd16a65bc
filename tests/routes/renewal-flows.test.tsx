/**
 * The renewal's journeys (tests/facts/flows-renewal.ts) through the real app in happy-dom: a client opens the
 * renewal page a reminder links to, picks a payment method by role and name and pays; the journey must end as
 * its fact says — the screen, the texts, every payment link that reached the shop, and, once paid, the waiting
 * page leading to the success page with the new due date. Then "Renews on" on the success page and the upsell.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { FLOW_CLIENT, PROVISIONED_SERVICE, WAITING_ORDER } from '../facts/flows';
import { RENEWAL_FLOWS, RENEWAL_TEXTS, RENEWING_SERVICE_FLOWS, UPSELL_RENEWING_SERVICE, type RenewalFlow, type RenewingServiceFlow } from '../facts/flows-renewal';
import { SEEDED_PLANS } from '../facts/catalogue';
import { flowShop, type FlowShop } from './flow-shop';
import { TEXTS, urlOf } from './screens';

const en = TEXTS['en-en'];
type Client = ReturnType<typeof userEvent.setup>;

const payButton = () => screen.getByRole('button', { name: /^Pay\b/ });
const offered = () => screen.queryAllByRole('radio').map((radio) => radio.closest('label')!.textContent);

/** The payment this browser saved for the waiting page (the checkout cookie), as the cookie holds it. */
function savedCheckout(): string | null {
  const pair = document.cookie.split('; ').find((cookie) => cookie.startsWith('checkout='));
  return pair ? decodeURIComponent(pair.slice('checkout='.length)) : null;
}

/** The renewal's heading, status and lines before paying. */
async function seeRenewal(shows: NonNullable<RenewalFlow['shows']>): Promise<void> {
  const heading = await screen.findByRole('heading', { level: 2, name: new RegExp(`^${shows.service}`) });
  expect(within(heading).getByText(shows.status)).toBeTruthy();
  for (const line of shows.says) expect(screen.getByText(line)).toBeTruthy();
  expect(offered()).toEqual(shows.gateways);
  expect(payButton().textContent).toBe(shows.pay);
}

/** Back from the payment page: the waiting page polls the invoice, and once it is paid the success page shows the service renewed. */
async function returnPaid(rendered: RenewalFlowPage, renewsOn: string): Promise<void> {
  const saved = savedCheckout();
  rendered.app.unmount();
  // The shop of a renewal (its invoice Paid), the service due a month later.
  const shop = flowShop({ session: FLOW_CLIENT, country: 'NL', renewals: [], serviceDue: { status: 'Active', nextduedate: '2027-01-27' } });
  const back = await renderApp({ url: '/checkout/waiting', fetch: shop.fetch, cookies: saved ? { checkout: saved } : {} });
  await screen.findByRole('heading', { level: 1, name: en.success.title });
  expect(back.app.router.state.location.href).toBe(`/success?serviceid=${WAITING_ORDER.serviceid}&invoiceid=2007`);
  expect(await screen.findByText(renewsOn)).toBeTruthy();
  // The credentials stay the same.
  expect(screen.getByText(PROVISIONED_SERVICE.username)).toBeTruthy();
  const reads = shop.calls.filter((request) => new URL(request.url).pathname.endsWith('/invoiceStatus')).map((request) => new URL(request.url).searchParams.get('invoiceid'));
  expect(new Set(reads)).toEqual(new Set(['2007']));
  expect(shop.violations).toEqual([]);
}

interface RenewalFlowPage {
  app: RenderedApp;
  shop: FlowShop;
}

async function seeEnd(flow: RenewalFlow, page: RenewalFlowPage): Promise<void> {
  const { end } = flow;
  switch (end.screen) {
    case 'payment page':
      await waitFor(() => expect(page.app.left, `the payment page (links: ${JSON.stringify(page.shop.paymentLinks)})`).toEqual([end.link]));
      expect(JSON.parse(savedCheckout() ?? '{}')).toMatchObject({ payment: { flow: end.saved.flow, order: { orderid: null, invoiceid: end.saved.invoiceid, serviceid: end.saved.serviceid }, link: end.link } });
      if (end.paid) await returnPaid(page, end.paid.renewsOn);
      return;
    case 'renewal':
      for (const line of end.says) expect(await screen.findByText(line)).toBeTruthy();
      if (end.link) expect(screen.getByRole('link', { name: end.link.name }).getAttribute('href')).toBe(end.link.href);
      expect(screen.queryByRole('button', { name: /^Pay\b/ })).toBeNull();
      return;
    case 'sign in':
      expect(await screen.findByRole('heading', { level: 2, name: end.title })).toBeTruthy();
      expect(screen.getAllByRole('alert')[0]!.textContent).toBe(end.says);
      expect(offered()).toEqual([]);
      return;
  }
}

describe('renewal journeys (tests/facts/flows-renewal.ts)', () => {
  it("asks the catalogue's current price for the open invoice, or the shop's after its 409 (the facts agree with each other)", () => {
    const monthly = SEEDED_PLANS[0]!.pricing.EUR.monthly;
    for (const flow of Object.values(RENEWAL_FLOWS) as RenewalFlow[]) {
      flow.links.forEach((link, index) => {
        const refused = flow.links[index - 1]?.answer;
        expect(link.amount, flow.journey).toBe(refused !== undefined && typeof refused === 'object' ? refused.priceChanged : monthly);
      });
    }
  });

  it.each(Object.values(RENEWAL_FLOWS).map((flow) => [flow.journey, flow as RenewalFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: flow.session, country: 'NL', renewals: flow.renewals, linkRefusal: flow.linkRefusal });
    const user: Client = userEvent.setup();
    const app = await renderApp({ url: `/checkout/renew?serviceid=${WAITING_ORDER.serviceid}`, fetch: shop.fetch });
    await screen.findByRole('heading', { level: 1, name: RENEWAL_TEXTS.title });

    if (flow.shows) await seeRenewal(flow.shows);
    if (flow.pays) {
      if (flow.pays.gateway) await user.click(screen.getByRole('radio', { name: flow.pays.gateway }));
      await user.click(payButton());
    }
    if (flow.afterRefusal) {
      const { alert, says, pay } = flow.afterRefusal;
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(alert));
      for (const line of says) expect(await screen.findByText(line)).toBeTruthy();
      if (pay) {
        expect(payButton().textContent).toBe(pay);
        await user.click(payButton());
      }
    }
    await seeEnd(flow, { app, shop });

    expect(shop.paymentLinks, 'the payment links asked of the shop').toEqual(flow.links);
    expect(shop.violations).toEqual([]);
  });
});

describe('"Renews on" on the success page (tests/facts/flows-renewal.ts)', () => {
  it.each(Object.values(RENEWING_SERVICE_FLOWS).map((flow) => [flow.journey, flow as RenewingServiceFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: FLOW_CLIENT, country: 'NL', serviceDue: { status: flow.status, nextduedate: flow.nextduedate } });
    await renderApp({ url: urlOf(flow.locale, `/success?serviceid=${WAITING_ORDER.serviceid}`), fetch: shop.fetch });
    await screen.findByRole('heading', { level: 1, name: TEXTS[flow.locale].success.title });
    // The service's line is on the page once it has loaded.
    await screen.findByText(SEEDED_PLANS[0]!.name);

    if (flow.end.renewsOn) expect(screen.getByText(flow.end.renewsOn)).toBeTruthy();
    else expect(screen.queryByText(/^Renews on /)).toBeNull();
    const { suspended } = flow.end;
    if (suspended) {
      const link = screen.getByRole('link', { name: suspended.link.name });
      expect(link.closest('p')!.textContent).toBe(suspended.says);
      expect(link.getAttribute('href')).toBe(suspended.link.href);
      expect(screen.queryByText(PROVISIONED_SERVICE.username)).toBeNull();
    }
    expect(shop.violations).toEqual([]);
  });

  it('the upsell says when the selected service renews', async () => {
    const { service, renewsOn } = UPSELL_RENEWING_SERVICE;
    const shop = flowShop({ session: FLOW_CLIENT, country: 'NL', services: [service] });
    await renderApp({ url: '/checkout/upsell', fetch: shop.fetch });
    await screen.findByRole('combobox', { name: en.upsell.service });

    expect(screen.getByText(renewsOn)).toBeTruthy();
    expect(shop.violations).toEqual([]);
  });
});
