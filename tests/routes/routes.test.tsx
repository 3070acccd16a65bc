import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOCALE_TAGS } from '../../src/i18n';
import { renderApp } from '../support/render-app';
import { fakeApi } from '../support/fake-api';
import { LOCALES, SCREENS, TEXTS, urlOf } from './screens';

describe.each(LOCALES)('every route in %s', (locale) => {
  const texts = TEXTS[locale];

  it.each(SCREENS)('$path shows its screen, translated', async ({ path, title, shows, api, cookies }) => {
    const missing: string[] = [];
    await renderApp({ url: urlOf(locale, path), fetch: fakeApi(api).fetch, cookies, onMissingKey: (_, key) => missing.push(key) });

    expect(await screen.findByRole('heading', { level: 1, name: title(texts) })).toBeTruthy();
    await shows(texts);
    expect(document.documentElement.lang).toBe(LOCALE_TAGS[locale]);
    expect(missing).toEqual([]);
  });

  it('answers an unknown page with the 404 page and a link home', async () => {
    await renderApp({ url: urlOf(locale, '/no-such-page'), fetch: fakeApi().fetch });

    const page = (await screen.findByRole('heading', { level: 1, name: texts.errors.notFound })).closest('section')!;
    const home = locale === 'en-en' ? '/checkout/' : `/checkout/${locale}`;
    expect(within(page).getByRole('link', { name: texts.app.backHome }).getAttribute('href')).toBe(home);
  });
});

describe('unknown locales', () => {
  it.each(['/checkout/fr-fr/', '/checkout/fr-fr/success', '/checkout/DE-DE/waiting', '/checkout/en-en/'])('%s is the 404 page', async (url) => {
    await renderApp({ url, fetch: fakeApi().fetch });

    expect(await screen.findByRole('heading', { level: 1, name: TEXTS['en-en'].errors.notFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: TEXTS['en-en'].app.backHome })).toBeTruthy();
  });
});
