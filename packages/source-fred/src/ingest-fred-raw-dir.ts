import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AtomicSink, type Frequency, InputError } from '@asof/schema';
import { collectFredRawFiles, type FredRawCollection, type SeriesFiles } from './collect-fred-raw-files.ts';
import type { FredSeriesMeta } from './fred-payload.ts';
import {
  type FredMapOptions,
  fredSeriesId,
  fredSeriesInput,
  listedFrequency,
  mapAlfredVintages,
  mapFredSnapshots,
  resolveRelease,
} from './map-fred-to-atomic.ts';
import { fredFrequency, inferFredFrequency } from './normalize-fred-period.ts';
import { parseAlfredObservations } from './parse-alfred-observations.ts';

export interface FredIngestOptions extends FredMapOptions {
  /** File name → download date (YYYY-MM-DD, or YYYY-MM = that month's last day) for fredgraph CSVs. */
  downloadDates?: Readonly<Record<string, string>>;
  /** FRED id → frequency, over the catalog, the metadata and the dates. */
  frequencies?: Readonly<Record<string, Frequency>>;
  /** Only these FRED ids (default: every series found). */
  series?: readonly string[];
  /** `source` of the raw-input rows (default 'fred'). */
  inputSource?: string;
}

/** A raw file: its name (relative to the raw directory) and bytes. */
export interface FredRawFile {
  name: string;
  bytes: Uint8Array;
}

export interface FredSeriesIngestSummary {
  fredId: string;
  seriesId: string;
  kind: 'vintages' | 'snapshots';
  frequency: Frequency;
  releaseId: number | undefined;
  releaseName: string | undefined;
  /** Rows emitted, withdrawal rows included. */
  observations: number;
  /** Vintage rows beyond each period's first value (withdrawals and restorations included). */
  revisions: number;
  /** Withdrawal rows: vintages that withdrew a published value ("."); as-of views drop the period then. */
  withdrawals: number;
  missing: number;
  files: string[];
}

export interface FredIngestSummary {
  series: FredSeriesIngestSummary[];
  files: number;
  /** Files read but not used for observations (vintage dates, release info, snapshots next to vintages). */
  unused: string[];
}

/**
 * Reads every FRED API JSON response and fredgraph CSV in `dir` (not recursive) into `sink`. See
 * `ingestFredRawFiles` for the rules.
 */
export async function ingestFredRawDir(
  dir: string,
  sink: AtomicSink,
  options: FredIngestOptions = {},
): Promise<FredIngestSummary> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile() && /\.(json|csv)$/i.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (cause) {
    throw new InputError(
      'FRED_RAW_DIR',
      `raw directory ${dir}: cannot read it (${(cause as Error).message}); pass a folder of FRED JSON responses and fredgraph CSVs`,
      {
        cause,
        context: { dir },
      },
    );
  }
  const files: FredRawFile[] = [];
  for (const name of names) files.push({ name, bytes: new Uint8Array(await readFile(join(dir, name))) });
  return ingestFredRawFiles(files, sink, options);
}

/**
 * FRED raw files → atomic series and observations.
 * - `series/observations` JSON whose realtime window spans more than a day are ALFRED vintages (several
 *   responses of one series are merged, e.g. all-vintages + output_type=4); the series id comes from the
 *   file name (`…series_observations_<ID>_….json`) or a `<file>.meta.json` sidecar `{"series_id"}`.
 *   Rows: one per (date, realtime_start) where the value changed, basis 'vintage', universe point_in_time.
 * - fredgraph CSVs and single-day observation responses are downloads without vintages: basis 'rule'
 *   (publication lag or the release calendar from `release/dates` JSON), universe_kind 'static'; several
 *   dated downloads of a series add revision rows. A series with ALFRED vintages ignores its downloads.
 * - `series` JSON gives title/units/frequency, `series/release` JSON the release id (hence the release time).
 * - FRED error JSON in the directory is an error naming the file.
 */
