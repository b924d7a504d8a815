import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AccountingTally, type AtomicSink, InputError } from '@asof/schema';
import { parseCompanyTickers, type TickerEntry } from './company-tickers-payload.ts';
import {
  type EdgarIngestSummary,
  type EdgarRawCompany,
  type IngestEdgarOptions,
  ingestEdgarPayloads,
} from './ingest-edgar-payloads.ts';

export interface IngestEdgarRawDirOptions extends IngestEdgarOptions {
  /** Keep only these tickers (resolved through company_tickers.json in the directory). */
  tickers?: string[];
}

const PAGE_NAME = /CIK(\d{10})-submissions-(\d{3})/i;

function cikOf(json: unknown): string | null {
  const cik = (json as { cik?: unknown } | null)?.cik;
  return typeof cik === 'number' || (typeof cik === 'string' && /^\d{1,10}$/.test(cik))
    ? String(cik).padStart(10, '0')
    : null;
}

/**
 * Resolves tickers to CIKs, failing with the unknown ones named (tickers are not secret). A CIK given
 * directly (`320193` or `CIK0000320193`) is accepted as is, for companies without a listed ticker.
 */
export function resolveTickers(
  tickers: string[],
  index: Map<string, TickerEntry>,
  where: string,
): TickerEntry[] {
  const unknown: string[] = [];
  const out: TickerEntry[] = [];
  const byCik = new Map([...index.values()].map((e) => [e.cik, e]));
  for (const t of tickers) {
    const key = t.trim().toUpperCase();
    const cik = /^(?:CIK)?(\d{1,10})$/.exec(key)?.[1]?.padStart(10, '0');
    const e = cik ? (byCik.get(cik) ?? { cik, ticker: `CIK${cik}`, title: `CIK ${cik}` }) : index.get(key);
    if (e) out.push(e);
    else unknown.push(t);
  }
  if (unknown.length > 0) {
    throw new InputError(
      'EDGAR_UNKNOWN_TICKER',
      `ticker(s) ${unknown.join(', ')} not found in ${where}; expected SEC tickers such as AAPL or BRK-B. ` +
        'Fix: check the spelling, or pass the company by a ticker listed in company_tickers.json.',
      { context: { where, unknown } },
    );
  }
  return out;
}

/** One raw file: its name (for classification and messages), parsed body and content hash. */
export interface EdgarRawFile {
  name: string;
  json: unknown;
  sha256: string;
  bytes: number;
}

/** File names an EDGAR folder may hold: JSON, plain or gzip-compressed as archives keep large files. */
const RAW_NAME = /\.json(\.gz)?$/i;

/**
 * Offline replay: reads `companyfacts*.json`, `submissions*.json` (main documents and overflow pages,
 * e.g. `CIK0001318605-submissions-001.json`) and `company_tickers.json` from `dir`, plain or as
 * `.json.gz`, lists each as a raw input by sha256 of its bytes as stored, and runs the same parser as the
 * live path. Archive names such as `companyfacts_CIK0000320193_AAPL_vintage2021-07_full.json` qualify.
 */
export async function ingestEdgarRawDir(
  dir: string,
  sink: AtomicSink,
  options: IngestEdgarRawDirOptions = {},
): Promise<EdgarIngestSummary> {
  let names: string[];
  let others: string[];
  try {
    const all = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
    names = all.filter((n) => RAW_NAME.test(n));
    others = all.filter((n) => !RAW_NAME.test(n));
  } catch (cause) {
    throw new InputError(
      'EDGAR_RAW_DIR',
      `cannot read EDGAR raw directory ${dir}; expected a directory of SEC JSON files`,
      {
        context: { dir },
        cause,
      },
    );
  }
  // Files of other kinds (a Financial Statement Data Sets zip, notes) are not read, and the build says so.
  if (others.length > 0) {
    sink.addWarning({
      code: 'EDGAR_RAW_FILE_IGNORED',
      message: `${others.length} file(s) in ${dir} are not SEC JSON (.json or .json.gz) and were not read: ${others.join(', ')}`,
      count: others.length,
    });
  }
  const files: EdgarRawFile[] = [];
  for (const name of names) files.push(edgarRawFile(dir, name, await readFile(join(dir, name))));
  return ingestEdgarRawFiles(files, sink, { ...options, where: dir });
}

