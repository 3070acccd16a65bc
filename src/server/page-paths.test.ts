import { describe, expect, it } from 'vitest';
import { cleanPath, isPageRequest } from './page-paths';

describe('cleanPath', () => {
  it.each([
    ['/checkout/', '/checkout/'],
    ['/checkout', '/checkout'],
    ['/checkout/en-gb/waiting', '/checkout/en-gb/waiting'],
    ['/checkout/./success', '/checkout/success'],
    ['/checkout/en-gb//waiting', '/checkout/en-gb/waiting'],
    ['//checkout/', '/checkout/'],
    ['/checkout//', '/checkout/'],
    ['/checkout/%2e/success', '/checkout/success'],
    ['/checkout/de-de/%2E%2e/waiting', '/checkout/waiting'],
    ['/checkout/de-de/..', '/checkout/'],
    ['/checkout/../../etc/passwd', '/etc/passwd'],
    ['/checkout/..', '/'],
    ['/checkout/...', '/checkout/...'],
    ['/checkout/%5Cevil.example', '/checkout/%5Cevil.example'],
  ])('%s → %s', (path, clean) => {
    expect(cleanPath(path)).toBe(clean);
  });
});

describe('isPageRequest', () => {
  it('is a GET or HEAD under /checkout outside the API, the affiliate call and the assets', () => {
    expect(isPageRequest('GET', '/checkout/')).toBe(true);
    expect(isPageRequest('HEAD', '/checkout/de-de/waiting')).toBe(true);
    expect(isPageRequest('GET', '/checkout/nope')).toBe(true);
    expect(isPageRequest('POST', '/checkout/')).toBe(false);
    expect(isPageRequest('GET', '/checkout/api/health')).toBe(false);
    expect(isPageRequest('GET', '/checkout/aff/new_click')).toBe(false);
    expect(isPageRequest('GET', '/checkout/assets/index.js')).toBe(false);
    expect(isPageRequest('GET', '/checkoutx')).toBe(false);
    expect(isPageRequest('GET', '/')).toBe(false);
  });
});
