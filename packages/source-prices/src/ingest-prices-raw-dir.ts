import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkIsoDate, endOfDayMicros, isoToMicros, microsToIso, nextUsTradingDay } from '@asof/calendar';
import {
  AccountingTally,
  type AtomicSink,
  hasControlChars,
  type IngestAccounting,
  InputError,
  type Micros,
  printable,
  SeriesId,
  zodInputError,
} from '@asof/schema';
import type { PriceKind } from '@asof/taxonomy';
import type { BarQualityReport } from './check-bar-quality.ts';
import { collectEntitySplits } from './entity-splits.ts';
import { type DownloadAfterSplits, inferDownloadsAfterSplits } from './infer-download-after-splits.ts';
import {
  type MapPricesOptions,
  type MapPricesResult,
  mapPricesToAtomic,
  type PriceDownload,
  priceSeriesId,
} from './map-prices-to-atomic.ts';
import {
  type LeanFactorRow,
  leanFactorEvents,
  leanSecuritySymbol,
  leanTickerOn,
  parseLeanDailyCsv,
  parseLeanFactorFile,
  parseLeanMapFile,
} from './parse-lean.ts';
import { type ParseStooqCsvOptions, parseStooqCsv } from './parse-stooq-csv.ts';
import { type ParseUserCsvOptions, parseUserCsv } from './parse-user-csv.ts';
import {
  detectCsvPriceFormat,
  parseVendorCsv,
  symbolFromFileName,
  unknownFormatError,
} from './parse-vendor-csv.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import { parseYahooEventsCsv } from './parse-yahoo-events-csv.ts';
import { PriceDownloadMeta } from './price-download-meta.ts';
import type { ParsedPriceFile, PriceBar, SplitEvent } from './price-types.ts';

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
  /** The input's key: the file name, or `daily/<name>` in Lean's own layout. */
  file: string;
  sha256: string;
  bytes: number;
  /** The format detected from the file's header and shape (`asof ingest` prints it). */
  format: ParsedPriceFile['format'];
  /** The file's symbol (its first when it holds several). */
  symbol: string;
  /** Every instrument symbol the file fed: several for Quandl's table, or a Lean file whose ticker two securities used. */
  symbols: string[];
  downloadedAt: string;
  downloadedAtSource: DownloadTimeSource;
  bars: number;
}

/** A file that is not a price file but was read for them (Lean map and factor files), or a recognised non-price file. */
export interface IngestedSupportFile {
  file: string;
  format: 'lean_map_file' | 'lean_factor_file' | 'zipline_benchmark_returns';
  sha256: string;
  bytes: number;
  rows: number;
  /** The instrument it applies to (a Lean security's symbol), or null. */
  symbol: string | null;
}

export interface IngestPricesResult {
  files: IngestedPriceFile[];
  /** Lean map and factor files read (each an input), and recognised files that hold no prices. */
  supportFiles: IngestedSupportFile[];
  instruments: MapPricesResult[];
  /** Files skipped (no symbol, no bars and no date, not prices, an unused Lean map file), with the reason. Each also became a warning. */
  skipped: { file: string; reason: string }[];
  /** Every vendor-adjusted series id (flag them in `series`). */
  vendorAdjustedSeriesIds: string[];
  /** What was done with every record of every input (also given to `sink.addAccounting`). */
  accounting: IngestAccounting[];
}

/** One parsed piece of a raw file, before it is mapped with the other downloads of its instrument. */
interface PriceEntry {
  download: PriceDownload;
  symbol: string;
  kind: PriceKind | null;
  source: string;
  meta: PriceDownloadMeta | null;
  /** Index into the result's `files`; null for a Lean factor file's events. */
  file: number | null;
  /** The download instant is a lower bound (Yahoo's market time, or the last bar). */
  assumed: boolean;
}

