import { checkIsoDate, endOfDayMicros, isoToMicros } from '@asof/calendar';
import type { Manifest, Micros } from '@asof/schema';
import {
  isStooqCsv,
  isYahooDownloadCsv,
  isYahooEventsCsv,
  MEMBERSHIP_INPUT,
  PriceDownloadMeta,
  type PriceQualitySummaryRow,
} from '@asof/source-prices';
import type { RawFile } from './update-plan.ts';

/** One raw price file as an update sees it without parsing it: format, symbol, family, sidecar, dates. */
export interface PriceFileInfo {
  name: string;
  sha256: string;
  bytes: number;
  format: 'yahoo_chart' | 'stooq_csv' | 'yahoo_csv' | 'yahoo_events_csv';
  /** Series family: `px` (as traded, recoverable) or `pxadj` (vendor-adjusted Stooq history). */
  family: 'px' | 'pxadj';
  symbol: string;
  sidecar: { name: string; sha256: string; bytes: number; meta: PriceDownloadMeta } | null;
  /** The recorded download instant (sidecar or a dl-YYYY-MM-DD name); null when the reader would assume one. */
  downloadedAt: Micros | null;
  /** The exchange zone as the file's head says (Yahoo charts), else the reader's default. */
  timeZone: string | null;
}

/** A price instrument (one symbol, both families) and what the update does with it. */
export interface PriceEntity {
  symbol: string;
  /** Files now (data files; their sidecars are in `info.sidecar`). */
  files: PriceFileInfo[];
  /** OLD's files of the symbol (from OLD's price-quality rows), with OLD's hashes. */
  oldFiles: { name: string; family: 'px' | 'pxadj' }[];
  action: 'reuse' | 'append' | 'reread' | 'removed';
  /** For 'append': the files OLD did not read. */
  added: PriceFileInfo[];
}

export interface PriceEntityPlan {
  entities: PriceEntity[];
  /** OLD's warnings by symbol (attributed by the file, series or symbol each message starts with). */
  oldWarnings: Map<string, Manifest['warnings']>;
  /** OLD's price-quality rows by symbol. */
  oldQuality: Map<string, PriceQualitySummaryRow[]>;
}

const FILE_NAME_DATE = /(?:^|[_.-])(?:dl|downloaded|asof)[-_@]?(\d{4}-\d{2}-\d{2})(?=[_.-]|$)/i;

/** As the prices reader reads a recorded download time: an instant, or a date's end in New York. */
function downloadInstant(value: string, where: string): Micros {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? endOfDayMicros(checkIsoDate(value, where), 'America/New_York')
    : isoToMicros(value, where);
}

/** The sidecar the prices reader would take for `file` (`<file>.meta.json`, else `<stem>.meta.json`). */
function sidecarOf(file: string, files: ReadonlyMap<string, RawFile>, readText: (name: string) => string) {
  const stem = file.replace(/\.(json|csv)$/i, '');
  for (const candidate of [`${file}.meta.json`, `${stem}.meta.json`]) {
    const f = files.get(candidate);
    if (f === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(readText(candidate));
    } catch {
      return undefined;
    }
    const parsed = PriceDownloadMeta.safeParse(json);
    return parsed.success
      ? { name: candidate, sha256: f.sha256, bytes: f.bytes, meta: parsed.data }
      : undefined;
  }
  return null;
}

/**
 * Reads what an update needs to know of each price file cheaply (sidecar, name, the head of the file).
 * A file whose format or symbol this cannot tell is returned in `unknown`: the reader may skip it or read
 * its symbol from the body, so the prices source is then read again in full.
 */
export function classifyPriceFiles(
  files: ReadonlyMap<string, RawFile>,
  readText: (name: string) => string,
): { infos: PriceFileInfo[]; unknown: string[] } {
  const infos: PriceFileInfo[] = [];
  const unknown: string[] = [];
  for (const f of files.values()) {
    if (f.name.endsWith('.meta.json')) continue;
    const lower = f.name.toLowerCase();
    const format = lower.endsWith('.json')
      ? 'yahoo_chart'
      : isStooqCsv(f.head)
        ? 'stooq_csv'
        : isYahooDownloadCsv(f.head)
          ? 'yahoo_csv'
          : isYahooEventsCsv(f.head)
            ? 'yahoo_events_csv'
            : null;
    const sidecar = sidecarOf(f.name, files, readText);
    if (format === null || sidecar === undefined) {
      unknown.push(f.name);
      continue;
    }
    const fromName =
      format === 'stooq_csv'
        ? /(?:^|_)([a-z0-9.^-]+?)_us_d(?:[_.]|$)/i.exec(f.name)?.[1]
        : format === 'yahoo_chart'
          ? /"symbol"\s*:\s*"([^"]+)"/.exec(f.head)?.[1]
          : /yahoo_download_([A-Za-z0-9.^=-]+?)_/.exec(f.name)?.[1];
    const symbol = (sidecar?.meta.symbol ?? fromName ?? '').toUpperCase();
    if (symbol === '') {
      unknown.push(f.name);
      continue;
    }
    const recorded =
      sidecar?.meta.downloaded_at ?? sidecar?.meta.download_date ?? FILE_NAME_DATE.exec(f.name)?.[1];
    let downloadedAt: Micros | null = null;
    try {
      downloadedAt = recorded === undefined ? null : downloadInstant(recorded, f.name);
    } catch {
      unknown.push(f.name);
      continue;
    }
    infos.push({
      name: f.name,
      sha256: f.sha256,
      bytes: f.bytes,
      format,
      family: format === 'stooq_csv' ? 'pxadj' : 'px',
      symbol,
      sidecar,
      downloadedAt,
      timeZone:
        format === 'yahoo_chart'
          ? (/"exchangeTimezoneName"\s*:\s*"([^"]+)"/.exec(f.head)?.[1] ?? null)
          : 'America/New_York',
    });
  }
  return { infos, unknown };
}

