/** The page's cookies in happy-dom, where a cookie with `Max-Age=0` stays readable until the clock moves; and the server render's, which are read-only. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserSide, serverSide } from './browser';

const { read: readCookie, write: writeCookie, delete: deleteCookie } = browserSide().cookies;

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

describe("the server render's page", () => {
  it("reads the request's cookies, decoded, and writes none", () => {
    const page = serverSide({ cookie: 'browserLang=de-de; checkout=%7B%22a%22%3A1%7D; broken=%E0%A4%A', languages: ['nl-NL'] });
    expect(page.cookies.read('browserLang')).toBe('de-de');
    expect(page.cookies.read('checkout')).toBe('{"a":1}');
    expect(page.cookies.read('broken')).toBeNull();
    expect(page.cookies.read('missing')).toBeNull();
    page.cookies.write('browserLang', 'en-gb', { maxAgeSeconds: 60 });
    page.cookies.delete('checkout');
    expect(page.cookies.read('browserLang')).toBe('de-de');
    expect(page.cookies.read('checkout')).toBe('{"a":1}');
    expect(page.languages()).toEqual(['nl-NL']);
    expect(document.cookie).toBe('');
  });
});
