import { describe, expect, it } from 'vitest';
import { stepsBetween } from './steps-between.ts';

const t = (d: string) => Date.parse(d);

describe('stepsBetween', () => {
  it('counts weekdays for BD, calendar units otherwise', () => {
    expect(stepsBetween('BD', t('2024-01-05'), t('2024-01-08'))).toBe(1); // Fri → Mon
    expect(stepsBetween('BD', t('2024-01-01'), t('2024-01-15'))).toBe(10);
    expect(stepsBetween('BD', t('2024-01-06'), t('2024-01-07'))).toBe(0); // Sat → Sun
    expect(stepsBetween('D', t('2024-01-01'), t('2024-03-01'))).toBe(60);
    expect(stepsBetween('W', t('2024-01-01'), t('2024-01-29'))).toBe(4);
    expect(stepsBetween('M', t('2024-01-31'), t('2024-04-30'))).toBe(3);
    expect(stepsBetween('Q', t('2024-03-31'), t('2025-03-31'))).toBe(4);
    expect(stepsBetween('A', t('2020-12-31'), t('2024-12-31'))).toBe(4);
  });
});
