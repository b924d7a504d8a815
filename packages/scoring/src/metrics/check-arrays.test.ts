import { describe, expect, it } from 'vitest';
import { sign3 } from './check-arrays.ts';
import { deltaHitRate } from './delta-hit-rate.ts';
import { delta2HitRate } from './delta2-hit-rate.ts';
import { directionalAccuracy } from './directional-accuracy.ts';
import { hitRate } from './hit-rate.ts';
import { mae } from './mae.ts';
import { maseAbs } from './mase-abs.ts';
import { maseOri } from './mase-ori.ts';
import { maseRel } from './mase-rel.ts';
import { maseVsRandomWalk } from './mase-vs-random-walk.ts';
import { mse } from './mse.ts';

// The hot metrics validate lazily (a Σ x·0 guard, then a full scan only if it trips): these tests make sure
// every one still rejects NaN/Infinity anywhere, with the argument and index named.
describe('lazy finite-value guards', () => {
  const nan = Number.NaN;
  const inf = Number.POSITIVE_INFINITY;
  it('reject NaN/Infinity in every argument of the hot metrics', () => {
    expect(() => hitRate([1, 2], [1, nan])).toThrow(/'realized'\[1\] is NaN/);
    expect(() => directionalAccuracy([inf, 2], [1, 2])).toThrow(/'forecast'\[0\] is Infinity/);
    expect(() => deltaHitRate([1, 2], [1, 2], { realizedPrev1: [nan, 1] })).toThrow(/'realizedPrev1'\[0\]/);
    expect(() => deltaHitRate([1, 2, 3], [1, nan, 2])).toThrow(/'realized'\[1\] is NaN/);
    expect(() => delta2HitRate([1], [1], { realizedPrev1: [1], realizedPrev2: [-inf] })).toThrow(
      /'realizedPrev2'\[0\] is -Infinity/,
    );
    expect(() => maseRel([1, 2], [nan, 1])).toThrow(/'realized'\[0\]/);
    expect(() => maseAbs([1], [1], [inf])).toThrow(/'reference'\[0\]/);
    expect(() => maseOri([1, 2], [1, 2], [nan], 2)).toThrow(/'originValue'\[0\]/);
    expect(() => mae([1], [nan])).toThrow(/'actual'\[0\]/);
    expect(() => mse([nan], [1])).toThrow(/'forecast'\[0\]/);
    expect(() => maseVsRandomWalk([1], [2], [inf])).toThrow(/'randomWalk'\[0\]/);
  });
  it('let finite overflow through instead of blaming an input', () => {
    // |1e308 − (−1e308)| overflows to Infinity; every input is finite, so this is a result, not an error
    expect(mae([1e308], [-1e308])).toBe(Number.POSITIVE_INFINITY);
  });
  it('sign3 is the three-valued sign', () => {
    expect([sign3(-2), sign3(0), sign3(-0), sign3(3e-300)]).toEqual([-1, 0, 0, 1]);
  });
});
