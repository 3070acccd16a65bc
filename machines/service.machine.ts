/**
 * The success page: the service's credentials with copy buttons, the playlist download, the player
 * the shopper sets up (its guide) and the device (MAC) address edit.
 */
import { assign, fromPromise, setup } from 'xstate';
import { COPIED_HINT_MS } from '../src/domain/constants';
import { isMacAddress, normaliseMacAddress } from '../src/domain/device';
import { failureMessage } from '../src/domain/failure-message';
import type { MessageKey } from '../src/domain/messages';
import type { PlayerId } from '../src/domain/panel';
import type { ClientProduct as ContractClientProduct, UpdateMacAddressRequest, UpdateMacAddressResponse } from '../src/api/client';
import type { ProductWords } from './product-words';

/** The client's service (getClientProducts); username and password are null until it is provisioned. */
export type ClientProduct = ContractClientProduct;

/** The service the success page is about. */
export interface ServiceInput {
  serviceid: number;
  /** The service the page was first painted with (the server's render): the chart starts ready with it. */
  product?: ClientProduct | null;
}

/** What a copy button copies. */
export type CopyField = 'username' | 'password' | 'host' | 'playlist';

/** What the success page shows and the machine remembers. */
export interface ServiceContext {
  serviceid: number;
  product: ClientProduct | null;
  /** The field whose value was just copied, while the hint shows. */
  copied: CopyField | null;
  /** 'copy.done' ('Copied!') while the hint shows. */
  copyHint: MessageKey | null;
  /** The device address field as typed. */
  deviceAddress: string;
  /** 'device.invalid' or the server message of a failed save. */
  deviceError: string | null;
  /** Server message (or message key) of a failed load. */
  error: string | null;
  /** The player (app or MAG box) whose setup steps the page shows; none until the shopper picks one. */
  player: PlayerId | null;
}

/** What the client does on the success page. */
export type ServiceEvent =
  | { type: 'copy.username' }
  | { type: 'copy.password' }
  | { type: 'copy.host' }
  | { type: 'copy.playlist' }
  | { type: 'device.change'; value: string }
  | { type: 'device.save' }
  | { type: 'playlist.download' }
  | { type: 'player.select'; player: PlayerId }
  | { type: 'service.retry' };

/** getClientProducts' query. */
export interface LoadClientProductInput {
  serviceid: number;
}

/** updateMacAddress's body. */
export type SaveDeviceAddressInput = UpdateMacAddressRequest;

/** updateMacAddress's answer. */
export type SaveDeviceAddressOutput = UpdateMacAddressResponse;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** The text a copy button copies, or null when the service has none yet. */
export function copyText(product: ClientProduct | null, field: CopyField): string | null {
  if (!product) return null;
  const text = { username: product.username, password: product.password, host: product.serverhostname, playlist: product.playlistUrl }[field];
  return text ? text : null;
}

interface GuardArgs {
  context: ServiceContext;
}

/** The guards of the service machine, exported for their unit tests. */
export const serviceGuards = {
  hasText: (_: unknown, params: { text: string | null }) => typeof params.text === 'string' && params.text !== '',
  validDevice: ({ context }: GuardArgs) => isMacAddress(context.deviceAddress),
  hasPlaylist: ({ context }: GuardArgs) => copyText(context.product, 'playlist') !== null,
  hasProduct: ({ context }: GuardArgs) => context.product !== null,
};

