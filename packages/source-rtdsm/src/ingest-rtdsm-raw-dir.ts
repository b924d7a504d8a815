import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AtomicSink, InputError } from '@asof/schema';
import { mapRtdsmVintages, type RtdsmMapOptions, type RtdsmSeriesSummary } from './map-rtdsm-vintages.ts';
import { parseRtdsmCsv } from './parse-rtdsm-csv.ts';

export interface RtdsmIngestSummary {
  files: number;
  series: RtdsmSeriesSummary[];
  /** Rows emitted, withdrawals included. */
  observations: number;
  revisions: number;
  withdrawals: number;
  unmapped: string[];
  /** Files that are not CSV (skipped, named in a warning). */
  skipped: string[];
}

export interface RtdsmRawFile {
  name: string;
  bytes: Uint8Array;
}

/** Reads every RTDSM CSV in `dir` (not recursive, sorted by name) into `sink`; see `ingestRtdsmRawFiles`. */
export function ingestRtdsmRawDir(
  dir: string,
  sink: AtomicSink,
  options: RtdsmMapOptions = {},
): RtdsmIngestSummary {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (cause) {
    throw new InputError(
      'RTDSM_RAW_DIR',
      `raw directory ${dir}: cannot read it (${(cause as Error).message}); pass a folder of Philadelphia Fed RTDSM CSV files (one column per vintage)`,
      { cause, context: { dir } },
    );
  }
  return ingestRtdsmRawFiles(
    names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) })),
    sink,
    options,
  );
}

/** Whether a CSV's first bytes are a RTDSM header. */
const looksLikeRtdsm = (text: string) =>
  /^\uFEFF?"?date"?\s*,\s*"?[A-Za-z]+\d{2}(Q[1-4]|M\d{1,2})\b/i.test(text.slice(0, 256));

/**
 * Philadelphia Fed Real-Time Data Set files → atomic series `rtdsm:<VARIABLE>`. Each CSV is listed with
 * sink.addInput { source 'rtdsm', key, sha256, bytes } and gets one accounting entry. A workbook (`.xlsx`,
 * `.xls`, as the Philadelphia Fed publishes the data set) is refused with the hint to export it as CSV
 * (RTDSM_XLSX: reading the Office Open XML zip needs a dependency asof does not take); other files are
 * skipped with a warning. See mapRtdsmVintages for the rows.
 */
export function ingestRtdsmRawFiles(
  files: readonly RtdsmRawFile[],
  sink: AtomicSink,
  options: RtdsmMapOptions = {},
): RtdsmIngestSummary {
  // A researcher's folder often holds several kinds of file (FRED-MD vintages beside RTDSM tables and a
  // workbook): the CSVs of this format are read, the rest named in a warning, so none is dropped unsaid.
  const isOwn = (f: { name: string; bytes: Uint8Array }) =>
    /\.csv$/i.test(f.name) && looksLikeRtdsm(new TextDecoder('utf-8').decode(f.bytes.subarray(0, 256)));
  const csv = files.filter(isOwn);
  const skipped = files.filter((f) => !isOwn(f)).map((f) => f.name);
  if (csv.length === 0) {
    const workbook = files.find((f) => /\.xlsx?$/i.test(f.name));
    if (workbook !== undefined) {
      throw new InputError(
        'RTDSM_XLSX',
        `${workbook.name}: asof reads RTDSM files as CSV; open the workbook and save its data sheet as CSV ` +
          '(DATE column, one column per vintage such as ROUTPUT65Q4), then remove the workbook from the raw_dir',
        { context: { file: workbook.name } },
      );
    }
    throw new InputError(
      'RTDSM_NO_FILES',
      `the RTDSM raw directory holds no RTDSM file (${files.length} file(s): ${files.map((f) => f.name).join(', ') || 'none'}); ` +
        'each file must be a CSV whose header is DATE then one column per vintage (ROUTPUT65Q4, PCPI98M11)',
      { context: { files: files.map((f) => f.name) } },
    );
  }
  const decoder = new TextDecoder('utf-8');
  const parsed = csv.map((f) => {
    sink.addInput({
      source: 'rtdsm',
      key: f.name,
      sha256: createHash('sha256').update(f.bytes).digest('hex'),
      bytes: f.bytes.byteLength,
    });
    return { name: f.name, parsed: parseRtdsmCsv(decoder.decode(f.bytes), f.name) };
  });
  if (skipped.length > 0) {
    sink.addWarning({
      code: 'RTDSM_SKIPPED_FILES',
      message: `${skipped.length} file(s) in the RTDSM raw directory are not RTDSM CSVs and were not read (a workbook must be saved as CSV first): ${skipped.join(', ')}`,
      count: skipped.length,
    });
  }
  const result = mapRtdsmVintages(parsed, sink, options);
  const sum = (k: 'observations' | 'revisions' | 'withdrawals') =>
    result.series.reduce((a, s) => a + s[k], 0);
  return {
    files: parsed.length,
    series: result.series,
    observations: sum('observations'),
    revisions: sum('revisions'),
    withdrawals: sum('withdrawals'),
    unmapped: result.unmapped,
    skipped,
  };
}
