/** What a sandbox test card does when it pays: the same outcomes a provider's test mode documents. */
export type CardOutcome = 'pays' | 'declined' | 'second_step';

/** The documented test cards of the sandbox page, in the order it lists them. */
export const TEST_CARDS: ReadonlyArray<{ number: string; outcome: CardOutcome; says: string }> = [
  { number: '4242424242424242', outcome: 'pays', says: 'Pays' },
  { number: '4000000000000002', outcome: 'declined', says: 'Is declined' },
  { number: '4000002500003155', outcome: 'second_step', says: 'Asks to confirm the payment, then pays' },
];

/** A card field of the sandbox form, named as the form posts it. */
export type CardField = 'card' | 'expiry' | 'cvc';

/** What the shopper typed, kept to fill the form again beside its errors. */
export type CardEntry = Record<CardField, string>;

export type CardCheck = { ok: true; outcome: CardOutcome } | { ok: false; errors: Partial<Record<CardField, string>> };

/** The number in groups of four, as printed on a card. */
export const groupedNumber = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The digits of a field, with the spaces, dashes and slashes a shopper may type removed; null when anything else is in it. */
const digitsOf = (text: string) => {
  const stripped = text.replace(/[\s\-/]/g, '');
  return /^\d*$/.test(stripped) ? stripped : null;
};

/** Expiry "MM / YY" (or MMYY, MM/YYYY): the last month the card is valid in, or why not. */
function checkExpiry(text: string, now: Date): string | null {
  const digits = digitsOf(text);
  if (!digits) return text.trim() ? 'Enter the expiry date as MM / YY.' : 'Enter the expiry date.';
  if (digits.length !== 4 && digits.length !== 6) return 'Enter the expiry date as MM / YY.';
  const month = Number(digits.slice(0, 2));
  const year = digits.length === 4 ? 2000 + Number(digits.slice(2)) : Number(digits.slice(2));
  if (month < 1 || month > 12) return 'The expiry month is between 01 and 12.';
  // A card is valid to the end of its expiry month.
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return 'The expiry date is in the past.';
  return null;
}

/** Checks the card form: any future expiry and any 3 digits pass; the number must be one of the test cards. */
export function checkCard(entry: CardEntry, now: Date): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const number = digitsOf(entry.card);
  const card = TEST_CARDS.find((test) => test.number === number);
  if (!entry.card.trim()) errors.card = 'Enter the card number.';
  else if (number === null || number.length !== 16) errors.card = 'The card number has 16 digits.';
  else if (!card) errors.card = 'This sandbox takes only its test cards, listed below.';
  const expiry = checkExpiry(entry.expiry, now);
  if (expiry) errors.expiry = expiry;
  if (!/^\d{3}$/.test(entry.cvc.trim())) errors.cvc = entry.cvc.trim() ? 'The security code has 3 digits.' : 'Enter the security code.';
  return card && Object.keys(errors).length === 0 ? { ok: true, outcome: card.outcome } : { ok: false, errors };
}
