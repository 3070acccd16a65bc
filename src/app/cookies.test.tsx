/** Cookie helpers in happy-dom, where a cookie with `Max-Age=0` stays readable until the clock moves. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteCookie, readCookie, writeCookie } from './cookies';

afterEach(() => vi.useRealTimers());

describe('deleteCookie', () => {
  it('removes a cookie at once, even while the clock stands still', () => {
    vi.useFakeTimers();
    writeCookie('probe', 'saved', { maxAgeSeconds: 60 });

    deleteCookie('probe');

    expect(readCookie('probe')).toBeNull();
  });

  it('adds nothing on a path the cookie is not on, so a cookie set again right after is the one read', () => {
    vi.useFakeTimers();
    writeCookie('probe', 'old', { maxAgeSeconds: 60 });

    // What renderApp does between tests: clear on both paths, then set anew.
    for (const path of ['/', '/checkout']) deleteCookie('probe', path);
    writeCookie('probe', 'new', { maxAgeSeconds: 60 });

    expect(document.cookie).toBe('probe=new');
    deleteCookie('probe');
  });
});
