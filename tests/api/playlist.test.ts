/** GET /checkout/api/playlist: the M3U file of a paid service, for its owner only, as an attachment never cached. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVER_HOSTNAME } from '../support/whmcs-fake/seed';
import { Browser, createTestApp, guest, payOnSandbox, placeOrder, storeSnapshot, type Answer, type OrderResponse, type TestApp } from './helper';

// The panel host the checkout is configured with (with a port, as panels often run on one); WHMCS names its own.
const CONFIGURED_HOST = 'panel.example.net:8080';

let t: TestApp;
let owner: Browser;
let paid: OrderResponse;
let unpaid: OrderResponse;
let host: string;
beforeAll(async () => {
  t = await createTestApp({ SERVER_HOSTNAME: CONFIGURED_HOST });
  host = t.whmcs ? DEMO_SERVER_HOSTNAME : CONFIGURED_HOST;
  owner = await guest(t.app);
  paid = await placeOrder(owner);
  unpaid = await placeOrder(owner);
  await payOnSandbox(t.app, paid.link);
});
afterAll(async () => t?.close());

const playlistOf = (browser: Browser, serviceid: number | string | undefined) => browser.call('getPlaylist', { query: { serviceid: String(serviceid) } });

const expectError = (answer: Answer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
};

describe('the playlist of a paid service', () => {
  it('is an M3U attachment, never cached, that points at the panel in its URL conventions', async () => {
    const credentials = (await owner.call('getClientProducts', { query: { serviceid: String(paid.serviceids[0]) } })).body;
    const { username, password } = credentials;
    expect(username).toMatch(/^TV-\d{8}$/);
    expect(password).toMatch(/^\d{12}$/);

    const answer = await playlistOf(owner, paid.serviceids[0]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['content-type']).toBe('audio/x-mpegurl; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="tv-checkout-${paid.serviceids[0]}.m3u"`);
    expect(answer.headers['cache-control']).toBe('no-store');
    // #EXTM3U with the EPG (xmltv.php), then one #EXTINF entry and its URL: the panel's get.php, m3u_plus, ts.
    expect(answer.text.split('\n')).toEqual([
      `#EXTM3U url-tvg="http://${host}/xmltv.php?username=${username}&password=${password}"`,
      '#EXTINF:-1 tvg-name="1 Month" group-title="TV Checkout",1 Month',
      `http://${host}/get.php?username=${username}&password=${password}&type=m3u_plus&output=ts`,
      '',
    ]);
  });

  it('is the same file getClientProducts names as its playlist address', async () => {
    const credentials = (await owner.call('getClientProducts', { query: { serviceid: String(paid.serviceids[0]) } })).body;
    const answer = await playlistOf(owner, paid.serviceids[0]);
    expect(answer.text.split('\n')[2]).toBe(credentials.playlistUrl);
  });
});

describe('no playlist for anyone else, nor before payment, and asking changes nothing', () => {
  it('an unpaid service: 409 service_state', async () => {
    const before = await storeSnapshot(t.db);
    expectError(await playlistOf(owner, unpaid.serviceids[0]), 409, 'service_state');
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it("another shopper's browser: 403, without a session: 401, an unknown service: 404, a malformed id: 400", async () => {
    const stranger = await guest(t.app);
    const before = await storeSnapshot(t.db);
    expectError(await playlistOf(stranger, paid.serviceids[0]), 403, 'forbidden');
    expectError(await playlistOf(new Browser(t.app), paid.serviceids[0]), 401, 'unauthenticated');
    expectError(await playlistOf(owner, 999999), 404, 'not_found');
    expectError(await playlistOf(owner, 'abc'), 400, 'bad_request');
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('the refusals are never cached either', async () => {
    expect((await playlistOf(owner, unpaid.serviceids[0])).headers['cache-control']).toBe('no-store');
  });
});
