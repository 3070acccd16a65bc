/**
 * The success page's journeys (tests/facts/flows-account.ts) through the real app in happy-dom: the client
 * opens /success for the service, copies a value, downloads the playlist or adds a device address by role and
 * label, and the journey must end as its fact says — the credentials shown, what was copied and downloaded,
 * the message, and every device address that reached the shop.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../support/render-app';
import { WAITING_ORDER } from '../facts/flows';
import { SERVICE_FLOWS, type ServiceFlow } from '../facts/flows-account';
import { flowShop } from './flow-shop';
import { TEXTS } from './screens';

const en = TEXTS['en-en'];
type Client = ReturnType<typeof userEvent.setup>;

/** The credentials as the page lists them (term, then the value in its code block). */
function credentialsShown(): Record<string, string> {
  return Object.fromEntries(
    [...document.querySelectorAll('dl.credentials dt')].flatMap((term) => {
      const code = term.nextElementSibling?.querySelector('code');
      return code ? [[term.textContent ?? '', code.textContent ?? '']] : [];
    }),
  );
}

const deviceForm = () => screen.getByRole('textbox', { name: en.success.device }).closest('form')!;

async function seeEnd(flow: ServiceFlow, rendered: RenderedApp, user: Client): Promise<void> {
  const { end } = flow;
  switch (end.screen) {
    case 'credentials': {
      await waitFor(() => expect(credentialsShown()).toEqual({ [en.success.username]: end.username, [en.success.password]: end.password, [en.success.host]: end.host }));
      await user.click(screen.getByRole('button', { name: en.success.download }));
      expect(rendered.downloaded, 'the playlist downloaded').toEqual([end.playlist]);
      expect(rendered.copied, 'the values copied').toEqual(end.copied ? [end.copied.text] : []);
      return;
    }
    case 'not provisioned':
      expect(await screen.findByText(end.says)).toBeTruthy();
      expect(credentialsShown()).toEqual({});
      expect(screen.queryByRole('button', { name: new RegExp(`^${en.success.copy} `) })).toBeNull();
      return;
    case 'device':
      await waitFor(() => expect(within(deviceForm()).getByRole(end.role).textContent).toBe(end.says));
      return;
    case 'sign in':
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(end.says));
      expect(screen.getByRole('heading', { level: 2, name: end.title })).toBeTruthy();
      expect(credentialsShown()).toEqual({});
      return;
  }
}

describe('success page journeys (tests/facts/flows-account.ts)', () => {
  it.each(Object.values(SERVICE_FLOWS).map((flow) => [flow.journey, flow as ServiceFlow] as const))('%s', async (_journey, flow) => {
    const shop = flowShop({ session: flow.session, country: 'NL', service: flow.service });
    const user = userEvent.setup();
    const rendered = await renderApp({ url: `/checkout/success?serviceid=${WAITING_ORDER.serviceid}`, fetch: shop.fetch });
    await screen.findByRole('heading', { level: 1, name: en.success.title });

    if (flow.copies) {
      const copy = await screen.findByRole('button', { name: `${en.success.copy} ${flow.copies}` });
      await user.click(copy);
      // The hint shows beside the value for 2.5 s: read at once.
      const copied = flow.end.screen === 'credentials' ? flow.end.copied : undefined;
      expect(within(copy.parentElement!).getByRole('status').textContent, 'the hint beside the value copied').toBe(copied?.hint);
    }
    if (flow.device !== undefined) {
      const field = await screen.findByRole('textbox', { name: en.success.device });
      await user.clear(field);
      await user.type(field, flow.device);
      await user.click(within(deviceForm()).getByRole('button', { name: en.success.addDevice }));
    }
    await seeEnd(flow, rendered, user);

    expect(shop.devicesSaved, 'the device addresses that reached the shop').toEqual(flow.devicesSaved);
    expect(shop.violations).toEqual([]);
  });
});
