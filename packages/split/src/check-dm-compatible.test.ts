import { describe, expect, it } from 'vitest';
import { checkDmCompatible, isDmValid } from './check-dm-compatible.ts';

describe('checkDmCompatible', () => {
  it('refuses a DM test on overlapping origins and says why', () => {
    expect(() => checkDmCompatible('all', true)).toThrow(
      /overlapping H-step targets.*autocorrelated.*--origins non_overlapping/,
    );
    try {
      checkDmCompatible('all', true);
    } catch (err) {
      expect((err as { code: string; exitCode: number }).code).toBe('DM_NEEDS_NON_OVERLAPPING');
      expect((err as { exitCode: number }).exitCode).toBe(2);
    }
  });

  it('accepts non-overlapping origins, no DM, or one-step horizons', () => {
    expect(() => checkDmCompatible('non_overlapping', true)).not.toThrow();
    expect(() => checkDmCompatible('all', false)).not.toThrow();
    expect(isDmValid('all', 1)).toBe(true);
    expect(isDmValid('all', 4)).toBe(false);
  });
});
