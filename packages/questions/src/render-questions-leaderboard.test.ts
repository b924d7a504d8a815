import { describe, expect, it } from 'vitest';
import type { QuestionScoreCell, QuestionScoreRow, QuestionScores } from './build-question-scores.ts';
import { byT2Score, formatScore, renderQuestionsLeaderboard } from './render-questions-leaderboard.ts';

const cell = (score: number | null, n = 2, total = 2): QuestionScoreCell => ({
  n,
  total,
  coverage: total > 0 ? n / total : null,
  partial: n > 0 && n < total,
  score,
  ci_low: score === null ? null : score - 0.1,
  ci_high: score === null ? null : score + 0.1,
  metrics: { top_k_hit: 0.5 },
});
const row = (model: string, t1: number | null, t2: number | null, n2 = 2): QuestionScoreRow => ({
  model,
  baseline: model === 'random',
  family: 'RANK',
  metric: 'normalised_spearman',
  T1: cell(t1),
  T2: cell(t2, n2),
  delta_t1_t2: { value: t1 !== null && t2 !== null ? t1 - t2 : null, ci_low: null, ci_high: null },
  t3_pending: { open: 3, answered: 0 },
});

describe('renderQuestionsLeaderboard', () => {
  it('formats scores with three decimals and a true minus; undefined is a dash', () => {
    expect(formatScore(0.12345)).toBe('0.123');
    expect(formatScore(-0.5)).toBe('−0.500');
    expect(formatScore(-0.0001)).toBe('0.000');
    expect(formatScore(null)).toBe('–');
  });

  it('sorts by T2 score, a model without one last, ties by name', () => {
    const rows = [row('b', 0.5, 0.6), row('none', 0.9, null), row('a', 0.4, 0.6), row('random', 0.5, 0.7)];
    expect(rows.sort(byT2Score).map((r) => r.model)).toEqual(['random', 'a', 'b', 'none']);
  });

  it('one table per family with T1, T2, Δ, coverage (partial marked), the secondary metric and the T3 line', () => {
    const results: QuestionScores = {
      results_version: 1,
      questions_dataset_id: 'f'.repeat(64),
      questions_name: 'q',
      config: { seed: 0, resamples: 1000, ci_level: 0.95, cluster: 'cluster_id' },
      answers: [],
      instances: [{ family: 'RANK', T1: 2, T2: 2, T3: 3 }],
      models: [],
      rows: [row('my|model*', 0.8, 0.6, 1), row('random', 0.5, 0.5)],
    };
    const md = renderQuestionsLeaderboard(results);
    expect(md).toContain('## RANK: order by h-day return');
    expect(md).toContain('3 T3 instances are open at the run date (pending, not scored)');
    expect(md).not.toContain('## VAL');
    const lines = md.split('\n').filter((l) => l.startsWith('| '));
    expect(lines[1]).toBe(
      '| my\\|model\\* | 0.800 [0.700, 0.900] | 0.600 [0.500, 0.700] | 0.200 | 2/2 | 1/2 (partial) | 0.500 |',
    );
    expect(lines[2]).toMatch(/^\| random \(baseline\) \| 0\.500/);
  });
});
