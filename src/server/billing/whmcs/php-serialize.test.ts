import { describe, expect, it } from 'vitest';
import { phpSerialize, phpSerializeBase64 } from './php-serialize';

describe('PHP serialize for WHMCS arrays', () => {
  it('writes the reference example {12:"Google"} as a:1:{i:12;s:6:"Google";}', () => {
    expect(phpSerialize({ 12: 'Google' })).toBe('a:1:{i:12;s:6:"Google";}');
  });

  it('counts UTF-8 bytes in s:N: "Café" is s:5 and "日本" is s:6', () => {
    expect(phpSerialize('Café')).toBe('s:5:"Café";');
    expect(phpSerialize('日本')).toBe('s:6:"日本";');
    expect(phpSerialize({ 1: 'Café', 2: '日本' })).toBe('a:2:{i:1;s:5:"Café";i:2;s:6:"日本";}');
  });

  it('writes integer values as i: and keeps numeric keys integer (configoptions {2:1,4:0})', () => {
    expect(phpSerialize({ 2: 1, 4: 0 })).toBe('a:2:{i:2;i:1;i:4;i:0;}');
  });

  it('writes nested arrays ({cid: {optionid, qty}}) with string keys as s:N', () => {
    expect(phpSerialize({ 2: { optionid: 7, qty: 3 } })).toBe('a:1:{i:2;a:2:{s:8:"optionid";i:7;s:3:"qty";i:3;}}');
  });

  it('writes an empty array as a:0:{}', () => {
    expect(phpSerialize({})).toBe('a:0:{}');
  });

  it('base64-encodes the UTF-8 bytes of the serialized text', () => {
    expect(phpSerializeBase64({ 12: 'Google' })).toBe('YToxOntpOjEyO3M6NjoiR29vZ2xlIjt9');
    expect(Buffer.from(phpSerializeBase64({ 11: 'Café' }), 'base64').toString('utf8')).toBe('a:1:{i:11;s:5:"Café";}');
  });
});
