import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadAfterFailedChunk } from './lazy';

describe('a chunk that fails to load', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('reloads the page at most once a minute', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 15, 12, 0, 0) });
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    const failure = new TypeError('Failed to fetch dynamically imported module');

    void reloadAfterFailedChunk(failure);
    expect(reload).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(30_000);
    await expect(reloadAfterFailedChunk(failure)).rejects.toThrow('Chunk load failed');
    expect(reload).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(31_000);
    void reloadAfterFailedChunk(failure);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
