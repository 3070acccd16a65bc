/** The service machine's paths walked through /success: credentials, copy buttons, playlist, device address. */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { ClientProduct, CopyField, SaveDeviceAddressOutput, ServiceContext, ServiceInput } from '../../machines/service.machine';
import { serviceModel, serviceModelInput } from '../../scripts/statecharts/models/service.model';
import { COPIED_HINT_MS, MIN_LOADING_MS } from '../../src/domain/constants';
import { PLAYERS, playerOf } from '../../src/domain/panel';
import { APP_MESSAGES, SPEC_MESSAGES } from '../facts/messages';
import { apiError } from '../support/fake-api';
import { en } from './texts';
import { advance } from './settle';
import { describeViewWalk, enter, refusedInputs, shown, type Page } from './walk';

const session = { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' };

const LABELS: Record<CopyField, string> = { username: en.success.username, password: en.success.password, host: en.success.host, playlist: en.success.playlist };
const COPIES: Record<string, CopyField> = { 'copy.username': 'username', 'copy.password': 'password', 'copy.host': 'host', 'copy.playlist': 'playlist' };

const copyButton = (field: CopyField) => screen.getByRole('button', { name: `${en.success.copy} ${LABELS[field]}` });
/** The player the shopper clicked last on each walked page (the walk's own input, not what the chart kept). */
const pickedPlayers = new WeakMap<Page, string>();
const deviceField = () => screen.getByRole('textbox', { name: en.success.device });

async function perform(event: AnyEventObject, page: Page): Promise<void> {
  const { api, user } = page;
  const copy = COPIES[event.type];
  if (copy) return user.click(copyButton(copy));
  switch (event.type) {
    case 'xstate.done.actor.loadClientProduct':
      await api.respond('getClientProducts', event.output as ClientProduct);
      // The service stays behind the loading state for its minimum time.
      return advance(MIN_LOADING_MS);
    case 'xstate.error.actor.loadClientProduct':
      await api.respond('getClientProducts', apiError(404, 'not_found', 'Service not found.'));
      return advance(MIN_LOADING_MS);
    case 'service.retry':
      return user.click(screen.getByRole('button', { name: en.app.tryAgain }));
    case `xstate.after.${COPIED_HINT_MS}.serviceCopied`:
      return advance(COPIED_HINT_MS);
    case 'device.change':
      return enter(page, deviceField(), String(event.value));
    case 'device.save':
      return user.click(screen.getByRole('button', { name: en.success.addDevice }));
    case 'xstate.done.actor.saveDeviceAddress':
      await api.respond('updateMacAddress', event.output as SaveDeviceAddressOutput);
      return;
    case 'xstate.error.actor.saveDeviceAddress':
      await api.respond('updateMacAddress', apiError(403, 'forbidden', 'This service is not yours.'));
      return;
    case 'playlist.download':
      return user.click(screen.getByRole('button', { name: en.success.download }));
    case 'player.select':
      pickedPlayers.set(page, String(event.player));
      return user.click(screen.getByRole('radio', { name: new RegExp(`^${playerOf(String(event.player))!.name} `) }));
    default:
      throw new Error(`No way to perform ${event.type} on /success`);
  }
}

const deviceState = (value: StateValue) => ((value as { ready: { device: string } }).ready.device);

async function see(value: StateValue, context: ServiceContext, page: Page, event: AnyEventObject): Promise<void> {
  await shown(() => screen.getByRole('heading', { level: 1, name: en.success.title }), 'the success page');
  if (value === 'loading') {
    await shown(() => screen.getByText(en.app.loading), 'the loading placeholder');
    return;
  }
  if (value === 'failed') {
    const alert = await shown(() => screen.getByRole('alert'), 'the error');
    expect(alert.textContent).toBe(APP_MESSAGES.notFound);
    expect(screen.getByRole('button', { name: en.app.tryAgain })).toBeTruthy();
    return;
  }
  const product = context.product!;
  if (product.username === null) {
    // Not provisioned: a notice instead of the credentials, and no copy buttons.
    await shown(() => screen.getByText(en.success.pending), 'the not-provisioned notice');
    expect(screen.queryByRole('button', { name: new RegExp(`^${en.success.copy} `) })).toBeNull();
  } else {
    const credentials = await shown(() => document.querySelector<HTMLElement>('dl.credentials')!, 'the credentials');
    expect(within(credentials).getByText(product.username!)).toBeTruthy();
    expect(within(credentials).getByText(product.password!)).toBeTruthy();
    if (product.serverhostname) expect(within(credentials).getByText(product.serverhostname)).toBeTruthy();
  }
  expect(screen.getByText(en.status.Active)).toBeTruthy();
  // 'Copied!' shows beside the value copied last, and only there.
  for (const field of (product.username === null ? [] : Object.keys(LABELS).filter((key) => key !== 'playlist' || product.playlistUrl)) as CopyField[]) {
    const hint = within(copyButton(field).parentElement!).getByRole('status');
    expect(hint.textContent, `the hint beside ${field}`).toBe(context.copied === field ? SPEC_MESSAGES.copied : '');
  }
  if (COPIES[event.type] && context.copied === COPIES[event.type]) {
    const copied = { username: product.username, password: product.password, host: product.serverhostname, playlist: product.playlistUrl }[COPIES[event.type]!];
    expect(page.rendered.copied.at(-1)).toBe(copied);
  }
  // The download goes through the checkout's endpoint: no address with the password reaches the browser.
  if (event.type === 'playlist.download') expect(page.rendered.downloaded).toEqual(product.playlistUrl ? [`/checkout/api/playlist?serviceid=${serviceModelInput.serviceid}`] : []);
  seePlayerGuide(context, pickedPlayers.get(page) ?? null);
  // The device address form.
  const device = deviceState(value);
  const field = deviceField() as HTMLInputElement;
  expect(field.value).toBe(context.deviceAddress);
  const form = field.closest('form')!;
  const add = within(form).getByRole('button', { name: device === 'saving' ? en.success.savingDevice : en.success.addDevice });
  expect(add.getAttribute('aria-disabled')).toBe(device === 'saving' ? 'true' : null);
  expect(field.readOnly).toBe(device === 'saving');
  const error = within(form).queryByRole('alert');
  // The machine keeps a refusal's message while the same address is saved again (failed → saving).
  if (context.deviceError === null) expect(error).toBeNull();
  else expect(error?.textContent).toBe(context.deviceError === 'device.invalid' ? APP_MESSAGES.deviceInvalid : APP_MESSAGES.forbidden);
  expect(within(form).getByRole('status').textContent).toBe(device === 'saved' ? APP_MESSAGES.deviceSaved : '');
}

/** The player picker and the picked player's steps, with the values the panel's conventions give for the service. */
function seePlayerGuide(context: ServiceContext, clicked: string | null): void {
  const product = context.product!;
  const radios = screen.getAllByRole('radio').filter((radio) => (radio as HTMLInputElement).name === 'player') as HTMLInputElement[];
  expect(radios.map((radio) => radio.value)).toEqual(PLAYERS.map((player) => player.id));
  expect(radios.filter((radio) => radio.checked).map((radio) => radio.value)).toEqual(clicked ? [clicked] : []);
  const picked = clicked ? playerOf(clicked)! : null;
  const heading = screen.queryByRole('heading', { level: 3 });
  if (!picked) {
    expect(heading).toBeNull();
    return;
  }
  expect(heading?.textContent).toBe(en.player.title.replace('{{player}}', picked.name));
  const steps = heading!.parentElement!;
  const qr = within(steps).queryByRole('img');
  if (product.username === null || product.serverhostname === '') {
    expect(within(steps).getByText(en.player.notYet)).toBeTruthy();
    expect(qr).toBeNull();
    return;
  }
  const host = product.serverhostname;
  // Literal panel conventions: Xtream apps take the server's address, MAG boxes its portal /c/, playlist apps get.php.
  const expected = {
    xtream: [`http://${host}`, product.username, product.password],
    mag: [`http://${host}/c/`, product.macAddress.value || en.player.mag.deviceMissing],
    m3u: [`http://${host}/get.php?username=${product.username}&password=${product.password}&type=m3u_plus&output=ts`],
  }[picked.kind];
  expect([...steps.querySelectorAll('.player-login code')].map((code) => code.textContent)).toEqual(expected);
  expect(qr?.getAttribute('aria-label')).toBe(en.player.qr.replace('{{url}}', expected[0]!));
  // No address with the password is ever a link.
  expect([...document.querySelectorAll('a[href]')].filter((link) => link.getAttribute('href')!.includes(product.password!))).toEqual([]);
}

const refusedCopies = refusedInputs({
  'copy.username': 'no copy buttons show until the service is provisioned',
  'copy.password': 'no copy buttons show until the service is provisioned',
  'copy.playlist': 'the playlist (and its copy button) shows only when the service has one',
  'playlist.download': 'the download link is shown only when the service has a playlist',
});

describeViewWalk({
  model: serviceModel,
  open: (path, base) => {
    const painted = (path.input as ServiceInput).product ?? null;
    return base({
      url: `/checkout/success?serviceid=${serviceModelInput.serviceid}`,
      minLoadingMs: MIN_LOADING_MS,
      // The server's first paint: the route's loader reads the service as the server did; any later read is held, never answered.
      ...(painted ? { renderedAt: Date.now() } : {}),
      api: { answers: { session }, first: painted ? { getClientProducts: [painted] } : {}, hold: { getClientProducts: Infinity, updateMacAddress: Infinity } },
    });
  },
  offView: (step) =>
    // Until the service is provisioned the page shows no copy buttons at all.
    (step.state.context as ServiceContext).product?.username === null && COPIES[step.event.type]
      ? `${step.event.type}: no copy buttons show until the service is provisioned`
      : refusedCopies(step),
  perform: (step, page) => perform(step.event, page),
  see: (state, page, step) => see(state.value, state.context as ServiceContext, page, step.event),
  project: (_value, context) => {
    const { product, deviceError, error, ...rest } = context as ServiceContext;
    return {
      ...rest,
      product: product && { serviceid: product.serviceid, username: product.username, macAddress: product.macAddress },
      // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
      deviceError: deviceError === 'device.invalid' ? deviceError : deviceError !== null,
      error: error !== null,
    };
  },
});
