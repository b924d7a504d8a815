import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkIsoDate, endOfDayMicros, isoToMicros, microsToIso } from '@asof/calendar';
import { type AtomicSink, hasControlChars, InputError, type Micros, printable, SeriesId } from '@asof/schema';
import type { PriceKind } from '@asof/taxonomy';
import { collectEntitySplits } from './entity-splits.ts';
import { type DownloadAfterSplits, inferDownloadsAfterSplits } from './infer-download-after-splits.ts';
import {
  type MapPricesOptions,
  type MapPricesResult,
  mapPricesToAtomic,
  type PriceDownload,
  priceSeriesId,
} from './map-prices-to-atomic.ts';
import { isStooqCsv, type ParseStooqCsvOptions, parseStooqCsv } from './parse-stooq-csv.ts';
import {
  isYahooDownloadCsv,
  type ParseUserCsvOptions,
  parseUserCsv,
  YAHOO_DOWNLOAD_CSV_COLUMNS,
} from './parse-user-csv.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import { isYahooEventsCsv, parseYahooEventsCsv } from './parse-yahoo-events-csv.ts';
import { PriceDownloadMeta } from './price-download-meta.ts';
import type { ParsedPriceFile, SplitEvent } from './price-types.ts';

export interface IngestPricesOptions {
  /** Per raw file name: download instant (ISO instant, or a YYYY-MM-DD date read as that day's end in New York). */
  downloadedAt?: Record<string, string>;
  /** Instrument kind per symbol (upper case); else the sidecar's, else Yahoo's instrumentType, else `defaultKind`. */
  kinds?: Record<string, PriceKind>;
  defaultKind?: PriceKind;
  /** Splits the pipeline knows per symbol (upper case), e.g. { NVDA: [{ exDate: '2024-06-10', ratio: 10 }] }. */
  knownSplits?: Record<string, SplitEvent[]>;
  /** Column mappings for user CSV files, by file name. Files listed here are read with `parseUserCsv`. */
  userCsv?: Record<string, ParseUserCsvOptions>;
  stooq?: Pick<ParseStooqCsvOptions, 'raggedRows'>;
  /** Passed to `mapPricesToAtomic` for every instrument (vendor lag, quality policy, totalReturn…). */
  map?: Omit<MapPricesOptions, 'symbol' | 'kind' | 'source' | 'name' | 'entityId' | 'currency'>;
  /** `addInput` source label prefix (default `prices`). */
  inputSource?: string;
}

/**
 * How a file's download instant was determined (most to least reliable). `split_evidence`: none was
 * recorded, and its bars show it was made after a split later than its market time or last bar
 * (inferDownloadsAfterSplits), so it is dated at that split's ex-date open.
 */
export type DownloadTimeSource =
  | 'option'
  | 'sidecar'
  | 'file_name'
  | 'market_time'
  | 'last_bar'
  | 'split_evidence';

export interface IngestedPriceFile {
  file: string;
  sha256: string;
  bytes: number;
  format: ParsedPriceFile['format'];
  symbol: string;
  downloadedAt: string;
  downloadedAtSource: DownloadTimeSource;
  bars: number;
}

export interface IngestPricesResult {
  files: IngestedPriceFile[];
  instruments: MapPricesResult[];
  /** Files skipped (not a price format, or unreadable symbol), with the reason. Each also became a warning. */
  skipped: { file: string; reason: string }[];
  /** Every vendor-adjusted series id (flag them in `series`). */
  vendorAdjustedSeriesIds: string[];
}

/** One raw file read, before it is mapped with the other downloads of its instrument. */
interface PriceEntry {
  download: PriceDownload;
  symbol: string;
  kind: PriceKind | null;
  source: string;
  meta: PriceDownloadMeta | null;
  /** Index into the result's `files`. */
  file: number;
  /** The download instant is a lower bound (Yahoo's market time, or the last bar). */
  assumed: boolean;
}

const FILE_NAME_DATE = /(?:^|[_.-])(?:dl|downloaded|asof)[-_@]?(\d{4}-\d{2}-\d{2})(?=[_.-]|$)/i;

