/**
 * Admission to the store. The store is what saturates first (PGlite runs one query at a time; PostgreSQL's pool
 * has a few connections), and a request that waits for it waits in a queue nobody bounds: under a flood every
 * answer comes late instead of some coming at once. The gate counts the requests using the store and lets at most
 * `concurrency` in; the next ones wait their turn in order, but only as long as their turn is expected within
 * `maxWaitMs` (from how long a request has held its place lately): past that they are refused at once, and one
 * still waiting after `maxWaitMs` is refused then. A request has also waited before the gate sees it: while the
 * event loop is busy (PGlite runs its queries on it), the requests that came meanwhile wait unread; that wait, the
 * loop's lag, counts too, so a loop behind by more than `maxWaitMs` refuses store work until it has caught up. A refused request has done nothing yet: it is refused before
 * its handler starts, so it neither wrote nor claimed anything (an order's Idempotency-Key stays free).
 */

/** Gives the place back; calling it again does nothing. */
export type Release = () => void;

/** A request waiting for its turn: `admitted` resolves with its Release, or with null when refused or cancelled. */
export interface Ticket {
  admitted: Promise<Release | null>;
  /** The caller went away: leave the queue (admitted then resolves null), or give the place back if already in. */
  cancel(): void;
}

export interface StoreGateOptions {
  /** Requests using the store at once. */
  concurrency: number;
  /** The longest a request waits for its turn. */
  maxWaitMs: number;
  /** Milliseconds, monotonic (performance.now by default); tests drive it. */
  now?: () => number;
  /** How late the event loop is now, in ms (createLoopLag); none by default. */
  lagMs?: () => number;
  /** A flood: this many requests came to the gate within `floodWindowMs` (0: always). Only a flood is shed. */
  floodArrivals?: number;
  floodWindowMs?: number;
}

/** Requests per second a shopper's pages never make (a page and its calls are a dozen): past it the gate sheds. */
export const FLOOD_ARRIVALS = 100;
export const FLOOD_WINDOW_MS = 1_000;



export interface StoreGateStats {
  inFlight: number;
  waiting: number;
  /** How long an admitted request has lately held its place (moving average), in ms. */
  holdMs: number;
  admitted: number;
  refused: number;
}

export interface StoreGate {
  /** A Release at once, a Ticket to wait on, or null: refused at once (its turn would come too late). */
  enter(): Release | Ticket | null;
  stats(): StoreGateStats;
}

/** Weight of the newest hold time in the moving average. */
const HOLD_WEIGHT = 0.1;

interface Waiter {
  resolve(release: Release | null): void;
  timer: NodeJS.Timeout | null;
}

