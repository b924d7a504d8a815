import { FREQUENCIES } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { HORIZONS, horizonSteps } from './horizon-steps.ts';
import { minimumLookback, predictionLength } from './horizon-table.ts';

describe('horizonSteps (SPEC §1)', () => {
  it('maps every frequency × horizon as the spec table says', () => {
    const table = Object.fromEntries(FREQUENCIES.map((f) => [f, HORIZONS.map((h) => horizonSteps(f, h))]));
    expect(table).toEqual({
      BD: [5, 22, 65, 130, 260],
      D: [7, 30, 91, 182, 365],
      W: [1, 4, 13, 26, 52],
      M: [null, 1, 3, 6, 12],
      Q: [null, null, 1, 2, 4],
      A: [null, null, null, null, 1],
    });
  });

  it('is non-decreasing in the horizon at every frequency', () => {
    for (const f of FREQUENCIES) {
      const steps = HORIZONS.map((h) => horizonSteps(f, h)).filter((s): s is number => s !== null);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    }
  });

  it('rejects an unknown horizon or frequency', () => {
    expect(() => horizonSteps('M', '2y' as never)).toThrow(/unknown horizon/);
    expect(() => horizonSteps('H' as never, '1y')).toThrow(/unknown frequency/);
  });
});

describe('predictionLength / minimumLookback (horizons.tsv)', () => {
  it('predicts one year ahead at every frequency', () => {
    for (const f of FREQUENCIES) expect(predictionLength(f), f).toBe(horizonSteps(f, '1y'));
  });

  it('needs four years of annual history and one year elsewhere', () => {
    expect(FREQUENCIES.map((f) => minimumLookback(f))).toEqual([365, 260, 52, 12, 4, 4]);
  });
});
