import type { AtomicSink, CorporateActionRow, Micros, SeriesInput, UniverseKind } from '@asof/schema';
import { InputError } from '@asof/schema';
import {
  classifyPriceSeries,
  type PriceClassification,
  type PriceField,
  type PriceKind,
} from '@asof/taxonomy';
import type { BarCalendar, BarQualityOptions, BarQualityReport } from './check-bar-quality.ts';
import { checkDownloadQuality } from './check-download-quality.ts';
import { createSessionCloser, defaultPriceCalendar } from './create-session-closer.ts';
import type { EntitySplit } from './entity-splits.ts';
import { ListingSpan } from './listing-span.ts';
import { corporateActionRow, type DividendsByDate, prepareDownloads } from './prepare-price-downloads.ts';
import type { ParsedPriceFile, SplitEvent, VendorAdjustment } from './price-types.ts';
import { PRICE_FIELDS, PriceVintageEmitter } from './price-vintage-emitter.ts';
import { totalReturnIndex } from './total-return-index.ts';

/** One download (vintage) of one instrument. */
export interface PriceDownload {
  parsed: ParsedPriceFile;
  /** When the file was downloaded, epoch µs. Values that changed since the previous download become known then. */
  downloadedAt: Micros;
  /** `source_ref` of every row from this file: the raw file's sha256, or `yahoo:<symbol>`. */
  sourceRef: string;
  /**
   * Splits known to the pipeline (e.g. the 2024 NVDA 10:1 split for a file whose range ends in 2022): they
   * apply to every download of the instrument and win over the files' own event lists. Given (even empty),
   * the list counts as complete: no warning about splits the files cannot tell.
   */
  knownSplits?: SplitEvent[];
  /** Where `knownSplits` came from, for messages (e.g. `NVDA.meta.json`, `options.knownSplits`). */
  knownSplitsFrom?: string;
  /** Named in messages (file name). */
  where?: string;
}

export interface MapPricesOptions {
  /** Vendor symbol; series ids use it upper-cased. */
  symbol: string;
  kind: PriceKind;
  /** Series `source` column: yahoo, stooq, user_csv, synthetic… */
  source: string;
  name?: string | null;
  /** `entity_id` of the series and the corporate actions (default `ticker:<SYMBOL>`). */
  entityId?: string;
  currency?: string | null;
  /** Added to the session close to get available_at (SPEC §4, default 0). */
  vendorLagMicros?: number;
  universeKind?: UniverseKind;
  isSynthetic?: boolean;
  /** Which days are sessions (default: `us` for America/New_York, `all_days` for crypto, else `weekdays`). */
  calendar?: BarCalendar;
  /** Session close wall time for non-US calendars (default 16:00 local). */
  sessionCloseTime?: string;
  /** Bar quality policy and thresholds. */
  quality?: Omit<BarQualityOptions, 'calendar' | 'splits' | 'where'>;
  /** Emit `<prefix>:<SYMBOL>:tr`, the PIT total-return index (as-traded data only). Default false. */
  totalReturn?: boolean;
  /** Taxonomy unit of the total-return series (default: the kind's close unit). */
  totalReturnClassification?: PriceClassification;
  /**
   * When vendor-adjusted (not recoverable) values become available. `download` (default): at the download
   * instant, since each value embeds adjustments known only then. `bar_close`: at the bar close (leaks
   * later actions into past levels; only for experiments).
   */
  vendorAdjustedAvailableAt?: 'download' | 'bar_close';
  /** Relative difference below which a value in a later download counts as unchanged (default 1e-6). */
  revisionTolerance?: number;
  /** Taxonomy lookup (default `classifyPriceSeries` of @asof/taxonomy). */
  classify?: (kind: PriceKind, field: PriceField) => PriceClassification;
}

/** Per-series flags the build can carry into `series` (SeriesInput has no column for them). */
export interface PriceSeriesFlags {
  /** What the vendor had adjusted; `split_dividend` means the stored levels embed later actions. */
  vendor_adjustment: VendorAdjustment;
  /** True when the stored values are as traded (recovered or never adjusted). */
  as_traded: boolean;
}