/** A raw price file, read and parsed into pieces (one per instrument it holds). */
interface RawPriceFile {
  key: string;
  path: string;
  buf: Buffer;
  text: string;
  sha256: string;
  format: ParsedPriceFile['format'];
  source: string;
  pieces: ParsedPriceFile[];
  tally: AccountingTally;
  /** How the symbol was found, for messages. */
  symbolFrom: string;
  sidecar: Sidecar | null;
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
      throw zodInputError('BAD_SIDECAR', candidate, parsed.error, {
        what: 'price download sidecar',
        hint: 'expected {symbol?, kind?, downloaded_at? | download_date?, splits?: [{ex_date, ratio}]}',
      });
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
 * A price file's bars as its quality check left them: each kept bar mapped, each dropped bar under its first
 * reason. Shared with `asof update`'s append path, so an appended file is accounted as a build accounts it.
 */
export function accountBars(tally: AccountingTally, report: BarQualityReport): void {
  tally.map(report.bars_kept);
  const byRow = new Map<number, string>();
  for (const i of report.issues)
    if (i.action === 'drop' && !byRow.has(i.row))
      byRow.set(i.row, BAR_DROP_REASON[i.code] ?? i.code.toLowerCase());
  for (const reason of byRow.values()) tally.drop(reason);
}

const BAR_DROP_REASON: Record<string, string> = {
  NON_TRADING_DAY: 'non_trading_day',
  DUPLICATE_DATE: 'duplicate',
  NON_POSITIVE_PRICE: 'non_positive_price',
  HIGH_LT_LOW: 'high_lt_low',
  NEGATIVE_VOLUME: 'negative_volume',
  EMPTY_BAR: 'empty_bar',
};

const LEAN_MAP_DIRS = ['map_files', 'lean_map_files'];
const LEAN_FACTOR_DIRS = ['factor_files', 'lean_factor_files'];
/** The subfolders of a price raw_dir the reader takes files from (Lean's layout); their inputs are keyed `sub/name`. */
export const PRICE_RAW_SUBDIRS: readonly string[] = ['daily', ...LEAN_MAP_DIRS, ...LEAN_FACTOR_DIRS];

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (cause) {
    throw new InputError(
      'RAW_DIR_UNREADABLE',
      `raw directory ${dir}: cannot list it (${(cause as Error).message}); pass a folder of raw price files`,
      { context: { dir }, cause },
    );
  }
}

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Data lines of a text file (non-blank lines, minus a header). */
const countDataLines = (text: string, header: boolean): number =>
  text.split(/\r?\n/).filter((l) => l.trim() !== '').length - (header ? 1 : 0);

/** A file the reader takes prices from, before it is read. */
interface PriceCandidate {
  key: string;
  path: string;
  sidecarDir: string;
  name: string;
}

/** The state one ingestPricesRawDir call builds up, shared by its steps. */
interface IngestRun {
  dir: string;
  sink: AtomicSink;
  options: IngestPricesOptions;
  inputSource: string;
  files: IngestedPriceFile[];
  supportFiles: IngestedSupportFile[];
  skipped: IngestPricesResult['skipped'];
  entries: PriceEntry[];
  accounting: IngestAccounting[];
  /** Sidecars already listed as inputs (a Lean file's pieces share one). */
  listedSidecars: Set<string>;
  /** The raw file of each piece, by the piece's `where`, for its accounting. */
  pieceFile: Map<string, RawPriceFile>;
  skip: (file: string, reason: string) => void;
  account: (entry: IngestAccounting) => void;
}

/**
 * Reads every price file in `dir` and maps them into `sink`: Yahoo chart JSON, Yahoo v7 and pre-2017 CSV
 * downloads and events CSVs, yfinance CSV, Stooq, Google Finance, Quandl WIKI (one ticker or the WIKI/PRICES
 * table), zipline csvdir, QuantConnect/Lean daily files (flat, `lean_algoseek_daily_raw_x10000_<SYM>.csv`,
 * or Lean's own `daily/<sym>.csv`) with their `map_files/` and `factor_files/` (or `lean_map_files/`,
 * `lean_factor_files/`) subfolders, and user CSVs given a column mapping. The format of each file is
 * detected from its header and shape (`files[].format`); a `.csv` no format fits is an error
 * (PRICES_UNKNOWN_FORMAT) naming the file and the known formats. `*.meta.json` sidecars are read with their
 * file. Files of the same symbol and adjustment family are vintages of one instrument. The download
 * instant of each file comes from `options.downloadedAt`, else the sidecar, else a `dl-YYYY-MM-DD` token in
 * the file name, else (with a warning) Yahoo's `meta.regularMarketTime` or the last bar's date. Every input
 * gets one accounting entry (docs/decisions/0041): each data row is mapped or dropped with its reason.
 */
