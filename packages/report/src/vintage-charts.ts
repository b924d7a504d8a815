import type { SeriesVintages } from './aggregate-vintages.ts';
import { CHART_CONFIG, isoDay, type Spec, timeX, WIDTH } from './chart-base.ts';

/**
 * First-release path, latest path and the as-of paths of one series on one chart; every revised
 * timestamp is marked (tooltip: first release → latest, number of vintages, when each was published).
 */
export function vintageSpec(v: SeriesVintages): Spec {
  const lines: { t: number; value: number; path: string }[] = [];
  for (const p of v.paths) {
    if (p.first_value !== null) lines.push({ t: p.t, value: p.first_value, path: 'first release' });
    if (p.latest_value !== null) lines.push({ t: p.t, value: p.latest_value, path: 'latest' });
  }
  for (const a of v.asOf) {
    for (const p of a.path) lines.push({ t: p.t, value: p.value, path: `as of ${isoDay(a.at)}` });
  }
  const revised = v.paths
    .filter((p) => p.vintages > 1)
    .map((p) => ({
      t: p.t,
      value: p.latest_value ?? p.first_value,
      first: p.first_value,
      latest: p.latest_value === null ? 'withdrawn' : p.latest_value,
      vintages: p.vintages,
      first_at: p.first_at,
      latest_at: p.latest_at,
    }));
  const paths = ['first release', 'latest', ...v.asOf.map((a) => `as of ${isoDay(a.at)}`)];
  const layer: unknown[] = [
    {
      data: { values: lines },
      mark: { type: 'line', strokeWidth: 1.5 },
      encoding: {
        x: timeX('t', 'period'),
        y: { field: 'value', type: 'quantitative', title: 'value', scale: { zero: false } },
        color: { field: 'path', type: 'nominal', title: 'path', sort: paths },
      },
    },
  ];
  if (revised.length) {
    layer.push({
      data: { values: revised },
      mark: { type: 'point', shape: 'diamond', filled: true, size: 20, color: '#c0392b', opacity: 0.8 },
      encoding: {
        x: timeX('t', 'period'),
        y: { field: 'value', type: 'quantitative' },
        tooltip: [
          { field: 't', type: 'temporal', title: 'period', format: '%Y-%m-%d', formatType: 'utc' },
          { field: 'first', title: 'first release' },
          { field: 'latest', title: 'latest' },
          { field: 'vintages' },
          {
            field: 'first_at',
            type: 'temporal',
            title: 'first published',
            format: '%Y-%m-%d',
            formatType: 'utc',
          },
          {
            field: 'latest_at',
            type: 'temporal',
            title: 'last revised',
            format: '%Y-%m-%d',
            formatType: 'utc',
          },
        ],
      },
    });
  }
  return { config: CHART_CONFIG, width: WIDTH, height: 280, layer } as Spec;
}

/** One revised period: its change from first release to latest, in percent of the first release. */
export interface RevisionPoint {
  t: number;
  first: number;
  latest: number;
  /** (latest − first) / |first| × 100; null when the first release is 0 (no relative change). */
  change_pct: number | null;
  change: number;
}

/** The revised periods of `v` (withdrawn ones aside: they have no latest value). */
export function revisionPoints(v: SeriesVintages): RevisionPoint[] {
  const out: RevisionPoint[] = [];
  for (const p of v.paths) {
    if (p.vintages < 2 || p.first_value === null || p.latest_value === null) continue;
    const change = p.latest_value - p.first_value;
    out.push({
      t: p.t,
      first: p.first_value,
      latest: p.latest_value,
      change,
      change_pct: p.first_value === 0 ? null : (100 * change) / Math.abs(p.first_value),
    });
  }
  return out;
}

/**
 * Each revised period's change from first release to latest, in percent of the first release: on a level
 * chart a 1% revision of a series that grew tenfold is a hair's width, here it is the whole scale. Null when
 * no period was revised. A first release of 0 has no relative change: such periods are charted in units.
 */
export function revisionSpec(v: SeriesVintages): Spec | null {
  const points = revisionPoints(v);
  if (points.length === 0) return null;
  const relative = points.every((p) => p.change_pct !== null);
  const field = relative ? 'change_pct' : 'change';
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 180,
    data: { values: points },
    mark: { type: 'bar', color: '#c0392b' },
    encoding: {
      x: timeX('t', 'period'),
      y: {
        field,
        type: 'quantitative',
        title: relative ? 'latest vs first release (%)' : 'latest − first release',
      },
      tooltip: [
        { field: 't', type: 'temporal', title: 'period', format: '%Y-%m-%d', formatType: 'utc' },
        { field: 'first', title: 'first release' },
        { field: 'latest', title: 'latest' },
        { field, title: relative ? 'change (%)' : 'change', format: '.3~f' },
      ],
    },
  } as Spec;
}
