import { localDateOfMicros, usNonTradingReason, usSessionClose, zonedMicros } from '@asof/calendar';
import type { AtomicSink, AvailableAtBasis, Micros, SeriesInput, UniverseKind } from '@asof/schema';
import { InputError, LISTED_UNIVERSE } from '@asof/schema';
import {
  classifyPriceSeries,
  type PriceClassification,
  type PriceField,
  type PriceKind,
} from '@asof/taxonomy';
import {
  type BarCalendar,
  type BarQualityOptions,
  type BarQualityReport,
  checkBarQuality,
} from './check-bar-quality.ts';
import {
  actionAvailableAt,
  collectEntitySplits,
  type EntitySplits,
  splitCoverageWarnings,
  splitsAdjustedIn,
} from './entity-splits.ts';
import type {
  DividendEvent,
  ParsedPriceFile,
  PriceBar,
  SplitEvent,
  VendorAdjustment,
} from './price-types.ts';
import { totalReturnIndex } from './total-return-index.ts';
import { unadjustSplits } from './unadjust-splits.ts';

const FIELDS: PriceField[] = ['open', 'high', 'low', 'close', 'volume'];

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

function defaultCalendar(kind: PriceKind, timeZone: string): BarCalendar {
  if (kind === 'crypto' || kind === 'crypto_other') return 'all_days';
  return timeZone === 'America/New_York' ? 'us' : 'weekdays';
}

