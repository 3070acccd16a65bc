/** The service machine (success page) with the app's actors and the clipboard and download actions. */
import { fromPromise } from 'xstate';
import {
  serviceMachine,
  type ClientProduct,
  type LoadClientProductInput,
  type SaveDeviceAddressInput,
  type SaveDeviceAddressOutput,
} from '../../../machines/service.machine';
import { unwrap } from '../api';
import type { AppServices } from '../services';

export function serviceLogic(app: AppServices) {
  const { client } = app;
  return serviceMachine.provide({
    actors: {
      loadClientProduct: fromPromise<ClientProduct, LoadClientProductInput>(({ input }) =>
        unwrap(client.GET('/checkout/api/getClientProducts', { params: { query: { serviceid: String(input.serviceid), locale: app.catalogueLocale() } } })),
      ),
      saveDeviceAddress: fromPromise<SaveDeviceAddressOutput, SaveDeviceAddressInput>(({ input }) => unwrap(client.POST('/checkout/api/updateMacAddress', { body: input }))),
    },
    actions: {
      // A refused clipboard (permissions) leaves the value on screen to copy by hand.
      writeClipboard: (_, { text }) => void app.copy(text).catch(() => {}),
      // Our endpoint sends the file as an attachment: the page stays, and no address with the password is used.
      downloadPlaylist: (_, { serviceid }) => app.download(playlistPath(serviceid)),
    },
  });
}

/** The checkout's playlist endpoint for a service (GET /checkout/api/playlist). */
export function playlistPath(serviceid: number): string {
  return `/checkout/api/playlist?${new URLSearchParams({ serviceid: String(serviceid) })}`;
}
