/**
 * Waiting without time: the walks run under fake timers that move only when a step says so, so
 * Testing Library's waitFor (which waits on those timers) cannot be used. This waits on the real
 * event loop instead (responses, lazy chunks, React) and never lets a timer of the app fire early.
 */
import { act, configure } from '@testing-library/react';
import { vi } from 'vitest';

// Taken before any test installs fake timers.
const realSetTimeout = globalThis.setTimeout;
const realNow = () => performance.now();

/**
 * Testing Library drains after each user-event action with a setTimeout(0), which fake timers hold
 * forever (it advances only jest's): the same drain, on the real event loop.
 */
configure({
  asyncWrapper: async (callback) => {
    const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const previous = scope.IS_REACT_ACT_ENVIRONMENT;
    scope.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const result: unknown = await callback();
      await new Promise<void>((resolve) => realSetTimeout(resolve, 0));
      return result;
    } finally {
      scope.IS_REACT_ACT_ENVIRONMENT = previous;
    }
  },
});

/** Lets promises, lazy imports and React work finish: one turn of the real event loop, inside act. */
export async function flush(): Promise<void> {
  await act(async () => {
    await new Promise<void>((resolve) => realSetTimeout(resolve, 0));
    // Timers due now (zero delays) fire; no fake time passes.
    if (vi.isFakeTimers()) vi.advanceTimersByTime(0);
  });
}

/**
 * Waits (real time, at most `timeoutMs`) until `check` returns something other than false without
 * throwing; fails with `what` and the last error.
 */
export async function settle<T>(check: () => T, what: string, timeoutMs = 8_000): Promise<Exclude<T, false>> {
  const deadline = realNow() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const result = check();
      if (result !== false) return result as Exclude<T, false>;
      lastError = null;
    } catch (error) {
      lastError = error;
    }
    if (realNow() > deadline) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`Timed out waiting for ${what}${detail}`, { cause: lastError });
    }
    await flush();
  }
}

/** Moves the fake clock (timers fire in order, promises settle in between), inside act. */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await flush();
}
