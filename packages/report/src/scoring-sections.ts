import { type ScoringResults, TOP_CELLS_PER_GROUP } from '@asof/scoring';
import {
  baselinesWinByCategory,
  horizonMetrics,
  parseUnit,
  rankPositions,
  verdictCells,
} from './aggregate-scoring.ts';
import { chartBlock } from './chart-block.ts';
import type { Block, Cell, Section } from './render-report-html.ts';
import { baselinesWinSpec, horizonMetricsSpec, ranksSpec, verdictGridSpec } from './scoring-charts.ts';
import { windowSection } from './window-sections.ts';

/** Cells shown per category under "where the baselines win" (as leaderboard.md); the rest are in results.json. */
export const TOP_CELLS_PER_CATEGORY = TOP_CELLS_PER_GROUP;

/** Scoring sections of a results.json: ranks, verdict grid, metrics by horizon, where the baselines win. */
export async function scoringSections(
  results: ScoringResults,
  resultsPath: string,
  horizons: Record<string, number>,
): Promise<Section[]> {
  const aspects = results.ranks.overall.aspects;
  const rank: Block[] = [
    {
      kind: 'table',
      caption: 'FinVerse rank (mean per unit → rank per metric → geometric mean per aspect → Σ aspect ranks)',
      columns: ['#', 'model', ...aspects.map((a) => `${a} rank (K)`), 'overall', 'missing cells'],
      rows: results.ranks.overall.models.map((m): Cell[] => [
        m.position,
        `${m.model}${results.models.find((x) => x.model === m.model)?.baseline ? ' (baseline)' : ''}`,
        ...aspects.map((a) =>
          a in m.aspect_rank ? `${m.aspect_rank[a]} (${(m.aspect_k[a] ?? Number.NaN).toFixed(2)})` : '–',
        ),
        m.overall,
        m.missing_cells,
      ]),
    },
    await chartBlock(
      'ranks',
      'Positions overall and per scope, category and frequency',
      ranksSpec(rankPositions(results)),
    ),
    {
      kind: 'table',
      columns: ['field', 'value'],
      rows: [
        ['results', resultsPath],
        ['scored dataset_id', results.dataset_id ?? '–'],
        ['config_sha256', results.config_sha256],
        ['scorer', `${results.scorer.name} ${results.scorer.version}`],
        [
          'forecast files',
          results.forecasts.map((f) => `${f.path} (${f.models.join(', ')})`).join('; ') || '–',
        ],
        [
          'series / origins / points',
          `${results.origins.series} / ${results.origins.origins} / ${results.origins.points}`,
        ],
        ['origins overlap', `${results.origins.overlapping} — ${results.origins.overlap_reason}`],
      ],
    },
  ];
  if (results.warnings.length) {
    rank.push({
      kind: 'table',
      caption: 'Scoring warnings',
      columns: ['code', 'count', 'message'],
      rows: results.warnings.map((w) => [w.code, w.count ?? null, w.message]),
    });
  }

  const cells = verdictCells(results);
  const verdict: Block[] =
    results.verdicts.status === 'refused'
      ? [{ kind: 'text', text: `Verdicts refused: ${results.verdicts.reason ?? ''}` }]
      : cells.length
        ? [
            {
              kind: 'text',
              text: `A model beats the random walk in a unit only if both one-sided Diebold–Mariano tests (squared error and CRPS) have p < ${results.config.alpha}; worse if both say worse. Each cell shows p(SE better) | p(CRPS better); hover for all four p-values and the origins pooled.`,
            },
            await chartBlock(
              'verdicts',
              'Verdicts against the random walk, per model and unit',
              verdictGridSpec(cells),
            ),
          ]
        : [{ kind: 'text', text: 'No model other than the random walk was scored: no verdict to show.' }];

  const metrics = horizonMetrics(results, horizons);
  const horizon: Block[] = metrics.length
    ? [
        await chartBlock(
          'horizon-metrics',
          'CRPS, interval coverage and QLIKE by horizon',
          horizonMetricsSpec(metrics),
          'results.json holds horizon-end metrics with one horizon per unit (its frequency’s prediction length): each point is the mean over the units of that frequency and horizon. Coverage appears only for models with intervals.',
        ),
      ]
    : [{ kind: 'text', text: 'results.json has no CRPS, coverage or QLIKE values.' }];

  const groups = baselinesWinByCategory(results);
  const win: Block[] = [];
  if (groups.length) {
    win.push(
      await chartBlock(
        'baselines-win',
        'Headline cells led by a baseline, per category',
        baselinesWinSpec(groups),
      ),
    );
    for (const g of groups) {
      const shown = g.shown;
      win.push({
        kind: 'table',
        caption: `${g.category}: ${g.cells} cell(s)${g.cells > shown.length ? ` — ${shown.length} shown, ${g.cells - shown.length} more in results.json (baselines_win)` : ''}`,
        columns: [
          'detail category · frequency',
          'metric',
          'leader(s)',
          'value',
          'best submitted',
          'its value',
        ],
        rows: shown.map((w) => {
          const u = parseUnit(w.unit);
          return [
            `${u.detail} · ${u.frequency}`,
            w.metric,
            w.leaders.join(', '),
            w.value,
            w.best_submitted ?? '–',
            w.best_submitted_value,
          ];
        }),
      });
    }
  } else {
    win.push({ kind: 'text', text: 'No headline cell is led by a baseline.' });
  }
  const windows = windowSection(results);
  return [
    { id: 'ranks', title: 'FinVerse ranks', blocks: rank },
    { id: 'verdicts', title: 'Verdicts per unit', blocks: verdict },
    ...(windows ? [windows] : []),
    { id: 'horizons', title: 'Metrics by horizon', blocks: horizon },
    { id: 'baselines-win', title: 'Where the baselines win', blocks: win },
  ];
}
