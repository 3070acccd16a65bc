import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES, isAppPage } from '../domain/app-routes';
import { createApp } from './app';

/** The server's 404s come from APP_ROUTES: the router must have exactly those pages, no more. */
describe('the app routes the server knows', () => {
  it('are the router\'s pages, under the optional locale prefix', () => {
    const app = createApp({
      history: createMemoryHistory({ initialEntries: ['/checkout/'] }),
      fetch: (() => new Promise<Response>(() => {})) as typeof fetch,
      baseUrl: 'http://routes.invalid',
      loadTranslations: async () => ({}) as never,
      browserLanguages: () => [],
      store: { read: () => ({}), update: () => {}, clear: () => {} },
    });
    // The pages are the locale route's children, each with the path it was created with.
    const [localeRoute] = app.router.routeTree.children as unknown as Array<{ options: { path: string }; children: Array<{ options: { path: string } }> }>;
    expect(localeRoute?.options.path).toBe('{-$locale}');
    const routerPaths = (localeRoute?.children ?? []).map((route) => route.options.path);
    expect(routerPaths.sort()).toEqual(Object.values(APP_ROUTES).sort());
  });

  it.each([
    '/checkout', '/checkout/', '/checkout/waiting', '/checkout/waiting/', '/checkout/de-de', '/checkout/de-de/', '/checkout/pt-pt/resellers/success',
    '/checkout/Resellers', '/checkout/en-gb/upsell', '/checkout/renew', '/checkout/nl-nl/renew/',
  ])('%s is a page', (path) => expect(isAppPage(path)).toBe(true));

  it.each([
    '/checkout/nope', '/checkout/xx-yy/', '/checkout/fr-fr/success', '/checkout/DE-DE/waiting', '/checkout/en-en/', '/checkout/de-de/de-de/',
    '/checkout/resellers/nope', '/checkout/waiting/extra', '/', '/checkoutx', '/other/waiting',
  ])('%s is not a page', (path) => expect(isAppPage(path)).toBe(false));
});
