import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from './asof-error.ts';

/** A raw file of a folder: its name (relative to the folder) and bytes as stored. */
export interface NamedRawFile {
  name: string;
  bytes: Uint8Array;
}

/** What a source's CSV files look like, for picking them out of a folder of mixed files. */
export interface RawCsvFormat {
  /** The prefix of the source's error codes (`FREDMD` → FREDMD_RAW_DIR, FREDMD_XLSX, FREDMD_NO_FILES). */
  code: string;
  /** The format as a reader names it (`FRED-MD/FRED-QD`, `RTDSM`). */
  label: string;
  /** Whether a file's first bytes (decoded, at most 256 characters) are the format's header. */
  looksLike: (head: string) => boolean;
  /** What one file of the format is, for the error when a folder holds none. */
  expected: string;
  /** How to turn the source's workbook into the CSV asof reads. */
  workbookHint: string;
}

/** Every regular, non-hidden file of `dir`, sorted by name; a folder that cannot be read is `<code>_RAW_DIR`. */
export function readRawFolder(dir: string, format: RawCsvFormat): NamedRawFile[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (cause) {
    throw new InputError(
      `${format.code}_RAW_DIR`,
      `raw directory ${dir}: cannot read it (${(cause as Error).message}); pass a folder of ${format.label} files, each ${format.expected}`,
      { cause, context: { dir } },
    );
  }
  return names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
}

/**
 * The CSVs of `format` among `files`, and the names of the rest. A researcher's folder often holds several
 * kinds of file (FRED-MD vintages beside RTDSM tables and a workbook): each reader takes its own and the
 * caller names the rest in a warning, so none is dropped unsaid. A folder with none of the format is an
 * error: `<code>_XLSX` with the fix when it holds a workbook, else `<code>_NO_FILES` listing what it holds.
 */
export function pickRawCsvFiles<F extends NamedRawFile>(
  files: readonly F[],
  format: RawCsvFormat,
): { own: F[]; skipped: string[] } {
  const decoder = new TextDecoder('utf-8');
  const isOwn = (f: F) =>
    /\.csv$/i.test(f.name) && format.looksLike(decoder.decode(f.bytes.subarray(0, 256)));
  const own: F[] = [];
  const skipped: string[] = [];
  for (const f of files) {
    if (isOwn(f)) own.push(f);
    else skipped.push(f.name);
  }
  if (own.length > 0) return { own, skipped };
  const workbook = files.find((f) => /\.xlsx?$/i.test(f.name));
  if (workbook !== undefined) {
    throw new InputError(
      `${format.code}_XLSX`,
      `${workbook.name}: asof reads ${format.label} files as CSV; ${format.workbookHint}, then remove the workbook from the raw_dir`,
      { context: { file: workbook.name } },
    );
  }
  const names = files.map((f) => f.name);
  throw new InputError(
    `${format.code}_NO_FILES`,
    `the ${format.label} raw directory holds no ${format.label} file (${names.length} file(s): ${names.join(', ') || 'none'}); ` +
      `each file must be ${format.expected}`,
    { context: { files: names } },
  );
}