export function ingestPricesRawDir(
  dir: string,
  sink: AtomicSink,
  options: IngestPricesOptions = {},
): IngestPricesResult {
  const names = listDir(dir);
  const run: IngestRun = {
    dir,
    sink,
    options,
    inputSource: options.inputSource ?? 'prices',
    files: [],
    supportFiles: [],
    skipped: [],
    entries: [],
    accounting: [],
    listedSidecars: new Set(),
    pieceFile: new Map(),
    skip: (file, reason) => {
      run.skipped.push({ file, reason });
      sink.addWarning({ code: 'PRICES_FILE_SKIPPED', message: `${file}: ${reason}`, count: 1 });
    },
    account: (entry) => {
      run.accounting.push(entry);
      sink.addAccounting(entry);
    },
  };
  const raws: RawPriceFile[] = [];
  for (const c of listPriceCandidates(dir, names)) {
    const raw = readRawPriceFile(c, run);
    if (raw !== null) raws.push(raw);
  }

  // Lean: split each daily file among the securities its map files say traded under its ticker.
  const lean = raws.filter((r) => r.format === 'lean_daily');
  const leanFactors = new Map<
    string,
    { key: string; sha256: string; symbol: string; rows: LeanFactorRow[] }
  >();
  if (lean.length > 0) {
    const support = readLeanSupport(
      dir,
      names,
      lean,
      sink,
      run.inputSource,
      run.skip,
      run.account,
      run.supportFiles,
    );
    for (const [k, v] of support) leanFactors.set(k, v);
  }
  for (const raw of raws) registerPriceFile(raw, run);
  addLeanFactorEntries(leanFactors, run.entries);
  const { instruments, vendorAdjustedSeriesIds } = mapPriceInstruments(run);
  for (const raw of raws) {
    if (!run.files.some((f) => f.file === raw.key)) continue;
    if (raw.tally.record === 'row') {
      // Events files: every listed event is mapped, a row the parser could not read is dropped.
      const p = raw.pieces[0];
      raw.tally.map(p.splits.length + p.dividends.length);
      raw.tally.drop('bad_value', p.issues.length);
    }
    run.account(raw.tally.entry());
  }
  const { files, supportFiles, skipped, accounting } = run;
  return { files, supportFiles, instruments, skipped, vendorAdjustedSeriesIds, accounting };
}

/** The price files: top-level .json/.csv, and Lean's own daily/ folder. */
function listPriceCandidates(dir: string, names: string[]): PriceCandidate[] {
  const candidates: PriceCandidate[] = [];
  for (const file of names) {
    if (file.endsWith('.meta.json') || file.startsWith('.')) continue;
    const path = join(dir, file);
    if (!statSync(path).isFile()) continue;
    if (!/\.(json|csv)$/i.test(file)) continue;
    candidates.push({ key: file, path, sidecarDir: dir, name: file });
  }
  if (names.includes('daily') && isDir(join(dir, 'daily'))) {
    for (const file of listDir(join(dir, 'daily'))) {
      if (file.startsWith('.') || file.endsWith('.meta.json')) continue;
      if (/\.zip$/i.test(file)) {
        throw new InputError(
          'LEAN_ZIPPED_DAILY',
          `daily/${file}: Lean's daily files are read extracted; unzip it (it holds ${file.replace(/\.zip$/i, '.csv')}) and remove the zip`,
          { context: { file: `daily/${file}` } },
        );
      }
      if (/\.csv$/i.test(file))
        candidates.push({
          key: `daily/${file}`,
          path: join(dir, 'daily', file),
          sidecarDir: join(dir, 'daily'),
          name: file,
        });
    }
  }
  return candidates;
}

