import { describe, expect, it } from 'vitest';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from './password';

describe('a new account\'s password (issue 16: at least 10 characters, not the e-mail)', () => {
  it('needs 10 characters', () => expect(MIN_PASSWORD_LENGTH).toBe(10));
  it.each([
    ['', 'tooShort'],
    ['123456789', 'tooShort'],
    // Nine characters outside the BMP are 18 UTF-16 units, still nine characters.
    ['📺📺📺📺📺📺📺📺📺', 'tooShort'],
    ['1234567890', null],
    ['📺📺📺📺📺📺📺📺📺📺', null],
    ['me@example.com', 'isEmail'],
    ['ME@Example.COM', 'isEmail'],
    ['me@example.com!', null],
  ] as const)('%j for me@example.com is %j', (password, problem) => expect(newPasswordProblem(password, 'me@example.com')).toBe(problem));
});
