import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoopLag, createStoreGate, storeGateSettings, type Release, type Ticket } from './store-gate';

const isTicket = (entered: Release | Ticket | null): entered is Ticket => entered !== null && typeof entered === 'object';

describe('store gate', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('lets `concurrency` requests in at once, queues the next, and admits them in order as places are given back', async () => {
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 2, maxWaitMs: 100, now });
    const first = gate.enter();
    const second = gate.enter();
    expect(typeof first).toBe('function');
    expect(typeof second).toBe('function');
    const third = gate.enter();
    const fourth = gate.enter();
    expect(isTicket(third) && isTicket(fourth)).toBe(true);
    expect(gate.stats()).toMatchObject({ inFlight: 2, waiting: 2 });
    (first as Release)();
    (first as Release)();
    expect(gate.stats()).toMatchObject({ inFlight: 2, waiting: 1 });
    await expect((third as Ticket).admitted).resolves.toBeTypeOf('function');
    (second as Release)();
    await expect((fourth as Ticket).admitted).resolves.toBeTypeOf('function');
    expect(gate.stats()).toMatchObject({ inFlight: 2, waiting: 0, admitted: 4, refused: 0 });
  });

  it('refuses at once when the turn would come later than maxWaitMs, from how long places have been held', () => {
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 1, maxWaitMs: 20, now });
    // Places held 40 ms each: the average moves towards 40 ms, so even the first in line would wait too long.
    for (let index = 0; index < 30; index += 1) {
      const release = gate.enter() as Release;
      clock += 40;
      release();
    }
    expect(gate.stats().holdMs).toBeGreaterThan(20);
    const holder = gate.enter();
    expect(typeof holder).toBe('function');
    expect(gate.enter()).toBeNull();
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 0, refused: 1 });
  });

  it('bounds the line by the expected wait: short holds allow a longer line', () => {
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 2, maxWaitMs: 20, now });
    for (let index = 0; index < 60; index += 1) {
      const release = gate.enter() as Release;
      clock += 2;
      release();
    }
    gate.enter();
    gate.enter();
    const entered = Array.from({ length: 40 }, () => gate.enter());
    const waiting = entered.filter(isTicket).length;
    // About concurrency × maxWaitMs / holdMs = 2 × 20 / 2 = 20 wait; the rest are refused at once.
    expect(waiting).toBeGreaterThanOrEqual(18);
    expect(waiting).toBeLessThanOrEqual(21);
    expect(entered.filter((each) => each === null)).toHaveLength(40 - waiting);
  });

  it("in a flood counts the event loop's lag as waiting: a loop behind by more than maxWaitMs refuses even with places free", () => {
    let lag = 25;
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 4, maxWaitMs: 20, now, lagMs: () => lag });
    expect(gate.enter()).toBeNull();
    lag = 5;
    expect(typeof gate.enter()).toBe('function');
    expect(gate.stats()).toMatchObject({ inFlight: 1, refused: 1 });
  });

  it('refuses a request still waiting after maxWaitMs, and that request never takes a place', async () => {
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 1, maxWaitMs: 20, now });
    const holder = gate.enter() as Release;
    const waiting = gate.enter() as Ticket;
    vi.advanceTimersByTime(20);
    await expect(waiting.admitted).resolves.toBeNull();
    holder();
    expect(gate.stats()).toMatchObject({ inFlight: 0, waiting: 0, refused: 1 });
  });

  it('lets a caller that went away leave the line', async () => {
    const gate = createStoreGate({ floodArrivals: 0, concurrency: 1, maxWaitMs: 100, now });
    const holder = gate.enter() as Release;
    const gone = gate.enter() as Ticket;
    const next = gate.enter() as Ticket;
    gone.cancel();
    await expect(gone.admitted).resolves.toBeNull();
    holder();
    await expect(next.admitted).resolves.toBeTypeOf('function');
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 0 });
  });

  it('takes the engine\'s defaults unless told, and is off at concurrency 0', () => {
    expect(storeGateSettings({ storeConcurrency: null, storeWaitMs: null }, { engine: 'pglite', connections: 1 })).toEqual({ concurrency: 1, maxWaitMs: 20 });
    expect(storeGateSettings({ storeConcurrency: null, storeWaitMs: null }, { engine: 'postgres', connections: 10 })).toEqual({ concurrency: 10, maxWaitMs: 20 });
    expect(storeGateSettings({ storeConcurrency: 3, storeWaitMs: 40 }, { engine: 'postgres', connections: 10 })).toEqual({ concurrency: 3, maxWaitMs: 40 });
    expect(storeGateSettings({ storeConcurrency: 0, storeWaitMs: null }, { engine: 'pglite', connections: 1 })).toBeNull();
  });
});

describe('loop lag', () => {
  afterEach(() => vi.useRealTimers());

  it('counts a turn while it lasts, and a late loop once it has been late twice in a row, not after one long turn', () => {
    vi.useFakeTimers();
    let clock = 0;
    const loop = createLoopLag(() => clock);
    // Each timer run below is the 10 ms timer firing with the clock where it is then.
    const fire = (at: number) => {
      clock = at;
      vi.advanceTimersByTime(10);
    };
    try {
      fire(10);
      expect(loop.lagMs()).toBe(0);
      // A turn going on 40 ms past the last tick: the timer is 30 ms overdue now.
      clock = 50;
      expect(loop.lagMs()).toBe(30);
      // The turn over, the timer ran 30 ms late: one long turn alone is then forgotten...
      fire(50);
      expect(loop.lagMs()).toBe(0);
      // ...but late again on the next tick, the loop is behind.
      fire(85);
      expect(loop.lagMs()).toBe(25);
      fire(95);
      expect(loop.lagMs()).toBe(0);
    } finally {
      loop.stop();
    }
  });
});

describe('the store gate without a flood', () => {
  it("lets a shopper's calls wait their turn however late the loop is: nothing is refused below the flood's rate", async () => {
    let at = 0;
    const gate = createStoreGate({ concurrency: 1, maxWaitMs: 20, now: () => at, lagMs: () => 500, floodArrivals: 100, floodWindowMs: 1_000 });
    const holder = gate.enter();
    expect(typeof holder).toBe('function');
    const waiting = gate.enter() as Ticket;
    expect(waiting).not.toBeNull();
    at += 60_000;
    (holder as Release)();
    const release = await waiting.admitted;
    expect(typeof release).toBe('function');
    expect(gate.stats()).toMatchObject({ refused: 0, admitted: 2 });
  });

  it('sheds once 100 requests came within a second: a free store refuses while the loop is behind by more than the wait', () => {
    let at = 0;
    const gate = createStoreGate({ concurrency: 1, maxWaitMs: 20, now: () => at, lagMs: () => 150 });
    const releases: Release[] = [];
    // 99 arrivals, each served at once: no flood yet.
    for (let index = 0; index < 99; index += 1) {
      at += 5;
      const entered = gate.enter();
      expect(typeof entered, `arrival ${index + 1}`).toBe('function');
      (entered as Release)();
    }
    // The hundredth within the same second: a flood, and the loop is 150 ms behind.
    at += 5;
    expect(gate.enter()).toBeNull();
    // A second later, the rate is down again.
    at += 2_000;
    releases.push(gate.enter() as Release);
    expect(typeof releases[0]).toBe('function');
    expect(gate.stats().refused).toBe(1);
  });
});
