import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dieboldMariano } from './diebold-mariano.ts';

interface ReferenceCase {
  name: string;
  h: number;
  power: number;
  e1: number[];
  e2: number[];
  statistic: number;
  horizon_used: number;
  p_less: number;
  p_greater: number;
}

// Produced once by R forecast::dm.test (reference/make-reference.R); committed with the script.
const reference = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../reference/dm-reference.json', import.meta.url)), 'utf8'),
) as { forecast_version: string; cases: ReferenceCase[] };

const close = (actual: number, expected: number, rel: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), 1e-300));

describe(`dieboldMariano vs R forecast::dm.test ${reference.forecast_version}`, () => {
  it('has reference cases', () => {
    expect(reference.cases.length).toBeGreaterThanOrEqual(5);
  });
  for (const c of reference.cases) {
    it(`${c.name}: statistic, horizon and both one-sided p-values`, () => {
      const loss = (e: number[]) => e.map((x) => Math.abs(x) ** c.power);
      const r = dieboldMariano(loss(c.e1), loss(c.e2), { horizon: c.h });
      close(r.statistic, c.statistic, 1e-11);
      expect(r.horizon).toBe(c.horizon_used);
      close(r.pModelBetter, c.p_less, 1e-11);
      close(r.pModelWorse, c.p_greater, 1e-11);
    });
  }
});
