import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { serviceModel, serviceModelInput, serviceModelNoHost, serviceModelPending, serviceModelProduct } from '../scripts/statecharts/models/service.model';
import { COPIED_HINT_MS } from '../src/domain/constants';
import { isMacAddress } from '../src/domain/device';
import { MESSAGE_TEXTS } from '../src/domain/messages';
import {
  copyText,
  serviceGuards,
  serviceMachine,
  type ClientProduct,
  type LoadClientProductInput,
  type SaveDeviceAddressInput,
  type SaveDeviceAddressOutput,
  type ServiceContext,
} from './service.machine';

const { paths, error: pathsError } = generatePathsForTest(serviceModel);

describe('service machine: generated paths', () => {
  it('generates the expected number of paths', () => {
    expect(pathsError).toBeNull();
    expect(paths).toHaveLength(serviceModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(serviceModel, paths).transitionPairs).toEqual(serviceModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(serviceModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
    // Counted in the machine file: every on/always/after/onDone/onError entry, each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([25, 24]);
  });

  for (const path of paths) {
    it(formatScenario(serviceModel, path), () => {
      replayPath(serviceModel, path, (snapshot) => {
        const context = snapshot.context as ServiceContext;
        if (snapshot.matches('ready')) {
          // One of the model's three services (a saved device address changes only macAddress).
          expect([serviceModelProduct, serviceModelNoHost, serviceModelPending]).toContainEqual({ ...context.product, macAddress: serviceModelProduct.macAddress });
        }
        if (snapshot.matches({ ready: { copy: 'copied' } })) {
          expect(context.copyHint).toBe('copy.done');
          expect(context.copied).not.toBeNull();
          // Nothing empty is ever copied: the hint shows only for a field the service has.
          expect(copyText(context.product, context.copied!)).not.toBeNull();
          expect(copyText(context.product, context.copied!)).not.toBe('');
        } else {
          expect(context).toMatchObject({ copied: null, copyHint: null });
        }
        if (snapshot.matches({ ready: { device: 'invalid' } })) {
          expect(context.deviceError).toBe('device.invalid');
          expect(isMacAddress(context.deviceAddress)).toBe(false);
        }
        if (snapshot.matches({ ready: { device: 'saving' } })) expect(isMacAddress(context.deviceAddress)).toBe(true);
        if (snapshot.matches({ ready: { device: 'saved' } })) {
          expect(context.product?.macAddress.value).toBe('00:1A:79:12:34:56');
          expect(context.deviceError).toBeNull();
        }
        if (snapshot.matches({ ready: { device: 'failed' } })) expect(context.deviceError).toBe('This service is not yours.');
        if (snapshot.matches('failed')) expect(context.error).toBe('Service not found.');
      });
    });
  }
});

const context = (overrides: Partial<ServiceContext> = {}): ServiceContext => ({
  serviceid: 301,
  product: serviceModelProduct,
  copied: null,
  copyHint: null,
  deviceAddress: '',
  deviceError: null,
  error: null,
  player: null,
  ...overrides,
});

describe('service machine: guards', () => {
  it('hasText needs a non-empty value', () => {
    expect(serviceGuards.hasText(undefined, { text: 'TV-12345678' })).toBe(true);
    expect(serviceGuards.hasText(undefined, { text: null })).toBe(false);
    expect(serviceGuards.hasText(undefined, { text: '' })).toBe(false);
  });
  it('validDevice accepts MAC addresses with colons or dashes, in any case', () => {
    expect(serviceGuards.validDevice({ context: context({ deviceAddress: '00:1A:79:12:34:56' }) })).toBe(true);
    expect(serviceGuards.validDevice({ context: context({ deviceAddress: '00-1a-79-12-34-56' }) })).toBe(true);
    expect(serviceGuards.validDevice({ context: context({ deviceAddress: '00:1A:79:12:34' }) })).toBe(false);
    expect(serviceGuards.validDevice({ context: context({ deviceAddress: '' }) })).toBe(false);
  });
  it('hasPlaylist needs a playlist address', () => {
    expect(serviceGuards.hasPlaylist({ context: context() })).toBe(true);
    expect(serviceGuards.hasPlaylist({ context: context({ product: { ...serviceModelProduct, playlistUrl: null } }) })).toBe(false);
    expect(serviceGuards.hasPlaylist({ context: context({ product: null }) })).toBe(false);
  });
});

describe('service machine: copy values', () => {
  it('copies username, password, server host and playlist address', () => {
    expect(copyText(serviceModelProduct, 'username')).toBe('TV-12345678');
    expect(copyText(serviceModelProduct, 'password')).toBe('123456789012');
    expect(copyText(serviceModelProduct, 'host')).toBe('tv.example.net');
    expect(copyText(serviceModelProduct, 'playlist')).toBe('https://tv.example.net/playlist/TV-12345678.m3u');
  });
  it('has nothing to copy before provisioning', () => {
    expect(copyText({ ...serviceModelProduct, username: null }, 'username')).toBeNull();
    expect(copyText(null, 'host')).toBeNull();
  });
});

describe('service machine: with timers and the app actors', () => {
  afterEach(() => vi.useRealTimers());

  const start = (product: ClientProduct = serviceModelProduct) => {
    const clipboard: string[] = [];
    const downloads: number[] = [];
    const saved: SaveDeviceAddressInput[] = [];
    const machine = serviceMachine.provide({
      actors: {
        loadClientProduct: fromPromise<ClientProduct, LoadClientProductInput>(async () => product),
        saveDeviceAddress: fromPromise<SaveDeviceAddressOutput, SaveDeviceAddressInput>(async ({ input }) => {
          saved.push(input);
          return { serviceid: input.serviceid, macAddress: { id: 5, value: input.macAddress }, result: 'success' };
        }),
      },
      actions: {
        writeClipboard: (_, params) => clipboard.push(params.text),
        downloadPlaylist: (_, params) => downloads.push(params.serviceid),
      },
    });
    const actor = createActor(machine, { input: serviceModelInput });
    actor.start();
    return { actor, clipboard, downloads, saved };
  };

  it("shows 'Copied!' for 2.5 s, restarted by another copy", async () => {
    vi.useFakeTimers();
    const { actor, clipboard } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'copy.username' });
    expect(actor.getSnapshot().context).toMatchObject({ copied: 'username', copyHint: 'copy.done' });
    expect(MESSAGE_TEXTS['copy.done']).toBe('Copied!');
    await vi.advanceTimersByTimeAsync(COPIED_HINT_MS - 500);
    actor.send({ type: 'copy.host' });
    await vi.advanceTimersByTimeAsync(COPIED_HINT_MS - 1);
    expect(actor.getSnapshot().context.copied).toBe('host');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().context).toMatchObject({ copied: null, copyHint: null });
    expect(clipboard).toEqual(['TV-12345678', 'tv.example.net']);
    actor.stop();
  });

  it('copies nothing the service does not have yet', async () => {
    const { actor, clipboard } = start({ ...serviceModelProduct, username: null, password: null, playlistUrl: null });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'copy.username' });
    actor.send({ type: 'playlist.download' });
    expect(clipboard).toEqual([]);
    expect(actor.getSnapshot().context.copied).toBeNull();
    actor.stop();
  });

  it('validates, normalises and saves the device address', async () => {
    const { actor, saved } = start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'device.change', value: '00-1a-79' });
    actor.send({ type: 'device.save' });
    expect(actor.getSnapshot().context.deviceError).toBe('device.invalid');
    actor.send({ type: 'device.change', value: '00-1a-79-ab-cd-ef' });
    expect(actor.getSnapshot().context.deviceError).toBeNull();
    actor.send({ type: 'device.save' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ ready: { device: 'saved' } })).toBe(true));
    expect(saved).toEqual([{ serviceid: 301, macAddress: '00:1A:79:AB:CD:EF' }]);
    expect(actor.getSnapshot().context.product?.macAddress).toEqual({ id: 5, value: '00:1A:79:AB:CD:EF' });
    actor.stop();
  });

  it("downloads the service's playlist (by its id, never by the address with the password)", async () => {
    const { actor, downloads } = start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'playlist.download' });
    expect(downloads).toEqual([301]);
    actor.stop();
  });

  it('shows no player steps until one is picked, then the last one picked', async () => {
    const { actor } = start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(actor.getSnapshot().matches({ ready: { player: 'unpicked' } })).toBe(true);
    expect(actor.getSnapshot().context.player).toBeNull();
    actor.send({ type: 'player.select', player: 'mag' });
    expect(actor.getSnapshot().matches({ ready: { player: 'picked' } })).toBe(true);
    expect(actor.getSnapshot().context.player).toBe('mag');
    actor.send({ type: 'player.select', player: 'vlc' });
    expect(actor.getSnapshot().context.player).toBe('vlc');
    actor.stop();
  });

  it("starts ready on the server's painted service, loading nothing, so a player picked before the app ran shows its steps", () => {
    const loads: LoadClientProductInput[] = [];
    const machine = serviceMachine.provide({
      actors: {
        loadClientProduct: fromPromise<ClientProduct, LoadClientProductInput>(async ({ input }) => {
          loads.push(input);
          return serviceModelProduct;
        }),
      },
    });
    const actor = createActor(machine, { input: { ...serviceModelInput, product: serviceModelProduct } });
    // The replayed click reaches the actor before its view's effect starts it.
    actor.send({ type: 'player.select', player: 'kodi' });
    actor.start();
    expect(actor.getSnapshot().matches({ ready: { player: 'picked' } })).toBe(true);
    expect(actor.getSnapshot().context.player).toBe('kodi');
    expect(loads).toEqual([]);
    actor.stop();
  });
});