function sameValue(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b));
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
  if (downloads.length === 0) {
    throw new InputError('NO_DOWNLOADS', `mapPricesToAtomic(${options.symbol}): no downloads given`);
  }
  const families = new Set(downloads.map((d) => d.parsed.adjustment === 'split_dividend'));
  if (families.size > 1) {
    throw new InputError(
      'MIXED_ADJUSTMENT',
      `${options.symbol}: downloads mix vendor-adjusted (split+dividend) and recoverable histories; map them separately (they become different series)`,
      { context: { symbol: options.symbol, files: downloads.map((d) => d.where) } },
    );
  }
  const vendorAdjusted = families.has(true);
  const sorted = [...downloads].sort((a, b) => a.downloadedAt - b.downloadedAt);
  const symbol = options.symbol.toUpperCase();
  const kind = options.kind;
  const entityId = options.entityId ?? `ticker:${symbol}`;
  const synthetic = options.isSynthetic ?? false;
  const tz = sorted[0].parsed.timeZone;
  const calendar = options.calendar ?? defaultCalendar(kind, tz);
  const lag = options.vendorLagMicros ?? 0;
  const tol = options.revisionTolerance ?? 1e-6;
  const classify = options.classify ?? ((k: PriceKind, f: PriceField) => classifyPriceSeries(k, f));
  const currency = options.currency ?? sorted.find((d) => d.parsed.currency)?.parsed.currency ?? null;
  const name = options.name ?? sorted.find((d) => d.parsed.name)?.parsed.name ?? symbol;
  const isIndex = kind.endsWith('_index');
  const vaAt = options.vendorAdjustedAvailableAt ?? 'download';
  const emitTr = (options.totalReturn ?? false) && !vendorAdjusted;

  // Series.
  const seriesIds: string[] = [];
  const seriesFlags: Record<string, PriceSeriesFlags> = {};
  const adjustment = vendorAdjusted ? 'split_dividend' : sorted[0].parsed.adjustment;
  const note = vendorAdjusted
    ? ' (vendor-adjusted for splits and dividends up to each download; levels embed later actions)'
    : ' (as traded)';
  const addSeries = (
    field: PriceField | 'tr',
    cls: PriceClassification,
    unit: string,
    title: string,
  ): string => {
    const id = priceSeriesId(symbol, field, { vendorAdjusted, synthetic });
    const s: SeriesInput = {
      series_id: id,
      source: options.source,
      source_key: symbol,
      title,
      unit,
      frequency: cls.frequency,
      scope: cls.scope,
      category: cls.category,
      detail_category: cls.detail_category,
      entity_id: entityId,
      entity_name: name,
      currency: field === 'volume' ? null : currency,
      seasonal_adjustment: null,
      fiscal_year_end: null,
      is_synthetic: synthetic,
      universe_kind: options.universeKind ?? 'static',
    };
    sink.addSeries(s);
    seriesIds.push(id);
    seriesFlags[id] = { vendor_adjustment: adjustment, as_traded: !vendorAdjusted };
    return id;
  };
  const ids = {} as Record<PriceField, string>;
  for (const f of FIELDS) {
    const cls = classify(kind, f);
    const unit = f === 'volume' ? (kind.startsWith('crypto') ? 'units' : 'shares') : (currency ?? 'price');
    ids[f] = addSeries(f, cls, unit, `${name} OHLCV ${f[0].toUpperCase()}${f.slice(1)}${note}`);
  }
  const trId = emitTr
    ? addSeries(
        'tr',
        options.totalReturnClassification ?? classify(kind, 'close'),
        'index',
        `${name} total return index (as-traded closes, dividends reinvested at the ex-date close, actions known at each bar)`,
      )
    : null;

  // Session close per date (cached: vintages share dates).
  const closeCache = new Map<string, Micros>();
  const sessionClose = (date: string): Micros => {
    let us = closeCache.get(date);
    if (us === undefined) {
      if (calendar === 'us' && usNonTradingReason(date) === null) us = usSessionClose(date).micros;
      else if (calendar === 'all_days') us = zonedMicros(date, '23:59:59.999999', tz);
      else us = zonedMicros(date, options.sessionCloseTime ?? '16:00', tz);
      closeCache.set(date, us);
    }
    return us;
  };

  // Latest emitted value and its available_at per series and timestamp (two maps: no per-row objects).
  const lastValue = new Map<string, Map<Micros, number>>();
  const lastAvailable = new Map<string, Map<Micros, Micros>>();
  let observations = 0;
  let revisions = 0;
  const emit = (seriesId: string, ts: Micros, value: number, d: PriceDownload): void => {
    if (!Number.isFinite(value)) return;
    let values = lastValue.get(seriesId);
    let availables = lastAvailable.get(seriesId);
    if (!values || !availables) {
      values = new Map();
      availables = new Map();
      lastValue.set(seriesId, values);
      lastAvailable.set(seriesId, availables);
    }
    const prev = values.get(ts);
    const barAvailable = ts + lag;
    let availableAt: Micros;
    let basis: AvailableAtBasis;
    if (prev === undefined) {
      if (vendorAdjusted && vaAt === 'download') {
        availableAt = Math.max(barAvailable, d.downloadedAt);
        basis = availableAt === barAvailable ? 'bar_close' : 'vintage';
      } else {
        availableAt = barAvailable;
        basis = 'bar_close';
      }
    } else {
      if (sameValue(prev, value, tol)) return;
      const prevAvailable = availables.get(ts)!;
      availableAt = Math.max(barAvailable, d.downloadedAt);
      basis = 'vintage';
      if (availableAt <= prevAvailable) {
        sink.addWarning({
          code: 'PRICES_VINTAGE_CONFLICT',
          message: `${seriesId} at ${localDateOfMicros(ts, tz)}: ${d.where ?? 'a download'} gives ${value} but an earlier-or-same download instant already gave ${prev}; kept the first`,
          count: 1,
        });
        return;
      }
      revisions++;
    }
    sink.addObservation({
      series_id: seriesId,
      timestamp: ts,
      period_start: null,
      available_at: availableAt,
      value,
      available_at_basis: basis,
      source_ref: d.sourceRef,
    });
    observations++;
    values.set(ts, value);
    availables.set(ts, availableAt);
  };

  const quality: MapPricesResult['quality'] = [];
  const trCloses = new Map<string, number>();
  const allDays = calendar === 'all_days';
  const { entity, prepared, dividendsByDate } = prepareDownloads(sorted, sink, {
    symbol,
    vendorAdjusted,
    tz,
    allDays,
  });
  const entitySplits = entity?.splits ?? [];

  const kept: { d: PriceDownload; bars: readonly PriceBar[] }[] = [];
  for (const { d, where, bars } of prepared) {
    const checked = checkBarQuality(bars, { ...options.quality, calendar, splits: entitySplits, where });
    quality.push({ where, report: checked.report });
    kept.push({ d, bars: checked.bars });
    const r = checked.report;
    for (const [code, n] of Object.entries(r.issue_counts)) {
      const first = r.issues.find((i) => i.code === code);
      sink.addWarning({
        code: `PRICES_BAR_${code}`,
        message: `${where}: ${n} bar(s) ${first?.action === 'drop' ? 'dropped' : 'kept but flagged'}: ${first?.message ?? ''}`,
        count: n,
      });
    }
    if (r.extreme_returns.length > 0) {
      const e = r.extreme_returns[0];
      sink.addWarning({
        code: 'PRICES_EXTREME_RETURN',
        message: `${where}: ${r.extreme_returns.length} daily return(s) beyond ±${(options.quality?.extremeReturn ?? 0.5) * 100}% without a split, first ${e.date} (${(e.return * 100).toFixed(1)}%); a missing split in the split list looks like this`,
        count: r.extreme_returns.length,
      });
    }
    for (const bar of checked.bars) {
      const ts = sessionClose(bar.date);
      for (const f of FIELDS) {
        let v = bar[f];
        // Yahoo and Stooq report 0 volume for indices, meaning "not available".
        if (f === 'volume' && isIndex && v === 0) v = null;
        if (v !== null) emit(ids[f], ts, v, d);
      }
    }
    if (trId !== null) {
      // The index runs over every as-traded close known after this download (later downloads override a
      // date), so a download covering a shorter range does not restart the index at its own first bar.
      for (const bar of checked.bars) if (bar.close !== null) trCloses.set(bar.date, bar.close);
      const closes = [...trCloses]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([date, c]) => ({ date, close: c }));
      const divs = [...dividendsByDate].map(([exDate, v]) => ({ exDate, amount: v.amount }));
      // Base 100 at the first known bar. A download that adds earlier history moves the base, and the
      // published values are revised at that download's instant; rescaling them back instead would give
      // the earlier bars levels computed from later closes (lookahead).
      for (const pt of totalReturnIndex(closes, entitySplits, divs)) {
        emit(trId, sessionClose(pt.date), pt.value, d);
      }
    }
  }

  if (vendorAdjusted) {
    sink.addWarning({
      code: 'PRICES_VENDOR_ADJUSTED',
      message: `${symbol} (${options.source}): history is back-adjusted for splits and dividends by the vendor and cannot be turned back into as-traded prices; kept as ${priceSeriesId(symbol, 'close', { vendorAdjusted: true, synthetic })} etc., flagged vendor-adjusted${vaAt === 'download' ? ', values available only from each download instant' : ', values dated at the bar close (levels leak later actions)'}`,
      count: seriesIds.length,
    });
  }

  emitListingSpan(kept, sink, {
    entityId,
    lag,
    vendorAdjustedAtDownload: vendorAdjusted && vaAt === 'download',
    sessionClose,
  });

  // Corporate actions.
  let corporateActions = 0;
  const openAt = (date: string): Micros => actionAvailableAt(date, tz, allDays);
  if (!vendorAdjusted) {
    for (const s of entitySplits) {
      sink.addCorporateAction({
        entity_id: entityId,
        ex_date: s.exDate,
        kind: 'split',
        value: s.ratio,
        available_at: openAt(s.exDate),
        source_ref: s.sourceRef,
      });
      corporateActions++;
    }
    for (const [exDate, { amount, ref }] of [...dividendsByDate].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      sink.addCorporateAction({
        entity_id: entityId,
        ex_date: exDate,
        kind: 'dividend',
        value: amount,
        available_at: openAt(exDate),
        source_ref: ref,
      });
      corporateActions++;
    }
  }

  return {
    symbol,
    kind,
    entityId,
    seriesIds,
    seriesFlags,
    quality,
    observations,
    revisions,
    corporateActions,
  };
}

