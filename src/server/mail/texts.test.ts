import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../domain/locale';
import type { RenewalStage } from './outbox';
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
      // "Total" is the word in Spanish and Portuguese too, and "Plan" in Spanish.
      expect(same.filter((key) => key !== 'receipt.total' && !(locale === 'es-es' && key === 'renewal.plan')), locale).toEqual([]);
    }
  });

  // The five renewal notices of the renewal rules: the invoice issued, one day before the due date, on it, suspended, terminated.
  const RENEWAL_STAGES: RenewalStage[] = ['invoice', 'due-soon', 'due', 'suspended', 'terminated'];

  it.each(LOCALES)('%s words every renewal notice: a subject, heading and intro of its own for each of the five stages', (locale) => {
    const { stages } = MAIL_TEXTS[locale].renewal;
    expect(Object.keys(stages).sort()).toEqual([...RENEWAL_STAGES].sort());
    for (const part of ['subject', 'heading', 'intro'] as const) {
      const texts = RENEWAL_STAGES.map((stage) => stages[stage][part]);
      expect(new Set(texts).size, `${locale} ${part}`).toBe(RENEWAL_STAGES.length);
    }
  });

  it.each(LOCALES)('%s: a renewal notice names its plan in the subject and says how long its link works', (locale) => {
    const { stages, renewHint } = MAIL_TEXTS[locale].renewal;
    for (const stage of RENEWAL_STAGES) expect(stages[stage].subject, `${locale} ${stage}`).toContain('{service}');
    expect(renewHint).toContain('{days}');
  });
});
