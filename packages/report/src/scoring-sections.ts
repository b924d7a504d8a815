import {
  isHeadline,
  type LeaderboardSectionId,
  leaderboardSections,
  pooledIcTable,
  type RankBlock,
  rankedIn,
  type ScoringResults,
  TOP_CELLS_PER_GROUP,
  unitVerdictCounts,
  WINDOW_MEANING,
} from '@asof/scoring';
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
import { memorisationGapBlocks, windowBlocksOf } from './window-sections.ts';

/** Cells shown per category under "where the baselines win" (as leaderboard.md); the rest are in results.json. */
export const TOP_CELLS_PER_CATEGORY = TOP_CELLS_PER_GROUP;

const baselineSet = (results: ScoringResults) =>
  new Set(results.models.filter((m) => m.baseline).map((m) => m.model));

/** A FinVerse rank block as a table (position, aspect ranks with their K, Σ aspect ranks). */
function rankTable(block: RankBlock, baselines: Set<string>, caption?: string, missing = false): Block {
  return {
    kind: 'table',
    caption,
    columns: [
      '#',
      'model',
      ...block.aspects.map((a) => `${a} rank (K)`),
      'overall',
      ...(missing ? ['missing cells'] : []),
    ],
    rows: block.models.map((m): Cell[] => [
      m.position,
      `${m.model}${baselines.has(m.model) ? ' (baseline)' : ''}`,
      ...block.aspects.map((a) =>
        a in m.aspect_rank ? `${m.aspect_rank[a]} (${(m.aspect_k[a] ?? Number.NaN).toFixed(2)})` : '–',
      ),
      m.overall,
      ...(missing ? [m.missing_cells] : []),
    ]),
  };
}

/** What a ranking ranks by and on which points (leaderboard.md's caption, without its Markdown). */
function rankFamilyCaption(block: RankBlock): string {
  const p = block.points;
  return `FinVerse rank aggregation, metric family ${block.family} (${block.metrics.length} metric(s)), on ${p.origins} paths, ${p.points} points that every ranked model forecasts (mean per unit → rank per metric → geometric mean per aspect → Σ aspect ranks)`;
}

const share = (s: number) => (s === 1 ? '100%' : `${(s * 100).toPrecision(3)}%`);

/**
 * The report's rendering of each leaderboard section (leaderboard.md's, packages/scoring
 * render-leaderboard.ts): a Record over every id, so a section the leaderboard gains does not compile here
 * until the report shows it too.
 */
