import { type ScoringResults, WINDOW_MEANING, type WindowScores } from '@asof/scoring';
import type { Block, Cell } from './render-report-html.ts';

function windowBlocks(w: WindowScores): Block[] {
  const baseline = new Set(w.models.filter((m) => m.baseline).map((m) => m.model));
  const aspects = w.ranks.overall.aspects;
  const blocks: Block[] = [
    {
      kind: 'text',
      text: `${w.window}: ${WINDOW_MEANING[w.window]}. ${w.origins.series} series, ${w.origins.origins} origins, ${w.origins.points} evaluation points.`,
    },
  ];
  if (w.ranks.overall.models.length) {
    blocks.push({
      kind: 'table',
      caption: `${w.window}: FinVerse rank on the window's origins`,
      columns: ['#', 'model', ...aspects.map((a) => `${a} rank (K)`), 'overall'],
      rows: w.ranks.overall.models.map((m): Cell[] => [
        m.position,
        `${m.model}${baseline.has(m.model) ? ' (baseline)' : ''}`,
        ...aspects.map((a) =>
          a in m.aspect_rank ? `${m.aspect_rank[a]} (${(m.aspect_k[a] ?? Number.NaN).toFixed(2)})` : '–',
        ),
        m.overall,
      ]),
    });
  }
  const pooled = w.verdicts.rows.filter((r) => r.unit === '*');
  blocks.push(
    w.verdicts.status === 'refused'
      ? { kind: 'text', text: `${w.window}: verdicts refused: ${w.verdicts.reason ?? ''}` }
      : pooled.some((r) => r.n > 0)
        ? {
            kind: 'table',
            caption: `${w.window}: verdicts against the random walk, the window's origins pooled`,
            columns: ['model', 'origins', 'p (SE better)', 'p (CRPS better)', 'verdict'],
            rows: pooled.map((r): Cell[] => [
              r.partial ? `${r.model} (its origins)` : r.model,
              r.n,
              r.squared_error?.p_model_better ?? null,
              r.crps?.p_model_better ?? null,
              r.verdict ?? 'n/a',
            ]),
          }
        : { kind: 'text', text: `${w.window}: no origin has a known horizon-end value, so no verdict.` },
  );
  return blocks;
}

/**
 * Scores per knowledge window (the leaderboard's section, as tables): each window's ranks and pooled
 * verdicts on its own origins.
 */
export function windowBlocksOf(results: ScoringResults): Block[] {
  const only = results.config.window;
  const blocks: Block[] = only
    ? [
        {
          kind: 'text',
          text: `Window ${only} only (--window ${only}: ${WINDOW_MEANING[only]}): every section of this report scores its ${results.origins.origins} origins.`,
        },
      ]
    : [
        {
          kind: 'text',
          text: 'Each window the split labels its origins with is scored on its own origins, as the sections above are on all of them (every value: results.json windows).',
        },
      ];
  for (const w of results.windows) blocks.push(...windowBlocks(w));
  return blocks;
}

/** The T1 − T2 memorisation gap per model and loss (the leaderboard's section, as a table). */
export function memorisationGapBlocks(results: ScoringResults): Block[] {
  return [
    {
      kind: 'table',
      caption:
        'Mean DM loss over each model’s T1 and T2 origins, and T1 − T2. A model that saw T1’s answers in training can do better there than on T2 (a negative gap); the baselines’ gaps show how much the periods differ by themselves.',
      columns: ['model', 'loss', 'origins T1', 'origins T2', 'T1', 'T2', 'T1 − T2'],
      rows: results.memorisation_gap.map((g): Cell[] => [
        `${g.model}${g.baseline ? ' (baseline)' : ''}`,
        g.metric === 'crps' ? `CRPS (${g.crps_kind})` : 'squared error',
        g.n_t1,
        g.n_t2,
        g.t1,
        g.t2,
        g.gap,
      ]),
    },
  ];
}
