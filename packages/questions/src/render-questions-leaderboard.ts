import type { QuestionScoreCell, QuestionScoreRow, QuestionScores } from './build-question-scores.ts';
import type { QuestionFamily } from './read-questions-folder.ts';

/** What each family's table says its headline score and secondary column are. */
export const FAMILY_TITLES: Record<QuestionFamily, { title: string; secondary: string }> = {
  VAL: {
    title:
      'VAL: price at a horizon, error reduction vs the close at t (1 − Σ|a − y|/|y| ÷ Σ|close_t − y|/|y|)',
    secondary: 'mean relative error (T2)',
  },
  RANK: {
    title: 'RANK: order by h-day return, normalised Spearman (ρ + 1)/2',
    secondary: 'top-K hit rate (T2)',
  },
  EVT: {
    title: 'EVT: probability of an event, Brier skill vs 0.5 (1 − Brier/0.25)',
    secondary: 'BSS vs base rate (T2); Brier (T2)',
  },
  FUND: {
    title: 'FUND: next first-reported fundamental, truncated utility max(0, 1 − |a − y|/s)',
    secondary: 'mean error / s (T2)',
  },
};

/** A number in a table: three decimals, a true minus sign; an undefined value is a dash. */
export function formatScore(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const s = x.toFixed(3);
  return s === '-0.000' ? '0.000' : s.replace('-', '−');
}

function withCi(v: number | null, low: number | null, high: number | null): string {
  if (v === null) return '–';
  return low === null || high === null
    ? formatScore(v)
    : `${formatScore(v)} [${formatScore(low)}, ${formatScore(high)}]`;
}

function coverageText(c: QuestionScoreCell): string {
  return `${c.n}/${c.total}${c.partial ? ' (partial)' : ''}`;
}

function secondaryText(row: QuestionScoreRow): string {
  const m = row.T2.metrics;
  switch (row.family) {
    case 'VAL':
      return formatScore(m.mean_relative_error);
    case 'RANK':
      return formatScore(m.top_k_hit);
    case 'EVT':
      return `${formatScore(m.brier_skill_vs_base_rate)}; ${formatScore(m.brier)}`;
    case 'FUND':
      return formatScore(m.mean_scaled_error);
  }
}

/** Models by T2 score, highest first; a model without a T2 score last; then by name. */
export function byT2Score(a: QuestionScoreRow, b: QuestionScoreRow): number {
  const x = a.T2.score;
  const y = b.T2.score;
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    return y - x;
  }
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}

/** Model names are the user's text: escaped so a table cell shows exactly that text. */
function escapeCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\|`*_<>[\]#~&!]/g, '\\$&')
    .replace(/^(\s*)([-+=])/, '$1\\$2');
}

/**
 * leaderboard.md of `asof score-questions`: per family one table, models by T2 score, with T1, T2 and
 * Δ(T1,T2) with their bootstrap intervals, coverage per window and the family's secondary metric.
 */
export function renderQuestionsLeaderboard(results: QuestionScores): string {
  const lines: string[] = [
    `# Question scores: ${escapeCell(results.questions_name)}`,
    '',
    `Questions dataset ${results.questions_dataset_id}. Scores with ${Math.round(results.config.ci_level * 100)}% percentile intervals from ${results.config.resamples} bootstrap resamples of clusters (seed ${results.config.seed}); Δ(T1,T2) = T1 − T2, the memorisation gap. Baselines are marked (baseline); coverage is answered/resolved per window (docs/decisions/0069).`,
    '',
  ];
  for (const family of Object.keys(FAMILY_TITLES) as QuestionFamily[]) {
    const rows = results.rows.filter((r) => r.family === family).sort(byT2Score);
    const counts = results.instances.find((i) => i.family === family);
    if (counts === undefined) continue;
    lines.push(`## ${FAMILY_TITLES[family].title}`, '');
    lines.push(
      `${counts.T1} T1 and ${counts.T2} T2 instances resolved; ${counts.T3} T3 instances are open at the run date (pending, not scored).`,
      '',
    );
    if (rows.length === 0) {
      lines.push('No model answered this family.', '');
      continue;
    }
    lines.push(
      `| model | T1 | T2 | Δ(T1,T2) | coverage T1 | coverage T2 | ${FAMILY_TITLES[family].secondary} |`,
      '|---|---|---|---|---|---|---|',
    );
    for (const r of rows) {
      lines.push(
        `| ${escapeCell(r.model)}${r.baseline ? ' (baseline)' : ''} | ${withCi(r.T1.score, r.T1.ci_low, r.T1.ci_high)} | ${withCi(r.T2.score, r.T2.ci_low, r.T2.ci_high)} | ${withCi(r.delta_t1_t2.value, r.delta_t1_t2.ci_low, r.delta_t1_t2.ci_high)} | ${coverageText(r.T1)} | ${coverageText(r.T2)} | ${secondaryText(r)} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
