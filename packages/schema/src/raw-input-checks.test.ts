import { describe, expect, it } from 'vitest';
import { hasControlChars, implausibleValueProblem, MAX_ABS_VALUE, printable } from './raw-input-checks.ts';

describe('raw input checks', () => {
  it('bounds values at ±1e15, below 2^53', () => {
    expect(MAX_ABS_VALUE).toBeLessThan(2 ** 53);
    for (const ok of [0, -1, 4.1e12, 9.99e14, -9.99e14, 1e-300])
      expect(implausibleValueProblem(ok), String(ok)).toBeNull();
    expect(implausibleValueProblem(1e300)).toMatch(/^1e\+300 is beyond ±1e15/);
    expect(implausibleValueProblem(-1e15)).toMatch(/beyond ±1e15/);
    expect(implausibleValueProblem(Number.NaN)).toBe('NaN is not a finite number');
    expect(implausibleValueProblem(Number.POSITIVE_INFINITY)).toBe('Infinity is not a finite number');
  });

  it('finds control and invisible characters and prints them escaped', () => {
    expect(hasControlChars('AAPL')).toBe(false);
    expect(hasControlChars('BRK-B.^=é')).toBe(false);
    for (const c of ['\u0000', '\u0007', '\n', '\u001b', '\u007f', '\u009b', '\u202e', '\u200b', '\ufeff'])
      expect(hasControlChars(`A${c}B`), JSON.stringify(c)).toBe(true);
    expect(printable('A\u001b[31mB\u202e"\\')).toBe('"A\\u001b[31mB\\u202e\\"\\\\"');
  });
});
