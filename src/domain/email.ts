/** Text, @, text, dot, text (spec section 5). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True when the e-mail has the shape text@text.text. */
export function isValidEmail(email: string): boolean {
  return EMAIL_SHAPE.test(email.trim());
}
