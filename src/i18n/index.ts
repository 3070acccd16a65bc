import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../domain/locale';
import type en from './locales/en-en.json';
import deUrl from './locales/de-de.json?url';
import enUrl from './locales/en-en.json?url';
import gbUrl from './locales/en-gb.json?url';
import esUrl from './locales/es-es.json?url';
import nlUrl from './locales/nl-nl.json?url';
import ptUrl from './locales/pt-pt.json?url';

/** The translations of one locale; every locale has exactly the keys of en-en. */
export type Translations = typeof en;

/** Loads one locale's translations. */
export type LoadTranslations = (locale: Locale) => Promise<Translations>;

const TRANSLATION_URLS: Record<Locale, string> = { 'en-en': enUrl, 'en-gb': gbUrl, 'de-de': deUrl, 'es-es': esUrl, 'nl-nl': nlUrl, 'pt-pt': ptUrl };

/**
 * Translations are data, not code: each locale is a hashed JSON asset fetched on demand, so the
 * first screen's JavaScript carries none of them.
 */
export const fetchTranslations: LoadTranslations = async (locale) => {
  const response = await fetch(TRANSLATION_URLS[locale]);
  if (!response.ok) throw new Error(`Translations ${locale}: HTTP ${response.status}`);
  return (await response.json()) as Translations;
};

/** BCP 47 tags for Intl and the document language (en-en is plain English). */
export const LOCALE_TAGS: Record<Locale, string> = {
  'en-en': 'en',
  'en-gb': 'en-GB',
  'de-de': 'de-DE',
  'es-es': 'es-ES',
  'nl-nl': 'nl-NL',
  'pt-pt': 'pt-PT',
};

/** Each locale's name in its own language, for the language links. */
export const LOCALE_NAMES: Record<Locale, string> = {
  'en-en': 'English',
  'en-gb': 'English (UK)',
  'de-de': 'Deutsch',
  'es-es': 'Español',
  'nl-nl': 'Nederlands',
  'pt-pt': 'Português',
};

export interface I18nOptions {
  /** How translations load; fetched JSON assets by default (tests import them). */
  loadTranslations?: LoadTranslations;
  /** Called for every key a screen asks for that the current locale lacks (tests fail on it). */
  onMissingKey?: (locale: string, key: string) => void;
}

/** An i18next instance and the locales it loads on demand. */
export interface AppI18n {
  i18n: I18n;
  /** Starts loading a locale ahead of time (e.g. while the session loads). */
  prefetch(locale: Locale): void;
  /** Loads a locale once and makes it the current language. */
  switchTo(locale: Locale): Promise<void>;
}

export function createI18n({ loadTranslations = fetchTranslations, onMissingKey }: I18nOptions = {}): AppI18n {
  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: false,
    lowerCaseLng: true,
    supportedLngs: [...LOCALES],
    resources: {},
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: onMissingKey !== undefined,
    missingKeyHandler: (languages, _namespace, key) => onMissingKey?.(languages.join(','), key),
  });
  const loading = new Map<Locale, Promise<void>>();
  const load = (locale: Locale) => {
    let pending = loading.get(locale);
    if (!pending) {
      pending = loadTranslations(locale).then((translations) => void i18n.addResourceBundle(locale, 'translation', translations));
      // A failed load is tried again next time.
      pending.catch(() => loading.delete(locale));
      loading.set(locale, pending);
    }
    return pending;
  };
  return {
    i18n,
    prefetch: (locale) => void load(locale).catch(() => {}),
    async switchTo(locale) {
      await load(locale);
      if (i18n.language !== locale) await i18n.changeLanguage(locale);
    },
  };
}