interface PreparedDownload {
  d: PriceDownload;
  where: string;
  /** As traded when the vendor's split adjustment could be undone; else as the file gives them. */
  bars: PriceBar[];
}

/**
 * The instrument's trading span as its files show it, as `price_bars` rows of the universe `listed`
 * (docs/decisions/0021): from its first bar's close, public when that bar was; and, once a download made
 * after the last bar holds nothing later, the same interval closed just after the last bar's close, public
 * at that download. A file's last bar is where its download window ends, not evidence of a delisting, so
 * these rows decide listing only for instruments without EDGAR listing rows, and never make a series
 * "exited" (transform series.sql).
 */
function emitListingSpan(
  downloads: readonly { d: PriceDownload; bars: readonly PriceBar[] }[],
  sink: AtomicSink,
  o: {
    entityId: string;
    lag: number;
    vendorAdjustedAtDownload: boolean;
    sessionClose: (date: string) => Micros;
  },
): void {
  let first: { date: string; ts: Micros; at: Micros; ref: string } | null = null;
  let last: { date: string; ts: Micros } | null = null;
  let latest: { at: Micros; ref: string } | null = null;
  for (const { d, bars } of downloads) {
    if (latest === null || d.downloadedAt > latest.at) latest = { at: d.downloadedAt, ref: d.sourceRef };
    for (const bar of bars) {
      if (bar.open === null && bar.high === null && bar.low === null && bar.close === null) continue;
      const ts = o.sessionClose(bar.date);
      const at = o.vendorAdjustedAtDownload ? Math.max(ts + o.lag, d.downloadedAt) : ts + o.lag;
      if (first === null || ts < first.ts || (ts === first.ts && at < first.at)) {
        first = { date: bar.date, ts, at, ref: d.sourceRef };
      }
      if (last === null || ts > last.ts) last = { date: bar.date, ts };
    }
  }
  if (first === null || last === null || latest === null) return;
  const base = {
    entity_id: o.entityId,
    universe: LISTED_UNIVERSE,
    from: first.ts,
    source: 'price_bars' as const,
    effective_from: first.date,
  };
  sink.addMembership({
    ...base,
    to: null,
    available_at: first.at,
    source_ref: first.ref,
    effective_to: null,
  });
  const after = last.ts + 1;
  if (latest.at >= after) {
    sink.addMembership({
      ...base,
      to: after,
      available_at: latest.at,
      source_ref: latest.ref,
      effective_to: last.date,
    });
  }
}

