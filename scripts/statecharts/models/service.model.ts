import { fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import {
  serviceMachine,
  serviceMachineDocs,
  type ClientProduct,
  type LoadClientProductInput,
  type SaveDeviceAddressInput,
  type SaveDeviceAddressOutput,
  type ServiceContext,
  type ServiceInput,
} from '../../../machines/service.machine';
import { COPIED_HINT_MS } from '../../../src/domain/constants';
import type { PlayerId } from '../../../src/domain/panel';
import type { MachineModel } from '../graph';

/** The success page of service 301. */
export const serviceModelInput: ServiceInput = { serviceid: 301 };

/** A provisioned service without a device address yet. */
export const serviceModelProduct: ClientProduct = {
  serviceid: 301,
  orderid: 101,
  pid: 1,
  name: 'TV Monthly',
  status: 'Active',
  billingcycle: 'Monthly',
  username: 'TV-12345678',
  password: '123456789012',
  serverhostname: 'tv.example.net',
  playlistUrl: 'https://tv.example.net/playlist/TV-12345678.m3u',
  macAddress: { id: 5, value: '' },
  extraConnect: { id: 2, value: 0 },
  reseller: null,
  nextduedate: null,
};

/** Provisioned without a server host or playlist yet (the contract allows an empty host and no playlist). */
export const serviceModelNoHost: ClientProduct = { ...serviceModelProduct, serverhostname: '', playlistUrl: null };
/** Not provisioned yet: no credentials (null until provisioning), no host, no playlist. */
export const serviceModelPending: ClientProduct = { ...serviceModelProduct, username: null, password: null, serverhostname: '', playlistUrl: null };
const partial = [serviceModelNoHost, serviceModelPending];

const HINT_TIMER = `xstate.after.${COPIED_HINT_MS}.serviceCopied`;

/** The players picked in turn: an Xtream app, then a MAG box, then a playlist app (one of each kind of steps). */
const NEXT_PLAYER: Record<string, PlayerId | null> = { none: 'tivimate', tivimate: 'mag', mag: 'kodi', kodi: null };
const never = () => new Promise<never>(() => {});

const machine = serviceMachine.provide({
  actors: {
    loadClientProduct: fromPromise<ClientProduct, LoadClientProductInput>(never),
    saveDeviceAddress: fromPromise<SaveDeviceAddressOutput, SaveDeviceAddressInput>(never),
  },
});

function events(snapshot: AnyMachineSnapshot): Array<EventObject & Record<string, unknown>> {
  const context = snapshot.context as ServiceContext;
  // Copy buttons are tried while the device field is untouched, device edits while no hint shows.
  const deviceUntouched = snapshot.matches({ ready: { device: 'editing' } }) && context.deviceAddress === '';
  const hintHidden = context.copied === null;
  const copies = [{ type: 'copy.username' }, { type: 'copy.password' }, { type: 'copy.host' }, { type: 'copy.playlist' }, { type: HINT_TIMER }];
  const next = NEXT_PLAYER[context.player ?? 'none'];
  // A service provisioned in part: only its copy buttons, the playlist and one player (no steps without a host) are tried.
  if (context.product && context.product.serverhostname === '') {
    return [...copies, { type: 'playlist.download' }, ...(context.player === null ? [{ type: 'player.select', player: 'vlc' }] : [])];
  }
  return [
    ...partial.map((output) => ({ type: 'xstate.done.actor.loadClientProduct', output })),
    { type: 'xstate.done.actor.loadClientProduct', output: serviceModelProduct },
    { type: 'xstate.error.actor.loadClientProduct', error: { error: { code: 'not_found', message: 'Service not found.' } } },
    { type: 'service.retry' },
    ...(deviceUntouched ? copies : []),
    ...(deviceUntouched && hintHidden && next ? [{ type: 'player.select', player: next }] : []),
    ...(hintHidden && context.deviceAddress === '' ? [{ type: 'device.change', value: '00-1a-79-12-34-56' }, { type: 'device.change', value: 'not-a-mac' }] : []),
    ...(hintHidden && snapshot.matches({ ready: { device: 'saved' } }) ? [{ type: 'device.change', value: '' }] : []),
    ...(hintHidden && snapshot.matches({ ready: { device: 'failed' } }) ? [{ type: 'device.change', value: 'not-a-mac' }] : []),
    ...(hintHidden ? [{ type: 'device.save' }] : []),
    { type: 'xstate.done.actor.saveDeviceAddress', output: { serviceid: 301, macAddress: { id: 5, value: '00:1A:79:12:34:56' }, result: 'success' } },
    { type: 'xstate.error.actor.saveDeviceAddress', error: { error: { code: 'forbidden', message: 'This service is not yours.' } } },
    { type: 'playlist.download' },
  ];
}

function describeEvent(event: EventObject): string {
  const payload = event as EventObject & { value?: string };
  switch (event.type) {
    case 'xstate.done.actor.loadClientProduct': {
      const product = (event as EventObject & { output?: ClientProduct }).output;
      return product?.username === null ? 'service loads not provisioned yet' : product?.serverhostname === '' ? 'service loads without host and playlist' : 'service loads';
    }
    case 'xstate.error.actor.loadClientProduct': return 'service fails to load';
    case 'service.retry': return 'retry loading';
    case 'copy.username': return 'copy username';
    case 'copy.password': return 'copy password';
    case 'copy.host': return 'copy server host';
    case 'copy.playlist': return 'copy playlist address';
    case HINT_TIMER: return '2.5 s pass';
    case 'device.change': return payload.value ? `type device address ${payload.value}` : 'clear the device address';
    case 'device.save': return 'add device';
    case 'xstate.done.actor.saveDeviceAddress': return 'device saved';
    case 'xstate.error.actor.saveDeviceAddress': return 'device save refused';
    case 'playlist.download': return 'download playlist';
    case 'player.select': return `pick player ${String((event as EventObject & { player?: string }).player)}`;
    default: return event.type;
  }
}

/** The success page walked with a provisioned service that has no device address yet. */
export const serviceModel: MachineModel = {
  name: 'service',
  machine,
  inputs: [
    { name: 'visited', input: serviceModelInput },
    { name: "painted by the server with the service", input: { ...serviceModelInput, product: serviceModelProduct } },
  ],
  events,
  describeEvent,
  expectedPaths: 28,
  expectedPairs: { walked: 25, total: 142 },
  docs: serviceMachineDocs,
  unreachable: {
    'serviceCopied → serviceCopied on copy.username [hasText]: false':
      'A copy succeeded only on a provisioned service, which has its username (credentials are null only until provisioning, both together).',
    'serviceCopied → serviceCopied on copy.password [hasText]: false':
      'A copy succeeded only on a provisioned service, which has its password (credentials are null only until provisioning, both together).',
    'service.ready.device.failed → serviceDeviceSaving on device.save [validDevice]: false':
      'A failed save keeps the address it sent, which passed validDevice to be sent; typing (device.change) leaves failed for editing.',
  },
};