function yahooKind(instrumentType: string | null, symbol: string): PriceKind | null {
  switch ((instrumentType ?? '').toUpperCase()) {
    case 'EQUITY':
      return 'equity';
    case 'ETF':
    case 'MUTUALFUND':
      return 'etf';
    case 'CRYPTOCURRENCY':
      return 'crypto';
    case 'INDEX':
      return /^\^(GSPC|DJI|IXIC|NDX|RUT|SP\d+|NYA|VIX|W5000)$/.test(symbol)
        ? 'us_equity_index'
        : 'country_index';
    default:
      return null;
  }
}

interface Sidecar {
  meta: PriceDownloadMeta;
  file: string;
  sha256: string;
  bytes: number;
}

function readSidecar(dir: string, file: string): Sidecar | null {
  const stem = file.replace(/\.(json|csv)$/i, '');
  for (const candidate of [`${file}.meta.json`, `${stem}.meta.json`]) {
    const path = join(dir, candidate);
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch {
      continue;
    }
    const text = buf.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new InputError('BAD_SIDECAR', `${candidate}: not valid JSON (${(cause as Error).message})`, {
        cause,
      });
    }
    const parsed = PriceDownloadMeta.safeParse(json);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new InputError(
        'BAD_SIDECAR',
        `${candidate}: ${i.path.join('.') || '(root)'}: ${i.message}; expected {symbol?, kind?, downloaded_at? | download_date?, splits?: [{ex_date, ratio}]}`,
        { context: { file: candidate, path: i.path.join('.') } },
      );
    }
    return {
      meta: parsed.data,
      file: candidate,
      sha256: createHash('sha256').update(buf).digest('hex'),
      bytes: buf.length,
    };
  }
  return null;
}

/** An ISO instant, or a date read as 23:59:59.999999 America/New_York (a date-only download is known by day's end). */
function downloadInstant(value: string, where: string): Micros {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? endOfDayMicros(checkIsoDate(value, where), 'America/New_York')
    : isoToMicros(value, where);
}

/**
 * The latest trading date in the file, whatever the row order: a file sorted newest-first, or with an older
 * row appended, was still downloaded after its newest bar (taking the last row would date every bar's
 * vendor adjustment too early: look-ahead). Events count when there are no bars (an events-only file).
 */
export function latestBarDate(
  parsed: Pick<ParsedPriceFile, 'bars' | 'splits' | 'dividends'>,
): string | undefined {
  let latest: string | undefined;
  for (const b of parsed.bars) if (latest === undefined || b.date > latest) latest = b.date;
  if (latest !== undefined) return latest;
  for (const e of [...parsed.splits, ...parsed.dividends])
    if (latest === undefined || e.exDate > latest) latest = e.exDate;
  return latest;
}

/** Refuses a symbol that cannot be part of a series id (control characters, spaces…), naming where it came from. */
function checkSymbol(symbol: string, file: string, from: string): void {
  if (SeriesId.safeParse(priceSeriesId(symbol, 'close')).success) return;
  const why = hasControlChars(symbol)
    ? 'it contains a control character'
    : 'series ids take letters, digits and . - ^ = _ / only';
  throw new InputError(
    'PRICES_BAD_SYMBOL',
    `${file}: symbol ${printable(symbol)} (${from}) cannot name a series: ${why}; fix the symbol, or give "symbol" in its .meta.json sidecar`,
    { context: { file, symbol, from } },
  );
}

/**
 * Reads every Yahoo chart JSON, Stooq CSV, Yahoo v7 history or events CSV and mapped user CSV in `dir` (not
 * recursive; `*.meta.json` sidecars are read with their file) and maps them into `sink`. Files of the same
 * symbol and adjustment family are vintages of one instrument. The download instant of each file comes
 * from `options.downloadedAt`, else the sidecar, else a `dl-YYYY-MM-DD` token in the file name, else (with
 * a warning) Yahoo's `meta.regularMarketTime` or the last bar's date.
 */
