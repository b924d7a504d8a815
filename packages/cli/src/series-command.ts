import { resolve } from 'node:path';
import { periodLabel } from '@asof/calendar';
import { Duck, loadQuery } from '@asof/duck';
import { withVerifiedManifest } from '@asof/manifest';
import { FREQUENCIES, InputError, requireKnownNames } from '@asof/schema';
import { MODELS_DIR } from '@asof/transform';
import { type Io, requireUniverse, universeManifestOf } from './commands.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const SERIES_USAGE =
  'asof series --data DIR [--search TEXT] [--unit S/C/D/F] [--frequency F] [--source S] [--eval] [--limit N] [--json]';

const HELP = `${SERIES_USAGE}

Lists the series of a universe built with 'asof build' (the manifest's verified series.parquet): id, title,
unit, taxonomy unit, frequency, first and last period, observations, revisions, eval target.

  --search TEXT   every word must occur in the id, title, source key, entity, unit or taxonomy names
                  (case-insensitive), e.g. --search cpi, --search "consumer price"
  --unit S/C/D/F  one taxonomy unit, e.g. 'Country/Macro Indicators/Inflation/M' (asof taxonomy --coverage)
  --frequency F   one of ${FREQUENCIES.join(', ')}
  --source S      one source, e.g. fred, edgar, prices, embedded
  --eval          eval-target series only
  --limit N       print at most N rows (default 50; --json prints all)
`;

export interface SeriesRow {
  series_id: string;
  title: string | null;
  unit: string | null;
  taxonomy_unit: string;
  frequency: string;
  source: string;
  first_period: string | null;
  last_period: string | null;
  n_obs: number;
  n_revisions: number;
  eval_target: boolean;
}

/**
 * A --unit or --source the universe does not have is a typo, not "0 series": refused with the nearest names
 * before the listing.
 */
async function requireUnitAndSource(
  duck: Duck,
  seriesFile: string,
  values: Record<string, unknown>,
  data: string,
): Promise<void> {
  for (const [flag, column, kind, hint] of [
    [
      'unit',
      `scope || '/' || category || '/' || detail_category || '/' || frequency`,
      'taxonomy unit',
      `a unit is Scope/Category/Detail category/Frequency; list them with 'asof taxonomy --coverage ${data}/manifest.json'`,
    ],
    ['source', 'source', 'source', `list series with 'asof series --data ${data}'`],
  ] as const) {
    const value = values[flag];
    if (typeof value !== 'string') continue;
    const names = await duck.all<{ n: string }>(
      `SELECT DISTINCT ${column} AS n FROM read_parquet($file) ORDER BY n`,
      { file: seriesFile },
    );
    requireKnownNames(
      [value],
      names.map((r) => r.n),
      { flag: `--${flag}`, kind, where: data, code: `SERIES_${flag.toUpperCase()}_UNKNOWN`, listHint: hint },
    );
  }
}

/** `asof series`: find series in a built universe. */
export async function seriesCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      data: { type: 'string' },
      search: { type: 'string' },
      unit: { type: 'string' },
      frequency: { type: 'string' },
      source: { type: 'string' },
      eval: { type: 'boolean' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    SERIES_USAGE,
  );
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length > 0 || typeof values.data !== 'string') {
    throw new InputError('USAGE', `expected --data DIR and no other argument\n  usage: ${SERIES_USAGE}`);
  }
  const frequency = (values.frequency as string | undefined) ?? '';
  if (frequency && !(FREQUENCIES as readonly string[]).includes(frequency)) {
    throw new InputError('USAGE', `--frequency ${frequency}: expected one of ${FREQUENCIES.join(', ')}`);
  }
  const limitText = (values.limit as string | undefined) ?? '50';
  if (!/^\d+$/.test(limitText) || Number(limitText) < 1) {
    throw new InputError('USAGE', `--limit ${limitText}: expected a positive whole number`);
  }
  const manifestPath = universeManifestOf(resolve(io.cwd, values.data), values.data, '--data');
  const rows = await withVerifiedManifest(manifestPath, async (verified) => {
    requireUniverse(verified.manifest, manifestPath, 'asof series');
    const duck = await Duck.open({ threads: 2 });
    try {
      await requireUnitAndSource(duck, verified.readPaths('series')[0], values, values.data as string);
      return await duck.all<Record<string, unknown>>(
        `SELECT * REPLACE (epoch_us(first_timestamp) AS first_timestamp, epoch_us(last_timestamp) AS last_timestamp)
         FROM (${loadQuery(MODELS_DIR, 'series_catalog')})`,
        {
          series_file: verified.readPaths('series')[0],
          search: ((values.search as string | undefined) ?? '').replace(/\s+/g, ' '),
          unit: (values.unit as string | undefined) ?? '',
          frequency,
          source: (values.source as string | undefined) ?? '',
          eval_only: Boolean(values.eval),
        },
      );
    } finally {
      duck.close();
    }
  });
  const list: SeriesRow[] = rows.map((r) => {
    const label = (us: unknown) =>
      us === null || us === undefined
        ? null
        : periodLabel(Number(us), String(r.frequency), r.fiscal_year_end as string | null);
    return {
      series_id: String(r.series_id),
      title: (r.title as string | null) ?? null,
      unit: (r.unit as string | null) ?? null,
      taxonomy_unit: String(r.taxonomy_unit),
      frequency: String(r.frequency),
      source: String(r.source),
      first_period: label(r.first_timestamp),
      last_period: label(r.last_timestamp),
      n_obs: Number(r.n_obs),
      n_revisions: Number(r.n_revisions),
      eval_target: Boolean(r.eval_target),
    };
  });
  if (values.json) {
    io.out(`${JSON.stringify(list)}\n`);
  } else {
    const shown = list.slice(0, Number(limitText));
    io.out(
      `${formatTable(
        ['series_id', 'title', 'unit', 'taxonomy unit', 'first', 'last', 'obs', 'revisions', 'eval'],
        shown.map((s) => [
          s.series_id,
          s.title ?? '',
          s.unit ?? '',
          s.taxonomy_unit,
          s.first_period ?? '',
          s.last_period ?? '',
          s.n_obs,
          s.n_revisions,
          s.eval_target ? 'yes' : 'no',
        ]),
      )}\n${list.length} series${list.length > shown.length ? ` (first ${shown.length} shown; --limit N or --json for more)` : ''}\n`,
    );
  }
  nextHint(
    io,
    list.length
      ? `asof show ${list[0].series_id} --data ${values.data}`
      : `asof series --data ${values.data}`,
  );
  return 0;
}
