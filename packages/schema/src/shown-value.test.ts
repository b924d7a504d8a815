import { describe, expect, it } from 'vitest';
import { oneLineMessage, shownValue } from './shown-value.ts';

describe('shownValue', () => {
  it('escapes control characters so a value cannot split a one-line message or drive the terminal', () => {
    expect(shownValue('a\nb')).toBe('a\\nb');
    expect(shownValue('x\r\ty')).toBe('x\\r\\ty');
    expect(shownValue('\u001b[2Jz')).toBe('\\u{1b}[2Jz');
    expect(shownValue('abc\u202edef')).toBe('abc\\u{202e}def');
    expect(shownValue('\u0000')).toBe('\\u{0}');
  });

  it('keeps ordinary values, unicode included, as they are', () => {
    expect(shownValue('syn:fred:SYNCPI%')).toBe('syn:fred:SYNCPI%');
    expect(shownValue("x'; DROP TABLE observations; --")).toBe("x'; DROP TABLE observations; --");
    expect(shownValue('Zürich ✓')).toBe('Zürich ✓');
  });

  it('cuts a long value, saying how long it was', () => {
    const shown = shownValue('A'.repeat(100_000));
    expect(shown).toBe(`${'A'.repeat(80)}… (100,000 characters)`);
    expect(shownValue('B'.repeat(80))).toBe('B'.repeat(80));
    expect(shownValue('abcdef', 3)).toBe('abc… (6 characters)');
  });
});

describe('oneLineMessage', () => {
  it('joins the hint line to the message, so a kept record stays one line', () => {
    expect(
      oneLineMessage(
        'f.json: not a valid chart: chart.result: Required\n  hint: pass the body as downloaded',
      ),
    ).toBe('f.json: not a valid chart: chart.result: Required; hint: pass the body as downloaded');
    expect(oneLineMessage('one line')).toBe('one line');
  });
});
