import type { Duck } from '@asof/duck';
import { requireKnownNames } from '@asof/schema';
import { runReportModel } from './run-report-model.ts';

export interface VintagePathRow {
  t: number;
  vintages: number;
  first_value: number | null;
  latest_value: number | null;
  first_at: number;
  latest_at: number;
}

export interface SeriesVintages {
  seriesId: string;
  title: string | null;
  frequency: string;
  paths: VintagePathRow[];
  /** The as-of instants drawn (epoch ms) and each one's path. */
  asOf: { at: number; path: { t: number; value: number }[] }[];
}

/** Refuses a `--series` id the universe's series table (in_series) does not hold, with the nearest ids. */
export async function requireSeriesIds(duck: Duck, ids: readonly string[]): Promise<void> {
  const all = await duck.all<{ series_id: string }>('SELECT series_id FROM in_series ORDER BY series_id');
  requireKnownNames(
    ids,
    all.map((r) => r.series_id),
    {
      flag: '--series',
      kind: 'series',
      where: 'this universe',
      code: 'REPORT_SERIES_UNKNOWN',
      listHint: "list series with 'asof series --data <universe folder> --search TEXT'",
    },
  );
}

/**
 * The vintage view of one series: first-release and latest paths and the as-of path at each instant of
 * `asOf` (ISO instants; by default the 25/50/75 % points of the instants its revisions were published).
 */
export async function aggregateVintages(
  duck: Duck,
  seriesId: string,
  asOf: string[],
): Promise<SeriesVintages> {
  const [meta] = await duck.all<{ title: string | null; frequency: string }>(
    'SELECT title, frequency FROM in_series WHERE series_id = $id',
    { id: seriesId },
  );
  if (!meta) await requireSeriesIds(duck, [seriesId]);
  const paths = await runReportModel<VintagePathRow>(duck, 'vintage_paths', { series: seriesId });
  const instants = asOf.length
    ? asOf.map((a) => Date.parse(a))
    : (await runReportModel<{ instant: number }>(duck, 'vintage_default_instants', { series: seriesId })).map(
        (r) => r.instant,
      );
  const drawn = [];
  for (const at of instants) {
    const path = await runReportModel<{ t: number; value: number }>(duck, 'vintage_as_of', {
      series: seriesId,
      as_of: new Date(at).toISOString(),
    });
    drawn.push({ at, path });
  }
  return { seriesId, title: meta.title, frequency: meta.frequency, paths, asOf: drawn };
}
