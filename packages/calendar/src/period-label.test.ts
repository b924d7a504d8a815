import { describe, expect, it } from 'vitest';
import { periodLabel } from './period-label.ts';
import { isoToMicros } from './zoned-micros.ts';

const at = (iso: string) => isoToMicros(iso);

describe('periodLabel', () => {
  it('reads the New York date of a period-end timestamp, not its UTC date', () => {
    // December 2019 ends 2019-12-31 23:59:59.999999 New York = 2020-01-01T04:59:59.999999Z.
    expect(periodLabel(at('2020-01-01T04:59:59.999999Z'), 'M')).toBe('2019-12');
    expect(periodLabel(at('2020-01-01T04:59:59.999999Z'), 'Q')).toBe('2019Q4');
    expect(periodLabel(at('2019-07-01T03:59:59.999999Z'), 'Q')).toBe('2019Q2');
    expect(periodLabel(at('2020-01-01T04:59:59.999999Z'), 'A')).toBe('2019');
    expect(periodLabel(at('2020-01-01T04:59:59.999999Z'), 'A', '1231')).toBe('2019');
    // A fiscal year ending in June 2019 is FY2019.
    expect(periodLabel(at('2019-07-01T03:59:59.999999Z'), 'A', '0630')).toBe('FY2019');
    // A bar closing at 16:00 New York on 2020-03-04 (21:00Z) is that day.
    expect(periodLabel(at('2020-03-04T21:00:00Z'), 'BD')).toBe('2020-03-04');
    expect(periodLabel(at('2020-03-07T04:59:59.999999Z'), 'W')).toBe('2020-03-06');
  });
});
