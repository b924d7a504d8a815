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