export interface MapPricesResult {
  symbol: string;
  kind: PriceKind;
  entityId: string;
  seriesIds: string[];
  seriesFlags: Record<string, PriceSeriesFlags>;
  /** Quality of each download, oldest first. */
  quality: { where: string; report: BarQualityReport }[];
  observations: number;
  revisions: number;
  corporateActions: number;
}

/** Series id of one field: `px:AAPL:close` as traded; `pxadj:AAPL:close` for vendor-adjusted history; `syn:` prefix for synthetic. */
export function priceSeriesId(
  symbol: string,
  field: PriceField | 'tr',
  options: { vendorAdjusted?: boolean; synthetic?: boolean } = {},
): string {
  const base = options.vendorAdjusted ? 'pxadj' : 'px';
  return `${options.synthetic ? 'syn:' : ''}${base}:${symbol.toUpperCase()}:${field}`;
}

/** True for series ids of vendor-adjusted (split+dividend back-adjusted, unrecoverable) price history. */
export function isVendorAdjustedSeriesId(seriesId: string): boolean {
  return /^(syn:)?pxadj:/.test(seriesId);
}

/**
 * Maps one instrument's downloads (vintages, any order) into the atomic sink:
 * - five OHLCV series (`px:<SYM>:<field>`, or `pxadj:` for vendor-adjusted history), optional `:tr`;
 * - observations at the session close (US: 16:00 or 13:00 New York), available_at = close + vendor lag,
 *   basis `bar_close`; a value that changed in a later download gets a new row at that download instant
 *   (basis `vintage`); unchanged re-publications add nothing;
 * - Yahoo's split-adjusted values are turned back into as-traded values with the splits between each bar
 *   and its download; Stooq's split+dividend-adjusted values cannot be, and are kept under `pxadj:` ids,
 *   available from the download instant (see `vendorAdjustedAvailableAt`) and warned about;
 * - splits and dividends into corporate_actions (dividends as paid). available_at = the ex-date's 09:30
 *   session open in the exchange zone: the action is public by then at the latest (announcements come
 *   earlier, but the files carry no announcement date).
 */
