import type { ScoringResults } from './results-schema.ts';

/**
 * The sections of a leaderboard, in order. leaderboard.md and the HTML report (packages/report) both build
 * their sections from this list, so a section added to one cannot be missing from the other (issue 51 item 7):
 * the report maps every id to its own rendering, and a test compares both documents' headings.
 */
export const LEADERBOARD_SECTION_IDS = [
  'data-warnings',
  'coverage',
  'runs',
  'baseline-fits',
  'overall',
  'verdicts',
  'ic',
  'partial',
  'windows',
  'memorisation-gap',
  'breakdowns',
  'baselines-win',
] as const;
export type LeaderboardSectionId = (typeof LEADERBOARD_SECTION_IDS)[number];

export interface LeaderboardSection {
  id: LeaderboardSectionId;
  /** The heading: leaderboard.md's `## ` line and the report's h2, the same text. */
  title: string;
}

/** A section's heading for these results (one depends on them: the cost diagnostic's label). */
export function leaderboardHeading(id: LeaderboardSectionId, results: ScoringResults): string {
  switch (id) {
    case 'data-warnings':
      return 'Warnings of the data (read every result below with them)';
    case 'coverage':
      return 'Coverage and comparison sets';
    case 'runs':
      return 'Model runs (asof run, behind the look-ahead guard)';
    case 'overall':
      return 'Overall ranking: FinVerse family (rank aggregation, docs/glossary.md: mean per unit → rank per metric → geometric mean per aspect → Σ aspect ranks)';
    case 'verdicts':
      return 'Verdicts against the random walk (Tycheon family: squared error and CRPS of the horizon-end return; Diebold–Mariano, HLN; all origins pooled)';
    case 'ic':
      return `Tycheon IC and the cost-aware diagnostic (${results.config.cost_diagnostic.label}; all origins pooled)`;
    case 'baseline-fits':
      return 'Fitted baselines: where they were fitted';
    case 'partial':
      return 'Partial models, with the baselines on the same points';
    case 'windows':
      return 'Scores per knowledge window';
    case 'memorisation-gap':
      return 'Memorisation gap (T1 − T2)';
    case 'breakdowns':
      return 'Breakdowns';
    case 'baselines-win':
      return 'Where the baselines win';
  }
}

/** Whether the results have anything for the section (the others are left out of both documents). */
function present(id: LeaderboardSectionId, results: ScoringResults): boolean {
  switch (id) {
    case 'data-warnings':
      return results.dataset_warnings.length > 0;
    case 'runs':
      return (results.runs?.length ?? 0) > 0;
    case 'ic':
      return results.pooled.length > 0;
    case 'baseline-fits':
      return (results.baseline_fits?.length ?? 0) > 0;
    case 'partial':
      return results.same_points.length > 0;
    case 'windows':
      return results.windows.length > 0;
    case 'memorisation-gap':
      return results.memorisation_gap.length > 0;
    default:
      return true;
  }
}

/** The sections a leaderboard of these results has, in order, with their headings. */
export function leaderboardSections(results: ScoringResults): LeaderboardSection[] {
  return LEADERBOARD_SECTION_IDS.filter((id) => present(id, results)).map((id) => ({
    id,
    title: leaderboardHeading(id, results),
  }));
}

/** The pooled Tycheon IC / RankIC and cost-diagnostic metrics, in their table's column order. */
const POOLED_IC_COLUMNS = [
  ['IC', 'tycheon.ic'],
  ['RankIC', 'tycheon.rank_ic'],
  ['net return', 'tycheon.cost_net_return'],
  ['gross return', 'tycheon.cost_gross_return'],
  ['hit rate', 'tycheon.cost_hit_rate'],
  ['turnover', 'tycheon.cost_turnover'],
] as const;

export interface PooledIcRow {
  model: string;
  /** The model's own origins only (a partial model), not the task set. */
  partial: boolean;
  /** One value per column of pooledIcTable's `columns` after `model`; null: n/a. */
  values: (number | null)[];
}

/** The "ic" section's table, one row per model (and per partial model's own origins): leaderboard and report. */
export function pooledIcTable(results: ScoringResults): { columns: string[]; rows: PooledIcRow[] } {
  const rows = new Map<string, { model: string; partial: boolean; values: (number | null | undefined)[] }>();
  for (const p of results.pooled) {
    const key = `${p.model}\u0000${p.partial ? 1 : 0}`;
    const row = rows.get(key) ?? {
      model: p.model,
      partial: p.partial === true,
      values: POOLED_IC_COLUMNS.map(() => undefined),
    };
    rows.set(key, row);
    const at = POOLED_IC_COLUMNS.findIndex(([, metric]) => metric === p.metric);
    // The first value of a metric counts, as results.json lists them.
    if (at >= 0 && row.values[at] === undefined) row.values[at] = p.value ?? null;
  }
  return {
    columns: ['model', ...POOLED_IC_COLUMNS.map(([title]) => title)],
    rows: [...rows.values()].map((r) => ({ ...r, values: r.values.map((v) => v ?? null) })),
  };
}
