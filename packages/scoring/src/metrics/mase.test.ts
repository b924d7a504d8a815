import { describe, expect, it } from 'vitest';
import { maseAbs } from './mase-abs.ts';
import { maseOri } from './mase-ori.ts';
import { maseRel } from './mase-rel.ts';
import { relativeChange } from './relative-change.ts';

describe('maseRel (FinVerse eq. 7)', () => {
  it('divides mean |r̂ − r| by mean |r|', () => {
    // r̂ = [.02, −.01, .03], r = [.01, .01, .06]: Σ|r̂−r| = .01+.02+.03 = .06, Σ|r| = .08 → .75
    expect(maseRel([0.02, -0.01, 0.03], [0.01, 0.01, 0.06])).toBeCloseTo(0.75, 12);
  });
  it('composes with relativeChange on levels', () => {
    // ŷ = [102, 99, 103], y = [101, 101, 106], reference 100 → r̂ = [.02, −.01, .03], r = [.01, .01, .06]
    const ref = [100, 100, 100];
    expect(maseRel(relativeChange([102, 99, 103], ref), relativeChange([101, 101, 106], ref))).toBeCloseTo(
      0.75,
      12,
    );
  });
  it('is NaN when every realised change is zero', () => {
    expect(maseRel([0.1], [0])).toBeNaN();
  });
});

describe('maseAbs (FinVerse eq. 8)', () => {
  it('scales by the no-change error from y_{o+h−p}', () => {
    // ŷ = [102, 98, 105], y = [101, 99, 103], y_ref = [100, 100, 100]
    // Σ|ŷ−y| = 1+1+2 = 4, Σ|y−y_ref| = 1+1+3 = 5 → 0.8
    expect(maseAbs([102, 98, 105], [101, 99, 103], [100, 100, 100])).toBeCloseTo(0.8, 12);
  });
});

describe('maseOri (FinVerse eq. 9)', () => {
  it('scales the whole-path error by origin persistence', () => {
    // H = 2; origins y_o = [100, 200]; actual [101, 103 | 198, 196]; forecast [100, 104 | 199, 199]
    // Σ|ŷ−y| = 1+1+1+3 = 6;  Σ|y_o−y| = 1+3+2+4 = 10 → 0.6
    expect(maseOri([100, 104, 199, 199], [101, 103, 198, 196], [100, 200], 2)).toBeCloseTo(0.6, 12);
  });
  it('checks the flattened shape', () => {
    expect(() => maseOri([1, 2, 3], [1, 2, 3], [1, 2], 2)).toThrow(/2 origins × predictionLength 2 = 4/);
    expect(() => maseOri([1], [1], [1], 0)).toThrow(/predictionLength is 0/);
  });
});
