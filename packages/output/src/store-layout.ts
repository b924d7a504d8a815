import { randomBytes } from 'node:crypto';
import { basename, dirname, join, sep } from 'node:path';
import { type ProcessStamp, parseStamp, stampText } from './process-stamp.ts';

/**
 * Where asof keeps an output's generations, temp folders and lock (docs/decisions/0010-output-safety.md):
 * for the output `<parent>/<name>`, the store `<parent>/.asof/<name>/` holds
 *   lock                          the writer's stamp while a command writes this output
 *   tmp-<pid>-<start>-<rand>/     an output being written (with its DuckDB files under .work/)
 *   gen-<label>-<rand>/           finished generations; `<parent>/<name>` is a symlink to the current one
 *   link-<pid>-<start>-<rand>     the new symlink, renamed over `<parent>/<name>` in one step
 */
export const STORE_DIR = '.asof';
export const WORK_DIR = '.work';

export function storeOf(target: string): string {
  return join(dirname(target), STORE_DIR, basename(target));
}

/** The symlink text that points `<parent>/<name>` at a generation (relative, so the parent can move). */
export function linkTextOf(target: string, generation: string): string {
  return `${STORE_DIR}/${basename(target)}/${generation}`;
}

function rand(): string {
  return randomBytes(4).toString('hex');
}

export function tmpName(stamp?: ProcessStamp): string {
  return `tmp-${stampText(stamp)}-${rand()}`;
}

export function linkTmpName(stamp?: ProcessStamp): string {
  return `link-${stampText(stamp)}-${rand()}`;
}

/** A generation folder name; `label` (e.g. a dataset_id prefix) only helps a person reading the folder. */
export function generationName(label?: string): string {
  const clean = (label ?? '').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 16);
  return `gen-${clean ? `${clean}-` : ''}${rand()}`;
}

/** The stamp of a `tmp-…` / `link-…` entry of a store, or null for any other name. */
export function stampOfStoreEntry(name: string): ProcessStamp | null {
  const m = /^(?:tmp|link)-(.*)$/.exec(name);
  return m ? parseStamp(m[1]) : null;
}

export function isGenerationName(name: string): boolean {
  return name.startsWith('gen-');
}

/**
 * Is `path` inside an unfinished output (a store's tmp-… folder)? Such a folder is never a valid input:
 * `asof verify` and every reader refuse a manifest under one.
 */
export function isInsideAsofTemp(path: string): boolean {
  const parts = path.split(sep);
  for (let i = 2; i < parts.length; i++) {
    if (parts[i - 2] === STORE_DIR && /^tmp-\d+-\d+-/.test(parts[i])) return true;
  }
  return parts.some((p) => /^asof-scratch-\d+-\d+-/.test(p));
}