/** Reads and parses one candidate file (its format detected); null for a file that holds no prices. */
function readRawPriceFile(c: PriceCandidate, run: IngestRun): RawPriceFile | null {
  const { options, sink, inputSource, account, supportFiles, skip } = run;
  const buf = readFileSync(c.path);
  const text = buf.toString('utf8');
  const sha256 = createHash('sha256').update(buf).digest('hex');
  const sidecar = readSidecar(c.sidecarDir, c.name);
  const meta = sidecar?.meta ?? null;
  const lower = c.name.toLowerCase();
  const fromName = symbolFromFileName(c.name);
  let format: ParsedPriceFile['format'];
  let source: string;
  let pieces: ParsedPriceFile[];
  let symbolFrom = meta?.symbol !== undefined ? 'from its .meta.json sidecar' : 'from the file name';
  let record = 'bar';
  if (options.userCsv?.[c.key]) {
    pieces = [parseUserCsv(text, { symbol: meta?.symbol ?? null, ...options.userCsv[c.key] }, c.key)];
    format = 'user_csv';
    source = 'user_csv';
    if (meta?.symbol === undefined) symbolFrom = 'from the column mapping';
  } else if (lower.endsWith('.json')) {
    pieces = [parseYahooChart(text, c.key)];
    format = 'yahoo_chart';
    source = 'yahoo';
    if (meta?.symbol === undefined) symbolFrom = "from the chart's meta.symbol";
  } else {
    const detected = detectCsvPriceFormat(text);
    if (detected === null) throw unknownFormatError(c.key, text);
    if (detected === 'zipline_benchmark_returns') {
      const rows = countDataLines(text, true);
      sink.addInput({ source: `${inputSource}:zipline`, key: c.key, sha256, bytes: buf.length });
      const tally = new AccountingTally('prices', c.key, 'row');
      tally.drop('out_of_scope', rows);
      account(tally.entry());
      supportFiles.push({ file: c.key, format: detected, sha256, bytes: buf.length, rows, symbol: null });
      skip(c.key, `zipline benchmark file of daily returns (${rows} rows), not prices: nothing to map`);
      return null;
    }
    format = detected;
    const yahooName = /yahoo_download_([A-Za-z0-9.^=-]+?)_/.exec(c.name)?.[1];
    switch (detected) {
      case 'stooq_csv': {
        const m = /(?:^|_)([a-z0-9.^-]+?)_us_d(?:[_.]|$)/i.exec(c.name);
        pieces = [
          parseStooqCsv(text, c.key, {
            symbol: meta?.symbol ?? m?.[1]?.toUpperCase() ?? null,
            ...options.stooq,
          }),
        ];
        source = 'stooq';
        break;
      }
      case 'yahoo_events_csv':
        pieces = [parseYahooEventsCsv(text, c.key, { symbol: meta?.symbol ?? yahooName ?? fromName })];
        source = 'yahoo';
        record = 'row';
        break;
      case 'lean_daily':
        pieces = [parseLeanDailyCsv(text, c.key, meta?.symbol ?? fromName)];
        source = 'lean';
        break;
      case 'lean_factor_file':
      case 'user_csv':
      case 'yahoo_chart':
        throw unknownFormatError(c.key, text);
      default:
        pieces = parseVendorCsv(detected, text, c.key, meta?.symbol ?? yahooName ?? fromName);
        source = detected.startsWith('quandl')
          ? 'quandl'
          : detected.startsWith('zipline')
            ? 'zipline'
            : detected.startsWith('google')
              ? 'google_finance'
              : 'yahoo';
        if (detected === 'quandl_wiki_table') symbolFrom = 'from its ticker column';
    }
  }
  return {
    key: c.key,
    path: c.path,
    buf,
    text,
    sha256,
    format,
    source,
    pieces,
    tally: new AccountingTally('prices', c.key, record),
    symbolFrom,
    sidecar,
  };
}