const SECTION_BLOCKS: Record<LeaderboardSectionId, (results: ScoringResults) => Promise<Block[]>> = {
  'data-warnings': async (results) => [
    {
      kind: 'table',
      columns: ['code', 'count', 'message'],
      rows: results.dataset_warnings.map((w) => [w.code, w.count ?? null, w.message]),
    },
  ],
  coverage: async (results) => {
    const t = results.comparison.task_set;
    const blocks =
      1 +
      Object.keys(results.ranks.by_scope).length +
      Object.keys(results.ranks.by_category).length +
      Object.keys(results.ranks.by_frequency).length;
    const baselines = baselineSet(results);
    return [
      { kind: 'text', text: `Task set: ${t.series} series, ${t.origins} origins, ${t.points} points.` },
      {
        kind: 'table',
        columns: ['model', 'series', 'origins', 'points', 'share', 'ranked in'],
        rows: results.models.map((m): Cell[] => {
          const ranked = rankedIn(results, m.model);
          return [
            `${m.model}${baselines.has(m.model) ? ' (baseline)' : ''}`,
            m.coverage.series,
            m.coverage.origins,
            m.coverage.points,
            share(m.coverage.share),
            ranked.length === blocks
              ? 'all blocks'
              : ranked.length
                ? ranked.join(', ')
                : 'none: with the baselines on its own points (Partial models)',
          ];
        }),
      },
      {
        kind: 'list',
        items: [
          `Points: ${results.comparison.points}.`,
          `Ranks: ${results.comparison.ranks}.`,
          `Verdicts: ${results.comparison.verdicts}.`,
        ],
      },
    ];
  },
  runs: async (results) => [
    {
      kind: 'table',
      columns: [
        'model',
        'answered',
        'guard checks',
        'fit snapshot',
        'protocol',
        'run time',
        'sandbox',
        'command',
      ],
      rows: (results.runs ?? []).map((r): Cell[] => [
        r.model,
        `${r.pairs.forecast} of ${r.pairs.asked} pairs${r.pairs.skipped ? ` (${r.pairs.skipped} skipped)` : ''}`,
        `${r.guard.requests} requests, ${r.guard.rows} rows`,
        r.fit ? `${r.fit.series} series, ${r.fit.rows} rows` : 'declined',
        r.protocol_version,
        `${r.runtime.seconds.toFixed(1)} s (model ${r.runtime.model_seconds.toFixed(1)} s)`,
        !r.sandbox
          ? 'not recorded'
          : r.sandbox.kind === 'none'
            ? `none: could read the answers (${r.sandbox.detail})`
            : `bubblewrap: no network, ${r.sandbox.hidden.length} output(s) hidden`,
        r.command.join(' '),
      ]),
    },
  ],
  'baseline-fits': async (results) => [
    {
      kind: 'table',
      columns: ['baseline', 'origins', 'fitted', 'fallback (why)', 'no path', 'not converged', 'scored on'],
      rows: (results.baseline_fits ?? []).map((f): Cell[] => [
        f.model,
        f.origins,
        f.fitted,
        f.fallback
          ? `${f.fallback} (${Object.entries(f.reasons)
              .map(([r, n]) => `${r} ${n}`)
              .join(', ')})`
          : 0,
        f.no_path,
        f.not_converged,
        f.scored_on === 'all'
          ? 'every origin (fallbacks included)'
          : f.fitted
            ? `its ${f.fitted} fitted origins only`
            : 'not scored: fitted at no origin',
      ]),
    },
    {
      kind: 'text',
      text: "GARCH's fallback (a constant variance around the random walk) is not GARCH: GARCH is scored only where GARCH(1,1) was fitted, as a partial model.",
    },
  ],
  overall: async (results) => [
    rankTable(results.ranks.overall, baselineSet(results), rankFamilyCaption(results.ranks.overall), true),
    await chartBlock(
      'ranks',
      'Positions overall and per scope, category and frequency',
      ranksSpec(rankPositions(results)),
    ),
  ],
  verdicts: async (results) => {
    if (results.verdicts.status === 'refused')
      return [{ kind: 'text', text: `Verdicts refused: ${results.verdicts.reason ?? ''}` }];
    const cells = verdictCells(results);
    if (!cells.length)
      return [{ kind: 'text', text: 'No model other than the random walk was scored: no verdict to show.' }];
    return [
      {
        kind: 'text',
        text: `A model beats the random walk in a unit only if both one-sided Diebold–Mariano tests (squared error and CRPS) have p < ${results.config.alpha}; worse if both say worse. Each cell shows p(SE better) | p(CRPS better); hover for all four p-values and the origins pooled.`,
      },
      await chartBlock(
        'verdicts',
        'Verdicts against the random walk, per model and unit',
        verdictGridSpec(cells),
      ),
      {
        kind: 'table',
        caption: 'Per unit (each unit tested on its own origins)',
        columns: ['model', 'pooled', 'units beats', 'indistinguishable', 'worse', 'n/a', 'units disagreeing'],
        rows: unitVerdictCounts(results).map((c): Cell[] => [
          c.partial ? `${c.model} (its origins)` : c.model,
          c.pooled ?? 'n/a',
          c.units.beats,
          c.units.indistinguishable,
          c.units.worse,
          c.units['n/a'],
          c.differing,
        ]),
      },
    ];
  },
  ic: async (results) => {
    const ic = pooledIcTable(results);
    return [
      {
        kind: 'table',
        columns: ic.columns,
        rows: ic.rows.map((r): Cell[] => [r.partial ? `${r.model} (its origins)` : r.model, ...r.values]),
      },
      {
        kind: 'text',
        text: 'IC / RankIC: Pearson / Spearman correlation between forecast and realised horizon-end returns across origins (n/a for a constant forecast such as the random walk). The cost-aware diagnostic holds sign(median forecast) for one horizon per origin and pays the costs in results.json (config.cost_diagnostic) per unit traded: whether an edge would survive frictions, not a trading system. Per unit: tycheon.ic, tycheon.rank_ic, tycheon.cost_* in results.json.',
      },
    ];
  },
  partial: async (results) => {
    const baselines = baselineSet(results);
    const names = results.models.filter((m) => m.baseline).map((m) => m.model);
    const blocks: Block[] = [];
    for (const p of results.same_points) {
      const c = results.models.find((m) => m.model === p.model)?.coverage;
      blocks.push({
        kind: 'text',
        text: `${p.model}: ${c ? `${c.series} series, ${c.origins} origins, ${c.points} points (${share(c.share)} of the task set)` : 'partial'}; every value below is on these points only.`,
      });
      if (p.ranks.models.length)
        blocks.push(rankTable(p.ranks, baselines, `${p.model} with the baselines on its points`));
      const base = new Map(p.values.map((v) => [`${v.unit}\u0000${v.metric}\u0000${v.model}`, v.value]));
      const own = results.values.filter((v) => v.model === p.model && isHeadline(v));
      blocks.push({
        kind: 'details',
        summary: `${p.model}: ${own.length} headline value(s) beside the baselines'`,
        blocks: [
          {
            kind: 'table',
            columns: ['unit', 'metric', p.model, ...names],
            rows: own.map((v): Cell[] => [
              v.unit,
              v.metric,
              v.value,
              ...names.map((b) => base.get(`${v.unit}\u0000${v.metric}\u0000${b}`) ?? null),
            ]),
          },
        ],
      });
    }
    return blocks;
  },
  windows: async (results) => windowBlocksOf(results),
  'memorisation-gap': async (results) => memorisationGapBlocks(results),
  breakdowns: async (results) =>
    (
      [
        ['scope', results.ranks.by_scope],
        ['category', results.ranks.by_category],
        ['frequency', results.ranks.by_frequency],
      ] as const
    ).map(
      ([title, blocks]): Block => ({
        kind: 'table',
        caption: `By ${title}`,
        columns: [title, 'first', 'positions'],
        rows: Object.entries(blocks).map(([group, b]): Cell[] => [
          group,
          b.models
            .filter((m) => m.position === 1)
            .map((m) => m.model)
            .join(', ') || '–',
          b.models.map((m) => `${m.model} ${m.position}`).join(' · '),
        ]),
      }),
    ),
  'baselines-win': async (results) => {
    const groups = baselinesWinByCategory(results);
    if (!groups.length) return [{ kind: 'text', text: 'No headline cell is led by a baseline.' }];
    const win: Block[] = [
      await chartBlock(
        'baselines-win',
        'Headline cells led by a baseline, per category',
        baselinesWinSpec(groups),
      ),
    ];
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
    return win;
  },
};

