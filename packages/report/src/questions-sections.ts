import {
  byT2Score,
  FAMILY_TITLES,
  formatScore,
  QUESTION_FAMILIES,
  type QuestionScoreCell,
  type QuestionScoreRow,
  type QuestionScores,
} from '@asof/questions';
import { CHART_CONFIG, type Spec } from './chart-base.ts';
import { chartBlock } from './chart-block.ts';
import type { Block, Section } from './render-report-html.ts';

const withCi = (v: number | null, low: number | null, high: number | null): string =>
  v === null || low === null || high === null
    ? formatScore(v)
    : `${formatScore(v)} [${formatScore(low)}, ${formatScore(high)}]`;

const coverage = (c: QuestionScoreCell): string => `${c.n}/${c.total}${c.partial ? ' (partial)' : ''}`;

/** The family's secondary metric in T2, as the leaderboard's last column. */
function secondary(r: QuestionScoreRow): string {
  const m = r.T2.metrics;
  if (r.family === 'VAL') return formatScore(m.mean_relative_error);
  if (r.family === 'RANK') return formatScore(m.top_k_hit);
  if (r.family === 'EVT') return `${formatScore(m.brier_skill_vs_base_rate)}; ${formatScore(m.brier)}`;
  return formatScore(m.mean_scaled_error);
}

/** Each model's T1 score against its T2 score, one point per model and family; above the diagonal = better after the cutoff. */
export function t1VsT2Spec(rows: QuestionScoreRow[]): Spec {
  const points = rows
    .filter((r) => r.T1.score !== null && r.T2.score !== null)
    .map((r) => ({
      model: `${r.model}${r.baseline ? ' (baseline)' : ''}`,
      family: r.family,
      t1: r.T1.score,
      t2: r.T2.score,
      gap: r.delta_t1_t2.value,
    }));
  const values = points.flatMap((p) => [p.t1 as number, p.t2 as number]);
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  return {
    config: CHART_CONFIG,
    width: 420,
    height: 320,
    layer: [
      {
        data: { values: [{ v: lo }, { v: hi }] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
        encoding: {
          x: { field: 'v', type: 'quantitative' },
          y: { field: 'v', type: 'quantitative' },
        },
      },
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          x: {
            field: 't1',
            type: 'quantitative',
            title: 'T1 score (before the cutoff)',
            scale: { domain: [lo, hi] },
          },
          y: {
            field: 't2',
            type: 'quantitative',
            title: 'T2 score (after the cutoff)',
            scale: { domain: [lo, hi] },
          },
          color: { field: 'family', type: 'nominal', sort: [...QUESTION_FAMILIES], title: 'family' },
          shape: { field: 'family', type: 'nominal', sort: [...QUESTION_FAMILIES], title: 'family' },
          tooltip: [
            { field: 'model' },
            { field: 'family' },
            { field: 't1', title: 'T1', format: '.3f' },
            { field: 't2', title: 'T2', format: '.3f' },
            { field: 'gap', title: 'Δ(T1,T2)', format: '.3f' },
          ],
        },
      },
    ],
  } as Spec;
}

/**
 * The questions report: per family the leaderboard's table (models by T2 score, T1, T2 and Δ(T1,T2) with
 * their cluster-bootstrap intervals, coverage, the secondary metric) and one chart of T1 against T2.
 */
export async function questionsSections(
  scores: QuestionScores | undefined,
  resultsPath: string,
): Promise<Section[]> {
  if (scores === undefined) {
    return [
      {
        id: 'question-scores',
        title: 'Question scores',
        blocks: [
          {
            kind: 'text',
            text: "No scores given: pass --results DIR/results.json of 'asof score-questions --questions <this folder> --answers FILE --out DIR'.",
          },
        ],
      },
    ];
  }
  const blocks: Block[] = [
    {
      kind: 'text',
      text: `${resultsPath}: ${scores.models.length} models (${scores.models.filter((m) => m.baseline).length} baselines). Scores with ${Math.round(scores.config.ci_level * 100)}% percentile intervals from ${scores.config.resamples} bootstrap resamples of clusters (seed ${scores.config.seed}); Δ(T1,T2) = T1 − T2, the memorisation gap; T3 instances are open at the run date and not scored (docs/decisions/0069).`,
    },
  ];
  for (const family of QUESTION_FAMILIES) {
    const counts = scores.instances.find((i) => i.family === family);
    const rows = scores.rows.filter((r) => r.family === family).sort(byT2Score);
    if (counts === undefined || rows.length === 0) continue;
    blocks.push({
      kind: 'table',
      caption: `${FAMILY_TITLES[family].title} — ${counts.T1} T1, ${counts.T2} T2, ${counts.T3} T3 open`,
      columns: [
        'model',
        'T1',
        'T2',
        'Δ(T1,T2)',
        'coverage T1',
        'coverage T2',
        FAMILY_TITLES[family].secondary,
      ],
      rows: rows.map((r) => [
        `${r.model}${r.baseline ? ' (baseline)' : ''}`,
        withCi(r.T1.score, r.T1.ci_low, r.T1.ci_high),
        withCi(r.T2.score, r.T2.ci_low, r.T2.ci_high),
        withCi(r.delta_t1_t2.value, r.delta_t1_t2.ci_low, r.delta_t1_t2.ci_high),
        coverage(r.T1),
        coverage(r.T2),
        secondary(r),
      ]),
      numeric: [false, true, true, true, true, true, true],
    });
  }
  if (scores.rows.some((r) => r.T1.score !== null && r.T2.score !== null)) {
    blocks.push(
      await chartBlock(
        'questions-t1-vs-t2',
        'T1 against T2 score per model and family',
        t1VsT2Spec(scores.rows),
        'Below the diagonal: the model scored better on questions resolved before its cutoff (T1) than after it (T2), the memorisation gap. Hover a point for its values.',
      ),
    );
  }
  return [{ id: 'question-scores', title: 'Question scores', blocks }];
}