export function ingestFredRawFiles(
  files: readonly FredRawFile[],
  sink: AtomicSink,
  options: FredIngestOptions = {},
): FredIngestSummary {
  const collected = collectFredRawFiles(files, sink, options);
  const { tallies, bySeries, fileOf } = collected;
  const wanted = options.series === undefined ? undefined : new Set(options.series);
  const summaries: FredSeriesIngestSummary[] = [];
  for (const fredId of [...bySeries.keys()].sort()) {
    const s = bySeries.get(fredId)!;
    if (wanted !== undefined && !wanted.has(fredId)) {
      accountRecords(collected, fredId, 'not_requested');
      continue;
    }
    if (s.vintageFiles.length === 0 && s.snapshots.length === 0) continue;
    const release = resolveRelease(
      fredId,
      s.releaseId === undefined ? undefined : { id: s.releaseId },
      options,
    );
    const where = `FRED ${fredId} (${(fileOf.get(fredId) ?? []).join(', ')})`;
    const ingest = s.vintageFiles.length > 0 ? ingestVintages : ingestSnapshots;
    summaries.push(ingest(sink, collected, { fredId, files: s, release, where }, options));
  }
  if (wanted !== undefined) {
    const missingIds = [...wanted].filter((id) => !summaries.some((x) => x.fredId === id));
    if (missingIds.length > 0) {
      throw new InputError(
        'FRED_SERIES_NOT_IN_RAW_DIR',
        `no observations for ${missingIds.join(', ')} among the raw files; add their responses or CSVs`,
        { context: { series: missingIds } },
      );
    }
  }
  for (const t of [...tallies.values()].sort((a, b) => (a.file < b.file ? -1 : 1)))
    sink.addAccounting(t.entry());
  return {
    series: summaries,
    files: files.filter((f) => !f.name.endsWith('.meta.json')).length,
    unused: collected.unused,
  };
}

/** One series to ingest: its files, its release and the text that names it in messages. */
interface SeriesToIngest {
  fredId: string;
  files: SeriesFiles;
  release: ReturnType<typeof resolveRelease>;
  where: string;
}

/** The records of `fredId`'s files: values mapped (or dropped as `reason`), empty cells not published. */
function accountRecords(collected: FredRawCollection, fredId: string, reason: string | null): void {
  for (const r of collected.recordsOf.get(fredId) ?? []) {
    const t = collected.tallies.get(r.name)!;
    if (reason === null) t.map(r.values);
    else t.drop(reason, r.values);
    t.drop('not_published', r.empty + r.dots.length);
  }
}

