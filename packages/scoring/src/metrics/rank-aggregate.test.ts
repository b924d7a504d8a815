import { describe, expect, it } from 'vitest';
import { type RankAggregateScore, rankAggregate } from './rank-aggregate.ts';

const metrics = {
  hr: { aspect: 'pointwise', direction: 'higher' },
  mase: { aspect: 'pointwise', direction: 'lower' },
  ic: { aspect: 'cross_sectional', direction: 'higher' },
  sharpe: { aspect: 'portfolio', direction: 'higher' },
} as const;

const row = (model: string, unit: string, metric: string, value: number): RankAggregateScore => ({
  model,
  unit,
  metric,
  value,
});

describe('rankAggregate (FinVerse §4.2)', () => {
  it('matches a hand-ranked example', () => {
    // Step 1 means and step 2 ranks (1 = best; ties average):
    //  u1 hr   : A mean(.6,.8)=.7, B .5, C .7 → A 1.5, C 1.5, B 3
    //  u1 mase : A .9, B .8, C 1.0          → B 1, A 2, C 3
    //  u2 hr   : A .5, B .6, C .4           → B 1, A 2, C 3
    //  u2 mase : A 1.1, B only NaN, C 1.2   → A 1, C 2, B missing → 3
    //  u1 ic   : A .1, B .2, C .3           → C 1, B 2, A 3
    //  u1 sharpe: A 1, B 1, C .5            → A 1.5, B 1.5, C 3
    // Step 3 K: pointwise A (1.5·2·2·1)^¼ = 6^¼, B (3·1·1·3)^¼ = 9^¼, C (1.5·3·3·2)^¼ = 27^¼
    //           → ranks A 1, B 2, C 3; cross_sectional C 1, B 2, A 3; portfolio A 1.5, B 1.5, C 3
    // Step 5 overall: A 1+3+1.5 = 5.5, B 2+2+1.5 = 5.5, C 3+1+3 = 7 → positions A 1, B 1, C 3
    const scores = [
      row('A', 'u1', 'hr', 0.6),
      row('A', 'u1', 'hr', 0.8),
      row('B', 'u1', 'hr', 0.5),
      row('C', 'u1', 'hr', 0.7),
      row('A', 'u1', 'mase', 0.9),
      row('B', 'u1', 'mase', 0.8),
      row('C', 'u1', 'mase', 1.0),
      row('A', 'u2', 'hr', 0.5),
      row('B', 'u2', 'hr', 0.6),
      row('C', 'u2', 'hr', 0.4),
      row('A', 'u2', 'mase', 1.1),
      row('B', 'u2', 'mase', Number.NaN),
      row('C', 'u2', 'mase', 1.2),
      row('A', 'u1', 'ic', 0.1),
      row('B', 'u1', 'ic', 0.2),
      row('C', 'u1', 'ic', 0.3),
      row('A', 'u1', 'sharpe', 1),
      row('B', 'u1', 'sharpe', 1),
      row('C', 'u1', 'sharpe', 0.5),
    ];
    const res = rankAggregate(scores, metrics);
    const by = Object.fromEntries(res.models.map((m) => [m.model, m]));
    expect(by.A.aspectK.pointwise).toBeCloseTo(6 ** 0.25, 13);
    expect(by.B.aspectK.pointwise).toBeCloseTo(9 ** 0.25, 13);
    expect(by.C.aspectK.pointwise).toBeCloseTo(27 ** 0.25, 13);
    expect(by.A.aspectRank).toEqual({ cross_sectional: 3, pointwise: 1, portfolio: 1.5 });
    expect(by.B.aspectRank).toEqual({ cross_sectional: 2, pointwise: 2, portfolio: 1.5 });
    expect(by.C.aspectRank).toEqual({ cross_sectional: 1, pointwise: 3, portfolio: 3 });
    expect(res.models.map((m) => [m.model, m.overall, m.position])).toEqual([
      ['A', 5.5, 1],
      ['B', 5.5, 1],
      ['C', 7, 3],
    ]);
    expect(by.B.missingCells).toBe(1);
    expect(res.cellsPerAspect).toEqual({ cross_sectional: 1, pointwise: 4, portfolio: 1 });
  });
  it('ties unit means that differ only by summation order: 5.5/5.5, not 5/6 (issue 18.7)', () => {
    // Six models; E and F have the same three series values, summed in a different order:
    // (0.1 + 0.2) + 0.3 = 0.6000000000000001 but 0.3 + 0.2 + 0.1 = 0.6.
    expect((0.1 + 0.2 + 0.3) / 3).not.toBe((0.3 + 0.2 + 0.1) / 3);
    const scores: RankAggregateScore[] = [];
    ['A', 'B', 'C', 'D'].forEach((m, i) => {
      for (let k = 0; k < 3; k++) scores.push(row(m, 'u', 'mase', 0.01 * (i + 1)));
    });
    for (const v of [0.1, 0.2, 0.3]) scores.push(row('E', 'u', 'mase', v));
    for (const v of [0.3, 0.2, 0.1]) scores.push(row('F', 'u', 'mase', v));
    const res = rankAggregate(scores, metrics);
    const by = Object.fromEntries(res.models.map((m) => [m.model, m]));
    expect(by.E.aspectK.pointwise).toBeCloseTo(5.5, 12);
    expect(by.F.aspectK.pointwise).toBeCloseTo(5.5, 12);
    expect(by.D.aspectK.pointwise).toBeCloseTo(4, 12);
    expect(by.E.position).toBe(by.F.position);
  });
  it('rejects a metric without aspect/direction, listing the known ones', () => {
    expect(() => rankAggregate([row('A', 'u', 'crps', 1)], metrics)).toThrow(
      /'crps'.*known metrics: hr, mase/,
    );
  });
});
