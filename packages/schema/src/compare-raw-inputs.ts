import type { RawInputChange, SourceRawFile } from './source.ts';

/**
 * How a raw folder now differs from the inputs OLD read from it: files OLD did not read (added), read with
 * other bytes (changed), or read and gone (removed). A file OLD's reader skipped is in no input list, so OLD
 * cannot tell whether it changed since: it counts as added, and the source is read again.
 */
export function compareRawInputs(
  files: ReadonlyMap<string, SourceRawFile>,
  oldInputs: Iterable<{ key: string; sha256: string }>,
): RawInputChange {
  const old = new Map([...oldInputs].map((i) => [i.key, i.sha256] as const));
  const change: RawInputChange = { added: [], changed: [], removed: [] };
  for (const f of files.values()) {
    const was = old.get(f.name);
    if (was === undefined) change.added.push(f.name);
    else if (was !== f.sha256) change.changed.push(f.name);
  }
  for (const name of old.keys()) if (!files.has(name)) change.removed.push(name);
  return change;
}

/** True when a raw folder holds exactly OLD's inputs. */
export function rawInputsUnchanged(change: RawInputChange): boolean {
  return change.added.length + change.changed.length + change.removed.length === 0;
}
