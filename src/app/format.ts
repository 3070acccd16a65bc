import { useMemo } from 'react';
import type { Currency } from '../domain/currency';
import { LOCALE_TAGS, type Translations } from '../i18n';
import { useLocale } from './locale';

/** The current locale's BCP 47 tag, for Intl. */
export function useLocaleTag(): string {
  return LOCALE_TAGS[useLocale()];
}

/** Money in the current locale, through Intl. */
export function useFormat() {
  const tag = useLocaleTag();
  return useMemo(() => ({ money: (amount: number, currency: Currency) => new Intl.NumberFormat(tag, { style: 'currency', currency }).format(amount) }), [tag]);
}

export type CycleKey = keyof Translations['cycle'];
const CYCLE_KEYS: readonly CycleKey[] = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially', 'onetime'];

/** The translation key of a billing cycle ('Semi-Annually' → semiannually, 'One Time' → onetime). */
export function cycleKey(cycle: string): CycleKey {
  const key = cycle.replace(/[-\s]/g, '').toLowerCase();
  return CYCLE_KEYS.find((candidate) => candidate === key) ?? 'monthly';
}

