import { createHash } from 'node:crypto';
import { checkIsoDate } from '@asof/calendar';
import { AccountingTally, type AtomicSink, InputError, printable } from '@asof/schema';
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
import type { FredSnapshot } from './map-fred-to-atomic.ts';
import { isSnapshotResponse } from './parse-alfred-observations.ts';
import { parseFredValue } from './parse-fred-value.ts';
import { parseFredgraphCsv } from './parse-fredgraph-csv.ts';

/** A raw file (ingest-fred-raw-dir's FredRawFile). */
type RawFile = { name: string; bytes: Uint8Array };

/** What reading the files needs of FredIngestOptions. */
interface CollectOptions {
  downloadDates?: Readonly<Record<string, string>>;
  inputSource?: string;
}

/** FRED's texts for no value (parseFredValue's nulls). */
const NOT_PUBLISHED = new Set(['', '.', '#N/A', 'NA']);

const OBS_NAME_RE = /series_observations_([A-Za-z0-9]+)(?=[_.])/;
const SERIES_RELEASE_NAME_RE = /series_release_([A-Za-z0-9]+)(?=[_.])/;
const VINTAGE_NAME_RE = /_vintage_(\d{4}-\d{2}(?:-\d{2})?)\.csv$/i;

export interface SeriesFiles {
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

/** One file's records of one series: with a value, without (`.`, blank cell), and the "." observations. */
export interface FileRecords {
  name: string;
  values: number;
  empty: number;
  dots: FredObservation[];
}

/** What the raw files hold, sorted by series, before any series is mapped. */
export class FredRawCollection {
  /** Per file, what became of its records (docs/decisions/0041). */
  readonly tallies = new Map<string, AccountingTally>();
  /** Per series: per file, its records with a value and without (`.`, blank). */
  readonly recordsOf = new Map<string, FileRecords[]>();
  readonly bySeries = new Map<string, SeriesFiles>();
  /** Release id → its calendar, from `release/dates` responses. */
  readonly releaseDates = new Map<number, Set<string>>();
  /** Files read but not used for observations. */
  readonly unused: string[] = [];
  /** Per series, the files that name it, in reading order. */
  readonly fileOf = new Map<string, string[]>();

  constructor(private readonly source: string) {}

  tally(name: string, record: string): AccountingTally {
    let t = this.tallies.get(name);
    if (t === undefined) {
      t = new AccountingTally(this.source.split(':')[0], name, record);
      this.tallies.set(name, t);
    }
    return t;
  }

  noteRecords(id: string, name: string, values: number, empty: number, dots: FredObservation[] = []): void {
    const list = this.recordsOf.get(id) ?? [];
    list.push({ name, values, empty, dots });
    this.recordsOf.set(id, list);
  }

  seriesOf(id: string): SeriesFiles {
    let s = this.bySeries.get(id);
    if (s === undefined) {
      s = { vintageFiles: [], snapshots: [] };
      this.bySeries.set(id, s);
    }
    return s;
  }

