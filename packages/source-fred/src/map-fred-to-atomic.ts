import type { Micros } from '@asof/calendar';
import {
  type AtomicSink,
  type Frequency,
  InputError,
  SeriesInput,
  type UniverseKind,
  zodInputError,
} from '@asof/schema';
import { fredCatalog } from '@asof/taxonomy';
import type { FredSeriesMeta } from './fred-payload.ts';
import { normalizeFredPeriod } from './normalize-fred-period.ts';
import type { AlfredVintageRow } from './parse-alfred-observations.ts';
import { type PublicationLagRule, publicationLagFor, ruleAvailableAt } from './publication-lags.ts';
import {
  cachedZoned,
  type FredReleaseRef,
  findReleaseTime,
  RELEASE_TIMES,
  type ReleaseTime,
  releaseAvailableAt,
  SERIES_RELEASE_IDS,
} from './release-times.ts';

/** The shape of `@asof/taxonomy`'s `fredCatalog()` entries (structural, so callers pass them straight in). */
export interface FredCatalogEntry {
  series_id: string;
  title: string;
  /** FRED's units label; the series' unit when the download carries none (fredgraph CSVs). */
  unit?: string;
  frequency: string;
  scope: string;
  category: string;
  detail_category: string;
  /** A FRED release id ("10") or release name ("Consumer Price Index"). */
  release?: string | number;
  verified: boolean;
}

/** Where a series not in the catalog goes, supplied by the caller. */
export interface FredTaxonomyPlacement {
  scope: string;
  category: string;
  detail_category: string;
  title?: string;
  frequency?: Frequency;
  unit?: string;
}

export interface FredMapOptions {
  /** FRED catalog entries; default `fredCatalog()` of @asof/taxonomy (synthetic data: none, use `mapping`). */
  catalog?: readonly FredCatalogEntry[];
  /** FRED id → placement, for series not in the catalog (wins over the catalog when both list an id). */
  mapping?: Readonly<Record<string, FredTaxonomyPlacement>>;
  releaseTimes?: Readonly<Record<number, ReleaseTime>>;
  /** FRED id → release id, added to / overriding SERIES_RELEASE_IDS. */
  seriesReleaseIds?: Readonly<Record<string, number>>;
  publicationLags?: Readonly<Record<string, PublicationLagRule>>;
  /** Synthetic data: series ids `syn:fred:<ID>`, is_synthetic true. */
  synthetic?: boolean;
}

/** `fred:<ID>` (or `syn:fred:<ID>` for synthetic series). */
export function fredSeriesId(fredId: string, synthetic = false): string {
  return `${synthetic ? 'syn:' : ''}fred:${fredId}`;
}

let defaultCatalog: readonly FredCatalogEntry[] | undefined;

/** `options.catalog`, else the taxonomy registry's FRED catalog (packages/taxonomy/registry/fred-catalog.tsv). */
function catalogOf(options: FredMapOptions): readonly FredCatalogEntry[] {
  if (options.catalog !== undefined) return options.catalog;
  defaultCatalog ??= fredCatalog();
  return defaultCatalog;
}

function catalogEntry(fredId: string, options: FredMapOptions): FredCatalogEntry | undefined {
  if (options.synthetic === true && options.catalog === undefined) return undefined;
  return catalogOf(options).find((e) => e.series_id === fredId || e.series_id === `fred:${fredId}`);
}

/**
 * The release a series belongs to: the `fred/series/release` answer, else the catalog's `release` column
 * (id or name), else SERIES_RELEASE_IDS. Empty = unknown (values then count as public at 23:59:59 ET).
 */
export function resolveRelease(
  fredId: string,
  fromApi: FredReleaseRef | undefined,
  options: FredMapOptions,
): FredReleaseRef {
  if (fromApi !== undefined && (fromApi.id !== undefined || fromApi.name !== undefined)) return fromApi;
  const release = catalogEntry(fredId, options)?.release;
  const known = options.seriesReleaseIds?.[fredId] ?? SERIES_RELEASE_IDS[fredId];
  if (release !== undefined && release !== '') {
    if (typeof release === 'number' || /^\d+$/.test(release)) return { id: Number(release) };
    const table = options.releaseTimes ?? RELEASE_TIMES;
    const hit = Object.entries(table).find(([, r]) => r.name.toLowerCase() === String(release).toLowerCase());
    return { id: hit === undefined ? known : Number(hit[0]), name: String(release) };
  }
  return known === undefined ? {} : { id: known };
}