/**
 * Registers one parsed file: its symbols checked, it and its sidecar listed as inputs, its download instant
 * settled, and each of its pieces an entry of its instrument. A file with no symbol or no date is skipped.
 */
function registerPriceFile(raw: RawPriceFile, run: IngestRun): void {
  const { options, sink, inputSource, files, entries, listedSidecars, pieceFile, skip } = run;
  const meta = raw.sidecar?.meta ?? null;
  const named = raw.pieces.map((p) => ({ p, symbol: (meta?.symbol ?? p.symbol ?? '').toUpperCase() }));
  if (named.length === 0 || named.some((x) => x.symbol === '')) {
    skip(
      raw.key,
      named.length === 0
        ? 'no bars claimed by any Lean map file'
        : 'no symbol: name the file <sym>_us_d.csv or give "symbol" in its .meta.json sidecar',
    );
    return;
  }
  for (const x of named) checkSymbol(x.symbol, raw.key, raw.symbolFrom);
  sink.addInput({
    source: `${inputSource}:${raw.source}`,
    key: raw.key,
    sha256: raw.sha256,
    bytes: raw.buf.length,
  });
  const sidecar = raw.sidecar;
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

  const time = resolveDownloadTime(raw, meta, run);
  if (time === null) return;
  const { downloadedAt, how } = time;
  const fileIndex = files.length;
  for (const { p, symbol } of named) {
    const known: { splits: SplitEvent[]; from: string } | null = options.knownSplits?.[symbol]
      ? { splits: options.knownSplits[symbol], from: `options.knownSplits.${symbol}` }
      : meta?.splits && sidecar
        ? { splits: meta.splits.map((x) => ({ exDate: x.ex_date, ratio: x.ratio })), from: sidecar.file }
        : null;
    const where = named.length === 1 ? raw.key : `${raw.key} [${symbol}]`;
    pieceFile.set(where, raw);
    if (p.adjustment === 'split' && raw.format === 'zipline_csvdir') {
      sink.addWarning({
        code: 'PRICES_SPLIT_ALREADY_ADJUSTED',
        message: `${where}: the bars are already divided by the split column's splits (${p.splits.map((s) => `${s.ratio}:1 ex ${s.exDate}`).join(', ')}: the close barely moves across the ex-date), yet the file still lists them; read as split-adjusted, the splits undone once to give prices as traded`,
        count: 1,
      });
    }
    entries.push({
      download: {
        parsed: p,
        downloadedAt,
        sourceRef: raw.sha256,
        where,
        ...(known ? { knownSplits: known.splits, knownSplitsFrom: known.from } : {}),
      },
      symbol,
      kind: options.kinds?.[symbol] ?? meta?.kind ?? yahooKind(p.instrumentType, symbol),
      source: meta?.source ?? raw.source,
      meta,
      file: fileIndex,
      assumed: how === 'market_time' || how === 'last_bar',
    });
  }
  files.push({
    file: raw.key,
    sha256: raw.sha256,
    bytes: raw.buf.length,
    format: raw.format,
    symbol: named[0].symbol,
    symbols: [...new Set(named.map((x) => x.symbol))],
    downloadedAt: microsToIso(downloadedAt),
    downloadedAtSource: how,
    bars: raw.pieces.reduce((n, p) => n + p.bars.length, 0),
  });
}

/** A file's download instant and how it was found: the option, its sidecar, a date in its name, Yahoo's
 * market time, else (assumed) its latest bar; null, after a skip warning, when nothing dates it. */