/** A series with ALFRED vintages: its rows, the accounting of its files, and warnings for what it ignored. */
function ingestVintages(
  sink: AtomicSink,
  collected: FredRawCollection,
  series: SeriesToIngest,
  options: FredIngestOptions,
): FredSeriesIngestSummary {
  const { fredId, files: s, release, where } = series;
  const { tallies, recordsOf, unused, fileOf } = collected;
  const parsed = parseAlfredObservations(
    s.vintageFiles.map((v) => v.observations),
    where,
  );
  const frequency = frequencyFor(
    fredId,
    s.meta,
    parsed.rows.map((r) => r.date),
    where,
    options,
  );
  sink.addSeries(fredSeriesInput(fredId, frequency, 'point_in_time', s.meta, options));
  mapAlfredVintages(sink, { fredId, frequency, release, rows: parsed.rows }, options);
  const vintageNames = new Set(s.vintageFiles.map((v) => v.name));
  const withdrawn = new Set(parsed.withdrawals.map((w) => `${w.date}\u0000${w.realtime_start}`));
  for (const r of recordsOf.get(fredId) ?? []) {
    const t = tallies.get(r.name)!;
    if (!vintageNames.has(r.name)) {
      t.drop('superseded_by_vintages', r.values + r.dots.length);
      t.drop('not_published', r.empty);
      continue;
    }
    // A "." after a published value is a withdrawal row (mapped); before any, nothing was published.
    const gone = r.dots.filter((o) => withdrawn.has(`${o.date}\u0000${o.realtime_start}`)).length;
    t.map(r.values + gone);
    t.drop('not_published', r.empty + r.dots.length - gone);
  }
  if (s.snapshots.length > 0) {
    unused.push(...s.snapshots.map((x) => x.name));
    sink.addWarning({
      code: 'FRED_DOWNLOADS_IGNORED',
      message: `${fredId}: ALFRED vintages present, so ${s.snapshots.length} download(s) without vintages were not used`,
      count: s.snapshots.length,
    });
  }
  if (parsed.withdrawals.length > 0) {
    const periods = new Set(parsed.withdrawals.map((w) => w.date)).size;
    const first = parsed.withdrawals[0];
    sink.addWarning({
      code: 'FRED_VALUES_WITHDRAWN',
      message:
        `${fredId}: ${parsed.withdrawals.length} vintage(s) withdrew a published value (".") in ${periods} ` +
        `period(s) (first: ${first.date} at ${first.realtime_start}); emitted as withdrawal rows (value null), ` +
        'so as-of views from those vintages on have no value for those periods',
      count: periods,
    });
  }
  const dates = new Set(parsed.rows.map((r) => r.date));
  return {
    fredId,
    seriesId: fredSeriesId(fredId, options.synthetic),
    kind: 'vintages',
    frequency,
    releaseId: release.id,
    releaseName: release.name,
    observations: parsed.rows.length,
    revisions: parsed.rows.length - dates.size,
    withdrawals: parsed.withdrawals.length,
    missing: parsed.missing,
    files: fileOf.get(fredId) ?? [],
  };
}

/** A series from downloads without vintages: rows dated by a publication rule or the release calendar. */
function ingestSnapshots(
  sink: AtomicSink,
  collected: FredRawCollection,
  series: SeriesToIngest,
  options: FredIngestOptions,
): FredSeriesIngestSummary {
  const { fredId, files: s, release, where } = series;
  const allDates = s.snapshots.flatMap((x) => x.rows.map((r) => r.date));
  const frequency = frequencyFor(fredId, s.meta, allDates, where, options);
  const calendar = release.id === undefined ? undefined : collected.releaseDates.get(release.id);
  sink.addSeries(fredSeriesInput(fredId, frequency, 'static', s.meta, options));
  const res = mapFredSnapshots(
    sink,
    {
      fredId,
      frequency,
      snapshots: s.snapshots,
      release,
      releaseDates: calendar === undefined ? undefined : [...calendar].sort(),
    },
    options,
  );
  accountRecords(collected, fredId, null);
  const missing = s.snapshots.reduce((n, x) => n + x.rows.filter((r) => r.value === null).length, 0);
  sink.addWarning({
    code: 'FRED_STATIC_SERIES',
    message:
      `${fredId}: no ALFRED vintages, available_at from a publication rule` +
      (s.snapshots.length > 1
        ? ` plus ${res.revisions} revision(s) seen across ${s.snapshots.length} downloads`
        : '') +
      '; universe_kind static',
    count: 1,
  });
  return {
    fredId,
    seriesId: fredSeriesId(fredId, options.synthetic),
    kind: 'snapshots',
    frequency,
    releaseId: release.id,
    releaseName: release.name,
    observations: res.rows,
    revisions: res.revisions,
    withdrawals: 0,
    missing,
    files: collected.fileOf.get(fredId) ?? [],
  };
}

function frequencyFor(
  fredId: string,
  meta: FredSeriesMeta | undefined,
  dates: readonly string[],
  where: string,
  options: FredIngestOptions,
): Frequency {
  return (
    options.frequencies?.[fredId] ??
    listedFrequency(fredId, options) ??
    (meta === undefined
      ? inferFredFrequency(dates, where)
      : fredFrequency(meta.frequency_short, dates, where))
  );
}