/** The catalog/mapping frequency of a series, if listed. */
export function listedFrequency(fredId: string, options: FredMapOptions): Frequency | undefined {
  const placed = options.mapping?.[fredId]?.frequency;
  if (placed !== undefined) return placed;
  const f = catalogEntry(fredId, options)?.frequency;
  return f === undefined ? undefined : (f as Frequency);
}

/**
 * SeriesInput for a FRED series. Taxonomy placement from `options.mapping`, else the catalog; a series in
 * neither is an error (the build cannot place it in the scope → category → detail-category tree).
 */
export function fredSeriesInput(
  fredId: string,
  frequency: Frequency,
  universeKind: UniverseKind,
  meta: FredSeriesMeta | undefined,
  options: FredMapOptions,
): SeriesInput {
  const placed = options.mapping?.[fredId] ?? catalogEntry(fredId, options);
  if (placed === undefined) {
    throw new InputError(
      'FRED_UNMAPPED_SERIES',
      `FRED series ${fredId} is not in the taxonomy's FRED catalog (packages/taxonomy/registry/fred-catalog.tsv) ` +
        'and no mapping was given; add a catalog row (scope, category, detail_category) or pass ' +
        `mapping: { ${fredId}: { scope, category, detail_category } }`,
      { context: { series_id: fredId } },
    );
  }
  // The API's units when the download has them (fred/series JSON), else the mapping's, else the catalog's
  // (a mapping that only places a catalog series keeps its units): fredgraph CSVs carry none, and a value
  // without its unit cannot be read.
  const units = meta?.units || placed.unit || catalogEntry(fredId, options)?.unit || '';
  if (units === '') {
    throw new InputError(
      'FRED_NO_UNITS',
      `FRED series ${fredId}: no units (the download carries none, and neither the mapping nor the FRED catalog gives them); ` +
        `pass mapping: { ${fredId}: { ..., unit: 'Percent' } } or add the series to packages/taxonomy/registry/fred-catalog.tsv with its units`,
      { context: { series_id: fredId } },
    );
  }
  const input = {
    series_id: fredSeriesId(fredId, options.synthetic),
    source: 'fred',
    source_key: fredId,
    title: meta?.title ?? placed.title ?? fredId,
    unit: units,
    frequency,
    scope: placed.scope,
    category: placed.category,
    detail_category: placed.detail_category,
    entity_id: null,
    entity_name: null,
    currency: /dollars/i.test(units) ? 'USD' : null,
    seasonal_adjustment: meta?.seasonal_adjustment_short ?? null,
    fiscal_year_end: null,
    is_synthetic: options.synthetic === true,
    universe_kind: universeKind,
  };
  const parsed = SeriesInput.safeParse(input);
  if (!parsed.success) {
    throw zodInputError('FRED_BAD_SERIES', `FRED series ${fredId}`, parsed.error, {
      context: { series_id: fredId },
    });
  }
  return parsed.data;
}

/**
 * Emits ALFRED vintage rows: available_at = realtime_start at the release's time of day (23:59:59 ET when the
 * release time is unknown), basis 'vintage', source_ref `alfred:<realtime_start>`. A null row (a vintage
 * that withdrew a published value) becomes a withdrawal row at that vintage's instant. Returns rows emitted.
 */
export function mapAlfredVintages(
  sink: AtomicSink,
  args: { fredId: string; frequency: Frequency; release: FredReleaseRef; rows: readonly AlfredVintageRow[] },
  options: FredMapOptions = {},
): number {
  const seriesId = fredSeriesId(args.fredId, options.synthetic);
  const periods = new Map<string, ReturnType<typeof normalizeFredPeriod>>();
  for (const r of args.rows) {
    let p = periods.get(r.date);
    if (p === undefined) {
      p = normalizeFredPeriod(r.date, args.frequency, `FRED ${args.fredId} observation ${r.date}`);
      periods.set(r.date, p);
    }
    const row = {
      series_id: seriesId,
      timestamp: p.timestamp,
      period_start: p.period_start,
      available_at: releaseAvailableAt(r.realtime_start, args.release, options.releaseTimes),
      available_at_basis: 'vintage' as const,
      source_ref: `alfred:${r.realtime_start}`,
    };
    if (r.value === null) sink.addWithdrawal(row);
    else sink.addObservation({ ...row, value: r.value });
  }
  return args.rows.length;
}

/** One download of a series without vintages: a fredgraph CSV column or a single-day API snapshot. */
export interface FredSnapshot {
  /** Date the file was downloaded (YYYY-MM-DD); needed to turn several downloads into vintages. */
  asOfDate?: string;
  /** sha256 of the raw file, used as source_ref. */
  sha256: string;
  /** File name or URL, for messages. */
  where: string;
  rows: readonly { date: string; value: number | null }[];
}