function resolveDownloadTime(
  raw: RawPriceFile,
  meta: PriceDownloadMeta | null,
  run: IngestRun,
): { downloadedAt: Micros; how: DownloadTimeSource } | null {
  const { options, skip } = run;
  let downloadedAt: Micros;
  let how: DownloadTimeSource;
  const fromName = FILE_NAME_DATE.exec(raw.key)?.[1];
  const marketTime = raw.pieces.find((p) => p.marketTimeMicros !== null)?.marketTimeMicros ?? null;
  if (options.downloadedAt?.[raw.key]) {
    downloadedAt = downloadInstant(options.downloadedAt[raw.key], `downloadedAt[${raw.key}]`);
    how = 'option';
  } else if (meta?.downloaded_at || meta?.download_date) {
    downloadedAt = downloadInstant(
      (meta.downloaded_at ?? meta.download_date)!,
      `${raw.key}.meta.json ${meta.downloaded_at ? 'downloaded_at' : 'download_date'}`,
    );
    how = 'sidecar';
  } else if (fromName) {
    downloadedAt = downloadInstant(fromName, `${raw.key}: download date in the file name`);
    how = 'file_name';
  } else if (marketTime !== null) {
    downloadedAt = marketTime;
    how = 'market_time';
  } else {
    // The whole file's latest bar (a Lean file's pieces share its download).
    const lastBar = latestBarDate({
      bars: raw.pieces.flatMap((p) => p.bars),
      splits: raw.pieces.flatMap((p) => p.splits),
      dividends: raw.pieces.flatMap((p) => p.dividends),
    });
    if (lastBar === undefined) {
      skip(raw.key, 'no bars and no download date; give "download_date" in its .meta.json sidecar');
      return null;
    }
    downloadedAt = endOfDayMicros(lastBar, raw.pieces[0].timeZone);
    how = 'last_bar';
  }
  return { downloadedAt, how };
}

/**
 * A Lean security's splits and dividends come from its factor file: an events-only download, dated with
 * the latest download of the security's bars, whose sha256 is the actions' source_ref.
 */
function addLeanFactorEntries(
  leanFactors: Map<string, { key: string; sha256: string; symbol: string; rows: LeanFactorRow[] }>,
  entries: PriceEntry[],
): void {
  for (const [symbol, f] of leanFactors) {
    const mine = entries.filter((e) => e.symbol === symbol && e.download.parsed.format === 'lean_daily');
    if (mine.length === 0) continue;
    const dates = [...new Set(mine.flatMap((e) => e.download.parsed.bars.map((b) => b.date)))].sort();
    const exDateAfter = (date: string): string => {
      let lo = 0;
      let hi = dates.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (dates[mid] > date) hi = mid;
        else lo = mid + 1;
      }
      return lo < dates.length ? dates[lo] : nextUsTradingDay(date);
    };
    const { splits, dividends } = leanFactorEvents(f.rows, exDateAfter);
    entries.push({
      download: {
        parsed: {
          format: 'lean_factor_file',
          symbol,
          currency: 'USD',
          timeZone: 'America/New_York',
          instrumentType: null,
          name: null,
          bars: [],
          splits,
          dividends,
          splitsListed: true,
          adjustment: 'none',
          marketTimeMicros: null,
          issues: [],
        },
        downloadedAt: Math.max(...mine.map((e) => e.download.downloadedAt)),
        sourceRef: f.sha256,
        where: f.key,
      },
      symbol,
      kind: mine[0].kind,
      source: 'lean',
      meta: null,
      file: null,
      assumed: false,
    });
  }
}

/** Groups the entries into instruments (symbol × vendor-adjusted or recoverable) and maps each. */
function mapPriceInstruments(
  run: IngestRun,
): Pick<IngestPricesResult, 'instruments' | 'vendorAdjustedSeriesIds'> {
  const { options, sink, files, entries, pieceFile } = run;
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
        source: group.find((e) => e.file !== null)?.source ?? first.source,
        name: group.find((e) => e.meta?.name)?.meta?.name ?? null,
        entityId: group.find((e) => e.meta?.entity_id)?.meta?.entity_id,
        currency: group.find((e) => e.meta?.currency)?.meta?.currency ?? null,
      },
    );
    instruments.push(result);
    for (const id of result.seriesIds)
      if (result.seriesFlags[id].vendor_adjustment === 'split_dividend') vendorAdjustedSeriesIds.push(id);
    // Accounting: each bar kept by the quality check is mapped; a dropped bar counts under its first reason.
    for (const { where, report } of result.quality) {
      const raw = pieceFile.get(where);
      if (raw === undefined) continue;
      if (raw.tally.record === 'row') continue;
      accountBars(raw.tally, report);
    }
  }
  return { instruments, vendorAdjustedSeriesIds };
}

