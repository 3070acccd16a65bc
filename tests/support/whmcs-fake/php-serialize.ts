/**
 * PHP's serialize()/unserialize() for the values WHMCS reads from `customfields` and `configoptions`:
 * arrays with integer or string keys, strings, integers, floats, booleans and null. As in PHP, a string's
 * length `s:N` counts UTF-8 BYTES, and unserialize refuses a length that does not match.
 */

export type PhpValue = string | number | boolean | null | PhpArray;
/** A PHP array: keys in insertion order, integer keys as numbers. */
export type PhpArray = Map<number | string, PhpValue>;

export class PhpUnserializeError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`unserialize(): ${message} at offset ${offset}`);
  }
}

const INTEGER_KEY = /^(0|-?[1-9]\d*)$/;

/** PHP turns a decimal-integer string key into an integer key, as `$a["12"]` is `$a[12]`. */
function phpKey(key: number | string): number | string {
  if (typeof key === 'number') return key;
  return INTEGER_KEY.test(key) && Number.isSafeInteger(Number(key)) ? Number(key) : key;
}

/** serialize(): an object or Map is an array (numeric-looking keys become integer keys, as PHP does). */
export function phpSerialize(value: unknown): string {
  if (value === null || value === undefined) return 'N;';
  if (typeof value === 'boolean') return `b:${value ? 1 : 0};`;
  if (typeof value === 'number') return Number.isInteger(value) ? `i:${value};` : `d:${value};`;
  if (typeof value === 'string') return `s:${Buffer.byteLength(value, 'utf8')}:"${value}";`;
  const entries: [number | string, unknown][] = value instanceof Map
    ? [...(value as Map<number | string, unknown>).entries()]
    : Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value as Record<string, unknown>);
  const body = entries.map(([key, item]) => phpSerialize(phpKey(key)) + phpSerialize(item)).join('');
  return `a:${entries.length}:{${body}}`;
}

/** base64_encode(serialize(value)), the form AddOrder and UpdateClientProduct take. */
export function phpSerializeBase64(value: unknown): string {
  return Buffer.from(phpSerialize(value), 'utf8').toString('base64');
}

/** unserialize(): throws PhpUnserializeError where PHP would return false. */
export function phpUnserialize(text: string | Buffer): PhpValue {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let at = 0;
  const fail = (message: string): never => {
    throw new PhpUnserializeError(message, at);
  };
  const expect = (char: string) => {
    if (bytes[at] !== char.charCodeAt(0)) fail(`expected '${char}'`);
    at += 1;
  };
  const readUntil = (stop: string): string => {
    const end = bytes.indexOf(stop.charCodeAt(0), at);
    if (end < 0) fail(`missing '${stop}'`);
    const raw = bytes.subarray(at, end).toString('latin1');
    at = end + 1;
    return raw;
  };
  const readInteger = (stop: string): number => {
    const raw = readUntil(stop);
    if (!/^[+-]?\d+$/.test(raw)) fail(`'${raw}' is not an integer`);
    return Number(raw);
  };
  const readValue = (): PhpValue => {
    const type = String.fromCharCode(bytes[at] ?? 0);
    at += 1;
    switch (type) {
      case 'N':
        expect(';');
        return null;
      case 'b': {
        expect(':');
        const raw = readUntil(';');
        if (raw !== '0' && raw !== '1') fail(`'${raw}' is not a boolean`);
        return raw === '1';
      }
      case 'i':
        expect(':');
        return readInteger(';');
      case 'd': {
        expect(':');
        const raw = readUntil(';');
        const number = Number(raw);
        if (raw === '' || Number.isNaN(number)) fail(`'${raw}' is not a float`);
        return number;
      }
      case 's': {
        expect(':');
        const length = readInteger(':');
        expect('"');
        if (at + length > bytes.length) fail(`string of ${length} bytes runs past the end`);
        const value = bytes.subarray(at, at + length).toString('utf8');
        at += length;
        // A length that is not the byte count lands anywhere but on the closing quote.
        if (bytes[at] !== 0x22 || bytes[at + 1] !== 0x3b) fail(`string length ${length} does not match its bytes`);
        at += 2;
        return value;
      }
      case 'a': {
        expect(':');
        const count = readInteger(':');
        expect('{');
        const array: PhpArray = new Map();
        for (let index = 0; index < count; index += 1) {
          const key = readValue();
          if (typeof key !== 'number' && typeof key !== 'string') fail('array key must be an integer or a string');
          array.set(phpKey(key as number | string), readValue());
        }
        expect('}');
        return array;
      }
      default:
        return fail(`unknown type '${type}'`);
    }
  };
  const value = readValue();
  if (at !== bytes.length) fail('trailing bytes');
  return value;
}

/** base64_decode + unserialize, as WHMCS reads AddOrder's customfields[]/configoptions[]; null where PHP gets false. */
export function decodeSerializedBase64(encoded: string): PhpArray | null {
  try {
    const value = phpUnserialize(Buffer.from(encoded, 'base64'));
    return value instanceof Map ? value : null;
  } catch {
    return null;
  }
}