export interface SnapshotMapResult {
  rows: number;
  /** Rows whose value differs from an earlier download (dated by the later download). */
  revisions: number;
  /** Rows whose available_at came from a FRED release calendar rather than a lag. */
  fromCalendar: number;
}

/**
 * Emits rule-based rows for downloads without vintages (SPEC §4): a period's first value is public at the
 * publication-lag rule's instant (or, with a release calendar, on the period's release date from
 * `calendarReleaseDate` at the release's time of day), never later than the end of the download day. A later download with a different value adds a
 * revision row at the end of that download's day (America/New_York), basis 'vintage'. Unchanged values are
 * not repeated. source_ref `sha256:<hex of the file>`.
 */
export function mapFredSnapshots(
  sink: AtomicSink,
  args: {
    fredId: string;
    frequency: Frequency;
    snapshots: readonly FredSnapshot[];
    /** FRED release calendar (release/dates) of the series' release, ascending. */
    releaseDates?: readonly string[];
    /** The release: a calendar date is taken at its time of day from the release-time table. */
    release?: FredReleaseRef;
  },
  options: FredMapOptions = {},
): SnapshotMapResult {
  const seriesId = fredSeriesId(args.fredId, options.synthetic);
  if (args.snapshots.length > 1 && args.snapshots.some((s) => s.asOfDate === undefined)) {
    const undated = args.snapshots.filter((s) => s.asOfDate === undefined).map((s) => s.where);
    throw new InputError(
      'FRED_UNDATED_DOWNLOADS',
      `FRED ${args.fredId}: ${args.snapshots.length} downloads of the series but no download date for ` +
        `${undated.join(', ')}; give each file its download date (options.downloadDates, a ` +
        '"<file>.meta.json" sidecar {"download_date":"YYYY-MM-DD"}, or a file name ending "_vintage_YYYY-MM[-DD].csv")',
      { context: { series_id: args.fredId, files: undated } },
    );
  }
  const snapshots = [...args.snapshots].sort((a, b) => ((a.asOfDate ?? '') < (b.asOfDate ?? '') ? -1 : 1));
  for (let i = 1; i < snapshots.length; i++) {
    if (snapshots[i].asOfDate === snapshots[i - 1].asOfDate) {
      throw new InputError(
        'FRED_DUPLICATE_DOWNLOAD_DATE',
        `FRED ${args.fredId}: ${snapshots[i - 1].where} and ${snapshots[i].where} share download date ` +
          `${snapshots[i].asOfDate}; keep one of them or give the exact download days`,
        { context: { series_id: args.fredId } },
      );
    }
  }
  const rule = publicationLagFor(args.fredId, args.frequency, options.publicationLags);
  const state = new Map<string, { value: number; available_at: Micros }>();
  const result: SnapshotMapResult = { rows: 0, revisions: 0, fromCalendar: 0 };
  for (const snap of snapshots) {
    const asOf =
      snap.asOfDate === undefined
        ? undefined
        : cachedZoned(snap.asOfDate, '23:59:59.999999', 'America/New_York');
    for (const r of snap.rows) {
      if (r.value === null) continue;
      const prev = state.get(r.date);
      if (prev !== undefined && prev.value === r.value) continue;
      const p = normalizeFredPeriod(r.date, args.frequency, `${snap.where}: ${args.fredId} ${r.date}`);
      let available_at: Micros;
      let basis: 'rule' | 'vintage';
      if (prev === undefined) {
        const ruled = ruleAvailableAt(p.periodEnd, args.frequency, rule, args.releaseDates);
        let at = ruled.available_at;
        if (ruled.from === 'release_calendar') {
          result.fromCalendar++;
          if (findReleaseTime(args.release, options.releaseTimes) !== undefined) {
            at = releaseAvailableAt(ruled.date, args.release, options.releaseTimes);
          }
        }
        available_at = asOf === undefined ? at : Math.min(at, asOf);
        basis = 'rule';
      } else {
        // A revision seen in a later download: only the download day is known.
        if (asOf === undefined) {
          throw new InputError(
            'FRED_DUPLICATE_PERIOD',
            `${snap.where}: ${args.fredId} ${r.date} has two different values in one undated download`,
            { context: { series_id: args.fredId, date: r.date } },
          );
        }
        available_at = asOf;
        basis = 'vintage';
        result.revisions++;
      }
      sink.addObservation({
        series_id: seriesId,
        timestamp: p.timestamp,
        period_start: p.period_start,
        available_at,
        value: r.value,
        available_at_basis: basis,
        source_ref: `sha256:${snap.sha256}`,
      });
      state.set(r.date, { value: r.value, available_at });
      result.rows++;
    }
  }
  return result;
}
