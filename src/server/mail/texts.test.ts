import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../domain/locale';
import { MAIL_TEXTS } from './texts';

/** Every string of a texts object by its dotted path. */
function leaves(value: unknown, path = ''): Record<string, string> {
  if (typeof value === 'string') return { [path]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => leaves(child, path ? `${path}.${key}` : key)));
}
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('mail texts', () => {
  const english = leaves(MAIL_TEXTS['en-en']);

  it.each(LOCALES)('%s has every key of en-en, none empty, with the same {placeholders}', (locale) => {
    const texts = leaves(MAIL_TEXTS[locale]);
    expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english[key] ?? ''));
    }
  });

  it('the four other languages are translated, not English left in place', () => {
    for (const locale of ['de-de', 'es-es', 'nl-nl', 'pt-pt'] as const) {
      const texts = leaves(MAIL_TEXTS[locale]);
      const same = Object.keys(english).filter((key) => key !== 'brand' && key !== 'tag' && texts[key] === english[key]);
      // "Total" is the word in Spanish and Portuguese too.
      expect(same.filter((key) => key !== 'receipt.total'), locale).toEqual([]);
    }
  });
});
