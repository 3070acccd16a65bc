import { currencyForCountry, type Currency } from './currency';

/** The six locales; en-en is the default and has no URL prefix. */
export const LOCALES = ['en-en', 'de-de', 'en-gb', 'es-es', 'nl-nl', 'pt-pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-en';

/** The cookie keeping the shopper's choice of language (read by the SPA and by the server picking a page's language). */
export const LANGUAGE_COOKIE = 'browserLang';

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/**
 * The language to show: the browserLang cookie wins, then Spanish for visitors from ES,
 * then the browser's languages, then the default.
 */
export function pickLocale(input: { cookie?: string | null; country?: string | null; browserLanguages?: readonly string[] }): Locale {
  const cookie = input.cookie?.toLowerCase();
  if (cookie && isLocale(cookie)) return cookie;
  if (input.country?.toUpperCase() === 'ES') return 'es-es';
  for (const language of input.browserLanguages ?? []) {
    const lower = language.toLowerCase();
    if (isLocale(lower)) return lower;
    const primary = lower.split('-')[0];
    // en-gb was taken above as a locale of its own; any other English is the default's.
    if (primary === 'en') return DEFAULT_LOCALE;
    const match = LOCALES.find((locale) => locale.startsWith(`${primary}-`));
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/** Locales with a currency of their own (the "translated currency setting"): en-gb shows GBP. */
const LOCALE_CURRENCY: Partial<Record<Locale, Currency>> = { 'en-gb': 'GBP' };

/** The currency a visitor pays in: the locale's own, else GBP for GB and EUR for everyone else. */
export function visitorCurrency(locale: Locale, country: string | null | undefined): Currency {
  return LOCALE_CURRENCY[locale] ?? currencyForCountry(country);
}
