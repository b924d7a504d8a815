import { describe, expect, it } from 'vitest';
import type { QuestionRow, ResolutionRow } from './read-questions-folder.ts';
import {
  brierTerm,
  errorReduction,
  FAMILY_SCORERS,
  normalisedSpearman,
  scoreQuestionFamily,
  topKHit,
  truncatedUtility,
} from './score-question-family.ts';

const q = (
  id: string,
  family: QuestionRow['family'],
  params: Record<string, unknown>,
  subjects = ['x'],
): QuestionRow => ({
  instance_id: id,
  family,
  window: 'T2',
  cluster_id: `c-${id}`,
  subjects,
  scorer_params: params,
});
const resolved = (id: string, value: number | null, ranking: string[] | null = null): ResolutionRow => ({
  instance_id: id,
  status: 'resolved',
  value,
  ranking,
});

/** Sums the parts of the scored instances and applies the family's score and metrics. */
function scoreOf(
  family: QuestionRow['family'],
  qs: QuestionRow[],
  res: ResolutionRow[],
  answers: [string, number | string[]][],
  baseRate?: [string, number][],
) {
  const scored = scoreQuestionFamily(
    family,
    qs,
    new Map(res.map((r) => [r.instance_id, r])),
    new Map(answers),
    baseRate === undefined ? undefined : new Map(baseRate),
  );
  const sums = scored[0].parts.map((_, j) => scored.reduce((s, i) => s + i.parts[j], 0));
  const scorer = FAMILY_SCORERS[family];
  return {
    n: scored.length,
    score: scorer.score(sums, scored.length),
    metrics: scorer.metrics(sums, scored.length),
  };
}

describe('VAL: error reduction against the close at t', () => {
  it('1 − Σe/Σe0 by hand: e = 0.02 + 0.05, e0 = 0.05 + 0.05 → 0.3', () => {
    const s = scoreOf(
      'VAL',
      [q('a', 'VAL', { reference: 95 }), q('b', 'VAL', { reference: 210 })],
      [resolved('a', 100), resolved('b', 200)],
      [
        ['a', 98],
        ['b', 190],
      ],
    );
    expect(s.score).toBeCloseTo(0.3, 12);
    expect(s.metrics.mean_relative_error).toBeCloseTo(0.035, 12);
    expect(s.metrics.mean_relative_error_reference).toBeCloseTo(0.05, 12);
  });

  it('the close at t itself scores 0, the exact value 1, and Σe0 = 0 has no score', () => {
    expect(errorReduction(0.1, 0.1)).toBe(0);
    expect(errorReduction(0, 0.1)).toBe(1);
    expect(errorReduction(0.2, 0.1)).toBeCloseTo(-1, 12);
    expect(errorReduction(0.1, 0)).toBeNull();
  });

  it('skips unanswered instances (coverage counts them)', () => {
    const s = scoreOf(
      'VAL',
      [q('a', 'VAL', { reference: 95 }), q('b', 'VAL', { reference: 210 })],
      [resolved('a', 100), resolved('b', 200)],
      [['a', 98]],
    );
    expect(s.n).toBe(1);
    expect(s.score).toBeCloseTo(1 - 0.02 / 0.05, 12);
  });
});

describe('RANK: normalised Spearman and top-K hit', () => {
  it('(ρ + 1)/2: the realised order 1, its reverse 0, one swap of four 0.9', () => {
    const real = ['a', 'b', 'c', 'd'];
    expect(normalisedSpearman(real, real)).toBe(1);
    expect(normalisedSpearman([...real].reverse(), real)).toBe(0);
    // Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8
    expect(normalisedSpearman(['b', 'a', 'c', 'd'], real)).toBeCloseTo(0.9, 12);
  });

  it('top-K hit rate |top-K ∩ realised top-K| / K', () => {
    const real = ['a', 'b', 'c', 'd'];
    expect(topKHit(['b', 'a', 'c', 'd'], real, 1)).toBe(0);
    expect(topKHit(['b', 'a', 'c', 'd'], real, 2)).toBe(1);
    expect(topKHit(['b', 'c', 'a', 'd'], real, 2)).toBe(0.5);
  });

  it('means over instances: headline Spearman, secondary top-K', () => {
    const subjects = ['a', 'b', 'c', 'd'];
    const s = scoreOf(
      'RANK',
      [q('r1', 'RANK', { k: 2 }, subjects), q('r2', 'RANK', { k: 2 }, subjects)],
      [resolved('r1', null, subjects), resolved('r2', null, ['d', 'c', 'b', 'a'])],
      [
        ['r1', ['b', 'a', 'c', 'd']],
        ['r2', ['b', 'a', 'c', 'd']],
      ],
    );
    // r1: 0.9, hit 1; r2: b,a,c,d against d,c,b,a: d = −2, −2, 1, 3, Σd² = 18, ρ = 1 − 108/60 = −0.8 → 0.1, hit 0
    expect(s.score).toBeCloseTo((0.9 + 0.1) / 2, 12);
    expect(s.metrics.top_k_hit).toBeCloseTo(0.5, 12);
  });
});

describe('EVT: Brier score and skill', () => {
  it('Brier 0.065, BSS vs 0.5 0.74, BSS vs a base rate of 0.6 0.75 (by hand)', () => {
    const s = scoreOf(
      'EVT',
      [q('e1', 'EVT', {}), q('e2', 'EVT', {})],
      [resolved('e1', 1), resolved('e2', 0)],
      [
        ['e1', 0.7],
        ['e2', 0.2],
      ],
      [
        ['e1', 0.6],
        ['e2', 0.6],
      ],
    );
    // (0.7 − 1)² = 0.09, (0.2 − 0)² = 0.04; base rate (0.6 − 1)² = 0.16, 0.6² = 0.36
    expect(s.metrics.brier).toBeCloseTo(0.065, 12);
    expect(s.score).toBeCloseTo(1 - 0.065 / 0.25, 12);
    expect(s.metrics.brier_skill_vs_base_rate).toBeCloseTo(1 - 0.13 / 0.52, 12);
    expect(s.metrics.base_rate_instances).toBe(2);
  });

  it('0.5 scores 0 against 0.5; without the base rate baseline its skill is null', () => {
    expect(brierTerm(0.5, 1)).toBe(0.25);
    const s = scoreOf('EVT', [q('e1', 'EVT', {})], [resolved('e1', 1)], [['e1', 0.5]]);
    expect(s.score).toBe(0);
    expect(s.metrics.brier_skill_vs_base_rate).toBeNull();
  });
});

describe('FUND: truncated utility', () => {
  it('max(0, 1 − |a − y|/s): 0.75 and 0 (truncated), mean 0.375', () => {
    expect(truncatedUtility(11, 10, 4)).toBe(0.75);
    expect(truncatedUtility(2, 10, 4)).toBe(0);
    const s = scoreOf(
      'FUND',
      [q('f1', 'FUND', { scale: 4 }), q('f2', 'FUND', { scale: 4 })],
      [resolved('f1', 10), resolved('f2', 10)],
      [
        ['f1', 11],
        ['f2', 2],
      ],
    );
    expect(s.score).toBeCloseTo(0.375, 12);
    expect(s.metrics.mean_scaled_error).toBeCloseTo((0.25 + 2) / 2, 12);
  });
});