/** What the views and the app read about each actor, action, guard and delay. */
export const serviceMachineDocs = {
  actors: {
    loadClientProduct: {
      description: "Loads the client's service with its credentials (getClientProducts).",
      input: '{ serviceid }',
      output: '{ serviceid, orderid, pid, name, status, billingcycle, username, password, serverhostname, playlistUrl, macAddress: { id, value }, extraConnect, reseller }',
    },
    saveDeviceAddress: {
      description: 'Saves the device (MAC) address of the service (updateMacAddress).',
      input: '{ serviceid, macAddress } (upper case, colon-separated)',
      output: '{ serviceid, macAddress: { id, value }, result }',
    },
  },
  actions: {
    storeProduct: { description: 'Keeps the service and fills the device field with its address.', input: 'the service', output: 'product, deviceAddress' },
    storeError: { description: 'Keeps the server message of a failed call to show it.', input: 'the actor error', output: 'error' },
    clearError: { description: 'Hides the load error.', output: 'error' },
    writeClipboard: { description: 'Writes a value to the clipboard.', input: '{ text }' },
    showCopied: { description: "Shows 'Copied!' ('copy.done') next to the copied field.", input: 'field', output: 'copied, copyHint' },
    hideCopied: { description: "Hides the 'Copied!' hint.", output: 'copied, copyHint' },
    setDeviceAddress: { description: 'Keeps the typed device address and hides its error.', input: 'value', output: 'deviceAddress, deviceError' },
    flagInvalidDevice: { description: "Flags a device address that is not a MAC address ('device.invalid').", output: 'deviceError' },
    storeSavedDevice: { description: 'Keeps the saved device address.', input: 'the save answer', output: 'product.macAddress, deviceAddress' },
    storeDeviceError: { description: 'Keeps the server message of a failed save.', input: 'the actor error', output: 'deviceError' },
    downloadPlaylist: { description: "Downloads the playlist file from the checkout's own endpoint (no password in the address); the page stays.", input: '{ serviceid }' },
    selectPlayer: { description: 'Keeps the player whose setup steps are shown.', input: 'player', output: 'player' },
  },
  guards: {
    hasText: { description: 'The service has a value for this field (credentials are empty until provisioned).' },
    validDevice: { description: 'The typed device address is a MAC address (six hex pairs).' },
    hasPlaylist: { description: 'The service has a playlist address.' },
    hasProduct: { description: "The service is already known: the server's page was painted with it." },
  },
  events: {
    'copy.username': { description: 'The client copies the username.' },
    'copy.password': { description: 'The client copies the password.' },
    'copy.host': { description: 'The client copies the server host.' },
    'copy.playlist': { description: 'The client copies the playlist address.' },
    'device.change': { description: 'The client types a device address.' },
    'device.save': { description: 'The client adds (saves) the device address.' },
    'playlist.download': { description: 'The client downloads the playlist.' },
    'player.select': { description: 'The client picks the app or MAG box they watch on.' },
    'service.retry': { description: 'The client retries loading the service.' },
  },
};

/** A copy button: writes the field's value to the clipboard and (re)starts the 'Copied!' hint. */
const copyTransition = (field: CopyField, label: string) => ({
  guard: { type: 'hasText' as const, params: ({ context }: { context: ServiceContext }) => ({ text: copyText(context.product, field) }) },
  target: '#serviceCopied' as const,
  reenter: true,
  actions: [
    { type: 'writeClipboard' as const, params: ({ context }: { context: ServiceContext }) => ({ text: copyText(context.product, field) ?? '' }) },
    { type: 'showCopied' as const, params: { field } },
  ],
  description: `Copies the ${label} and shows 'Copied!' for ${COPIED_HINT_MS / 1000} s.`,
  meta: { product: `The client copies the ${label}; "Copied!" shows beside it for a moment.` },
});

const copyTransitions = {
  'copy.username': copyTransition('username', 'username'),
  'copy.password': copyTransition('password', 'password'),
  'copy.host': copyTransition('host', 'server host'),
  'copy.playlist': copyTransition('playlist', 'playlist address'),
};

const setDeviceAddress = {
  type: 'setDeviceAddress' as const,
  params: ({ event }: { event: ServiceEvent }) => ({ value: event.type === 'device.change' ? event.value : '' }),
};

const selectPlayer = {
  type: 'selectPlayer' as const,
  // Only 'player.select' transitions run it.
  params: ({ event }: { event: ServiceEvent }) => ({ player: (event as Extract<ServiceEvent, { type: 'player.select' }>).player }),
};

