import { createHash } from 'node:crypto';
import {
  type AtomicSink,
  type NamedRawFile,
  pickRawCsvFiles,
  type RawCsvFormat,
  readRawFolder,
} from '@asof/schema';
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

/** A raw file of a RTDSM folder: its name and bytes. */
export type RtdsmRawFile = NamedRawFile;

/** Reads every RTDSM CSV in `dir` (not recursive, sorted by name) into `sink`; see `ingestRtdsmRawFiles`. */
export function ingestRtdsmRawDir(
  dir: string,
  sink: AtomicSink,
  options: RtdsmMapOptions = {},
): RtdsmIngestSummary {
  return ingestRtdsmRawFiles(readRawFolder(dir, RTDSM_FILES), sink, options);
}

/** RTDSM tables as CSV: a DATE column, then one column per vintage (`ROUTPUT65Q4`, `PCPI98M11`). */
const RTDSM_FILES: RawCsvFormat = {
  code: 'RTDSM',
  label: 'RTDSM',
  looksLike: (head) => /^\uFEFF?"?date"?\s*,\s*"?[A-Za-z]+\d{2}(Q[1-4]|M\d{1,2})\b/i.test(head),
  expected: 'a CSV whose header is DATE then one column per vintage (ROUTPUT65Q4, PCPI98M11)',
  workbookHint:
    'open the workbook and save its data sheet as CSV (DATE column, one column per vintage such as ROUTPUT65Q4)',
};

/**
 * Philadelphia Fed Real-Time Data Set files → atomic series `rtdsm:<VARIABLE>`. Each CSV is listed with
 * sink.addInput { source 'rtdsm', key, sha256, bytes } and gets one accounting entry. A workbook (`.xlsx`,
 * `.xls`, as the Philadelphia Fed publishes the data set) and other files beside the RTDSM CSVs are skipped
 * with a warning; a folder with only a workbook is refused with the hint to export it as CSV (RTDSM_XLSX:
 * reading the Office Open XML zip needs a dependency asof does not take). See mapRtdsmVintages for the rows.
 */
export function ingestRtdsmRawFiles(
  files: readonly RtdsmRawFile[],
  sink: AtomicSink,
  options: RtdsmMapOptions = {},
): RtdsmIngestSummary {
  const { own: csv, skipped } = pickRawCsvFiles(files, RTDSM_FILES);

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
