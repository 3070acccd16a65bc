import { useMemo } from 'react';
import type { Currency } from '../domain/currency';
import { LOCALE_TAGS, type Translations } from '../i18n';
import { useLocale } from './locale';

/** The current locale's BCP 47 tag, for Intl. */
export function useLocaleTag(): string {
  return LOCALE_TAGS[useLocale()];
}

// Making a number format is costly (it loads the locale's data); each is made once and kept.
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(tag: string, currency: Currency): Intl.NumberFormat {
  const key = `${tag} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  return format;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar day's format in a locale; the day is UTC's, so every visitor and the server's render read the same date. */
function dayFormat(tag: string): Intl.DateTimeFormat {
  let format = dayFormats.get(tag);
  if (!format) {
    format = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' });
    dayFormats.set(tag, format);
  }
  return format;
}

/**
 * Money and calendar days (YYYY-MM-DD, like a due date) in the current locale, through Intl. `prepare` makes a
 * currency's format ahead of time (the first one made also loads Intl's data, a long task of its own), e.g. while a
 * form loads.
 */
export function useFormat() {
  const tag = useLocaleTag();
  return useMemo(
    () => ({
      money: (amount: number, currency: Currency) => moneyFormat(tag, currency).format(amount),
      day: (date: string) => dayFormat(tag).format(new Date(`${date}T00:00:00.000Z`)),
      prepare: (currency: Currency) => void moneyFormat(tag, currency),
    }),
    [tag],
  );
}

/** Runs `task` when the page is idle (soon, where the browser cannot tell); returns its cancellation. */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 1);
  return () => clearTimeout(handle);
}

export type CycleKey = keyof Translations['cycle'];
const CYCLE_KEYS: readonly CycleKey[] = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially', 'onetime'];

/** The translation key of a billing cycle ('Semi-Annually' → semiannually, 'One Time' → onetime). */
export function cycleKey(cycle: string): CycleKey {
  const key = cycle.replace(/[-\s]/g, '').toLowerCase();
  return CYCLE_KEYS.find((candidate) => candidate === key) ?? 'monthly';
}

