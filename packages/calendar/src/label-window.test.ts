import { describe, expect, it } from 'vitest';
import { labelWindow } from './label-window.ts';

describe('labelWindow (FinForesight T1/T2/T3)', () => {
  const c = 1000;
  const r = 2000;
  it('follows the definitions', () => {
    expect(labelWindow(100, 999, c, r)).toBe('T1');
    expect(labelWindow(100, 1000, c, r)).toBe('straddles_cutoff');
    expect(labelWindow(1001, 1500, c, r)).toBe('T2');
    expect(labelWindow(1000, 1500, c, r)).toBe('straddles_cutoff');
    expect(labelWindow(1500, 2000, c, r)).toBe('T2');
    expect(labelWindow(1500, 2001, c, r)).toBe('T3');
    expect(labelWindow(1500, null, c, r)).toBe('T3');
    expect(labelWindow(100, null, c, r)).toBe('T3');
  });
});
