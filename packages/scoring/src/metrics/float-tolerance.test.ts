import { describe, expect, it } from 'vitest';
import { NO_CHANGE_TOLERANCE, noChangeReturn, RELATIVE_TOLERANCE } from './float-tolerance.ts';

describe('noChangeReturn', () => {
  it('takes a forecast return within rounding of 0 as exactly 0, and keeps every other', () => {
    // ln(166.0250000000001/166.025) and the audit's other noise returns.
    expect(noChangeReturn(Math.log(166.0250000000001 / 166.025))).toBe(0);
    for (const r of [4.4e-16, -2.2e-16, 1e-12, -NO_CHANGE_TOLERANCE]) expect(noChangeReturn(r)).toBe(0);
    for (const r of [2e-9, -1e-6, 0.01]) expect(noChangeReturn(r)).toBe(r);
    expect(noChangeReturn(Number.NaN)).toBeNaN();
    // The tolerance is the scorer's one rounding rule: ŷ within 1e-9 relative of y_o.
    expect(NO_CHANGE_TOLERANCE).toBe(RELATIVE_TOLERANCE);
  });
});
