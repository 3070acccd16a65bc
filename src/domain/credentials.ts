/** Service credentials: username TV- plus 8 digits, password 12 digits, from a crypto random source. */

export const USERNAME_SHAPE = /^TV-\d{8}$/;
export const SERVICE_PASSWORD_SHAPE = /^\d{12}$/;

/** Random decimal digits from the platform's cryptographic source (rejection sampling, no modulo bias). */
export function randomDigits(count: number, random: (bytes: Uint8Array) => Uint8Array = (b) => globalThis.crypto.getRandomValues(b)): string {
  let digits = '';
  while (digits.length < count) {
    for (const byte of random(new Uint8Array(count))) {
      if (byte < 250 && digits.length < count) digits += String(byte % 10);
    }
  }
  return digits;
}

/** A new service username, TV- and 8 digits. */
export function generateUsername(): string {
  return `TV-${randomDigits(8)}`;
}

/** A new service password of 12 digits. */
export function generateServicePassword(): string {
  return randomDigits(12);
}