/** What was scored, with what and how: the report's own section ahead of the leaderboard's. */
function runSection(results: ScoringResults, resultsPath: string): Section {
  const blocks: Block[] = [
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
  const only = results.config.window;
  if (only) {
    blocks.unshift({
      kind: 'text',
      text: `Window ${only} only (--window ${only}: ${WINDOW_MEANING[only]}): every value below is on its ${results.origins.origins} origins; the baselines were fitted on every origin of the split.`,
    });
  }
  if (results.warnings.length) {
    blocks.push({
      kind: 'table',
      caption: 'Scoring warnings',
      columns: ['code', 'count', 'message'],
      rows: results.warnings.map((w) => [w.code, w.count ?? null, w.message]),
    });
  }
  return { id: 'scoring-run', title: 'Scoring run', blocks };
}

/**
 * Scoring sections of a results.json: every section leaderboard.md has (leaderboardSections, same ids and
 * headings, same order), with charts where they help, after the run's identity, and the metrics by horizon
 * after the verdicts (a figure the leaderboard has no room for).
 */
export async function scoringSections(
  results: ScoringResults,
  resultsPath: string,
  horizons: Record<string, number>,
): Promise<Section[]> {
  const sections: Section[] = [runSection(results, resultsPath)];
  for (const s of leaderboardSections(results)) {
    sections.push({ id: s.id, title: s.title, blocks: await SECTION_BLOCKS[s.id](results) });
    if (s.id === 'verdicts') sections.push(await horizonSection(results, horizons));
  }
  return sections;
}

async function horizonSection(results: ScoringResults, horizons: Record<string, number>): Promise<Section> {
  const metrics = horizonMetrics(results, horizons);
  const blocks: Block[] = metrics.length
    ? [
        await chartBlock(
          'horizon-metrics',
          'CRPS, interval coverage and QLIKE by horizon',
          horizonMetricsSpec(metrics),
          'results.json holds horizon-end metrics with one horizon per unit (its frequency’s prediction length): each point is the mean over the units of that frequency and horizon. Coverage appears only for models with intervals.',
        ),
      ]
    : [{ kind: 'text', text: 'results.json has no CRPS, coverage or QLIKE values.' }];
  return { id: 'horizons', title: 'Metrics by horizon', blocks };
}