/**
 * The symbol an OLD prices warning is about, from how the prices reader words them: a message starts with
 * the file it concerns (`<file>: …`), a series id (`px:AAPL:close at …`) or the symbol (`AAPL (stooq): …`,
 * `AAPL dividend ex …`). Null when it starts with none of them.
 */
function warningSymbol(
  message: string,
  fileSymbol: Map<string, string>,
  symbols: Set<string>,
): string | null {
  const colon = message.indexOf(': ');
  if (colon > 0 && fileSymbol.has(message.slice(0, colon))) return fileSymbol.get(message.slice(0, colon))!;
  const series = /^(?:px|pxadj):([^:\s]+):[a-z]+ /.exec(message);
  if (series && symbols.has(series[1])) return series[1];
  const first = message.split(' ', 1)[0];
  return symbols.has(first) ? first : null;
}

/**
 * Decides per instrument: OLD's files unchanged and none added → reuse; OLD's files unchanged and new
 * ones added → append (update-price-append.ts checks the rest); else read again. Null when OLD's
 * prices warnings or files cannot be attributed to instruments (the source is then read again in full).
 */
export function planPriceEntities(
  old: Manifest,
  files: ReadonlyMap<string, RawFile>,
  readText: (name: string) => string,
): PriceEntityPlan | null {
  const { infos, unknown } = classifyPriceFiles(files, readText);
  if (unknown.length > 0) return null;
  const quality = ((old.summary as { price_quality?: PriceQualitySummaryRow[] }).price_quality ?? []).slice();
  const oldInputs = new Map(
    old.inputs
      .filter((i) => i.source.startsWith('prices:') && i.source !== MEMBERSHIP_INPUT)
      .map((i) => [i.key, i.sha256] as const),
  );
  const fileSymbol = new Map<string, string>();
  const oldQuality = new Map<string, PriceQualitySummaryRow[]>();
  const oldFiles = new Map<string, { name: string; family: 'px' | 'pxadj' }[]>();
  for (const q of quality) {
    fileSymbol.set(q.file, q.symbol);
    oldQuality.set(q.symbol, [...(oldQuality.get(q.symbol) ?? []), q]);
    oldFiles.set(q.symbol, [...(oldFiles.get(q.symbol) ?? []), { name: q.file, family: q.family }]);
  }
  // Every OLD data input must be some instrument's download (else it is not a file we can attribute).
  for (const [key, _] of oldInputs) {
    if (!key.endsWith('.meta.json') && !fileSymbol.has(key)) return null;
  }
  const symbols = new Set(oldQuality.keys());
  const oldWarnings = new Map<string, Manifest['warnings']>();
  for (const w of old.warnings) {
    if (!w.code.startsWith('PRICES_')) continue;
    if (w.code === 'PRICES_FILE_SKIPPED') return null;
    const symbol = warningSymbol(w.message, fileSymbol, symbols);
    if (symbol === null) return null;
    oldWarnings.set(symbol, [...(oldWarnings.get(symbol) ?? []), w]);
  }
  const bySymbol = new Map<string, PriceFileInfo[]>();
  for (const f of infos) bySymbol.set(f.symbol, [...(bySymbol.get(f.symbol) ?? []), f]);
  const entities: PriceEntity[] = [];
  for (const symbol of [...new Set([...bySymbol.keys(), ...symbols])].sort()) {
    const now = bySymbol.get(symbol) ?? [];
    const before = oldFiles.get(symbol) ?? [];
    // The same bytes and the same sidecar as OLD read (a sidecar added, removed or changed changes the file).
    const unchanged = (f: PriceFileInfo) => {
      const stem = f.name.replace(/\.(json|csv)$/i, '');
      const oldSidecar = [`${f.name}.meta.json`, `${stem}.meta.json`].find((n) => oldInputs.has(n)) ?? null;
      return (
        oldInputs.get(f.name) === f.sha256 &&
        oldSidecar === (f.sidecar?.name ?? null) &&
        (f.sidecar === null || oldInputs.get(f.sidecar.name) === f.sidecar.sha256)
      );
    };
    const nowByName = new Map(now.map((f) => [f.name, f]));
    const keptAll = before.every((b) => {
      const f = nowByName.get(b.name);
      return f !== undefined && unchanged(f) && f.family === b.family;
    });
    // Files OLD did not read for this symbol; one OLD read for another symbol (its sidecar changed) is no
    // new download, so the instrument is read again.
    const added = now.filter((f) => !before.some((b) => b.name === f.name));
    const moved = added.some((f) => oldInputs.has(f.name));
    let action: PriceEntity['action'];
    if (now.length === 0) action = 'removed';
    else if (before.length === 0 || !keptAll || moved) action = 'reread';
    else action = added.length === 0 ? 'reuse' : 'append';
    entities.push({ symbol, files: now, oldFiles: before, action, added });
  }
  return { entities, oldWarnings, oldQuality };
}
