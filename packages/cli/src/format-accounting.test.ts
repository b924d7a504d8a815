import { describe, expect, it } from 'vitest';
import { formatWarnings } from './format-accounting.ts';

describe('format accounting', () => {
  it('groups warnings by code on the console, and lists every one when verbose', () => {
    const warnings = [
      { code: 'A', message: 'first' },
      { code: 'A', message: 'second' },
      { code: 'B', message: 'only' },
    ];
    expect(formatWarnings(warnings)).toBe(
      '  ! A ×2: first (and 1 more like it)\n  ! B: only\n  (every warning is in the manifest; --verbose prints them all)',
    );
    expect(formatWarnings(warnings, true).split('\n')).toHaveLength(3);
    expect(formatWarnings([])).toBe('  none');
  });
});