export function mapPricesToAtomic(
  downloads: PriceDownload[],
  sink: AtomicSink,
  options: MapPricesOptions,
): MapPricesResult {
  const vendorAdjusted = checkAdjustmentFamily(downloads, options.symbol);
  const sorted = [...downloads].sort((a, b) => a.downloadedAt - b.downloadedAt);
  const symbol = options.symbol.toUpperCase();
  const kind = options.kind;
  const entityId = options.entityId ?? `ticker:${symbol}`;
  const synthetic = options.isSynthetic ?? false;
  const tz = sorted[0].parsed.timeZone;
  const calendar = options.calendar ?? defaultPriceCalendar(kind, tz);
  const allDays = calendar === 'all_days';
  const lag = options.vendorLagMicros ?? 0;
  const vaAt = options.vendorAdjustedAvailableAt ?? 'download';
  const series = declarePriceSeries(sink, {
    ...options,
    symbol,
    entityId,
    synthetic,
    vendorAdjusted,
    adjustment: vendorAdjusted ? 'split_dividend' : sorted[0].parsed.adjustment,
    currency: options.currency ?? sorted.find((d) => d.parsed.currency)?.parsed.currency ?? null,
    name: options.name ?? sorted.find((d) => d.parsed.name)?.parsed.name ?? symbol,
    totalReturn: (options.totalReturn ?? false) && !vendorAdjusted,
  });
  const sessionClose = createSessionCloser(calendar, tz, options.sessionCloseTime);
  const emitter = new PriceVintageEmitter(sink, {
    lagMicros: lag,
    tolerance: options.revisionTolerance ?? 1e-6,
    timeZone: tz,
    firstAtDownload: vendorAdjusted && vaAt === 'download',
  });
  const span = new ListingSpan({
    lag,
    vendorAdjustedAtDownload: vendorAdjusted && vaAt === 'download',
    sessionClose,
  });
  const { entity, prepared, dividendsByDate } = prepareDownloads(sorted, sink, {
    symbol,
    vendorAdjusted,
    tz,
    allDays,
  });
  const entitySplits = entity?.splits ?? [];
  const quality: MapPricesResult['quality'] = [];
  const trCloses = new Map<string, number>();
  for (const { d, where, bars } of prepared) {
    const checked = checkDownloadQuality(
      bars,
      { ...options.quality, calendar, splits: entitySplits, where },
      sink,
    );
    quality.push({ where, report: checked.report });
    span.add(d, checked.bars);
    emitter.emitBars(checked.bars, series.ids, d, { sessionClose, isIndex: kind.endsWith('_index') });
    if (series.trId !== null) {
      // The index runs over every as-traded close known after this download (later downloads override a
      // date), so a download covering a shorter range does not restart the index at its own first bar.
      for (const bar of checked.bars) if (bar.close !== null) trCloses.set(bar.date, bar.close);
      emitTotalReturn(emitter, series.trId, d, {
        trCloses,
        splits: entitySplits,
        dividendsByDate,
        sessionClose,
      });
    }
  }
  if (vendorAdjusted) {
    sink.addWarning({
      code: 'PRICES_VENDOR_ADJUSTED',
      message: `${symbol} (${options.source}): history is back-adjusted for splits and dividends by the vendor and cannot be turned back into as-traded prices; kept as ${priceSeriesId(symbol, 'close', { vendorAdjusted: true, synthetic })} etc., flagged vendor-adjusted${vaAt === 'download' ? ', values available only from each download instant' : ', values dated at the bar close (levels leak later actions)'}`,
      count: series.seriesIds.length,
    });
  }
  for (const row of span.rows(entityId)) sink.addMembership(row);
  const actions = vendorAdjusted
    ? []
    : corporateActionRows(entityId, entitySplits, dividendsByDate, { timeZone: tz, allDays });
  for (const a of actions) sink.addCorporateAction(a);
  return {
    symbol,
    kind,
    entityId,
    seriesIds: series.seriesIds,
    seriesFlags: series.seriesFlags,
    quality,
    observations: emitter.observations,
    revisions: emitter.revisions,
    corporateActions: actions.length,
  };
}

/** True when the downloads are vendor-adjusted history; an error when they mix both families. */
function checkAdjustmentFamily(downloads: readonly PriceDownload[], symbol: string): boolean {
  if (downloads.length === 0) {
    throw new InputError('NO_DOWNLOADS', `mapPricesToAtomic(${symbol}): no downloads given`);
  }
  const families = new Set(downloads.map((d) => d.parsed.adjustment === 'split_dividend'));
  if (families.size > 1) {
    throw new InputError(
      'MIXED_ADJUSTMENT',
      `${symbol}: downloads mix vendor-adjusted (split+dividend) and recoverable histories; map them separately (they become different series)`,
      { context: { symbol, files: downloads.map((d) => d.where) } },
    );
  }
  return families.has(true);
}

/** The series an instrument's rows go into: their ids by field, the total-return one, and their flags. */
export interface DeclaredPriceSeries {
  ids: Record<PriceField, string>;
  trId: string | null;
  seriesIds: string[];
  seriesFlags: Record<string, PriceSeriesFlags>;
}

/**
 * Declares an instrument's series in the sink: the five OHLCV series (classified by the taxonomy, titled
 * with the instrument's name and whether the levels are as traded) and, when asked, the total-return index.
 */
