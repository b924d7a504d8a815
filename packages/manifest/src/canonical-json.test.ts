import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });
  it('writes bigints as strings and refuses NaN', () => {
    expect(canonicalJson({ n: 12345678901234567890n })).toBe('{"n":"12345678901234567890"}');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/NaN/);
  });
  it('hashes stably', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
