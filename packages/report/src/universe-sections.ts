import type { Manifest } from '@asof/schema';
import type { UniverseAggregates, WarningCounts } from './aggregate-universe.ts';
import type { SeriesVintages } from './aggregate-vintages.ts';
import { isoDay } from './chart-base.ts';
import { chartBlock } from './chart-block.ts';
import type { Block, Cell, Section } from './render-report-html.ts';
import {
  activeSeriesSpec,
  coverageSpec,
  patternMixSpec,
  publicationLagSpec,
  revisionSizesSpec,
  segmentStatisticsSpec,
  vintageCountsSpec,
} from './universe-charts.ts';
import { revisionPoints, revisionSpec, vintageSpec } from './vintage-charts.ts';

const days = (s: number) => Math.round((s / 86400) * 100) / 100;

/** Coverage by scope → category → detail category → frequency, and active series over time. */
export async function coverageSection(a: UniverseAggregates): Promise<Section> {
  const total = (k: 'series' | 'observations' | 'eval_targets' | 'tasks') =>
    a.coverage.reduce((s, r) => s + r[k], 0);
  const blocks: Block[] = [
    await chartBlock(
      'coverage',
      'Series per scope / category / detail category, by frequency',
      coverageSpec(a.coverage),
      'Hover a bar for its observations, evaluation targets and tasks.',
    ),
    {
      kind: 'table',
      columns: [
        'scope',
        'category',
        'detail category',
        'frequency',
        'series',
        'observations',
        'eval targets',
        'tasks',
      ],
      rows: [
        ...a.coverage.map((r): Cell[] => [
          r.scope,
          r.category,
          r.detail_category,
          r.frequency,
          r.series,
          r.observations,
          r.eval_targets,
          r.tasks,
        ]),
        ['all', '', '', '', total('series'), total('observations'), total('eval_targets'), total('tasks')],
      ],
    },
  ];
  if (a.activeSeries.length) {
    blocks.push(
      await chartBlock(
        'active-series',
        'Active series per month and category',
        activeSeriesSpec(a.activeSeries),
        'A series is active from the month of its first timestamp to the month of its last.',
      ),
    );
  }
  return { id: 'coverage', title: 'Coverage', blocks };
}

/** Publication lag (available_at − period end) of first releases per source and basis. */
export async function publicationLagSection(a: UniverseAggregates): Promise<Section> {
  const blocks: Block[] = [];
  if (a.lagBins.length) {
    blocks.push(
      await chartBlock(
        'publication-lag',
        'How late values become public: first releases by publication lag',
        publicationLagSpec(a.lagBins),
        'Lag = available_at of the first release − the period end (the timestamp). A negative lag is a value public before its period ended (e.g. a daily close before midnight New York).',
      ),
    );
  }
  blocks.push({
    kind: 'table',
    caption: 'Publication lag of first releases, days',
    columns: ['source', 'basis', 'first releases', 'min', '5 %', '25 %', 'median', '75 %', '95 %', 'max'],
    rows: a.lagQuantiles.map((r) => [r.source, r.basis, r.releases, ...r.q_s.map(days)]),
  });
  return { id: 'publication-lag', title: 'Publication lag', blocks };
}

/** Vintages per period and revision sizes per source, with the most revised series. */
export async function revisionsSection(a: UniverseAggregates): Promise<Section> {
  const blocks: Block[] = [];
  if (a.vintageCounts.length) {
    blocks.push(
      await chartBlock('vintages', 'Vintages per period, by source', vintageCountsSpec(a.vintageCounts)),
    );
  }
  if (a.revisionBins.length) {
    blocks.push(
      await chartBlock(
        'revision-sizes',
        'How far revisions moved the first release, by source',
        revisionSizesSpec(a.revisionBins),
        'Each revised period counted once: |latest value − first release| / |first release|.',
      ),
      {
        kind: 'table',
        caption: 'The series whose first releases moved most (median over revised periods)',
        columns: [
          'series',
          'title',
          'source',
          'freq',
          'revised periods',
          'revisions',
          'median move',
          'largest move',
        ],
        rows: a.topRevised.map((r) => [
          r.series_id,
          r.title,
          r.source,
          r.frequency,
          r.revised_periods,
          r.revisions,
          `${(r.median_move * 100).toFixed(2)} %`,
          `${(r.max_move * 100).toFixed(2)} %`,
        ]),
      },
    );
  } else {
    blocks.push({
      kind: 'text',
      text: 'No period of this universe has a second vintage: nothing was revised.',
    });
  }
  return { id: 'revisions', title: 'Vintages and revisions', blocks };
}

/**
 * Values a later download of a vendor file changed without a revision date (VENDOR_RESTATED): per static
 * series, most restated first (at most `limit` rows; the totals count them all).
 */
export function restatementsSection(a: UniverseAggregates, limit = 15): Section {
  if (a.restated.length === 0) {
    return {
      id: 'restatements',
      title: 'Vendor restatements',
      blocks: [
        {
          kind: 'text',
          text: 'No value of a static series was changed by a later download of a vendor file without revision dates (Stooq/Yahoo histories, fredgraph CSVs); the VENDOR_RESTATED warnings and asof diff also count those of index members.',
        },
      ],
    };
  }
  const values = a.restated.reduce((n, r) => n + r.restated_values, 0);
  const pct = (v: number | null) => (v === null ? null : Math.round(v * 10000) / 100);
  return {
    id: 'restatements',
    title: 'Vendor restatements',
    blocks: [
      {
        kind: 'text',
        text: `${values.toLocaleString('en-US')} values of ${a.restated.length.toLocaleString('en-US')} series were changed by a later download of a file that carries no revision dates: a silent restatement, kept as a row available from that download ('asof diff' lists them between two builds).${a.restated.length > limit ? ` The ${limit} most restated series:` : ''}`,
      },
      {
        kind: 'table',
        columns: [
          'series',
          'source',
          'freq',
          'restated values',
          'downloads',
          'periods',
          'median move %',
          'max move %',
        ],
        rows: a.restated
          .slice(0, limit)
          .map((r): Cell[] => [
            r.series_id,
            r.source,
            r.frequency,
            r.restated_values,
            r.downloads,
            `${isoDay(r.first_period)} … ${isoDay(r.last_period)}`,
            pct(r.median_move),
            pct(r.max_move),
          ]),
      },
    ],
  };
}

