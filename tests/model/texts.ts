/** What the shopper reads on the walked screens: the en-en texts, money as Intl writes it, billing cycles. */
import type { Currency } from '../../src/domain/currency';
import { LOCALE_TAGS } from '../../src/i18n';
import enTexts from '../../src/i18n/locales/en-en.json';
import { cycleKey } from '../../src/app/format';

/** The walks run in en-en, the locale without a URL prefix. */
export const en = enTexts;

/** An amount as the views write it in en-en. */
export const money = (amount: number, currency: Currency) => new Intl.NumberFormat(LOCALE_TAGS['en-en'], { style: 'currency', currency }).format(amount);

/** A billing cycle as the plan cards and totals name it ('Monthly' → 'per month'). */
export const cycleText = (cycle: string) => en.cycle[cycleKey(cycle)];

/** Fills a translation's {{placeholders}}. */
export const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name] ?? ''));
