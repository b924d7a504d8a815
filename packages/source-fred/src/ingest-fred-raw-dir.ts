import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkIsoDate } from '@asof/calendar';
import { AccountingTally, type AtomicSink, type Frequency, InputError, printable } from '@asof/schema';
import { FredApiError } from './fred-api-error.ts';
import { endOfMonth } from './fred-dates.ts';
import {
  FredErrorResponse,
  type FredObservation,
  FredObservationsResponse,
  FredReleaseDatesResponse,
  FredReleasesResponse,
  type FredSeriesMeta,
  FredSeriesResponse,
  parseFredPayload,
} from './fred-payload.ts';
import {
  type FredMapOptions,
  type FredSnapshot,
  fredSeriesId,
  fredSeriesInput,
  listedFrequency,
  mapAlfredVintages,
  mapFredSnapshots,
  resolveRelease,
} from './map-fred-to-atomic.ts';
import { fredFrequency, inferFredFrequency } from './normalize-fred-period.ts';
import { isSnapshotResponse, parseAlfredObservations } from './parse-alfred-observations.ts';
import { parseFredValue } from './parse-fred-value.ts';
import { parseFredgraphCsv } from './parse-fredgraph-csv.ts';

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

/** FRED's texts for no value (parseFredValue's nulls). */
const NOT_PUBLISHED = new Set(['', '.', '#N/A', 'NA']);

const OBS_NAME_RE = /series_observations_([A-Za-z0-9]+)(?=[_.])/;
const SERIES_RELEASE_NAME_RE = /series_release_([A-Za-z0-9]+)(?=[_.])/;
const VINTAGE_NAME_RE = /_vintage_(\d{4}-\d{2}(?:-\d{2})?)\.csv$/i;

interface SeriesFiles {
  meta?: FredSeriesMeta;
  releaseId?: number;
  vintageFiles: { name: string; observations: FredObservation[] }[];
  snapshots: (FredSnapshot & { name: string })[];
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InputError(
      'FRED_BAD_JSON',
      `${name}: not valid JSON (${(cause as Error).message}); re-download it`,
      {
        context: { file: name },
        cause,
      },
    );
  }
}

function normalizeDownloadDate(value: string, where: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return checkIsoDate(value, `${where}: download date`);
  // Only the month is known: its last day is the latest the download can have happened (the safe side).
  if (/^\d{4}-\d{2}$/.test(value)) return endOfMonth(checkIsoDate(`${value}-01`, `${where}: download month`));
  throw new InputError(
    'FRED_BAD_DOWNLOAD_DATE',
    `${where}: download date ${JSON.stringify(value)} is not YYYY-MM-DD or YYYY-MM`,
    { context: { where, value } },
  );
}