export function ingestPricesRawDir(
  dir: string,
  sink: AtomicSink,
  options: IngestPricesOptions = {},
): IngestPricesResult {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (cause) {
    throw new InputError(
      'RAW_DIR_UNREADABLE',
      `raw directory ${dir}: cannot list it (${(cause as Error).message}); pass a folder of raw price files`,
      {
        context: { dir },
        cause,
      },
    );
  }
  const inputSource = options.inputSource ?? 'prices';
  const files: IngestedPriceFile[] = [];
  const skipped: IngestPricesResult['skipped'] = [];
  const entries: PriceEntry[] = [];
  const listedSidecars = new Set<string>();
  const skip = (file: string, reason: string): void => {
    skipped.push({ file, reason });
    sink.addWarning({ code: 'PRICES_FILE_SKIPPED', message: `${file}: ${reason}`, count: 1 });
  };

  for (const file of names) {
    if (file.endsWith('.meta.json') || file.startsWith('.')) continue;
    const path = join(dir, file);
    if (!statSync(path).isFile()) continue;
    const lower = file.toLowerCase();
    if (!lower.endsWith('.json') && !lower.endsWith('.csv')) continue;
    const buf = readFileSync(path);
    const text = buf.toString('utf8');
    const sha256 = createHash('sha256').update(buf).digest('hex');
    const sidecar = readSidecar(dir, file);
    const meta = sidecar?.meta ?? null;
    let parsed: ParsedPriceFile;
    let source: string;
    if (options.userCsv?.[file]) {
      parsed = parseUserCsv(text, { symbol: meta?.symbol ?? null, ...options.userCsv[file] }, file);
      source = 'user_csv';
    } else if (lower.endsWith('.json')) {
      parsed = parseYahooChart(text, file);
      source = 'yahoo';
    } else if (isStooqCsv(text)) {
      const m = /(?:^|_)([a-z0-9.^-]+?)_us_d(?:[_.]|$)/i.exec(file);
      parsed = parseStooqCsv(text, file, {
        symbol: meta?.symbol ?? m?.[1]?.toUpperCase() ?? null,
        ...options.stooq,
      });
      source = 'stooq';
    } else if (isYahooDownloadCsv(text)) {
      const m = /yahoo_download_([A-Za-z0-9.^=-]+?)_/.exec(file);
      parsed = parseUserCsv(
        text,
        {
          columns: YAHOO_DOWNLOAD_CSV_COLUMNS,
          symbol: meta?.symbol ?? m?.[1] ?? null,
          adjustment: 'split',
          format: 'yahoo_csv',
        },
        file,
      );
      source = 'yahoo';
    } else if (isYahooEventsCsv(text)) {
      const m = /yahoo_download_([A-Za-z0-9.^=-]+?)_/.exec(file);
      parsed = parseYahooEventsCsv(text, file, { symbol: meta?.symbol ?? m?.[1] ?? null });
      source = 'yahoo';
    } else {
      skip(
        file,
        `not a recognised price file (expected Yahoo chart JSON, Stooq Date,Open,High,Low,Close,Volume CSV, Yahoo v7 history or events CSV, or a user CSV with a column mapping); header ${JSON.stringify(text.split(/\r?\n/, 1)[0].slice(0, 60))}`,
      );
      continue;
    }
    const symbol = (meta?.symbol ?? parsed.symbol ?? '').toUpperCase();
    if (symbol === '') {
      skip(file, 'no symbol: name the file <sym>_us_d.csv or give "symbol" in its .meta.json sidecar');
      continue;
    }
    checkSymbol(
      symbol,
      file,
      meta?.symbol !== undefined
        ? 'from its .meta.json sidecar'
        : options.userCsv?.[file]
          ? 'from the column mapping'
          : lower.endsWith('.json')
            ? "from the chart's meta.symbol"
            : 'from the file name',
    );
    sink.addInput({ source: `${inputSource}:${source}`, key: file, sha256, bytes: buf.length });
    // A sidecar changes the file's download instant, symbol, kind or splits: it is a raw input too.
    if (sidecar !== null && !listedSidecars.has(sidecar.file)) {
      listedSidecars.add(sidecar.file);
      sink.addInput({
        source: `${inputSource}:sidecar`,
        key: sidecar.file,
        sha256: sidecar.sha256,
        bytes: sidecar.bytes,
      });
    }

    let downloadedAt: Micros;
    let how: DownloadTimeSource;
    const fromName = FILE_NAME_DATE.exec(file)?.[1];
    if (options.downloadedAt?.[file]) {
      downloadedAt = downloadInstant(options.downloadedAt[file], `downloadedAt[${file}]`);
      how = 'option';
    } else if (meta?.downloaded_at || meta?.download_date) {
      downloadedAt = downloadInstant(
        (meta.downloaded_at ?? meta.download_date)!,
        `${file}.meta.json ${meta.downloaded_at ? 'downloaded_at' : 'download_date'}`,
      );
      how = 'sidecar';
    } else if (fromName) {
      downloadedAt = downloadInstant(fromName, `${file}: download date in the file name`);
      how = 'file_name';
    } else if (parsed.marketTimeMicros !== null) {
      downloadedAt = parsed.marketTimeMicros;
      how = 'market_time';
    } else {
      const lastBar = latestBarDate(parsed);
      if (lastBar === undefined) {
        skip(file, 'no bars and no download date; give "download_date" in its .meta.json sidecar');
        continue;
      }
      downloadedAt = endOfDayMicros(lastBar, parsed.timeZone);
      how = 'last_bar';
    }
    const known: { splits: SplitEvent[]; from: string } | null = options.knownSplits?.[symbol]
      ? { splits: options.knownSplits[symbol], from: `options.knownSplits.${symbol}` }
      : meta?.splits && sidecar
        ? { splits: meta.splits.map((x) => ({ exDate: x.ex_date, ratio: x.ratio })), from: sidecar.file }
        : null;
    const kind = options.kinds?.[symbol] ?? meta?.kind ?? yahooKind(parsed.instrumentType, symbol);
    entries.push({
      download: {
        parsed,
        downloadedAt,
        sourceRef: sha256,
        where: file,
        ...(known ? { knownSplits: known.splits, knownSplitsFrom: known.from } : {}),
      },
      symbol,
      kind,
      source: meta?.source ?? source,
      meta,
      file: files.length,
      assumed: how === 'market_time' || how === 'last_bar',
    });
    files.push({
      file,
      sha256,
      bytes: buf.length,
      format: parsed.format,
      symbol,
      downloadedAt: microsToIso(downloadedAt),
      downloadedAtSource: how,
      bars: parsed.bars.length,
    });
  }

  // Group into instruments: symbol × (vendor-adjusted or recoverable).
  const groups = new Map<string, PriceEntry[]>();
  for (const e of entries) {
    const key = `${e.symbol}\u0000${e.download.parsed.adjustment === 'split_dividend' ? 'vadj' : 'raw'}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const instruments: MapPricesResult[] = [];
  const vendorAdjustedSeriesIds: string[] = [];
  for (const [, group] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const first = group[0];
    const kind = group.find((e) => e.kind !== null)?.kind ?? options.defaultKind ?? 'equity';
    datePriceDownloads(group, kind, files, sink, options.map?.calendar);
    const result = mapPricesToAtomic(
      group.map((e) => e.download),
      sink,
      {
        ...options.map,
        symbol: first.symbol,
        kind,
        source: first.source,
        name: group.find((e) => e.meta?.name)?.meta?.name ?? null,
        entityId: group.find((e) => e.meta?.entity_id)?.meta?.entity_id,
        currency: group.find((e) => e.meta?.currency)?.meta?.currency ?? null,
      },
    );
    instruments.push(result);
    for (const id of result.seriesIds)
      if (result.seriesFlags[id].vendor_adjustment === 'split_dividend') vendorAdjustedSeriesIds.push(id);
  }
  return { files, instruments, skipped, vendorAdjustedSeriesIds };
}

/**
 * Settles the download instants of one instrument's files before they are mapped: a file with no recorded
 * date whose bars show it was made after a later split (inferDownloadsAfterSplits) is dated at that split's
 * ex-date open, with PRICES_DOWNLOAD_TIME_INFERRED; any other unrecorded date keeps its assumption, with
 * PRICES_DOWNLOAD_TIME_ASSUMED. Conflicting split lists fail here, naming both files.
 */
function datePriceDownloads(
  group: PriceEntry[],
  kind: PriceKind,
  files: IngestedPriceFile[],
  sink: AtomicSink,
  calendar: MapPricesOptions['calendar'],
): void {
  group.sort((a, b) => a.download.downloadedAt - b.download.downloadedAt);
  const downloads = group.map((e) => e.download);
  const tz = downloads[0].parsed.timeZone;
  const allDays = calendar === 'all_days' || (calendar === undefined && kind.startsWith('crypto'));
  const inferred = new Map<number, DownloadAfterSplits>();
  if (downloads[0].parsed.adjustment !== 'split_dividend') {
    const { splits } = collectEntitySplits(group[0].symbol, downloads);
    for (const x of inferDownloadsAfterSplits(
      downloads,
      group.map((e) => e.assumed),
      splits,
      tz,
      allDays,
    ))
      inferred.set(x.index, x);
  }
  group.forEach((e, i) => {
    const f = files[e.file];
    const x = inferred.get(i);
    if (x !== undefined) {
      e.download.downloadedAt = x.downloadedAt;
      f.downloadedAt = microsToIso(x.downloadedAt);
      f.downloadedAtSource = 'split_evidence';
      sink.addWarning({
        code: 'PRICES_DOWNLOAD_TIME_INFERRED',
        message: `${f.file}: no download date recorded; its closes match the as-traded closes of ${x.references.join(', ')} (${x.dates} date(s)) only with the ${x.split.ratio}:1 split of ${x.split.exDate} undone, so it was downloaded after that split: dated ${f.downloadedAt} (its ex-date open), which may still be earlier than the real download`,
        count: 1,
      });
    } else if (e.assumed) {
      sink.addWarning({
        code: 'PRICES_DOWNLOAD_TIME_ASSUMED',
        message: `${f.file}: no download date recorded (option, .meta.json sidecar or dl-YYYY-MM-DD in the name); assumed ${f.downloadedAt} from ${f.downloadedAtSource === 'market_time' ? "Yahoo's meta.regularMarketTime" : 'the last bar'}, which may be earlier than the real download`,
        count: 1,
      });
    }
  });
}

/** One line of the build summary's price-quality table (JSON-friendly, small). */
export interface PriceQualitySummaryRow {
  symbol: string;
  /** `px` (as traded) or `pxadj` (vendor-adjusted). */
  family: 'px' | 'pxadj';
  file: string;
  bars_in: number;
  bars_kept: number;
  first_date: string | null;
  last_date: string | null;
  issue_counts: Record<string, number>;
  missing_days: number;
  longest_gap: { from: string; to: string; days: number } | null;
  stale_runs: number;
  extreme_returns: { date: string; return: number }[];
  volume_spikes: number;
}

/** Flattens `IngestPricesResult.instruments[].quality` into rows for the build summary / manifest. */
export function summarizePriceQuality(
  result: Pick<IngestPricesResult, 'instruments'>,
): PriceQualitySummaryRow[] {
  const rows: PriceQualitySummaryRow[] = [];
  for (const inst of result.instruments) {
    const family = inst.seriesIds[0]?.includes('pxadj:') ? 'pxadj' : 'px';
    for (const { where, report } of inst.quality) {
      rows.push({
        symbol: inst.symbol,
        family,
        file: where,
        bars_in: report.bars_in,
        bars_kept: report.bars_kept,
        first_date: report.first_date,
        last_date: report.last_date,
        issue_counts: { ...report.issue_counts } as Record<string, number>,
        missing_days: report.missing_days,
        longest_gap: report.gaps[0] ?? null,
        stale_runs: report.stale_runs.length,
        extreme_returns: report.extreme_returns.slice(0, 5),
        volume_spikes: report.volume_spikes.length,
      });
    }
  }
  return rows;
}
