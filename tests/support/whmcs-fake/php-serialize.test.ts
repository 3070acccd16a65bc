import { describe, expect, it } from 'vitest';
import { decodeSerializedBase64, phpSerialize, phpSerializeBase64, phpUnserialize, PhpUnserializeError } from './php-serialize';

describe('PHP serialize as AddOrder takes customfields[] and configoptions[]', () => {
  it('writes the reference\'s example: {12:"Google"} is a:1:{i:12;s:6:"Google";}', () => {
    expect(phpSerialize({ 12: 'Google' })).toBe('a:1:{i:12;s:6:"Google";}');
    expect(phpSerializeBase64({ 12: 'Google' })).toBe(Buffer.from('a:1:{i:12;s:6:"Google";}').toString('base64'));
  });

  it('counts UTF-8 bytes, not characters: "Café" is s:5', () => {
    expect(phpSerialize('Café')).toBe('s:5:"Café";');
    expect(phpSerialize({ 11: 'Ünïcødé ✓' })).toBe('a:1:{i:11;s:15:"Ünïcødé ✓";}');
  });

  it('writes integers, nested arrays and booleans as PHP does', () => {
    expect(phpSerialize({ 2: 1, 4: 0 })).toBe('a:2:{i:2;i:1;i:4;i:0;}');
    expect(phpSerialize({ 2: { optionid: 5, qty: 3 } })).toBe('a:1:{i:2;a:2:{s:8:"optionid";i:5;s:3:"qty";i:3;}}');
    expect(phpSerialize(true)).toBe('b:1;');
    expect(phpSerialize(null)).toBe('N;');
  });
});

describe('PHP unserialize as WHMCS reads them', () => {
  it('reads a multi-byte string whose length is its byte count', () => {
    const value = phpUnserialize('a:1:{i:11;s:5:"Café";}');
    expect(value).toEqual(new Map([[11, 'Café']]));
  });

  it('refuses a length that counts characters instead of bytes', () => {
    expect(() => phpUnserialize('a:1:{i:11;s:4:"Café";}')).toThrow(PhpUnserializeError);
    expect(() => phpUnserialize('s:6:"Googl";')).toThrow(PhpUnserializeError);
    expect(() => phpUnserialize('s:5:"Google";')).toThrow(PhpUnserializeError);
  });

  it('refuses a count of elements that does not match, and trailing bytes', () => {
    expect(() => phpUnserialize('a:2:{i:12;s:6:"Google";}')).toThrow(PhpUnserializeError);
    expect(() => phpUnserialize('i:1;i:2;')).toThrow(PhpUnserializeError);
  });

  it('turns numeric string keys into integer keys, as PHP arrays do', () => {
    expect(phpUnserialize('a:1:{s:2:"12";s:1:"x";}')).toEqual(new Map([[12, 'x']]));
  });

  it('decodes base64 of what it wrote, and gives null where PHP unserialize gives false', () => {
    expect(decodeSerializedBase64(phpSerializeBase64({ 11: 'TV-12345678', 12: '123456789012' })))
      .toEqual(new Map([[11, 'TV-12345678'], [12, '123456789012']]));
    expect(decodeSerializedBase64(Buffer.from('a:1:{i:11;s:4:"Café";}').toString('base64'))).toBeNull();
    expect(decodeSerializedBase64(Buffer.from('{"11":"TV-1"}').toString('base64'))).toBeNull();
  });
});
