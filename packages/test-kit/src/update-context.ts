import type { SourceOldInput, SourceRawFile, SourceUpdateContext } from '@asof/schema';

/** A raw file as `asof update` lists it, with only its name and hash set (the plans compare nothing else). */
export function rawFile(name: string, sha256: string): SourceRawFile {
  return { name, sha256, bytes: 1, head: '' };
}

/**
 * A source's update context over an in-memory raw folder (`now`, filtered as the source's reader would),
 * OLD's inputs, and files by path (`hashes`, e.g. membership files; a missing one cannot be read).
 */
export function updateContext(
  now: readonly SourceRawFile[],
  old: readonly SourceOldInput[],
  options: { sectionChanged?: boolean; hashes?: Record<string, string | null> } = {},
): SourceUpdateContext {
  return {
    sectionChanged: options.sectionChanged ?? false,
    oldInputs: old,
    listRawDir: (_dir, filter) => new Map(now.filter((f) => filter.keep(f.name)).map((f) => [f.name, f])),
    hashFile: (path) => options.hashes?.[path] ?? null,
  };
}
