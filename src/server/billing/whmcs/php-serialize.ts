/**
 * PHP's serialize() for the arrays WHMCS's AddOrder / UpdateClientProduct take base64-encoded
 * (customfields, configoptions): integer keys, string or integer values, nested arrays.
 * `s:N` counts UTF-8 BYTES, not characters: "Café" is s:5, "日本" is s:6.
 */
export type PhpValue = string | number | boolean | null | PhpArray;
export interface PhpArray { [key: string | number]: PhpValue }

const key = (raw: string): string => (/^(0|-?[1-9]\d*)$/.test(raw) ? `i:${raw};` : `s:${Buffer.byteLength(raw, 'utf8')}:"${raw}";`);

export function phpSerialize(value: PhpValue): string {
  if (value === null) return 'N;';
  if (typeof value === 'boolean') return `b:${value ? 1 : 0};`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot serialize ${value}`);
    return Number.isInteger(value) ? `i:${value};` : `d:${value};`;
  }
  if (typeof value === 'string') return `s:${Buffer.byteLength(value, 'utf8')}:"${value}";`;
  const entries = Object.entries(value);
  return `a:${entries.length}:{${entries.map(([k, v]) => key(k) + phpSerialize(v)).join('')}}`;
}

/** base64(serialize(array)), as WHMCS's customfields[] and configoptions[] want it. */
export function phpSerializeBase64(value: PhpArray): string {
  return Buffer.from(phpSerialize(value), 'utf8').toString('base64');
}