/**
 * Reads the Lean map and factor files beside Lean daily files and splits each daily file among the
 * securities that traded under its ticker (docs/decisions/0044): a bar of ticker T on date d belongs to the
 * security whose map file says it traded as T on d (`leanTickerOn`). A ticker no map file names is one
 * security (warned: a reused ticker cannot be told apart); a bar of a mapped ticker no map file claims on
 * its date is dropped (`outside_map_file`), as is one two map files claim (`ambiguous_map_file`). Map and
 * factor files of securities with bars become inputs with accounting entries; the others are skipped.
 * Returns each used security's factor rows by symbol.
 */
function readLeanSupport(
  dir: string,
  names: string[],
  lean: RawPriceFile[],
  sink: AtomicSink,
  inputSource: string,
  skip: (file: string, reason: string) => void,
  account: (entry: IngestAccounting) => void,
  supportFiles: IngestedSupportFile[],
): Map<string, { key: string; sha256: string; symbol: string; rows: LeanFactorRow[] }> {
  const readFolder = (candidates: string[]) => {
    const sub = candidates.find((d) => names.includes(d) && isDir(join(dir, d)));
    if (sub === undefined) return [];
    return listDir(join(dir, sub))
      .filter((f) => /\.csv$/i.test(f) && !f.startsWith('.'))
      .map((f) => {
        const buf = readFileSync(join(dir, sub, f));
        return {
          key: `${sub}/${f}`,
          name: f.replace(/\.csv$/i, '').toLowerCase(),
          buf,
          sha256: createHash('sha256').update(buf).digest('hex'),
        };
      });
  };
  const mapRaw = readFolder(LEAN_MAP_DIRS);
  const factorRaw = readFolder(LEAN_FACTOR_DIRS);
  const maps = mapRaw.map((m) => ({ raw: m, map: parseLeanMapFile(m.buf.toString('utf8'), m.key, m.name) }));
  const mapped = new Set(maps.flatMap((m) => m.map.rows.map((r) => r.ticker)));
  const used = new Map<string, (typeof maps)[number]>();
  const symbols = new Map<string, string>();
  for (const m of maps) {
    const symbol = leanSecuritySymbol(m.map);
    const other = symbols.get(symbol);
    if (other !== undefined) {
      throw new InputError(
        'LEAN_SECURITY_SYMBOL_CLASH',
        `${m.raw.key} and ${other}: two Lean securities would both be ${symbol}; number the retired one's map file (<ticker>.1.csv), as Lean does`,
        { context: { files: [m.raw.key, other] } },
      );
    }
    symbols.set(symbol, m.raw.key);
  }
  const bySymbolNoMap = new Map<string, string>();
  for (const raw of lean) {
    const parsed = raw.pieces[0];
    const ticker = (parsed.symbol ?? '').toUpperCase();
    if (!mapped.has(ticker)) {
      if (maps.length > 0 || ticker !== '') {
        sink.addWarning({
          code: 'PRICES_LEAN_NO_MAP_FILE',
          message: `${raw.key}: no Lean map file names the ticker ${ticker || '(none)'}, so its bars are read as one security; a ticker reused by another company (Lean's fb.1 of 1999-2003 and the FB of 2012) cannot be told apart. Add its map_files/<ticker>.csv`,
          count: 1,
        });
      }
      bySymbolNoMap.set(ticker, raw.key);
      continue;
    }
    const pieces = new Map<string, PriceBar[]>();
    let outside = 0;
    let ambiguous = 0;
    let firstOutside: string | null = null;
    for (const bar of parsed.bars) {
      const owners = maps.filter((m) => leanTickerOn(m.map, bar.date) === ticker);
      if (owners.length === 1) {
        const symbol = leanSecuritySymbol(owners[0].map);
        used.set(symbol, owners[0]);
        pieces.set(symbol, [...(pieces.get(symbol) ?? []), bar]);
      } else if (owners.length === 0) {
        outside++;
        firstOutside ??= bar.date;
      } else ambiguous++;
    }
    raw.tally.drop('outside_map_file', outside);
    raw.tally.drop('ambiguous_map_file', ambiguous);
    if (outside + ambiguous > 0) {
      sink.addWarning({
        code: 'PRICES_LEAN_UNMAPPED_BARS',
        message: `${raw.key}: ${outside} bar(s) of ${ticker} on dates no map file gives that ticker (first ${firstOutside ?? '-'})${ambiguous > 0 ? ` and ${ambiguous} that two map files claim` : ''} were dropped`,
        count: outside + ambiguous,
      });
    }
    raw.pieces = [...pieces].map(([symbol, bars]) => ({ ...parsed, symbol, bars }));
  }
  for (const m of maps) {
    const symbol = leanSecuritySymbol(m.map);
    if (!used.has(symbol)) {
      skip(m.raw.key, `Lean map file of ${symbol}: no Lean daily file here has bars of it`);
      continue;
    }
    sink.addInput({
      source: `${inputSource}:lean_map`,
      key: m.raw.key,
      sha256: m.raw.sha256,
      bytes: m.raw.buf.length,
    });
    const tally = new AccountingTally('prices', m.raw.key, 'row');
    tally.map(m.map.rows.length);
    account(tally.entry());
    supportFiles.push({
      file: m.raw.key,
      format: 'lean_map_file',
      sha256: m.raw.sha256,
      bytes: m.raw.buf.length,
      rows: m.map.rows.length,
      symbol,
    });
  }
  const factors = new Map<string, { key: string; sha256: string; symbol: string; rows: LeanFactorRow[] }>();
  const factorOf = new Map<string, string>();
  for (const [symbol, m] of used) factorOf.set(m.map.name, symbol);
  for (const [ticker] of bySymbolNoMap) factorOf.set(ticker.toLowerCase(), ticker);
  for (const f of factorRaw) {
    const symbol = factorOf.get(f.name);
    if (symbol === undefined) {
      skip(f.key, 'Lean factor file of a security without bars here');
      continue;
    }
    const rows = parseLeanFactorFile(f.buf.toString('utf8'), f.key);
    sink.addInput({
      source: `${inputSource}:lean_factor`,
      key: f.key,
      sha256: f.sha256,
      bytes: f.buf.length,
    });
    const tally = new AccountingTally('prices', f.key, 'row');
    tally.map(rows.length);
    account(tally.entry());
    supportFiles.push({
      file: f.key,
      format: 'lean_factor_file',
      sha256: f.sha256,
      bytes: f.buf.length,
      rows: rows.length,
      symbol,
    });
    factors.set(symbol, { key: f.key, sha256: f.sha256, symbol, rows });
  }
  for (const symbol of [...used.keys(), ...bySymbolNoMap.keys()]) {
    if (!factors.has(symbol)) {
      sink.addWarning({
        code: 'PRICES_LEAN_NO_FACTOR_FILE',
        message: `${symbol}: no Lean factor file, so none of its splits and dividends are known (its bars are as traded all the same); add factor_files/<name>.csv`,
        count: 1,
      });
    }
  }
  return factors;
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
    if (e.file === null) return;
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
    for (const { where, report } of inst.quality)
      rows.push(priceQualityRow(inst.symbol, family, where, report));
  }
  return rows;
}

/** The price-quality summary row of one download (file) of one instrument. */
export function priceQualityRow(
  symbol: string,
  family: PriceQualitySummaryRow['family'],
  where: string,
  report: BarQualityReport,
): PriceQualitySummaryRow {
  return {
    symbol,
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
  };
}