/**
 * The instrument's corporate actions from all its downloads, and each download's bars with the splits it is
 * adjusted for undone: one split list for the entity (collectEntitySplits), applied to every download made
 * after a split became public, whatever the download's own window; dividends scaled back to the amount paid
 * and merged into one list (the first download's amount kept, a later different one warned about). Also
 * warns each file's parse issues and what no file can tell (splitCoverageWarnings).
 */
function prepareDownloads(
  sorted: readonly PriceDownload[],
  sink: AtomicSink,
  o: { symbol: string; vendorAdjusted: boolean; tz: string; allDays: boolean },
): {
  entity: EntitySplits | null;
  prepared: PreparedDownload[];
  dividendsByDate: Map<string, { amount: number; ref: string }>;
} {
  const entity = o.vendorAdjusted ? null : collectEntitySplits(o.symbol, sorted);
  if (entity !== null) {
    for (const x of entity.overridden) {
      sink.addWarning({
        code: 'PRICES_SPLIT_OVERRIDDEN',
        message: `${x.where}: lists a split of ratio ${x.fileRatio} on ${x.exDate} but ${x.from} gives ${x.ratio}; used ${x.ratio} for every download of ${o.symbol}`,
        count: 1,
      });
    }
    for (const w of splitCoverageWarnings(o.symbol, sorted, o.tz)) sink.addWarning(w);
  }
  const dividendsByDate = new Map<string, { amount: number; ref: string }>();
  const prepared: PreparedDownload[] = [];
  for (const d of sorted) {
    const where = d.where ?? `${o.symbol} download`;
    const p = d.parsed;
    if (p.issues.length > 0) {
      const byCode = new Map<string, string[]>();
      for (const i of p.issues) byCode.set(i.code, [...(byCode.get(i.code) ?? []), i.message]);
      for (const [code, msgs] of byCode) {
        sink.addWarning({
          code: `PRICES_${code}`,
          message: `${where}: ${msgs.length} row(s): ${msgs.slice(0, 3).join(' | ')}`,
          count: msgs.length,
        });
      }
    }
    let bars: PriceBar[] = p.bars;
    let dividends: DividendEvent[] = p.dividends;
    if (entity !== null) {
      if (p.adjustment === 'split') {
        const applied = splitsAdjustedIn(entity.splits, d.downloadedAt, o.tz, o.allDays);
        ({ bars, dividends } = unadjustSplits(
          bars,
          applied,
          localDateOfMicros(d.downloadedAt, o.tz),
          dividends,
        ));
      }
      for (const div of dividends) {
        const prev = dividendsByDate.get(div.exDate);
        if (prev === undefined) dividendsByDate.set(div.exDate, { amount: div.amount, ref: d.sourceRef });
        else if (!sameValue(prev.amount, div.amount, 1e-4)) {
          sink.addWarning({
            code: 'PRICES_DIVIDEND_MISMATCH',
            message: `${o.symbol} dividend ex ${div.exDate}: ${where} gives ${div.amount} (as paid) but an earlier download gave ${prev.amount}; kept the first`,
            count: 1,
          });
        }
      }
    }
    prepared.push({ d, where, bars });
  }
  return { entity, prepared, dividendsByDate };
}