/** The FRED id a sidecar names for `file`; one that is not a FRED id (control characters…) is refused. */
function sidecarSeriesId(sidecar: Record<string, unknown> | undefined, file: string): string | undefined {
  const id = sidecar?.series_id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(id)) {
    throw new InputError(
      'FRED_BAD_SIDECAR',
      `${file}.meta.json: series_id ${typeof id === 'string' ? printable(id) : JSON.stringify(id)} is not a FRED id ` +
        '(letters, digits and _ only, e.g. GDP); fix the sidecar',
      { context: { file: `${file}.meta.json`, field: 'series_id' } },
    );
  }
  return id;
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
  const decoder = new TextDecoder('utf-8');
  const sidecars = new Map<string, Record<string, unknown>>();
  for (const f of files) {
    if (f.name.endsWith('.meta.json')) {
      const json = parseJson(decoder.decode(f.bytes), f.name);
      if (json === null || typeof json !== 'object') {
        throw new InputError(
          'FRED_BAD_SIDECAR',
          `${f.name}: expected a JSON object like {"download_date":"2017-04-15"}`,
        );
      }
      sidecars.set(f.name.slice(0, -'.meta.json'.length), json as Record<string, unknown>);
      // A sidecar changes available_at (download date), so it is a raw input like the file it describes.
      sink.addInput({
        source: options.inputSource ?? 'fred',
        key: f.name,
        sha256: sha256(f.bytes),
        bytes: f.bytes.byteLength,
      });
    }
  }
  const source = options.inputSource ?? 'fred';
  // Per file, what became of its records (docs/decisions/0041): a value cell or observation is mapped once
  // its series is, a metadata response is one record.
  const tallies = new Map<string, AccountingTally>();
  const tally = (name: string, record: string): AccountingTally => {
    let t = tallies.get(name);
    if (t === undefined) {
      t = new AccountingTally(source.split(':')[0], name, record);
      tallies.set(name, t);
    }
    return t;
  };
  for (const name of sidecars.keys()) tally(`${name}.meta.json`, 'sidecar').map();
  /** Per series: per file, its records with a value and without (`.`, blank). */
  const recordsOf = new Map<
    string,
    { name: string; values: number; empty: number; dots: FredObservation[] }[]
  >();
  const noteRecords = (
    id: string,
    name: string,
    values: number,
    empty: number,
    dots: FredObservation[] = [],
  ) => {
    const list = recordsOf.get(id) ?? [];
    list.push({ name, values, empty, dots });
    recordsOf.set(id, list);
  };
  const bySeries = new Map<string, SeriesFiles>();
  const seriesOf = (id: string): SeriesFiles => {
    let s = bySeries.get(id);
    if (s === undefined) {
      s = { vintageFiles: [], snapshots: [] };
      bySeries.set(id, s);
    }
    return s;
  };
  const releaseDates = new Map<number, Set<string>>();
  const unused: string[] = [];
  const fileOf = new Map<string, string[]>();
  const noteFile = (id: string, name: string) => {
    const list = fileOf.get(id) ?? [];
    list.push(name);
    fileOf.set(id, list);
  };

  for (const f of files) {
    if (f.name.endsWith('.meta.json')) continue;
    const digest = sha256(f.bytes);
    sink.addInput({
      source: options.inputSource ?? 'fred',
      key: f.name,
      sha256: digest,
      bytes: f.bytes.byteLength,
    });
    const text = decoder.decode(f.bytes);
    const sidecar = sidecars.get(f.name);
    if (/\.csv$/i.test(f.name)) {
      const parsed = parseFredgraphCsv(text, f.name);
      const given =
        options.downloadDates?.[f.name] ??
        (typeof sidecar?.download_date === 'string' ? sidecar.download_date : undefined) ??
        VINTAGE_NAME_RE.exec(f.name)?.[1];
      const asOfDate = given === undefined ? undefined : normalizeDownloadDate(given, f.name);
      tally(f.name, 'cell');
      for (const col of parsed.columns) {
        const values = col.rows.filter((r) => r.value !== null).length;
        noteRecords(col.fredId, f.name, values, col.rows.length - values);
        seriesOf(col.fredId).snapshots.push({
          name: f.name,
          asOfDate,
          sha256: digest,
          where: f.name,
          rows: col.rows,
        });
        noteFile(col.fredId, f.name);
      }
      continue;
    }
    const json = parseJson(text, f.name);
    const err = FredErrorResponse.safeParse(json);
    if (err.success) {
      const id = OBS_NAME_RE.exec(f.name)?.[1] ?? SERIES_RELEASE_NAME_RE.exec(f.name)?.[1];
      throw new FredApiError({
        seriesId: id,
        what: `raw file ${f.name}`,
        url: f.name,
        errorCode: err.data.error_code,
        fredMessage: err.data.error_message,
      });
    }
    const obj = (json ?? {}) as Record<string, unknown>;
    if ('observations' in obj) {
      const resp = parseFredPayload(FredObservationsResponse, json, f.name, 'series/observations');
      const id = sidecarSeriesId(sidecar, f.name) ?? OBS_NAME_RE.exec(f.name)?.[1];
      if (id === undefined) {
        throw new InputError(
          'FRED_UNKNOWN_SERIES_FILE',
          `${f.name}: a series/observations response does not name its series; name the file ` +
            `fred_api_series_observations_<ID>_….json or add ${f.name}.meta.json with {"series_id":"<ID>"}`,
          { context: { file: f.name } },
        );
      }
      noteFile(id, f.name);
      tally(f.name, 'observation');
      // Counted on the text: the parser checks the numbers later, naming the series and the vintage.
      const dots = resp.observations.filter((o) => NOT_PUBLISHED.has(o.value.trim()));
      noteRecords(id, f.name, resp.observations.length - dots.length, 0, dots);
      if (isSnapshotResponse(resp)) {
        seriesOf(id).snapshots.push({
          name: f.name,
          asOfDate: resp.realtime_start,
          sha256: digest,
          where: f.name,
          rows: resp.observations.map((o) => ({
            date: o.date,
            value: parseFredValue(o.value, `${f.name}: date ${o.date}`),
          })),
        });
      } else {
        seriesOf(id).vintageFiles.push({ name: f.name, observations: resp.observations });
      }
    } else if ('seriess' in obj) {
      const resp = parseFredPayload(FredSeriesResponse, json, f.name, 'series');
      for (const m of resp.seriess) seriesOf(m.id).meta = m;
      tally(f.name, 'response').map();
      unused.push(f.name);
    } else if ('release_dates' in obj) {
      const resp = parseFredPayload(FredReleaseDatesResponse, json, f.name, 'release/dates');
      for (const d of resp.release_dates) {
        let set = releaseDates.get(d.release_id);
        if (set === undefined) {
          set = new Set();
          releaseDates.set(d.release_id, set);
        }
        set.add(d.date);
      }
      tally(f.name, 'response').map();
      unused.push(f.name);
    } else if ('releases' in obj) {
      const resp = parseFredPayload(FredReleasesResponse, json, f.name, 'release');
      const id = SERIES_RELEASE_NAME_RE.exec(f.name)?.[1] ?? sidecarSeriesId(sidecar, f.name);
      if (id !== undefined) seriesOf(id).releaseId = resp.releases[0].id;
      tally(f.name, 'response').map();
      unused.push(f.name);
    } else {
      // vintagedates and other FRED answers carry nothing the observations do not.
      tally(f.name, 'response').drop('redundant_response');
      unused.push(f.name);
    }
  }

  const wanted = options.series === undefined ? undefined : new Set(options.series);
  const summaries: FredSeriesIngestSummary[] = [];
  /** The records of `fredId`'s files: values mapped (or dropped as `reason`), empty cells not published. */
  const account = (fredId: string, reason: string | null) => {
    for (const r of recordsOf.get(fredId) ?? []) {
      const t = tallies.get(r.name)!;
      if (reason === null) t.map(r.values);
      else t.drop(reason, r.values);
      t.drop('not_published', r.empty + r.dots.length);
    }
  };
  for (const fredId of [...bySeries.keys()].sort()) {
    const s = bySeries.get(fredId)!;
    if (wanted !== undefined && !wanted.has(fredId)) {
      account(fredId, 'not_requested');
      continue;
    }
    if (s.vintageFiles.length === 0 && s.snapshots.length === 0) continue;
    const release = resolveRelease(
      fredId,
      s.releaseId === undefined ? undefined : { id: s.releaseId },
      options,
    );
    const releaseId = release.id;
    const where = `FRED ${fredId} (${(fileOf.get(fredId) ?? []).join(', ')})`;
    if (s.vintageFiles.length > 0) {
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
      summaries.push({
        fredId,
        seriesId: fredSeriesId(fredId, options.synthetic),
        kind: 'vintages',
        frequency,
        releaseId,
        releaseName: release.name,
        observations: parsed.rows.length,
        revisions: parsed.rows.length - dates.size,
        withdrawals: parsed.withdrawals.length,
        missing: parsed.missing,
        files: fileOf.get(fredId) ?? [],
      });
    } else {
      const allDates = s.snapshots.flatMap((x) => x.rows.map((r) => r.date));
      const frequency = frequencyFor(fredId, s.meta, allDates, where, options);
      const calendar = releaseId === undefined ? undefined : releaseDates.get(releaseId);
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
      account(fredId, null);
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
      summaries.push({
        fredId,
        seriesId: fredSeriesId(fredId, options.synthetic),
        kind: 'snapshots',
        frequency,
        releaseId,
        releaseName: release.name,
        observations: res.rows,
        revisions: res.revisions,
        withdrawals: 0,
        missing,
        files: fileOf.get(fredId) ?? [],
      });
    }
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
  return { series: summaries, files: files.filter((f) => !f.name.endsWith('.meta.json')).length, unused };
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
