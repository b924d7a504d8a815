import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AtomicSink, Manifest } from '@asof/schema';
import {
  type EdgarIngestSummary,
  type EdgarRawFile,
  edgarRawFile,
  ingestEdgarRawFiles,
} from '@asof/source-edgar';
import type { RawFile } from './update-plan.ts';

/**
 * EDGAR raw folders per company: every file but company_tickers.json names its company (`…CIK##########…`),
 * and a company's rows, warnings and inputs come from its own files alone (ingestEdgarRawFiles maps each
 * company on its own). A company whose files are OLD's is reused; one with a new or changed file is read
 * again. Null when a file or an OLD warning names no single company, or company_tickers.json changed:
 * then the whole folder is read again.
 */
export interface EdgarCompanyPlan {
  reuse: string[];
  reread: string[];
  removed: string[];
  /** Current files per CIK. */
  files: Map<string, string[]>;
  tickers: string | null;
  oldWarnings: Map<string, Manifest['warnings']>;
}

const CIK_IN_NAME = /CIK(\d{10})/i;
const TICKERS = /company_tickers/i;

function cikOf(name: string): string | null {
  return CIK_IN_NAME.exec(name)?.[1] ?? null;
}

/** The one company a warning names (EDGAR CIK …, a file of the company, `edgar <cik> skipped`), or null. */
function warningCik(message: string): string | null {
  const ciks = new Set([...message.matchAll(/CIK ?(\d{10})/gi)].map((m) => m[1]));
  const skipped = /^edgar (\d{10}) skipped/.exec(message)?.[1];
  if (skipped !== undefined) ciks.add(skipped);
  return ciks.size === 1 ? [...ciks][0] : null;
}

export function planEdgarCompanies(
  old: Manifest,
  files: ReadonlyMap<string, RawFile>,
): EdgarCompanyPlan | null {
  const now = new Map<string, Map<string, string>>();
  let tickers: string | null = null;
  for (const f of files.values()) {
    if (TICKERS.test(f.name)) {
      if (tickers !== null) return null;
      tickers = f.name;
      continue;
    }
    const cik = cikOf(f.name);
    if (cik === null) return null;
    const m = now.get(cik) ?? new Map<string, string>();
    m.set(f.name, f.sha256);
    now.set(cik, m);
  }
  const before = new Map<string, Map<string, string>>();
  let oldTickers: { key: string; sha256: string } | null = null;
  for (const i of old.inputs) {
    if (i.source !== 'edgar') continue;
    if (TICKERS.test(i.key)) {
      oldTickers = { key: i.key, sha256: i.sha256 };
      continue;
    }
    const cik = cikOf(i.key);
    if (cik === null) return null;
    const m = before.get(cik) ?? new Map<string, string>();
    m.set(i.key, i.sha256);
    before.set(cik, m);
  }
  const tickersNow = tickers === null ? null : files.get(tickers)!;
  if (
    (oldTickers?.key ?? null) !== tickers ||
    (tickersNow !== null && oldTickers?.sha256 !== tickersNow.sha256)
  )
    return null;
  const oldWarnings = new Map<string, Manifest['warnings']>();
  for (const w of old.warnings) {
    const edgar =
      w.code.startsWith('EDGAR_') || (w.code === 'SOURCE_SKIPPED' && w.message.startsWith('edgar '));
    if (!edgar) continue;
    const cik = warningCik(w.message);
    if (cik === null) return null;
    oldWarnings.set(cik, [...(oldWarnings.get(cik) ?? []), w]);
  }
  const plan: EdgarCompanyPlan = {
    reuse: [],
    reread: [],
    removed: [],
    files: new Map(),
    tickers,
    oldWarnings,
  };
  for (const cik of [...new Set([...now.keys(), ...before.keys()])].sort()) {
    const a = before.get(cik);
    const b = now.get(cik);
    if (b === undefined) {
      plan.removed.push(cik);
      continue;
    }
    plan.files.set(cik, [...b.keys()].sort());
    const same = a !== undefined && a.size === b.size && [...b].every(([name, sha]) => a.get(name) === sha);
    (same ? plan.reuse : plan.reread).push(cik);
  }
  return plan;
}

/**
 * Reads the companies to read again exactly as `ingestEdgarRawDir(dir)` would read them among the others
 * (their files and company_tickers.json, `where` the folder itself, so messages name it the same way).
 */
export function ingestEdgarCompanies(
  dir: string,
  plan: EdgarCompanyPlan,
  sink: AtomicSink,
): EdgarIngestSummary | null {
  if (plan.reread.length === 0) return null;
  const names = [
    ...(plan.tickers === null ? [] : [plan.tickers]),
    ...plan.reread.flatMap((c) => plan.files.get(c) ?? []),
  ];
  const files: EdgarRawFile[] = names
    .sort()
    .map((name) => edgarRawFile(dir, name, readFileSync(join(dir, name))));
  return ingestEdgarRawFiles(files, sink, { where: dir });
}