export function createStoreGate({
  concurrency, maxWaitMs, now = () => performance.now(), lagMs = () => 0, floodArrivals = FLOOD_ARRIVALS, floodWindowMs = FLOOD_WINDOW_MS,
}: StoreGateOptions): StoreGate {
  if (!(concurrency >= 1) || !(maxWaitMs > 0)) throw new Error(`createStoreGate: concurrency ${concurrency} and maxWaitMs ${maxWaitMs} must be positive`);
  let inFlight = 0;
  // A Set keeps insertion order (first in, first out) and drops a cancelled waiter in O(1).
  const queue = new Set<Waiter>();
  // Before any request has finished, assume a place is held a quarter of the wait: a queue of 4 × concurrency.
  let holdMs = maxWaitMs / 4;
  let admitted = 0;
  let refused = 0;

  const place = (): Release => {
    inFlight += 1;
    admitted += 1;
    const since = now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      holdMs += HOLD_WEIGHT * (now() - since - holdMs);
      next();
    };
  };

  /** A place in line; refused if still waiting after `deadlineMs` (null: it waits its turn). */
  function wait(deadlineMs: number | null): Ticket {
    let settled = false;
    let release: Release | null = null;
    let waiter!: Waiter;
    const admittedPromise = new Promise<Release | null>((resolve) => {
      waiter = {
        resolve: (value) => {
          settled = true;
          release = value;
          resolve(value);
        },
        timer: deadlineMs === null ? null : setTimeout(() => {
          queue.delete(waiter);
          refused += 1;
          waiter.resolve(null);
        }, deadlineMs),
      };
    });
    queue.add(waiter);
    return {
      admitted: admittedPromise,
      cancel: () => {
        if (settled) {
          release?.();
          return;
        }
        queue.delete(waiter);
        if (waiter.timer) clearTimeout(waiter.timer);
        waiter.resolve(null);
      },
    };
  }

  function next(): void {
    while (inFlight < concurrency && queue.size > 0) {
      const waiter = queue.values().next().value as Waiter;
      queue.delete(waiter);
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.resolve(place());
    }
  }

  // When the last `floodArrivals` requests came: a ring, oldest at `oldest` once full.
  const arrivals: number[] = [];
  let oldest = 0;
  const arrive = (): boolean => {
    if (floodArrivals <= 0) return true;
    const at = now();
    if (arrivals.length < floodArrivals) {
      arrivals.push(at);
    } else {
      arrivals[oldest] = at;
      oldest = (oldest + 1) % floodArrivals;
    }
    // The last `floodArrivals` requests, this one included, came within the window.
    return arrivals.length === floodArrivals && at - (arrivals[oldest] as number) < floodWindowMs;
  };

  return {
    enter() {
      // A shopper's pages and calls, on however busy a machine, wait their turn as they always did: only a flood is shed.
      const flood = arrive();
      if (!flood) return inFlight < concurrency && queue.size === 0 ? place() : wait(null);
      // In a flood the loop's lag is the wait of the requests read late (PGlite serves each within the loop): past the bound even a free store refuses.
      const lag = lagMs();
      if (lag <= maxWaitMs && inFlight < concurrency && queue.size === 0) return place();
      // Places free up at about concurrency / holdMs per ms: the wait of the (n + 1)th in line, after the loop's.
      if (lag + ((queue.size + 1) * holdMs) / concurrency > maxWaitMs) {
        refused += 1;
        return null;
      }
      return wait(maxWaitMs);
    },
    stats: () => ({ inFlight, waiting: queue.size, holdMs, admitted, refused }),
  };
}

/** How often the loop's lag is sampled. */
const LAG_SAMPLE_MS = 10;

/**
 * The event loop's lag, from a timer due every 10 ms. Timers run first in each turn of the loop, then the sockets
 * are read. A turn that goes on reading and serving requests (PGlite runs its queries inside it) makes the timer
 * overdue, and the requests read late in it have waited about that long: how overdue it is now counts at once.
 * The requests read in a turn also waited through the turn before; that counts once the loop has been late two
 * ticks in a row (a flood), not after one long turn alone (a page rendered, a collection), so a request that comes
 * just after a single busy moment is not refused for it.
 */
export function createLoopLag(now: () => number = () => performance.now()): { lagMs(): number; stop(): void } {
  let lag = 0;
  let before = 0;
  let last = now();
  const timer = setInterval(() => {
    const at = now();
    before = lag;
    lag = Math.max(0, at - last - LAG_SAMPLE_MS);
    last = at;
  }, LAG_SAMPLE_MS);
  timer.unref();
  return {
    lagMs: () => Math.max(now() - last - LAG_SAMPLE_MS, Math.min(lag, before)),
    stop: () => clearInterval(timer),
  };
}

/**
 * The defaults by engine, tried with `npm run bench -- --only=overload`: one request per store connection. PGlite
 * runs its queries on the event loop itself, so a second request in flight overlaps nothing and only makes each
 * turn of the loop longer (1 to 4 were tried); PostgreSQL gets one request per pooled connection, so none waits
 * inside the pool. 20 ms of waiting keeps a refusal's own latency under DESIGN.md's 50 ms with room for the loop.
 */
export const STORE_GATE_DEFAULTS = {
  pglite: { perConnection: 1, waitMs: 20 },
  postgres: { perConnection: 1, waitMs: 20 },
} as const;

/** The gate's settings from the configuration (null: the engine's default) and the store; null when turned off (concurrency 0). */
export function storeGateSettings(
  limits: { storeConcurrency: number | null; storeWaitMs: number | null },
  store: { engine: keyof typeof STORE_GATE_DEFAULTS; connections: number },
): { concurrency: number; maxWaitMs: number } | null {
  const defaults = STORE_GATE_DEFAULTS[store.engine];
  const concurrency = limits.storeConcurrency ?? defaults.perConnection * store.connections;
  if (concurrency === 0) return null;
  return { concurrency, maxWaitMs: limits.storeWaitMs ?? defaults.waitMs };
}