export function declarePriceSeries(
  sink: AtomicSink,
  o: Pick<MapPricesOptions, 'kind' | 'source' | 'universeKind' | 'totalReturnClassification' | 'classify'> & {
    symbol: string;
    entityId: string;
    name: string;
    currency: string | null;
    synthetic: boolean;
    vendorAdjusted: boolean;
    adjustment: VendorAdjustment;
    totalReturn: boolean;
  },
): DeclaredPriceSeries {
  const classify = o.classify ?? ((k: PriceKind, f: PriceField) => classifyPriceSeries(k, f));
  const seriesIds: string[] = [];
  const seriesFlags: Record<string, PriceSeriesFlags> = {};
  const note = o.vendorAdjusted
    ? ' (vendor-adjusted for splits and dividends up to each download; levels embed later actions)'
    : ' (as traded)';
  const addSeries = (field: PriceField | 'tr', cls: PriceClassification, unit: string, title: string) => {
    const id = priceSeriesId(o.symbol, field, { vendorAdjusted: o.vendorAdjusted, synthetic: o.synthetic });
    const s: SeriesInput = {
      series_id: id,
      source: o.source,
      source_key: o.symbol,
      title,
      unit,
      frequency: cls.frequency,
      scope: cls.scope,
      category: cls.category,
      detail_category: cls.detail_category,
      entity_id: o.entityId,
      entity_name: o.name,
      currency: field === 'volume' ? null : o.currency,
      seasonal_adjustment: null,
      fiscal_year_end: null,
      is_synthetic: o.synthetic,
      universe_kind: o.universeKind ?? 'static',
    };
    sink.addSeries(s);
    seriesIds.push(id);
    seriesFlags[id] = { vendor_adjustment: o.adjustment, as_traded: !o.vendorAdjusted };
    return id;
  };
  const ids = {} as Record<PriceField, string>;
  for (const f of PRICE_FIELDS) {
    const cls = classify(o.kind, f);
    const unit =
      f === 'volume' ? (o.kind.startsWith('crypto') ? 'units' : 'shares') : (o.currency ?? 'price');
    ids[f] = addSeries(f, cls, unit, `${o.name} OHLCV ${f[0].toUpperCase()}${f.slice(1)}${note}`);
  }
  const trId = o.totalReturn
    ? addSeries(
        'tr',
        o.totalReturnClassification ?? classify(o.kind, 'close'),
        'index',
        `${o.name} total return index (as-traded closes, dividends reinvested at the ex-date close, actions known at each bar)`,
      )
    : null;
  return { ids, trId, seriesIds, seriesFlags };
}

/**
 * The total-return index after one download, over every as-traded close known so far. Base 100 at the first
 * known bar: a download that adds earlier history moves the base, and the published values are revised at
 * that download's instant; rescaling them back instead would give the earlier bars levels computed from
 * later closes (lookahead).
 */
function emitTotalReturn(
  emitter: PriceVintageEmitter,
  trId: string,
  d: PriceDownload,
  o: {
    trCloses: Map<string, number>;
    splits: EntitySplit[];
    dividendsByDate: DividendsByDate;
    sessionClose: (date: string) => Micros;
  },
): void {
  const closes = [...o.trCloses]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([date, c]) => ({ date, close: c }));
  const divs = [...o.dividendsByDate].map(([exDate, v]) => ({ exDate, amount: v.amount }));
  for (const pt of totalReturnIndex(closes, o.splits, divs)) {
    emitter.emit(trId, o.sessionClose(pt.date), pt.value, d);
  }
}

/** The instrument's splits and dividends (as paid, sorted by ex-date) as corporate_actions rows. */
export function corporateActionRows(
  entityId: string,
  splits: readonly EntitySplit[],
  dividendsByDate: DividendsByDate,
  o: { timeZone: string; allDays: boolean },
): CorporateActionRow[] {
  const rows = splits.map((s) => corporateActionRow(entityId, 'split', s.exDate, s.ratio, s.sourceRef, o));
  for (const [exDate, { amount, ref }] of [...dividendsByDate].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    rows.push(corporateActionRow(entityId, 'dividend', exDate, amount, ref, o));
  }
  return rows;
}
