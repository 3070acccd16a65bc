/** Six colon-separated hex octets, e.g. 00:1A:79:12:34:56. */
const MAC_SHAPE = /^([0-9A-F]{2}:){5}[0-9A-F]{2}$/;

/** Normalises a device address to upper case with colons; dashes are accepted as separators. */
export function normaliseMacAddress(value: string): string {
  return value.trim().toUpperCase().replace(/-/g, ':');
}

/** True when the value is a device (MAC) address. */
export function isMacAddress(value: string): boolean {
  return MAC_SHAPE.test(normaliseMacAddress(value));
}