/** Movement-pattern mix and ADF / lag-1 ACF / forecastability distributions of the segments. */
export async function patternsSection(a: UniverseAggregates): Promise<Section> {
  if (!a.hasSegments) {
    return {
      id: 'patterns',
      title: 'Movement patterns',
      blocks: [{ kind: 'text', text: 'This manifest lists no segments table (built without segments).' }],
    };
  }
  return {
    id: 'patterns',
    title: 'Movement patterns',
    blocks: [
      await chartBlock(
        'pattern-mix',
        'Movement-pattern mix per category and frequency',
        patternMixSpec(a.patternMix),
      ),
      await chartBlock(
        'segment-statistics',
        'ADF statistic, lag-1 autocorrelation and forecastability of the segments',
        segmentStatisticsSpec(a.segmentStatistics),
        'Whiskers 5–95 %, box 25–75 %, tick at the median, per category · frequency.',
      ),
    ],
  };
}

/** What each warning is about, counted in the data. */
function warningCount(code: string, w: WarningCounts): string | null {
  switch (code) {
    case 'SURVIVORSHIP':
      return `${w.static_series.toLocaleString('en-US')} static series`;
    case 'SYNTHETIC':
      return `${w.synthetic_series.toLocaleString('en-US')} of ${w.series.toLocaleString('en-US')} series`;
    case 'RULE_BASED_AVAILABLE_AT':
      return `${w.rule_observations.toLocaleString('en-US')} rows of ${w.rule_series.toLocaleString('en-US')} series`;
    case 'FRED_VALUES_WITHDRAWN':
      return `${w.withdrawals.toLocaleString('en-US')} withdrawal rows in ${w.withdrawn_series.toLocaleString('en-US')} series`;
    default:
      return null;
  }
}

/** The manifest's warnings as a readable list with counts (the data's own counts beside them). */
export function warningsSection(manifest: Manifest, w: WarningCounts | null): Section {
  const rows: Cell[][] = manifest.warnings.map((x) => [
    x.code,
    x.count ?? null,
    w ? (warningCount(x.code, w) ?? '–') : '–',
    x.message,
  ]);
  if (w) {
    const codes = new Set(manifest.warnings.map((x) => x.code));
    const implied: [string, number][] = [
      ['SURVIVORSHIP', w.static_series],
      ['SYNTHETIC', w.synthetic_series],
      ['RULE_BASED_AVAILABLE_AT', w.rule_observations],
      ['FRED_VALUES_WITHDRAWN', w.withdrawals],
    ];
    for (const [code, n] of implied) {
      if (n > 0 && !codes.has(code) && !(code === 'FRED_VALUES_WITHDRAWN' && codes.has('VALUES_WITHDRAWN'))) {
        rows.push([code, null, warningCount(code, w), 'found in the data; the manifest has no such warning']);
      }
    }
  }
  return {
    id: 'warnings',
    title: `Warnings (${rows.length})`,
    blocks: rows.length
      ? [{ kind: 'table', columns: ['code', 'count (manifest)', 'in the data', 'message'], rows }]
      : [{ kind: 'text', text: 'The manifest has no warnings.' }],
  };
}

/** One chart per `--series`: first release, latest and as-of paths, revisions marked. */
export async function vintageViewSection(views: SeriesVintages[]): Promise<Section> {
  const blocks: Block[] = [
    {
      kind: 'text',
      text: 'Why point-in-time matters: the first-release path is what a forecaster knew when each value came out, the latest path is what a careless backtest reads, and each as-of path is the series as it was published on that date. Diamonds mark revised periods (hover: first release → latest).',
    },
  ];
  for (const [i, v] of views.entries()) {
    const revised = v.paths.filter((p) => p.vintages > 1).length;
    blocks.push(
      // Chart ids are positional: a series id is free text, a page id must not be.
      await chartBlock(
        `vintage-${i + 1}`,
        `${v.seriesId}${v.title ? ` — ${v.title}` : ''} (${v.frequency})`,
        vintageSpec(v),
        `${v.paths.length.toLocaleString('en-US')} periods, ${revised.toLocaleString('en-US')} revised; as-of paths at ${v.asOf.map((a) => isoDay(a.at)).join(', ') || '–'}.`,
      ),
    );
    const revisions = revisionSpec(v);
    if (revisions !== null) {
      const points = revisionPoints(v);
      const largest = points.reduce((a, b) =>
        Math.abs(b.change_pct ?? 0) > Math.abs(a.change_pct ?? 0) ? b : a,
      );
      blocks.push(
        await chartBlock(
          `vintage-${i + 1}-revisions`,
          `${v.seriesId}: revisions, latest vs first release`,
          revisions,
          `${points.length.toLocaleString('en-US')} revised periods; the largest, ${isoDay(largest.t)}: ${largest.first} → ${largest.latest}${largest.change_pct === null ? '' : ` (${largest.change_pct >= 0 ? '+' : ''}${largest.change_pct.toFixed(2)}%)`}.`,
        ),
      );
    }
  }
  return { id: 'vintages', title: 'Vintage view', blocks };
}
