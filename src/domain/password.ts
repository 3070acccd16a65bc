/** The shortest password a new account may set (issue 16: a one-character password was accepted). */
export const MIN_PASSWORD_LENGTH = 10;

/** What is wrong with a new account's password, if anything; the server and the reseller form apply the same rule. */
export type PasswordProblem = 'tooShort' | 'isEmail';

/**
 * A new account's password: at least MIN_PASSWORD_LENGTH characters (counted as the contract's minLength
 * counts them, by code point) and not the e-mail address, whatever its case.
 */
export function newPasswordProblem(password: string, email: string): PasswordProblem | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'isEmail';
  return null;
}
