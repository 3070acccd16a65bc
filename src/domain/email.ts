/**
 * Text, @, text, dot, text (spec section 5), and deliverable: each domain label is 1–63 characters of no
 * dot, @ or space, not starting or ending with a hyphen, and the top label holds a letter (`a@.....` and
 * `a@1.2` reach no mail server). One rule: the form, the machines and the contract's Email pattern (held
 * equal by a test) all use it.
 */
export const EMAIL_PATTERN = '^(?=.{1,254}$)[^\\s@]{1,64}@(?:(?!-)[^\\s@.]{1,63}(?<!-)\\.)+(?=[^\\s@.]*\\p{L})(?!-)[^\\s@.]{1,63}(?<!-)$';

const EMAIL = new RegExp(EMAIL_PATTERN, 'u');

/** True when the e-mail (trimmed) has the shape text@text.text and a domain a mail server could be at. */
export function isValidEmail(email: string): boolean {
  return EMAIL.test(email.trim());
}