/**
 * One raw file of an EDGAR folder: its JSON, sha256 and size (of the bytes as stored), or EDGAR_BAD_JSON
 * naming it. A gzip body (magic bytes 1f 8b, whatever the name says) is read through gunzip.
 */
export function edgarRawFile(dir: string, name: string, buf: Buffer): EdgarRawFile {
  let json: unknown;
  try {
    const text = buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf;
    json = JSON.parse(text.toString('utf8'));
  } catch (cause) {
    throw new InputError(
      'EDGAR_BAD_JSON',
      `${name} in ${dir} is not valid JSON (or not valid gzip of JSON); re-download it or remove it`,
      {
        context: { file: name, dir },
        cause,
      },
    );
  }
  return { name, json, sha256: createHash('sha256').update(buf).digest('hex'), bytes: buf.length };
}

/** The rows of a submissions column (its accession numbers); 0 when the column is absent. */
function rowsOf(column: unknown): number {
  return Array.isArray(column) ? column.length : 0;
}

/**
 * Classifies raw files by name first and content second (so cache-style names `CIK##########.json`
 * work too), groups them by CIK and ingests them. Shared by the directory replay and the synthetic data.
 */
export function ingestEdgarRawFiles(
  files: EdgarRawFile[],
  sink: AtomicSink,
  options: IngestEdgarRawDirOptions & { where?: string } = {},
): EdgarIngestSummary {
  const where = options.where ?? 'raw files';
  // A company may have several downloads (vintages) in one folder: all are read, as one union.
  const facts = new Map<string, EdgarRawCompany['companyfacts'][]>();
  const subs = new Map<string, NonNullable<EdgarRawCompany['submissions']>>();
  const pages = new Map<string, NonNullable<EdgarRawCompany['pages']>>();
  let tickerIndex: Map<string, TickerEntry> | null = null;
  // Index files (submissions, their pages, company_tickers.json): every row is read as an index entry that
  // dates facts or resolves a ticker, so all are mapped; a superseded second download of one index is not.
  const indexTallies = new Map<string, AccountingTally>();
  const indexTally = (name: string, record: string, rows: number) => {
    const t = new AccountingTally('edgar', name, record);
    t.map(rows);
    indexTallies.set(name, t);
  };
  // Sorted by name so that inputs, warnings and rows do not depend on the order files were listed in.
  const ordered = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, json, sha256, bytes } of ordered) {
    const obj = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
    const page = PAGE_NAME.exec(name);
    if (/company_tickers/i.test(name)) {
      tickerIndex = parseCompanyTickers(json, name);
      // One record per row of the file (the index also holds each dashed ticker's dotted spelling).
      indexTally(name, 'ticker', Object.keys(obj).length);
    } else if (page && !('filings' in obj)) {
      const cik = page[1];
      const list = pages.get(cik) ?? [];
      list.push({ where: name, json, name: `CIK${cik}-submissions-${page[2]}.json` });
      pages.set(cik, list);
      indexTally(name, 'filing', rowsOf((obj as { accessionNumber?: unknown }).accessionNumber));
    } else if ('facts' in obj || /^companyfacts/i.test(name)) {
      const cik = cikOf(json);
      if (cik === null) {
        throw new InputError(
          'EDGAR_BAD_COMPANYFACTS',
          `${name}: companyfacts without a cik field; re-download it`,
          {
            context: { file: name },
          },
        );
      }
      facts.set(cik, [...(facts.get(cik) ?? []), { where: name, json }]);
    } else if ('filings' in obj || /^submissions/i.test(name)) {
      const cik = cikOf(json);
      if (cik === null) {
        throw new InputError(
          'EDGAR_BAD_SUBMISSIONS',
          `${name}: submissions without a cik field; re-download it`,
          {
            context: { file: name },
          },
        );
      }
      const prev = subs.get(cik);
      const recent = (obj.filings as { recent?: { accessionNumber?: unknown } } | undefined)?.recent;
      indexTally(name, 'filing', rowsOf(recent?.accessionNumber));
      if (prev) {
        const old = indexTallies.get(prev.where)!.entry();
        const t = new AccountingTally('edgar', prev.where, 'filing');
        t.drop('superseded_by_later_download', old.read);
        indexTallies.set(prev.where, t);
        // Two downloads of one index: the later name (for archive names, the later vintage) is kept.
        sink.addWarning({
          code: 'EDGAR_SUBMISSIONS_DUPLICATE',
          message: `${where} holds two submissions files for CIK ${cik}: ${name} is read, ${prev.where} ignored`,
          count: 1,
        });
      }
      subs.set(cik, { where: name, json });
    } else {
      sink.addWarning({
        code: 'EDGAR_RAW_FILE_IGNORED',
        message: `${name} in ${where} is not an EDGAR file asof reads`,
        count: 1,
      });
      continue;
    }
    sink.addInput({ source: 'edgar', key: name, sha256, bytes });
  }

  let wanted: Set<string> | null = null;
  const tickerOf = new Map<string, string>();
  if (options.tickers && options.tickers.length > 0) {
    if (!tickerIndex) {
      throw new InputError(
        'EDGAR_NO_TICKERS_FILE',
        `--tickers needs company_tickers.json in ${where} to resolve tickers to CIKs; add it or drop --tickers`,
        { context: { where } },
      );
    }
    const resolved = resolveTickers(options.tickers, tickerIndex, `${where}/company_tickers.json`);
    wanted = new Set(resolved.map((e) => e.cik));
    for (const e of resolved) tickerOf.set(e.cik, e.ticker);
    const absent = resolved.filter((e) => !facts.has(e.cik));
    if (absent.length > 0) {
      throw new InputError(
        'EDGAR_RAW_MISSING',
        `no companyfacts file in ${where} for ${absent.map((e) => `${e.ticker} (CIK ${e.cik})`).join(', ')}; ` +
          'fetch it (asof ingest edgar --tickers …) or drop the ticker',
        { context: { where, missing: absent.map((e) => e.ticker) } },
      );
    }
  } else if (tickerIndex) {
    for (const e of new Set(tickerIndex.values())) if (!tickerOf.has(e.cik)) tickerOf.set(e.cik, e.ticker);
  }

  const companies: EdgarRawCompany[] = [];
  for (const [cik, [cf, ...more]] of facts) {
    if (wanted && !wanted.has(cik)) continue;
    const sub = subs.get(cik);
    const subTickers = (sub?.json as { tickers?: unknown } | undefined)?.tickers;
    const subTicker =
      Array.isArray(subTickers) && typeof subTickers[0] === 'string' ? subTickers[0] : undefined;
    companies.push({
      companyfacts: cf,
      moreCompanyfacts: more,
      submissions: sub ?? null,
      pages: pages.get(cik) ?? [],
      ticker: tickerOf.get(cik) ?? subTicker ?? null,
    });
  }
  // The filing index of a company whose companyfacts are not in the folder dates nothing: its rows are dropped
  // (and warned about through the accounting), not counted as used.
  const unused = [
    ...[...subs].filter(([cik]) => !facts.has(cik)).map(([, sub]) => sub.where),
    ...[...pages].filter(([cik]) => !facts.has(cik)).flatMap(([, list]) => list.map((p) => p.where)),
  ];
  for (const name of unused) {
    const t = new AccountingTally('edgar', name, 'filing');
    t.drop('no_companyfacts', indexTallies.get(name)!.entry().read);
    indexTallies.set(name, t);
  }
  for (const name of [...indexTallies.keys()].sort()) sink.addAccounting(indexTallies.get(name)!.entry());
  return ingestEdgarPayloads(companies, sink, options);
}
