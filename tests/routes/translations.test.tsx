import { describe, expect, it } from 'vitest';
import { MESSAGE_TEXTS, type MessageKey } from '../../src/domain/messages';
import { LOCALES, TEXTS } from './screens';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a translation tree as `path → text`. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') found.set(`${prefix}${key}`, value);
    else for (const [path, text] of leaves(value, `${prefix}${key}.`)) found.set(path, text);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

const english = leaves(TEXTS['en-en']);

describe.each(LOCALES)('the %s translations', (locale) => {
  const translated = leaves(TEXTS[locale]);

  it('have every key of en-en and no other', () => {
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('leave no text empty and keep every placeholder', () => {
    for (const [path, text] of translated) {
      expect(text.trim(), path).not.toBe('');
      expect(placeholders(text), path).toEqual(placeholders(english.get(path) ?? ''));
    }
  });
});

/** The contract's error codes a shopper can meet (webhook and idempotency codes read as 'request.failed'). */
const SHOPPER_ERROR_CODES = ['bad_request', 'unauthenticated', 'invalid_credentials', 'forbidden', 'not_found', 'promotion_not_found', 'promotion_invalid', 'price_changed', 'email_taken', 'order_not_pending', 'order_under_review', 'invoice_paid', 'invoice_cancelled', 'invoice_refunded', 'rate_limited'];

describe('the English messages', () => {
  it('name every error code a shopper can meet, and a lost connection', () => {
    for (const code of [...SHOPPER_ERROR_CODES, 'network']) expect(english.has(`messages.api.${code}`), code).toBe(true);
  });

  it("are the spec's texts of the machines' message keys", () => {
    for (const key of Object.keys(MESSAGE_TEXTS) as MessageKey[]) expect(english.get(`messages.${key}`), key).toBe(MESSAGE_TEXTS[key]);
  });
});
