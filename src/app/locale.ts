/** The locale of the URL (nuxt-i18n's prefix-except-default strategy) and the browserLang cookie. */
import { notFound, redirect, type ParsedLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_COOKIE_MAX_AGE_S } from '../domain/constants';
import { DEFAULT_LOCALE, isLocale, LANGUAGE_COOKIE, pickLocale, type Locale } from '../domain/locale';
import { LOCALE_TAGS } from '../i18n';
import type { AppServices } from './services';

/** The locale of a URL prefix; the default locale has none, and an unknown prefix is a 404. */
export function parseLocalePrefix(prefix: string | undefined): Locale | undefined {
  if (prefix === undefined) return undefined;
  if (isLocale(prefix) && prefix !== DEFAULT_LOCALE) return prefix;
  throw notFound();
}

/** The prefix param of a locale: none for the default. */
export function localeParam(locale: Locale): Locale | undefined {
  return locale === DEFAULT_LOCALE ? undefined : locale;
}

/** Keeps the shopper's choice of language for a year. */
export function rememberLocale(app: AppServices, locale: Locale): void {
  app.cookies.write(LANGUAGE_COOKIE, locale, { maxAgeSeconds: LANGUAGE_COOKIE_MAX_AGE_S, path: '/' });
}

/**
 * The locale route's guard: a prefixed URL shows (and remembers) its locale; an unprefixed one
 * goes to the visitor's preferred locale (cookie, then Spanish for ES, then browser languages).
 */
export async function applyLocale(app: AppServices, prefix: Locale | undefined, location: ParsedLocation): Promise<void> {
  if (prefix === undefined) {
    const preferred = pickLocale({ cookie: app.cookies.read(LANGUAGE_COOKIE), country: app.session.visitor.country, browserLanguages: app.browserLanguages() });
    if (preferred !== DEFAULT_LOCALE) throw redirect({ href: `/${preferred}${location.href}`, replace: true });
  } else {
    rememberLocale(app, prefix);
  }
  const locale = prefix ?? DEFAULT_LOCALE;
  await app.locales.switchTo(locale);
  app.setDocumentLanguage(LOCALE_TAGS[locale]);
}

/** The locale a path most likely shows, so its translations load while the session does. */
export function likelyLocale(app: AppServices, pathname: string): Locale {
  const prefix = pathname.split('/').find(Boolean) ?? '';
  if (isLocale(prefix)) return prefix;
  return pickLocale({ cookie: app.cookies.read(LANGUAGE_COOKIE), browserLanguages: app.browserLanguages() });
}

/** The current locale (i18next's language, set by the locale route before it renders). */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}