/** The success page: credentials, copy hints, playlist, player guide and device address. */
export const serviceMachine = setup({
  types: {
    meta: {} as ProductWords,
    input: {} as ServiceInput,
    context: {} as ServiceContext,
    events: {} as ServiceEvent,
  },
  actors: {
    loadClientProduct: fromPromise<ClientProduct, LoadClientProductInput>(notProvided('loadClientProduct')),
    saveDeviceAddress: fromPromise<SaveDeviceAddressOutput, SaveDeviceAddressInput>(notProvided('saveDeviceAddress')),
  },
  actions: {
    storeProduct: assign((_, params: { product: ClientProduct }) => ({ product: params.product, deviceAddress: params.product.macAddress.value })),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error) })),
    clearError: assign({ error: null }),
    writeClipboard: (_, _params: { text: string }) => {},
    showCopied: assign((_, params: { field: CopyField }) => ({ copied: params.field, copyHint: 'copy.done' as const })),
    hideCopied: assign({ copied: null, copyHint: null }),
    setDeviceAddress: assign((_, params: { value: string }) => ({ deviceAddress: params.value, deviceError: null })),
    flagInvalidDevice: assign({ deviceError: 'device.invalid' }),
    storeSavedDevice: assign(({ context }, params: { saved: SaveDeviceAddressOutput }) => ({
      product: context.product ? { ...context.product, macAddress: params.saved.macAddress } : null,
      deviceAddress: params.saved.macAddress.value,
      deviceError: null,
    })),
    storeDeviceError: assign((_, params: { error: unknown }) => ({ deviceError: failureMessage(params.error) })),
    downloadPlaylist: (_, _params: { serviceid: number }) => {},
    selectPlayer: assign((_, params: { player: PlayerId }) => ({ player: params.player })),
  },
  guards: serviceGuards,
}).createMachine({
  id: 'service',
  description: "The success page: the service's credentials, copy buttons, playlist, player guide and device address.",
  meta: { product: "The success page: the client's login details, copy buttons, playlist, set-up guide and device address." },
  context: ({ input }) => ({
    serviceid: input.serviceid,
    product: input.product ?? null,
    copied: null,
    copyHint: null,
    deviceAddress: input.product?.macAddress.value ?? '',
    deviceError: null,
    error: null,
    player: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Loads the service.',
      meta: { product: 'The client waits a moment while their service loads.' },
      // What the shopper did on the painted page (a player picked before the app ran) must find the page ready.
      always: {
        guard: 'hasProduct',
        target: 'ready',
        description: "The service the server's page was painted with shows at once, with nothing to load.",
        meta: { product: 'The login details are already on the page, so they show at once.' },
      },
      invoke: {
        id: 'loadClientProduct',
        src: 'loadClientProduct',
        input: ({ context }) => ({ serviceid: context.serviceid }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeProduct', params: ({ event }) => ({ product: event.output }) },
          description: 'The service is shown.',
          meta: { product: 'The service is loaded and its details show.' },
        },
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The service could not be loaded.',
          meta: { product: 'The service could not be loaded.' },
        },
      },
    },
    failed: {
      description: 'The service could not be loaded: message and retry button.',
      meta: { product: 'The service could not be loaded; the client sees a message and a button to try again.' },
      on: { 'service.retry': { target: 'loading', actions: 'clearError', description: 'Loads the service again.', meta: { product: 'The client tries again.' } } },
    },
    ready: {
      description: 'Username, password, server host, playlist, player guide and device address.',
      meta: { product: 'The client sees their username, password, server, playlist, set-up guide and device address.' },
      type: 'parallel',
      states: {
        copy: {
          description: "The copy buttons and their 'Copied!' hint.",
          meta: { product: 'The copy buttons beside each login detail.' },
          initial: 'idle',
          states: {
            idle: {
              description: 'No hint.',
              meta: { product: 'Nothing has been copied just now.' },
              on: copyTransitions,
            },
            copied: {
              id: 'serviceCopied',
              description: "'Copied!' shows next to the copied field; another copy restarts it.",
              meta: { product: '"Copied!" shows beside the detail the client just copied.' },
              on: copyTransitions,
              after: { [COPIED_HINT_MS]: { target: 'idle', actions: 'hideCopied', description: 'The hint hides after 2.5 s.', meta: { product: 'The "Copied!" note fades after a moment.' } } },
            },
          },
        },
        playlist: {
          description: 'The playlist download button.',
          meta: { product: 'The playlist download button.' },
          initial: 'offered',
          states: {
            offered: {
              description: 'The playlist can be downloaded when the service has one.',
              meta: { product: 'The client can download their playlist when the service has one.' },
              on: {
                'playlist.download': {
                  guard: 'hasPlaylist',
                  actions: { type: 'downloadPlaylist', params: ({ context }) => ({ serviceid: context.serviceid }) },
                  description: 'Downloads the playlist file.',
                  meta: { product: 'The client downloads the playlist file.' },
                },
              },
            },
          },
        },
        player: {
          description: 'The player guide: the shopper picks an app or a MAG box and its setup steps show.',
          meta: { product: 'The set-up guide: the client picks the app or box they watch on and sees its steps.' },
          initial: 'unpicked',
          states: {
            unpicked: {
              description: 'The players are listed; no steps yet.',
              meta: { product: 'The apps and boxes are listed; no steps shown yet.' },
              on: { 'player.select': { target: 'picked', actions: selectPlayer, description: "The picked player's steps show.", meta: { product: 'The client picks an app or box and its set-up steps show.' } } },
            },
            picked: {
              description: "The picked player's steps: the playlist URL, the Xtream login or the MAG portal, with a QR code.",
              meta: { product: 'The client sees the set-up steps for their app or box, with a QR code.' },
              on: { 'player.select': { target: 'picked', actions: selectPlayer, description: "Another player's steps show instead.", meta: { product: 'The client picks another app or box and its steps show instead.' } } },
            },
          },
        },
        device: {
          description: 'The device (MAC) address field and its add button.',
          meta: { product: 'The field where the client adds the address of their TV box.' },
          initial: 'editing',
          states: {
            editing: {
              description: 'The field shows the saved address or what the client typed.',
              meta: { product: 'The field shows the saved box address or what the client is typing.' },
              on: {
                'device.change': { target: 'editing', actions: setDeviceAddress, description: 'Keeps the typed address.', meta: { product: 'The client types the box address.' } },
                'device.save': [
                  { guard: 'validDevice', target: 'saving', description: 'A MAC address: save it.', meta: { product: 'The address looks right, so it is saved.' } },
                  { target: 'invalid', actions: 'flagInvalidDevice', description: "Not a MAC address: 'device.invalid' is shown.", meta: { product: 'The address does not look like a box address, so the client is told.' } },
                ],
              },
            },
            invalid: {
              description: "The typed address is not a MAC address: 'device.invalid' is shown.",
              meta: { product: 'What the client typed is not a box address; they are told so.' },
              on: { 'device.change': { target: 'editing', actions: setDeviceAddress, description: 'Typing again hides the error.', meta: { product: 'The client types again, so the error goes away.' } } },
            },
            saving: {
              id: 'serviceDeviceSaving',
              description: 'Saves the device address; the field is locked.',
              meta: { product: 'The box address is being saved; the field waits meanwhile.' },
              invoke: {
                id: 'saveDeviceAddress',
                src: 'saveDeviceAddress',
                input: ({ context }) => ({ serviceid: context.serviceid, macAddress: normaliseMacAddress(context.deviceAddress) }),
                onDone: {
                  target: 'saved',
                  actions: { type: 'storeSavedDevice', params: ({ event }) => ({ saved: event.output }) },
                  description: 'Saved.',
                  meta: { product: 'The box address is saved.' },
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'storeDeviceError', params: ({ event }) => ({ error: event.error }) },
                  description: 'The save failed: the server message is shown.',
                  meta: { product: 'Saving failed; the client sees the reason.' },
                },
              },
            },
            saved: {
              description: 'The address was saved.',
              meta: { product: 'The box address is saved.' },
              on: { 'device.change': { target: 'editing', actions: setDeviceAddress, description: 'Edits the saved address.', meta: { product: 'The client edits the saved address.' } } },
            },
            failed: {
              description: 'The save failed: the server message is shown.',
              meta: { product: 'Saving failed; the client sees the reason.' },
              on: {
                'device.change': { target: 'editing', actions: setDeviceAddress, description: 'Typing again hides the error.', meta: { product: 'The client types again, so the error goes away.' } },
                'device.save': { guard: 'validDevice', target: 'saving', description: 'Tries the save again.', meta: { product: 'The client tries to save again.' } },
              },
            },
          },
        },
      },
    },
  },
});
