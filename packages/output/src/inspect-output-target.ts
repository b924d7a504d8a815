import { closeSync, fstatSync, lstatSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { openRegularFile, readRegularFile } from './open-regular-file.ts';
import { linkTextOf, STORE_DIR } from './store-layout.ts';

/** The key of the Parquet key-value metadata entry that marks a file asof wrote (its value is JSON). */
export const ASOF_PARQUET_KEY = 'asof';

export type TargetState =
  /** Nothing there. */
  | { state: 'absent' }
  /** An empty real folder. */
  | { state: 'empty' }
  /**
   * asof's own symlink to a generation in the store (which may be missing after a crash). `holds`: the
   * kind of output in it (outputKindOf), null when the generation is missing.
   */
  | { state: 'generation'; generation: string; holds: string | null }
  /** A real folder holding an asof manifest or results document (written by asof before generations). */
  | { state: 'asof-dir'; holds: string | null }
  /** A file asof wrote (Parquet with the asof key-value entry, or an asof HTML report). */
  | { state: 'asof-file'; holds: string | null }
  /** Anything else: never replaced. `what` says what is there, for the message. */
  | { state: 'foreign'; what: string };

function readJson(path: string): Record<string, unknown> | null {
  try {
    // A FIFO in place of a manifest would block open(2) forever (audit 2.12): regular files only.
    const v = JSON.parse(readRegularFile(path).toString('utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A manifest asof wrote: manifest_version, dataset_id and created_by.asof_version. */
export function isAsofManifestFile(path: string): boolean {
  const m = readJson(path);
  const by = m?.created_by as Record<string, unknown> | undefined;
  return Boolean(
    m && typeof m.dataset_id === 'string' && m.manifest_version !== undefined && by?.asof_version,
  );
}

/** A results document asof wrote (`asof score`). */
export function isAsofResultsFile(path: string): boolean {
  const r = readJson(path);
  const scorer = r?.scorer as Record<string, unknown> | undefined;
  return Boolean(r && scorer?.name === '@asof/scoring' && typeof r.dataset_id === 'string');
}

/** Does this folder hold an output asof wrote (its manifest or its results document)? */
export function isAsofOutputDir(dir: string): boolean {
  return isAsofManifestFile(join(dir, 'manifest.json')) || isAsofResultsFile(join(dir, 'results.json'));
}

/**
 * The kind of asof output in a folder: its manifest's `kind` ('universe', 'split', 'csv-export',
 * 'fintsb-export', …) or 'scores' for a results document; null when it holds neither.
 */
export function outputKindOf(dir: string): string | null {
  if (isAsofManifestFile(join(dir, 'manifest.json'))) {
    const kind = readJson(join(dir, 'manifest.json'))?.kind;
    return typeof kind === 'string' ? kind : null;
  }
  return isAsofResultsFile(join(dir, 'results.json')) ? 'scores' : null;
}

/**
 * The asof entry of a Parquet file's key-value metadata (JSON), or null when the file is not Parquet or
 * carries none. Only the footer is read: a Parquet file ends with its metadata, the metadata length and PAR1.
 */
export function readAsofParquetMetadata(path: string): Record<string, unknown> | null {
  let fd: number | undefined;
  try {
    fd = openRegularFile(path).fd;
    const size = fstatSync(fd).size;
    if (size < 12) return null;
    const tail = Buffer.alloc(8);
    readSync(fd, tail, 0, 8, size - 8);
    if (tail.toString('latin1', 4) !== 'PAR1') return null;
    const len = tail.readUInt32LE(0);
    if (len <= 0 || len > size - 12) return null;
    const footer = Buffer.alloc(len + 8);
    readSync(fd, footer, 0, len + 8, size - 8 - len);
    const entry = parquetMetadata(footer).key_value_metadata?.find((kv) => kv.key === ASOF_PARQUET_KEY);
    if (!entry?.value) return null;
    const value = JSON.parse(entry.value);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The generator an HTML file asof writes names in its head (`<meta name="generator" content="…">`). */
export const ASOF_HTML_GENERATOR = 'asof report';

/** An HTML report asof wrote: its first 2 KB hold the generator meta tag with ASOF_HTML_GENERATOR. */
export function isAsofHtmlFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openRegularFile(path).fd;
    const head = Buffer.alloc(2048);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.toString('utf8', 0, n);
    return (
      /^<!doctype html>/i.test(text) &&
      text.includes(`<meta name="generator" content="${ASOF_HTML_GENERATOR}">`)
    );
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A Parquet file asof wrote (it carries the asof key-value entry). */
export function isAsofParquetFile(path: string): boolean {
  return readAsofParquetMetadata(path) !== null;
}

function listSome(dir: string): string {
  const names = readdirSync(dir).sort();
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown}, … (${names.length} entries)` : shown;
}

/** What is at `target` now, as far as replacing it is concerned (`kind` is what the command writes). */
export function inspectOutputTarget(target: string, kind: 'dir' | 'file'): TargetState {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(target);
  } catch {
    return { state: 'absent' };
  }
  if (st.isSymbolicLink()) {
    const text = readlinkSync(target);
    const prefix = linkTextOf(target, '');
    if (kind === 'dir' && text.startsWith(prefix) && !text.slice(prefix.length).includes('/')) {
      return { state: 'generation', generation: text.slice(prefix.length), holds: outputKindOf(target) };
    }
    return { state: 'foreign', what: `a symlink to ${text} that asof did not make` };
  }
  if (st.isDirectory()) {
    if (kind === 'file') return { state: 'foreign', what: 'a folder (this command writes a file)' };
    const names = readdirSync(target);
    if (names.length === 0) return { state: 'empty' };
    if (isAsofOutputDir(target)) return { state: 'asof-dir', holds: outputKindOf(target) };
    if (basename(target) === STORE_DIR) return { state: 'foreign', what: "asof's own store of generations" };
    return { state: 'foreign', what: `a folder asof did not write, holding ${listSome(target)}` };
  }
  if (kind === 'dir') return { state: 'foreign', what: 'a file (this command writes a folder)' };
  if (st.isFile()) {
    // A Parquet file names its kind in its asof entry ('forecasts'); an asof HTML file is a report.
    const parquet = readAsofParquetMetadata(target);
    if (parquet) return { state: 'asof-file', holds: typeof parquet.kind === 'string' ? parquet.kind : null };
    if (isAsofHtmlFile(target)) return { state: 'asof-file', holds: 'report' };
  }
  return { state: 'foreign', what: 'a file asof did not write' };
}
