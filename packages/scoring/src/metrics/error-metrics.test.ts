import { describe, expect, it } from 'vitest';
import { directionalAccuracy } from './directional-accuracy.ts';
import { mae } from './mae.ts';
import { maseVsRandomWalk } from './mase-vs-random-walk.ts';
import { mse } from './mse.ts';
import { rmse } from './rmse.ts';

describe('mae / mse / rmse (FinTSB eq. 13, Tycheon)', () => {
  it('match hand sums', () => {
    // e = [1−2, 2−2, 3−5] = [−1, 0, −2]: MAE = 3/3 = 1, MSE = (1+0+4)/3 = 5/3, RMSE = √(5/3)
    expect(mae([1, 2, 3], [2, 2, 5])).toBe(1);
    expect(mse([1, 2, 3], [2, 2, 5])).toBeCloseTo(5 / 3, 15);
    expect(rmse([1, 2, 3], [2, 2, 5])).toBeCloseTo(Math.sqrt(5 / 3), 15);
    expect(mae([], [])).toBeNaN();
  });
  it('rejects Infinity in a forecast', () => {
    expect(() => mse([1, Number.POSITIVE_INFINITY], [1, 2])).toThrow(/'forecast'\[1\] is Infinity/);
  });
});

describe('maseVsRandomWalk (Tycheon)', () => {
  it('divides by the MAE of the zero log-return forecast', () => {
    // f = [.01, −.02], y = [.02, −.01]: MAE model = (.01+.01)/2, MAE RW = (.02+.01)/2 → 2/3
    expect(maseVsRandomWalk([0.01, -0.02], [0.02, -0.01])).toBeCloseTo(2 / 3, 12);
  });
  it('can use a recorded random-walk forecast instead of 0', () => {
    // RW = [.01, .01]: |.01−.02| + |.01+.01| = .03 → model .02/.03 = 2/3 again; RW = [.02, −.01] → 0 error → NaN
    expect(maseVsRandomWalk([0.01, -0.02], [0.02, -0.01], [0.01, 0.01])).toBeCloseTo(2 / 3, 12);
    expect(maseVsRandomWalk([0.01, -0.02], [0.02, -0.01], [0.02, -0.01])).toBeNaN();
  });
});

describe('directionalAccuracy (Tycheon)', () => {
  it('is the share of matching signs', () => {
    // (+,+) ✓, (−,+) ✗, (+,+) ✓, (0,+) ✗ → 2/4
    expect(directionalAccuracy([0.01, -0.02, 0.03, 0], [0.02, 0.01, 0.04, 0.01])).toBe(0.5);
  });

  it('is n/a for a forecast that calls no direction at any origin (no change everywhere)', () => {
    expect(directionalAccuracy([0, 0, 0], [0.02, -0.01, 0])).toBeNaN();
    // One call is enough to be scored: 1 hit of 3.
    expect(directionalAccuracy([0, 0.01, 0], [0.02, 0.01, 0.04])).toBeCloseTo(1 / 3, 15);
  });
});