  noteFile(id: string, name: string): void {
    const list = this.fileOf.get(id) ?? [];
    list.push(name);
    this.fileOf.set(id, list);
  }
}

/** `<file>.meta.json` sidecars by the file they describe; each is a raw input too. */
function readSidecars(
  files: readonly RawFile[],
  sink: AtomicSink,
  options: CollectOptions,
  decoder: TextDecoder,
): Map<string, Record<string, unknown>> {
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
  return sidecars;
}

/** A fredgraph CSV: one download (snapshot) per column, dated by the options, its sidecar or its name. */
function collectFredgraphCsv(
  f: RawFile,
  text: string,
  digest: string,
  sidecar: Record<string, unknown> | undefined,
  options: CollectOptions,
  into: FredRawCollection,
): void {
  const parsed = parseFredgraphCsv(text, f.name);
  const given =
    options.downloadDates?.[f.name] ??
    (typeof sidecar?.download_date === 'string' ? sidecar.download_date : undefined) ??
    VINTAGE_NAME_RE.exec(f.name)?.[1];
  const asOfDate = given === undefined ? undefined : normalizeDownloadDate(given, f.name);
  into.tally(f.name, 'cell');
  for (const col of parsed.columns) {
    const values = col.rows.filter((r) => r.value !== null).length;
    into.noteRecords(col.fredId, f.name, values, col.rows.length - values);
    into.seriesOf(col.fredId).snapshots.push({
      name: f.name,
      asOfDate,
      sha256: digest,
      where: f.name,
      rows: col.rows,
    });
    into.noteFile(col.fredId, f.name);
  }
}

/** A `series/observations` response: ALFRED vintages, or a one-day snapshot. */
function collectObservations(
  f: RawFile,
  json: unknown,
  digest: string,
  sidecar: Record<string, unknown> | undefined,
  into: FredRawCollection,
): void {
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
  into.noteFile(id, f.name);
  into.tally(f.name, 'observation');
  // Counted on the text: the parser checks the numbers later, naming the series and the vintage.
  const dots = resp.observations.filter((o) => NOT_PUBLISHED.has(o.value.trim()));
  into.noteRecords(id, f.name, resp.observations.length - dots.length, 0, dots);
  if (isSnapshotResponse(resp)) {
    into.seriesOf(id).snapshots.push({
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
    into.seriesOf(id).vintageFiles.push({ name: f.name, observations: resp.observations });
  }
}

/** One FRED API JSON response, by its shape; FRED's error JSON is an error naming the file. */
function collectFredJson(
  f: RawFile,
  text: string,
  digest: string,
  sidecar: Record<string, unknown> | undefined,
  into: FredRawCollection,
): void {
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
    collectObservations(f, json, digest, sidecar, into);
  } else if ('seriess' in obj) {
    const resp = parseFredPayload(FredSeriesResponse, json, f.name, 'series');
    for (const m of resp.seriess) into.seriesOf(m.id).meta = m;
    into.tally(f.name, 'response').map();
    into.unused.push(f.name);
  } else if ('release_dates' in obj) {
    const resp = parseFredPayload(FredReleaseDatesResponse, json, f.name, 'release/dates');
    for (const d of resp.release_dates) {
      let set = into.releaseDates.get(d.release_id);
      if (set === undefined) {
        set = new Set();
        into.releaseDates.set(d.release_id, set);
      }
      set.add(d.date);
    }
    into.tally(f.name, 'response').map();
    into.unused.push(f.name);
  } else if ('releases' in obj) {
    const resp = parseFredPayload(FredReleasesResponse, json, f.name, 'release');
    const id = SERIES_RELEASE_NAME_RE.exec(f.name)?.[1] ?? sidecarSeriesId(sidecar, f.name);
    if (id !== undefined) into.seriesOf(id).releaseId = resp.releases[0].id;
    into.tally(f.name, 'response').map();
    into.unused.push(f.name);
  } else {
    // vintagedates and other FRED answers carry nothing the observations do not.
    into.tally(f.name, 'response').drop('redundant_response');
    into.unused.push(f.name);
  }
}

/**
 * Reads every raw file (sidecars first) into a FredRawCollection, adding each file as a raw input to `sink`
 * in file order.
 */
export function collectFredRawFiles(
  files: readonly RawFile[],
  sink: AtomicSink,
  options: CollectOptions,
): FredRawCollection {
  const decoder = new TextDecoder('utf-8');
  const sidecars = readSidecars(files, sink, options, decoder);
  const into = new FredRawCollection(options.inputSource ?? 'fred');
  for (const name of sidecars.keys()) into.tally(`${name}.meta.json`, 'sidecar').map();
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
    if (/\.csv$/i.test(f.name)) collectFredgraphCsv(f, text, digest, sidecar, options, into);
    else collectFredJson(f, text, digest, sidecar, into);
  }
  return into;
}
