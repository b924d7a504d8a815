import { createHash } from 'node:crypto';
import {
  type AtomicSink,
  InputError,
  type NamedRawFile,
  pickRawCsvFiles,
  type RawCsvFormat,
  readRawFolder,
} from '@asof/schema';
import { checkVintage, vintageFromName } from './fredmd-dates.ts';
import { type FredmdMapOptions, type FredmdSeriesSummary, mapFredmdVintages } from './map-fredmd-vintages.ts';
import { parseFredmdCsv } from './parse-fredmd-csv.ts';

export interface FredmdIngestOptions extends FredmdMapOptions {
  /**
   * The vintage (`YYYY-MM`) of the one file in the directory, for a file whose name states none
   * (`current.csv`). Refused when the directory holds more than one file.
   */
  vintage?: string;
}

export interface FredmdIngestSummary {
  /** Files read (the manifest's inputs). */
  files: number;
  /** `dataset:YYYY-MM` per file, in vintage order. */
  vintages: string[];
  series: FredmdSeriesSummary[];
  /** Rows emitted, withdrawals included. */
  observations: number;
  revisions: number;
  withdrawals: number;
  /** `dataset:mnemonic` not placed in the taxonomy (their cells: accounting `unmapped_series`). */
  unmapped: string[];
  /** Files in the directory that are not CSV (skipped, named in a warning). */
  skipped: string[];
}

/** A raw file of a FRED-MD folder: its name and bytes. */
export type FredmdRawFile = NamedRawFile;

/**
 * Reads every FRED-MD / FRED-QD vintage CSV in `dir` (not recursive, sorted by name) into `sink`; see
 * `ingestFredmdRawFiles`.
 */
export function ingestFredmdRawDir(
  dir: string,
  sink: AtomicSink,
  options: FredmdIngestOptions = {},
): FredmdIngestSummary {
  return ingestFredmdRawFiles(readRawFolder(dir, FREDMD_FILES), sink, options);
}

/** FRED-MD and FRED-QD files as the St. Louis Fed publishes them: CSVs whose first header cell is `sasdate`. */
const FREDMD_FILES: RawCsvFormat = {
  code: 'FREDMD',
  label: 'FRED-MD/FRED-QD',
  looksLike: (head) => /^\uFEFF?"?sasdate"?\s*(,|$)/i.test(head),
  expected: 'a CSV whose header row starts with sasdate, named by its vintage (2020-07.csv)',
  workbookHint:
    'save the sheet as CSV (the format the St. Louis Fed publishes them in), keeping the YYYY-MM in its name',
};

/**
 * FRED-MD / FRED-QD vintage files → atomic series (`fredmd:<mnemonic>`, `fredqd:<mnemonic>`). Each CSV is
 * listed with sink.addInput { source 'fredmd', key: its name, sha256, bytes } and gets one accounting entry.
 * The vintage comes from the `YYYY-MM` in the file name, or from `options.vintage` for a single file; a CSV
 * whose name has none is an InputError (FREDMD_NO_VINTAGE). CSVs of other formats and workbooks beside FRED-MD
 * files are skipped with a warning naming them; a folder with none (a lone workbook) is an error with the fix. See mapFredmdVintages.
 */
export function ingestFredmdRawFiles(
  files: readonly FredmdRawFile[],
  sink: AtomicSink,
  options: FredmdIngestOptions = {},
): FredmdIngestSummary {
  const { own: csv, skipped } = pickRawCsvFiles(files, FREDMD_FILES);

  if (options.vintage !== undefined && csv.length !== 1) {
    throw new InputError(
      'FREDMD_VINTAGE_NEEDS_ONE_FILE',
      `fredmd.vintage ${options.vintage} names the vintage of a single file, but the raw directory holds ` +
        `${csv.length} CSV files (${csv.map((f) => f.name).join(', ') || 'none'}); put that file alone in its ` +
        'raw_dir, or drop "vintage" and name each file after its vintage (YYYY-MM.csv)',
      { context: { vintage: options.vintage, files: csv.map((f) => f.name) } },
    );
  }
  const decoder = new TextDecoder('utf-8');
  const vintages = csv.map((f) => {
    const sha256 = createHash('sha256').update(f.bytes).digest('hex');
    sink.addInput({ source: 'fredmd', key: f.name, sha256, bytes: f.bytes.byteLength });
    const vintage =
      options.vintage !== undefined
        ? checkVintage(options.vintage, `fredmd.vintage for ${f.name}`)
        : vintageFromName(f.name);
    if (vintage === undefined) {
      throw new InputError(
        'FREDMD_NO_VINTAGE',
        `${f.name}: the file name states no vintage; FRED-MD/FRED-QD files are named by their vintage month ` +
          '(2020-07.csv). Rename the file to hold its YYYY-MM (e.g. fredmd_2024-03.csv), or give it in the ' +
          'pipeline: "fredmd": { "raw_dir": "…", "vintage": "2024-03" } (one file per raw_dir then)',
        { context: { file: f.name } },
      );
    }
    return { name: f.name, vintage, parsed: parseFredmdCsv(decoder.decode(f.bytes), f.name) };
  });
  if (skipped.length > 0) {
    sink.addWarning({
      code: 'FREDMD_SKIPPED_FILES',
      message: `${skipped.length} file(s) in the FRED-MD raw directory are not FRED-MD/FRED-QD CSVs and were not read (a workbook must be saved as CSV first): ${skipped.join(', ')}`,
      count: skipped.length,
    });
  }
  const result = mapFredmdVintages(vintages, sink, options);
  const sum = (k: 'observations' | 'revisions' | 'withdrawals') =>
    result.series.reduce((a, s) => a + s[k], 0);
  return {
    files: vintages.length,
    vintages: vintages.map((v) => `${v.parsed.dataset}:${v.vintage}`).sort(),
    series: result.series,
    observations: sum('observations'),
    revisions: sum('revisions'),
    withdrawals: sum('withdrawals'),
    unmapped: result.unmapped,
    skipped,
  };
}
