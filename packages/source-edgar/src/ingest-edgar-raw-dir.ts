import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AtomicSink, InputError } from '@asof/schema';
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

/**
 * Offline replay: reads `companyfacts*.json`, `submissions*.json` (main documents and overflow pages,
 * e.g. `CIK0001318605-submissions-001.json`) and `company_tickers.json` from `dir`, lists each as a raw
 * input by sha256, and runs the same parser as the live path.
 */
export async function ingestEdgarRawDir(
  dir: string,
  sink: AtomicSink,
  options: IngestEdgarRawDirOptions = {},
): Promise<EdgarIngestSummary> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.json')).sort();
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
  const files: EdgarRawFile[] = [];
  for (const name of names) files.push(edgarRawFile(dir, name, await readFile(join(dir, name))));
  return ingestEdgarRawFiles(files, sink, { ...options, where: dir });
}

/** One raw file of an EDGAR folder: its JSON, sha256 and size, or EDGAR_BAD_JSON naming it. */
export function edgarRawFile(dir: string, name: string, buf: Buffer): EdgarRawFile {
  let json: unknown;
  try {
    json = JSON.parse(buf.toString('utf8'));
  } catch (cause) {
    throw new InputError(
      'EDGAR_BAD_JSON',
      `${name} in ${dir} is not valid JSON; re-download it or remove it`,
      {
        context: { file: name, dir },
        cause,
      },
    );
  }
  return { name, json, sha256: createHash('sha256').update(buf).digest('hex'), bytes: buf.length };
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
  const facts = new Map<string, EdgarRawCompany['companyfacts']>();
  const subs = new Map<string, NonNullable<EdgarRawCompany['submissions']>>();
  const pages = new Map<string, NonNullable<EdgarRawCompany['pages']>>();
  let tickerIndex: Map<string, TickerEntry> | null = null;
  // Sorted by name so that inputs, warnings and rows do not depend on the order files were listed in.
  const ordered = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, json, sha256, bytes } of ordered) {
    const obj = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
    const page = PAGE_NAME.exec(name);
    if (/company_tickers/i.test(name)) {
      tickerIndex = parseCompanyTickers(json, name);
    } else if (page && !('filings' in obj)) {
      const cik = page[1];
      const list = pages.get(cik) ?? [];
      list.push({ where: name, json, name: `CIK${cik}-submissions-${page[2]}.json` });
      pages.set(cik, list);
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
      facts.set(cik, { where: name, json });
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
  for (const [cik, cf] of facts) {
    if (wanted && !wanted.has(cik)) continue;
    const sub = subs.get(cik);
    const subTickers = (sub?.json as { tickers?: unknown } | undefined)?.tickers;
    const subTicker =
      Array.isArray(subTickers) && typeof subTickers[0] === 'string' ? subTickers[0] : undefined;
    companies.push({
      companyfacts: cf,
      submissions: sub ?? null,
      pages: pages.get(cik) ?? [],
      ticker: tickerOf.get(cik) ?? subTicker ?? null,
    });
  }
  return ingestEdgarPayloads(companies, sink, options);
}
